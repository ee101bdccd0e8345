import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTestPostgres, startPostgresCluster, type TestPostgres } from '../../testing/postgres.js';
import { openDatabase } from './client.js';
import { postgresClient } from './postgres-client.js';
import { postgresTarget, withDatabase } from './postgres-url.js';

describe('postgresTarget: libpq connection strings', () => {
  it('leaves host names and ports to postgres.js', () => {
    for (const url of [
      'postgres://u:p@db.example:6543/app?sslmode=require',
      'postgresql://127.0.0.1/app',
      'postgres://u@[::1]:5433/app',
    ]) {
      expect(postgresTarget(url)).toEqual({ url });
    }
  });

  it('reads the socket directory from the host parameter, with an empty or named host part', () => {
    expect(postgresTarget('postgres://postgres@/app?host=/var/run/postgresql')).toEqual({
      url: 'postgres://postgres@localhost/app',
      socket: '/var/run/postgresql/.s.PGSQL.5432',
    });
    expect(postgresTarget('postgresql:///app?host=/tmp/&port=5433&application_name=x')).toEqual({
      url: 'postgresql://localhost/app?application_name=x',
      socket: '/tmp/.s.PGSQL.5433',
    });
    expect(postgresTarget('postgres://u:p%40ss@whatever:6000/app?host=/run/pg')).toEqual({
      url: 'postgres://u:p%40ss@localhost/app',
      socket: '/run/pg/.s.PGSQL.6000',
    });
  });

  it('reads the user part to the last @ (a password may hold one), lets the port parameter win, drops SSL settings', () => {
    expect(postgresTarget('postgres://user:p@ss@/db?host=/tmp')).toEqual({
      url: 'postgres://user:p@ss@localhost/db',
      socket: '/tmp/.s.PGSQL.5432',
    });
    expect(postgresTarget('postgres://u@%2Ftmp:6000/db?port=7000')).toEqual({
      url: 'postgres://u@localhost/db',
      socket: '/tmp/.s.PGSQL.7000',
    });
    expect(postgresTarget('postgres://u@/db?host=/tmp&sslmode=require&sslrootcert=/ca.pem')).toEqual({
      url: 'postgres://u@localhost/db',
      socket: '/tmp/.s.PGSQL.5432',
    });
  });

  it('reads a percent-encoded directory as the host', () => {
    expect(postgresTarget('postgres://me@%2Fvar%2Frun%2Fpostgresql:5434/app')).toEqual({
      url: 'postgres://me@localhost/app',
      socket: '/var/run/postgresql/.s.PGSQL.5434',
    });
  });

  it('keeps a host parameter that is not a directory, and a URL it cannot read, as they are', () => {
    expect(postgresTarget('postgres://u@h/app?host=db2')).toEqual({ url: 'postgres://u@h/app?host=db2' });
    expect(postgresTarget('postgres://u@/app?host=/tmp&port=x')).toEqual({ url: 'postgres://u@/app?host=/tmp&port=x' });
    expect(postgresTarget('mysql://u@/app?host=/tmp')).toEqual({ url: 'mysql://u@/app?host=/tmp' });
    // A list of directories to try in turn (libpq) is not understood: left to fail as before.
    expect(postgresTarget('postgres://u@/app?host=/tmp,/run/pg')).toEqual({
      url: 'postgres://u@/app?host=/tmp,/run/pg',
    });
  });

  it('withDatabase swaps the database and keeps everything else', () => {
    expect(withDatabase('postgres://u:p@h:1/a?sslmode=require', 'b')).toBe('postgres://u:p@h:1/b?sslmode=require');
    expect(withDatabase('postgres://u@/a?host=/run/pg', 'b')).toBe('postgres://u@/b?host=/run/pg');
    expect(withDatabase('postgres://%2Frun%2Fpg', 'b')).toBe('postgres://%2Frun%2Fpg/b');
  });
});

describe('connecting through a Unix socket', () => {
  let pg: TestPostgres;
  let stopCluster: (() => Promise<void>) | undefined;
  let server: { url: string; directory: string; port: number };

  /** Where the server at `url` listens for local connections, if that is on this machine. */
  async function localSocket(url: string): Promise<{ directory: string; port: number } | undefined> {
    const sql = postgresClient(url, { max: 1, onnotice: () => {} });
    const [row] = await sql<
      Array<{ dirs: string; port: number }>
    >`select current_setting('unix_socket_directories') as dirs, current_setting('port')::int as port`;
    await sql.end();
    const directory = row!.dirs.split(',')[0]!.trim();
    return existsSync(`${directory}/.s.PGSQL.${row!.port}`) ? { directory, port: row!.port } : undefined;
  }

  beforeAll(async () => {
    pg = await acquireTestPostgres();
    // The shared test server serves when it is reached over TCP and its socket is here (the
    // last test compares the two ways in).
    const shared = postgresTarget(pg.url).socket ? undefined : await localSocket(pg.url);
    if (shared) {
      server = { url: pg.url, ...shared };
      return;
    }
    // The test server runs elsewhere (its socket is not on this machine): a private one does not.
    const cluster = await startPostgresCluster();
    stopCluster = cluster.stop;
    const own = await localSocket(cluster.url);
    if (!own) throw new Error('the private PostgreSQL has no socket on this machine');
    server = { url: cluster.url, ...own };
  }, 60_000);
  afterAll(async () => {
    await stopCluster?.();
    await pg?.release();
  });

  const database = () => new URL(server.url).pathname.slice(1); // a TCP URL (see beforeAll)

  it.each([
    ['the host parameter', () => `postgres://postgres@/${database()}?host=${server.directory}&port=${server.port}`],
    [
      'an encoded directory as the host',
      () => `postgresql://postgres@${encodeURIComponent(server.directory)}:${server.port}/${database()}`,
    ],
    [
      'the host parameter with sslmode=require (ignored on a socket, as psql does)',
      () => `postgres://postgres@/${database()}?host=${server.directory}&port=${server.port}&sslmode=require`,
    ],
  ])('the app opens its database through %s (no TCP address on the server side)', async (_label, url) => {
    const handle = await openDatabase({ url: url() });
    try {
      const rows = await handle.prepared<{ addr: string | null; db: string }>(
        'select inet_server_addr()::text as addr, current_database() as db',
        [],
      );
      expect(rows).toEqual([{ addr: null, db: database() }]);
    } finally {
      await handle.close();
    }
  });

  it('the same database over TCP reports its address (the check above can fail)', async () => {
    const handle = await openDatabase({ url: server.url });
    try {
      const [row] = await handle.prepared<{ addr: string | null }>('select inet_server_addr()::text as addr', []);
      expect(row!.addr).toMatch(/^127\.0\.0\.1|^::1/);
    } finally {
      await handle.close();
    }
  });
});
