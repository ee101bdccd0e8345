import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot } from '../../bootstrap.js';
import { loadConfig } from '../../config/load.js';
import { acquireTestPostgres, type TestPostgres } from '../../testing/postgres.js';
import { createLogger } from '../logger.js';
import { openDatabase } from './client.js';
import { loadMigrations, MigrationChecksumError, runUpgrade } from './migrator.js';

const logger = createLogger({ level: 'silent' });
let pg: TestPostgres;

beforeAll(async () => {
  pg = await acquireTestPostgres();
});
afterAll(() => pg?.release());

/** A schema of its own per test, in the test database. */
async function freshSchema(): Promise<string> {
  const name = `m_${Math.random().toString(36).slice(2, 10)}`;
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE SCHEMA ${name}`);
  await sql.end();
  return name;
}

async function query<T>(schema: string, text: string): Promise<T[]> {
  const sql = postgres(pg.url, { max: 1, onnotice: () => {}, connection: { search_path: `${schema},public` } });
  try {
    return (await sql.unsafe(text)) as unknown as T[];
  } finally {
    await sql.end();
  }
}

describe('upgrade engine on PostgreSQL', () => {
  it('applies every migration once, records versions with checksums and the application version', async () => {
    const schema = await freshSchema();
    const db = await openDatabase({ url: pg.url, searchPath: schema });
    try {
      const migrations = await loadMigrations();
      const first = await runUpgrade(db, { appVersion: '1.0.0', logger });
      expect(first.applied).toEqual(migrations.map((m) => m.tag));
      const again = await runUpgrade(db, { appVersion: '1.1.0', logger });
      expect(again.applied).toEqual([]);
      expect(again.alreadyApplied).toEqual(first.applied);
      const versions = await query<{ version: string; checksum: string; app_version: string }>(
        schema,
        'select * from schema_versions order by version',
      );
      expect(versions.map((v) => v.version)).toEqual(first.applied);
      expect(versions.every((v) => v.app_version === '1.0.0' && v.checksum.length === 64)).toBe(true);
      const apps = await query<{ app_version: string }>(
        schema,
        'select app_version from app_versions order by app_version',
      );
      expect(apps.map((a) => a.app_version)).toEqual(['1.0.0', '1.1.0']);
    } finally {
      await db.close();
    }
  });

  it('lets two nodes start together: each migration is applied exactly once', async () => {
    const schema = await freshSchema();
    const nodes = await Promise.all([
      openDatabase({ url: pg.url, searchPath: schema }),
      openDatabase({ url: pg.url, searchPath: schema }),
    ]);
    try {
      const results = await Promise.all(nodes.map((db) => runUpgrade(db, { appVersion: '1.0.0', logger })));
      const applied = results.flatMap((r) => r.applied).sort();
      expect(applied).toEqual((await loadMigrations()).map((m) => m.tag).sort());
      expect(results.some((r) => r.applied.length === 0)).toBe(true);
      const [row] = await query<{ count: string }>(schema, 'select count(*) from schema_versions');
      expect(Number(row!.count)).toBe(applied.length);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
    }
  });

  it('lets schemas of a new database upgrade together, though migrations create database-wide objects (pg_trgm)', async () => {
    // A database of its own, without the extension yet.
    const fresh = await acquireTestPostgres();
    const admin = postgres(fresh.url, { max: 1, onnotice: () => {} });
    const schemas = Array.from({ length: 4 }, () => `m_${Math.random().toString(36).slice(2, 10)}`);
    try {
      for (const name of schemas) await admin.unsafe(`CREATE SCHEMA ${name}`);
      const nodes = await Promise.all(schemas.map((name) => openDatabase({ url: fresh.url, searchPath: name })));
      try {
        const results = await Promise.all(nodes.map((db) => runUpgrade(db, { appVersion: '1.0.0', logger })));
        const tags = (await loadMigrations()).map((m) => m.tag);
        for (const r of results) expect(r.applied).toEqual(tags);
      } finally {
        await Promise.all(nodes.map((n) => n.close()));
      }
    } finally {
      await admin.end();
      await fresh.release();
    }
  });

  it('refuses a migration edited after it was applied', async () => {
    const schema = await freshSchema();
    const db = await openDatabase({ url: pg.url, searchPath: schema });
    try {
      const migrations = await loadMigrations();
      await runUpgrade(db, { appVersion: '1.0.0', logger, migrations });
      const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
      await expect(runUpgrade(db, { appVersion: '1.0.1', logger, migrations: edited })).rejects.toBeInstanceOf(
        MigrationChecksumError,
      );
    } finally {
      await db.close();
    }
  });

  it('rolls back a failing migration entirely and records nothing', async () => {
    const schema = await freshSchema();
    const db = await openDatabase({ url: pg.url, searchPath: schema });
    try {
      const migrations = await loadMigrations();
      const broken = [
        ...migrations,
        {
          tag: '9999_broken',
          checksum: 'a'.repeat(64),
          statements: ['CREATE TABLE half_done (id int)', 'SELECT no_such_column FROM half_done'],
        },
      ];
      await expect(runUpgrade(db, { appVersion: '1.0.0', logger, migrations: broken })).rejects.toThrow();
      const tables = await query<{ n: string }>(
        schema,
        `select count(*) as n from information_schema.tables where table_schema = '${schema}' and table_name = 'half_done'`,
      );
      expect(Number(tables[0]!.n)).toBe(0);
      const versions = await query<{ version: string }>(schema, 'select version from schema_versions');
      expect(versions.map((v) => v.version)).toEqual(migrations.map((m) => m.tag));
    } finally {
      await db.close();
    }
  });

  it('answers 503 with Retry-After while the upgrade waits or runs, health still answers, then serves', async () => {
    const schema = await freshSchema();
    // Another node holds the upgrade lock: this one must wait, in maintenance.
    const other = postgres(pg.url, { max: 1, onnotice: () => {}, connection: { search_path: `${schema},public` } });
    const holder = await other.reserve();
    await holder.unsafe(`select pg_advisory_lock(hashtext('portcullis.upgrade.' || current_schema()))`);
    const config = loadConfig(
      {},
      { App: { Env: 'test', LogLevel: 'silent' }, Database: { Url: pg.url, Schema: schema, MaxConnections: 4 } },
    );
    const runtime = await boot(config, { logger });
    try {
      const api = await runtime.app.request('/api/System/ServerTime');
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('30');
      expect((await runtime.app.request('/health')).status).toBe(200);
      expect((await runtime.app.request('/health/ready')).status).toBe(503);
      await holder.unsafe(`select pg_advisory_unlock(hashtext('portcullis.upgrade.' || current_schema()))`);
      holder.release();
      const result = await runtime.ready;
      expect(result.applied.length).toBeGreaterThan(0);
      expect((await runtime.app.request('/api/System/ServerTime')).status).toBe(200);
      expect((await runtime.app.request('/health/ready')).status).toBe(200);
    } finally {
      await other.end();
      await runtime.close();
    }
  });
});
