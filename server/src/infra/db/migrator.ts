import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.js';
import type { DatabaseHandle, SqlSession } from './client.js';

/**
 * The upgrade engine. At start-up it takes a PostgreSQL advisory lock (so two nodes starting
 * together never race: the second waits, then finds nothing to do), applies each pending
 * drizzle-kit migration in its own transaction, records it with its checksum and the
 * application version, runs the seed, and records the application version.
 */

export interface Migration {
  tag: string;
  statements: string[];
  checksum: string;
}

/** The project root: the nearest directory above this file that holds db/migrations. */
export function findProjectRoot(from = import.meta.dirname): string {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    if (existsSync(path.join(dir, 'db', 'migrations', 'meta', '_journal.json'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`db/migrations not found above ${from}`);
}

export async function loadMigrations(root = findProjectRoot()): Promise<Migration[]> {
  const dir = path.join(root, 'db', 'migrations');
  const journal = JSON.parse(await readFile(path.join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
  return Promise.all(
    entries.map(async ({ tag }) => {
      const text = await readFile(path.join(dir, `${tag}.sql`), 'utf8');
      return {
        tag,
        checksum: createHash('sha256').update(text).digest('hex'),
        // drizzle-kit qualifies references as "public"."table"; tables are created unqualified
        // (in the first schema of the search path), so references must resolve the same way,
        // or a deployment into another schema (and each test run's own schema) would break.
        statements: text
          .split('--> statement-breakpoint')
          .map((s) => s.replaceAll('"public".', '').trim())
          .filter(Boolean),
      };
    }),
  );
}

/** DDL of the engine's own tables (mirrored by db/schema/engine.ts for typed reads). */
const ENGINE_TABLES = `
CREATE TABLE IF NOT EXISTS schema_versions (
  version varchar(128) PRIMARY KEY,
  checksum varchar(64) NOT NULL,
  app_version varchar(32) NOT NULL,
  applied_time timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS app_versions (
  app_version varchar(32) PRIMARY KEY,
  first_started_time timestamptz NOT NULL DEFAULT now(),
  last_started_time timestamptz NOT NULL DEFAULT now()
);`;

/** One lock per schema, so separate schemas of one database (test runs) do not wait on each other. */
const LOCK_KEY = `hashtext('portcullis.upgrade.' || current_schema())`;
/**
 * Taken as well while migrations are applied: they may create database-wide objects
 * (extensions), and two schemas of one new database upgrading at once would otherwise both
 * create pg_trgm; `IF NOT EXISTS` does not hold under that race (a unique violation in
 * pg_extension). Schemas that are up to date never take it.
 */
const DATABASE_LOCK_KEY = `hashtext('portcullis.upgrade.database')`;

export class MigrationChecksumError extends Error {}

export interface UpgradeResult {
  applied: string[];
  alreadyApplied: string[];
}

export interface UpgradeOptions {
  appVersion: string;
  logger: Logger;
  migrations?: Migration[];
  /** Runs under the lock after the migrations (idempotent seed). */
  afterMigrations?: () => Promise<void>;
}

async function inTransaction(session: SqlSession, work: () => Promise<void>): Promise<void> {
  await session.exec('BEGIN');
  try {
    await work();
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Applies the migrations not yet recorded, in order, each in its own transaction. */
async function applyPending(
  session: Awaited<ReturnType<DatabaseHandle['session']>>,
  migrations: Migration[],
  applied: Map<string, string>,
  options: UpgradeOptions,
): Promise<UpgradeResult> {
  const result: UpgradeResult = { applied: [], alreadyApplied: [] };
  let databaseLocked = false;
  try {
    for (const migration of migrations) {
      const checksum = applied.get(migration.tag);
      if (checksum !== undefined) {
        // An edited migration that already ran would leave this database unlike a fresh one.
        if (checksum !== migration.checksum)
          throw new MigrationChecksumError(`Migration ${migration.tag} changed after it was applied`);
        result.alreadyApplied.push(migration.tag);
        continue;
      }
      if (!databaseLocked) {
        await session.query(`SELECT pg_advisory_lock(${DATABASE_LOCK_KEY})`);
        databaseLocked = true;
      }
      options.logger.info('applying migration', { migration: migration.tag });
      await inTransaction(session, async () => {
        for (const statement of migration.statements) await session.exec(statement);
        await session.query('INSERT INTO schema_versions (version, checksum, app_version) VALUES ($1, $2, $3)', [
          migration.tag,
          migration.checksum,
          options.appVersion,
        ]);
      });
      result.applied.push(migration.tag);
    }
  } finally {
    if (databaseLocked) await session.query(`SELECT pg_advisory_unlock(${DATABASE_LOCK_KEY})`).catch(() => undefined);
  }
  return result;
}

export async function runUpgrade(handle: DatabaseHandle, options: UpgradeOptions): Promise<UpgradeResult> {
  const migrations = options.migrations ?? (await loadMigrations());
  const session = await handle.session();
  try {
    await session.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      await session.exec(ENGINE_TABLES);
      const rows = await session.query<{ version: string; checksum: string }>(
        'SELECT version, checksum FROM schema_versions',
      );
      const applied = new Map(rows.map((r) => [r.version, r.checksum]));
      const result = await applyPending(session, migrations, applied, options);
      await options.afterMigrations?.();
      await session.query(
        `INSERT INTO app_versions (app_version) VALUES ($1)
         ON CONFLICT (app_version) DO UPDATE SET last_started_time = now()`,
        [options.appVersion],
      );
      return result;
    } finally {
      await session.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`).catch(() => undefined);
    }
  } finally {
    await session.release();
  }
}
