import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { postgresClient } from '../infra/db/postgres-client.js';
import { withDatabase } from '../infra/db/postgres-url.js';

/**
 * A real PostgreSQL for tests that need more than PGlite (several connections: advisory locks
 * held by one node while another waits). In order: DATABASE_URL when CI sets it; the local
 * server when one answers on 127.0.0.1:5432 (checked, not assumed); a private cluster started
 * with initdb in a temporary directory. Each caller gets a database of its own, dropped on
 * release.
 */
export interface TestPostgres {
  url: string;
  release(): Promise<void>;
}

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const sql = postgresClient(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}

function binDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort().reverse();
  const dir = versions.map((v) => path.join(base, v, 'bin')).find((d) => existsSync(path.join(d, 'initdb')));
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let privateCluster: Promise<{ url: string; stop(): Promise<void> }> | undefined;

export interface ClusterOptions {
  /** Server settings (`-c key=value`), e.g. shared_buffers for a benchmark. */
  settings?: Record<string, string>;
  /** A data directory to keep between runs (created with initdb when empty); default: a temporary one. */
  dir?: string;
}

/**
 * Starts a PostgreSQL server of our own with initdb and postgres from the machine's PostgreSQL
 * packages. Root may not run postgres, so it runs as the postgres user when we are root.
 */
export async function startPostgresCluster(
  options: ClusterOptions = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = binDir();
  if (!bin) throw new Error('No PostgreSQL binaries (initdb) on this machine');
  const temporary = !options.dir;
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'portcullis-pg-')));
  await mkdir(dir, { recursive: true });
  spawnSync('chown', ['postgres', dir]);
  const asPostgres = (args: string[]) =>
    (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)]) as [
      string,
      string[],
    ];
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const [cmd, args] = asPostgres([path.join(bin, 'initdb'), '-D', dir, '-U', 'postgres', '--auth=trust']);
    const init = spawnSync(cmd, args, { stdio: 'ignore' });
    if (init.status !== 0) throw new Error('initdb failed');
  }
  const port = await freePort();
  const settings = Object.entries({ listen_addresses: '127.0.0.1', fsync: 'off', ...options.settings }).flatMap(
    ([k, v]) => ['-c', `${k}=${v}`],
  );
  const [pcmd, pargs] = asPostgres([path.join(bin, 'postgres'), '-D', dir, '-p', String(port), '-k', dir, ...settings]);
  const child: ChildProcess = spawn(pcmd, pargs, { stdio: 'ignore' });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let i = 0; i < 100 && !(await answers(url)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await answers(url))) throw new Error('the private PostgreSQL did not start');
  return {
    url,
    stop: async () => {
      // pg_ctl, not a signal to our child: as root the child is runuser, which does not pass
      // signals on to the server it started.
      const [scmd, sargs] = asPostgres([path.join(bin, 'pg_ctl'), 'stop', '-D', dir, '-m', 'fast', '-w']);
      spawnSync(scmd, sargs, { stdio: 'ignore' });
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function testPostgresAvailable(): Promise<string | undefined> {
  if (process.env.DATABASE_URL || (await answers(LOCAL)) || binDir()) return undefined;
  return 'no PostgreSQL: DATABASE_URL unset, nothing on 127.0.0.1:5432, no initdb';
}

export async function acquireTestPostgres(): Promise<TestPostgres> {
  let server = process.env.DATABASE_URL ?? ((await answers(LOCAL)) ? LOCAL : undefined);
  let stop = async () => {};
  if (!server) {
    if (!binDir()) throw new Error('No PostgreSQL available for this test');
    privateCluster ??= startPostgresCluster();
    const cluster = await privateCluster;
    server = cluster.url;
    stop = cluster.stop;
  }
  const name = `portcullis_t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = postgresClient(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(server, name),
    release: async () => {
      const cleanup = postgresClient(server, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      await stop();
    },
  };
}
