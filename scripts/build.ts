/**
 * Bundles the server into dist/server/main.mjs (and the CLI, the benchmark server) with its npm
 * packages left external, so production never runs through a TypeScript loader, and writes the
 * embedded database's start image (dist/pgdata-image.tar.gz, see pglite-image.ts). `npm start` runs
 * it with --if-stale: nothing is redone when the bundles are newer than every source.
 */
import { build } from 'esbuild';
import { existsSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { writePgliteImage } from '../server/src/infra/db/pglite-image.js';

const root = path.resolve(import.meta.dirname, '..');
const entries = {
  main: 'server/src/main.ts',
  cli: 'server/src/cli/main.ts',
  'bench-server': 'scripts/bench/server.ts',
};
const outputs = Object.keys(entries).map((name) => path.join(root, 'dist/server', `${name}.mjs`));

async function newestSource(): Promise<number> {
  let newest = 0;
  for (const dir of ['server/src', 'db', 'scripts/bench']) {
    for (const name of await readdir(path.join(root, dir), { recursive: true })) {
      if (/\.(ts|json|sql)$/.test(String(name)))
        newest = Math.max(newest, (await stat(path.join(root, dir, String(name)))).mtimeMs);
    }
  }
  for (const file of ['package.json', 'package-lock.json', 'scripts/build.ts'])
    newest = Math.max(newest, (await stat(path.join(root, file))).mtimeMs);
  return newest;
}

const upToDate =
  process.argv.includes('--if-stale') &&
  outputs.every(existsSync) &&
  Math.min(...outputs.map((f) => statSync(f).mtimeMs)) > (await newestSource());
if (!upToDate) await bundle();
await writePgliteImage(path.join(root, 'dist', 'pgdata-image.tar.gz'));

async function bundle(): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
    outdir: path.join(root, 'dist/server'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    // Function names are not needed at run time; keeping them costs a call per closure created.
    keepNames: false,
    logLevel: 'warning',
  });
}
