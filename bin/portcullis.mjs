#!/usr/bin/env node
// The operator's command line: the bundle `npm run build` writes (production runs without TypeScript).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/server/cli.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('portcullis: dist/server/cli.mjs is missing; run `npm run build` first\n');
  process.exit(2);
}
process.setSourceMapsEnabled(true);
await import(bundle);
