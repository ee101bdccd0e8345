/**
 * Checks the committed OpenAPI document with the tools clients use on it: Redocly's linter,
 * swagger-parser's validator, and openapi-typescript, whose generated types must typecheck.
 * Any error fails the run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'openapi/openapi.json');
let failed = 0;

function step(name: string, ok: boolean, detail = ''): void {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}\n`);
  if (!ok) failed++;
}

// Redocly: the recommended rule set; warnings are reported, errors fail. Its usage telemetry and
// update check stay off.
const redocly = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, '--format', 'summary'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
});
const lintOutput = `${redocly.stdout}${redocly.stderr}`;
const lintSummary = lintOutput.split('\n').filter((line) => /^(error|warning) /.test(line.trim()));
step('redocly lint', redocly.status === 0, lintSummary.join('; ') || 'no problems');
if (redocly.status !== 0) process.stderr.write(lintOutput);

try {
  await SwaggerParser.validate(file);
  step('swagger-parser validate', true);
} catch (error) {
  step('swagger-parser validate', false, (error as Error).message);
}

const dir = await mkdtemp(path.join(tmpdir(), 'portcullis-openapi-'));
try {
  const ast = await openapiTS(new URL(`file://${file}`));
  const source = astToString(ast);
  const out = path.join(dir, 'api.d.ts');
  const probe = path.join(dir, 'probe.ts');
  await writeFile(out, source);
  // A few uses of the generated types: an empty output would typecheck too.
  await writeFile(
    probe,
    [
      "import type { components, paths } from './api.js';",
      "type Login = paths['/api/Auth/Login']['post']['requestBody'];",
      "type Tree = components['schemas']['DepartmentTreeNode'];",
      'const child = (node: Tree): Tree[] => node.children;',
      "type Page = paths['/api/UserQuery/UserPage']['post']['responses']['200']['content']['application/json'];",
      'export type { Login, Page };',
      'export { child };',
      '',
    ].join('\n'),
  );
  const program = ts.createProgram([out, probe], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const text = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => '\n',
  });
  step(
    'openapi-typescript output typechecks',
    diagnostics.length === 0,
    `${source.split('\n').length} lines${diagnostics.length ? `\n${text}` : ''}`,
  );
} catch (error) {
  step('openapi-typescript', false, (error as Error).message);
} finally {
  await rm(dir, { recursive: true, force: true });
}

if (failed) process.exit(1);
