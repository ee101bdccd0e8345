import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The published SDK as a consumer sees it: built, copied into a project outside this repository
 * whose node_modules hold only the packages client-sdk/package.json declares (tRPC's client and
 * its types), and typechecked there without skipLibCheck. A package its declarations need but
 * the manifest does not declare would turn the router into `any` for such a consumer.
 */
const run = promisify(execFile);
const sdkDir = path.resolve(import.meta.dirname, '..');
const repoDir = path.resolve(sdkDir, '..');
let consumer: string | undefined;

afterAll(async () => {
  if (consumer) await rm(consumer, { recursive: true, force: true });
});

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readManifest = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Manifest;

/** Packages the emitted declarations import (`node:` built-ins count as @types/node). */
async function importedPackages(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.d.ts'));
  for (const file of files) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from\s+|import\()['"]([^'".][^'"]*)['"]/g)) {
      if (!spec) continue;
      const parts = spec.split('/');
      names.add(
        spec.startsWith('node:') ? '@types/node' : spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!,
      );
    }
  }
  return names;
}

/** Source of the consumer: a typed call, and calls the router's types must refuse. */
const consumerSource = `
import { createTrpcClient, createRestClient } from '@portcullis/client';

const trpc = createTrpcClient({ baseUrl: 'http://localhost:5000' });
export async function serverTime(): Promise<string> {
  const data = await trpc.SystemAppService.GetServerTimeAsync.query();
  return data.serverTime;
}
// @ts-expect-error a procedure the router does not have (unchecked if AppRouter were any)
trpc.SystemAppService.NoSuchProcedureAsync.query();
export async function wrongField(): Promise<void> {
  const data = await trpc.SystemAppService.GetServerTimeAsync.query();
  // @ts-expect-error not a field of the answer
  data.noSuchField.toString();
}
const rest = createRestClient({ baseUrl: 'http://localhost:5000' });
export async function restTime(): Promise<string> {
  return (await rest.call('SystemAppService.GetServerTimeAsync')).serverTime;
}
`;

describe('client-sdk package', () => {
  it('typechecks in a project that has only the packages its manifest declares', async () => {
    await run(process.execPath, [path.join(repoDir, 'node_modules/tsx/dist/cli.mjs'), path.join(sdkDir, 'build.ts')], {
      cwd: repoDir,
    });
    const sdk = await readManifest(path.join(sdkDir, 'package.json'));
    const root = await readManifest(path.join(repoDir, 'package.json'));
    const declared = { ...sdk.dependencies, ...sdk.peerDependencies };
    const imported = await importedPackages(path.join(sdkDir, 'dist/types'));
    // The router's types are written out (api-types.gen.ts): nothing of the server comes along.
    expect([...imported].sort()).toEqual(['@trpc/client', '@trpc/server']);
    expect(Object.keys(declared).sort()).toEqual(['@trpc/client', '@trpc/server']);
    const declarations = (await readdir(path.join(sdkDir, 'dist/types'), { recursive: true })).filter((f) =>
      f.endsWith('.d.ts'),
    );
    expect(declarations.filter((f) => /server|db\//.test(f))).toEqual([]);
    // Declared ranges are the ones the repository builds against, so the types match.
    for (const [name, range] of Object.entries(declared)) {
      expect(range, name).toBe(root.dependencies?.[name] ?? root.devDependencies?.[name]);
    }

    consumer = await mkdtemp(path.join(tmpdir(), 'portcullis-sdk-consumer-'));
    const modules = path.join(consumer, 'node_modules');
    const installed = path.join(modules, '@portcullis/client');
    await mkdir(installed, { recursive: true });
    await cp(path.join(sdkDir, 'package.json'), path.join(installed, 'package.json'));
    await cp(path.join(sdkDir, 'dist'), path.join(installed, 'dist'), { recursive: true });
    for (const name of Object.keys(declared)) {
      await mkdir(path.dirname(path.join(modules, name)), { recursive: true });
      await symlink(path.join(repoDir, 'node_modules', name), path.join(modules, name), 'dir');
    }
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await writeFile(path.join(consumer, 'index.ts'), consumerSource);
    // tRPC's own declarations use Disposable, so any consumer of @trpc/client needs that lib.
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'ESNext.Disposable'],
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: [],
        },
        files: ['index.ts'],
      }),
    );
    const tsc = path.join(repoDir, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', consumer], { cwd: consumer }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 120_000);
});
