import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Structural rules of server/src, checked over the source text. Import edges come from the
 * TypeScript compiler's own pre-processor (every import, `import type`, `export ... from` and
 * `import()`), so type-only imports count: a cycle of types is still a cycle of modules.
 */

const ROOT = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts`), or undefined outside server/src. */
function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => known.has(c));
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => resolveSpecifier(file, i.fileName, known))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.map((f) => relative(ROOT, f)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const files = sourceFiles(ROOT);

describe('architecture of server/src', () => {
  it('has no import cycle, type-only imports included', () => {
    expect(cycles(importGraph(files))).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
    expect(cycles(graph)[0]).toHaveLength(3);
  });

  it('reads type-only imports and re-exports as edges', () => {
    const text =
      "import type { A } from './a.js';\nexport { B } from './b.js';\nexport type { C } from './c.js';\nconst d = await import('./d.js');";
    expect(ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName)).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
    ]);
  });

  it('builds services once at the composition root: no per-runtime caches, no cast-and-mutate', () => {
    const offenders = files
      .filter((f) => f !== fileURLToPath(import.meta.url))
      .filter((f) => /WeakMap<AppDeps|as unknown as AppDeps/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
