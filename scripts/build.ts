/**
 * Bundles the server into dist/server/main.mjs with its npm packages left external. `npm start`
 * runs this first (well under a second), so production never runs through a TypeScript loader.
 */
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const entries = { main: 'server/src/main.ts', cli: 'server/src/cli/main.ts', 'bench-server': 'scripts/bench/server.ts' };
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
