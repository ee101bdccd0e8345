import type { ServerType } from '@hono/node-server';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { postgresClient } from '../infra/db/postgres-client.js';
import { inject } from 'vitest';
import { boot, type BootOptions, type Runtime } from '../bootstrap.js';
import { loadConfig } from '../config/load.js';
import { serveApp } from '../http/serve.js';
import { createLogger } from '../infra/logger.js';

export interface TestServer {
  url: string;
  runtime: Runtime;
  /** Log lines written while the server ran (JSON text). */
  logs: string[];
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Sends and parses the envelope. */
  json<T = any>(
    path: string,
    init?: RequestInit & { json?: unknown },
  ): Promise<{ status: number; headers: Headers; body: T }>;
  close(): Promise<void>;
}

export function deepMerge(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? deepMerge(a[k], v) : v;
  }
  return out;
}

/** Where this test file's data lives: real PostgreSQL and Redis when CI gives them, else embedded. */
export interface TestBackends {
  config: Record<string, any>;
  release(): Promise<void>;
}

/**
 * With DATABASE_URL set (CI's second run), each test server gets a schema of its own in that
 * database, dropped afterwards; otherwise an in-memory PGlite loaded from the migrated snapshot.
 * With REDIS_URL set, stores use Redis under a key prefix of their own.
 */
export async function testBackends(): Promise<TestBackends> {
  const url = process.env.DATABASE_URL;
  const redis = process.env.REDIS_URL;
  // A data directory of its own: outbox files (the mail a test reads) and nothing else.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portcullis-data-'));
  const config: Record<string, any> = { App: { DataDir: dataDir } };
  let releaseDatabase = async () => {};
  if (url) {
    const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const admin = postgresClient(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    await admin.end();
    config.Database = { Url: url, Schema: schema, MaxConnections: 4 };
    releaseDatabase = async () => {
      const cleanup = postgresClient(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.end();
    };
  } else {
    config.Database = { InMemory: true, SnapshotFile: inject('pgliteSnapshot') };
  }
  if (redis) config.Redis = { Url: redis, KeyPrefix: `test:${randomUUID()}:` };
  const release = async () => {
    await releaseDatabase();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { config, release };
}

/** Boots the runtime on the test backends without listening (data-layer and service tests). */
export async function bootTestRuntime(
  options: { config?: Record<string, any> } & BootOptions = {},
): Promise<Runtime & { logs: string[] }> {
  const logs: string[] = [];
  const backends = await testBackends();
  const config = loadConfig(
    {},
    deepMerge(deepMerge({ App: { Env: 'test', LogLevel: 'debug' } }, backends.config), options.config ?? {}),
  );
  const logger = options.logger ?? createLogger({ level: 'debug', sink: (line) => logs.push(line) });
  const runtime = await boot(config, { ...options, logger });
  await runtime.ready;
  return {
    ...runtime,
    logs,
    close: async () => {
      await runtime.close();
      await backends.release();
    },
  };
}

/** Boots the real host on an ephemeral port with test defaults (own database, quiet, captured logs). */
export async function startTestServer(
  options: { config?: Record<string, any>; env?: Record<string, string> } & BootOptions = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const backends = await testBackends();
  const config = loadConfig(
    options.env ?? {},
    deepMerge(deepMerge({ App: { Env: 'test', LogLevel: 'debug' } }, backends.config), options.config ?? {}),
  );
  const logger = options.logger ?? createLogger({ level: 'debug', sink: (line) => logs.push(line) });
  const runtime = await boot(config, { ...options, logger });
  await runtime.ready;
  const server: ServerType = await new Promise((resolve) => {
    // Served as main.ts serves it (coalesced responses, envelope answers to refused requests).
    const s = serveApp(
      {
        fetch: runtime.app.fetch,
        config,
        clock: runtime.deps.clock,
        port: 0,
        hostname: '127.0.0.1',
        upgrade: runtime.upgrade,
      },
      () => resolve(s),
    );
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const request = (path: string, init?: RequestInit) => fetch(url + path, init);
  return {
    url,
    runtime,
    logs,
    request,
    async json(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const res = await request(path, {
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      });
      const text = await res.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, headers: res.headers, body };
    },
    async close() {
      runtime.deps.notificationHub.dropConnections();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await runtime.close();
      await backends.release();
    },
  };
}
