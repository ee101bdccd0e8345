/** Builds the SDK: one ESM bundle (esbuild) plus declarations (tsc, which carries AppRouter's types). */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const dir = import.meta.dirname;
await rm(path.join(dir, 'dist'), { recursive: true, force: true });
await build({
  entryPoints: [path.join(dir, 'src/index.ts')],
  outfile: path.join(dir, 'dist/index.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: ['@trpc/client'],
  sourcemap: true,
});
execFileSync(
  process.execPath,
  [path.join(dir, '../node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')],
  { stdio: 'inherit' },
);
process.stdout.write('client-sdk/dist built\n');
