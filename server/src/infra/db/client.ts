import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';
import { postgresTarget } from './postgres-url.js';
import * as schema from '../../../../db/schema/index.js';

export type Schema = typeof schema;
/** The Drizzle database every module uses; the same type for PGlite and PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What `db.transaction` hands to its callback. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either: code that may run inside or outside a transaction takes this. */
export type Executor = Database | Transaction;

/** One dedicated connection for raw SQL (session-level advisory locks, migrations). */
export interface SqlSession {
  exec(sql: string): Promise<void>;
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  release(): Promise<void>;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** A dedicated connection, held until released (not one of the pool's). */
  session(): Promise<SqlSession>;
  /**
   * Runs one statement given as text with $n parameters, outside any transaction. On PostgreSQL
   * it is prepared (parsed and planned once per connection), for hot statements too large to
   * parse on every call.
   */
  prepared<T extends Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a dump of the data directory (to start other instances from it). */
  dump?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; absent means PGlite. */
  url?: string;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string;
  /** PGlite: start from this dump of a data directory (a migrated snapshot, for tests). */
  snapshot?: Blob;
  /** PostgreSQL: schema to work in (first on search_path; public stays for extensions). */
  searchPath?: string;
  maxConnections?: number;
}

const CASING = 'snake_case' as const;

/**
 * PGlite's WebAssembly heap grows with every buffer it touches and never shrinks, so PostgreSQL's
 * 128 MB default of shared buffers ends up resident. The embedded database serves one process on
 * a developer's machine: 16 MB keeps an idle server near 280 MiB instead of 400 and more, and
 * the operating system's page cache still holds the files.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'maintenance_work_mem=16MB',
];

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    loadDataDir: options.snapshot,
    startParams: PGLITE_START_PARAMS,
  });
  const db = drizzlePglite(pg, { schema, casing: CASING }) as unknown as Database;
  // PGlite is one connection serving one query at a time, so the session is that connection.
  const session: SqlSession = {
    exec: async (sql) => {
      await pg.exec(sql);
    },
    query: async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      (await pg.query<T>(sql, params)).rows,
    release: async () => {},
  };
  return {
    db,
    kind: 'pglite',
    session: async () => session,
    prepared: async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
      (await pg.query<T>(text, params)).rows,
    ping: async () => {
      await pg.query('select 1');
    },
    close: () => pg.close(),
    dump: () => pg.dumpDataDir('none'),
  };
}

/**
 * A dedicated connection: a client of its own with one connection, rather than one reserved
 * from the pool. postgres.js keeps writing to a reserved connection whose server went away (a
 * restart): the write throws from a timer, which no caller can catch and which ends the
 * process, and the query never settles. A session also holds its connection for as long as its
 * holder needs it (the node number's lock: the life of the process), so it must not take one of
 * the pool's. Once its connection has dropped, the session's state (its locks) is gone: it then
 * refuses queries rather than carry on in a new connection as if nothing had happened.
 */
function openSession(
  url: string,
  connectionOptions: postgres.Options<Record<string, postgres.PostgresType>>,
): SqlSession {
  let opened = false;
  let lost = false;
  const own = postgres(url, {
    ...connectionOptions,
    max: 1,
    // Never retired by age: session-level locks live as long as the connection.
    max_lifetime: 0,
    onclose: () => {
      if (opened) lost = true;
    },
  });
  const usable = () => {
    if (lost) throw Object.assign(new Error('The session lost its database connection'), { code: 'CONNECTION_CLOSED' });
  };
  const run = async <T>(query: PromiseLike<T>): Promise<T> => {
    const result = await query;
    opened = true;
    return result;
  };
  return {
    exec: async (sql) => {
      usable();
      await run(own.unsafe(sql).simple());
    },
    query: async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => {
      usable();
      return (await run(own.unsafe(sql, params as never[]))) as unknown as T[];
    },
    release: () => own.end({ timeout: 5 }),
  };
}

async function openPostgres(options: DatabaseOptions & { url: string }): Promise<DatabaseHandle> {
  // libpq's socket forms, which postgres.js does not read (postgres-url.ts).
  const target = postgresTarget(options.url);
  const connectionOptions: postgres.Options<Record<string, postgres.PostgresType>> = {
    ...(target.socket ? { path: target.socket } : {}),
    onnotice: () => {},
    connection: options.searchPath ? { search_path: `${options.searchPath},public` } : {},
    // int8 arrives as text from postgres.js; Drizzle's bigint columns turn it into bigint.
  };
  const client = postgres(target.url, { ...connectionOptions, max: options.maxConnections ?? 10 });
  const db = drizzlePostgres(client, { schema, casing: CASING }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    session: async () => openSession(target.url, connectionOptions),
    prepared: async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
      (await client.unsafe(text, params as never[], { prepare: true })) as unknown as T[],
    ping: async () => {
      await client`select 1`;
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite (a directory, or memory). */
export function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url ? openPostgres({ ...options, url: options.url }) : openPglite(options);
}

/** Where the embedded database lives under the data directory. */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}
