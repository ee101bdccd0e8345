import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { boot } from '../bootstrap.js';
import { loadConfig } from '../config/load.js';
import { createLogger } from '../infra/logger.js';
import { findProjectRoot } from '../infra/db/migrator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of an in-memory PGlite with every migration and the seed applied. */
    pgliteSnapshot: string;
  }
}

/** The snapshot depends on the migrations and the seed code: any change makes a new one. */
async function fingerprint(root: string): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of ['db/migrations', 'db/seed', 'db/schema', 'server/src/modules/authz']) {
    for (const name of (await readdir(path.join(root, dir), { recursive: true })).sort()) {
      const file = path.join(root, dir, String(name));
      if (file.endsWith('.sql') || file.endsWith('.ts') || file.endsWith('.json'))
        hash.update(name).update(await readFile(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Migrating a fresh PGlite takes seconds and most of a gigabyte; each test file instead loads a
 * dump made once here (about a second). Against real PostgreSQL each test file migrates its own
 * schema instead, so no snapshot is needed.
 */
export default async function setup(project: TestProject): Promise<void> {
  const root = findProjectRoot();
  const dir = path.join(tmpdir(), 'portcullis-test-snapshots');
  const file = path.join(dir, `pglite-${await fingerprint(root)}.tar`);
  if (!existsSync(file)) {
    const config = loadConfig({}, { App: { Env: 'test', LogLevel: 'warn' }, Database: { InMemory: true } });
    const runtime = await boot(config, { logger: createLogger({ level: 'warn' }) });
    await runtime.ready;
    const blob = await runtime.deps.database.dump!();
    await runtime.close();
    await mkdir(dir, { recursive: true });
    // Written under a temporary name and renamed, so a parallel run never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
    await rename(partial, file);
  }
  project.provide('pgliteSnapshot', file);
}
