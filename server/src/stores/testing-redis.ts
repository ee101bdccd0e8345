import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';

/** A Redis server for tests and how to give it back. */
export interface TestRedis {
  url: string;
  /** Stops the server when this run started it; nothing for an external REDIS_URL. */
  release(): Promise<void>;
}

const BINARY = 'redis-server';

function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/**
 * Why Redis tests cannot run here, or undefined when they can (REDIS_URL is set, or a
 * `redis-server` binary is on PATH). Synchronous, for `describe.skipIf`.
 */
export function testRedisUnavailableReason(): string | undefined {
  if (process.env.REDIS_URL) return undefined;
  if (findOnPath(BINARY)) return undefined;
  return 'Redis tests skipped: REDIS_URL is not set and no redis-server binary is on PATH';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One raw PING, so waiting for the server needs no client retry logic. */
function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A redis-server child on `port`, answering PING; `stop` kills it (SIGTERM, or `signal`). */
async function spawnRedis(binary: string, port: number): Promise<{ stop(signal?: NodeJS.Signals): Promise<void> }> {
  // No persistence and loopback only: a throwaway server for this test file.
  const child = spawn(binary, ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: 'ignore',
  });
  // If the test process dies without afterAll, do not leave the server running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 10_000;
  while (!(await pingOnce(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      process.off('exit', killOnExit);
      throw new Error(`redis-server on port ${port} did not answer PING${exited ? ' (it exited)' : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async stop(signal = 'SIGTERM') {
      process.off('exit', killOnExit);
      child.kill(signal);
      await waitForExit(child, 3_000);
    },
  };
}

async function startPrivateRedis(binary: string): Promise<TestRedis> {
  const port = await freePort();
  const server = await spawnRedis(binary, port);
  return { url: `redis://127.0.0.1:${port}`, release: () => server.stop() };
}

/** A private Redis a test may restart; never the shared one of REDIS_URL. */
export interface RestartableRedis extends TestRedis {
  /** Kills the server (SIGKILL: no persistence, so every key is lost) and starts another on the same port. */
  restart(): Promise<void>;
}

/** Starts a private `redis-server` on a free port (needs the binary on PATH, whatever REDIS_URL says). */
export async function startRestartableRedis(): Promise<RestartableRedis> {
  const binary = findOnPath(BINARY);
  if (!binary) throw new Error(`no ${BINARY} binary on PATH: a test that restarts Redis needs one of its own`);
  const port = await freePort();
  let server = await spawnRedis(binary, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await server.stop('SIGKILL');
      server = await spawnRedis(binary, port);
    },
    release: () => server.stop(),
  };
}

/**
 * A Redis for tests: REDIS_URL when set, otherwise a private `redis-server` started on a free
 * port (stopped by `release`). Throws when neither is possible; check
 * `testRedisUnavailableReason()` first to skip instead.
 */
export async function acquireTestRedis(): Promise<TestRedis> {
  const external = process.env.REDIS_URL;
  if (external) return { url: external, release: async () => {} };
  const binary = findOnPath(BINARY);
  if (!binary) throw new Error(testRedisUnavailableReason());
  // The free port is only probed, so another process may take it first: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startPrivateRedis(binary);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Deletes every key starting with `prefix` (SCAN, never KEYS, so a shared server is not blocked). */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 3_000 });
  client.on('error', () => {});
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await client.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    await client.quit().catch(() => client.disconnect());
  }
}
