import type { ServerType } from '@hono/node-server';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { boot, type Runtime } from '../bootstrap.js';
import type { Clock } from '../infra/clock.js';
import { loadConfig } from '../config/load.js';
import { serveApp } from '../http/serve.js';
import { createLogger } from '../infra/logger.js';
import { acquireTestRedis } from '../stores/testing-redis.js';
import { deepMerge } from './harness.js';
import { acquireTestPostgres } from './postgres.js';

export interface TestNode {
  runtime: Runtime;
  server: ServerType;
  url: string;
}

export interface TwoNodes {
  nodes: [TestNode, TestNode];
  close(): Promise<void>;
}

/**
 * Two app instances ("nodes") sharing one PostgreSQL and one Redis, as in production, each
 * listening on its own port. `config` is merged over the shared base (the same for both);
 * `clock`, when given, is both nodes' time; `redisUrl`, a Redis of the caller's (one it
 * restarts), left running on close.
 */
export async function startTwoNodes(
  config: Record<string, unknown> = {},
  options: { clock?: Clock; redisUrl?: string } = {},
): Promise<TwoNodes> {
  const pg = await acquireTestPostgres();
  const redis = options.redisUrl ? { url: options.redisUrl, release: async () => {} } : await acquireTestRedis();
  const base = {
    App: { Env: 'test', LogLevel: 'silent' },
    Database: { Url: pg.url, MaxConnections: 4 },
    Redis: { Url: redis.url, KeyPrefix: `test:${randomUUID()}:` },
  };
  const appConfig = loadConfig({}, deepMerge(base, config));
  const runtimes = await Promise.all(
    [0, 1].map(() =>
      boot(appConfig, {
        logger: createLogger({ level: 'silent' }),
        ...(options.clock ? { clock: options.clock } : {}),
      }),
    ),
  );
  await Promise.all(runtimes.map((r) => r.ready));
  const nodes = await Promise.all(
    runtimes.map(
      (runtime) =>
        new Promise<TestNode>((resolve) => {
          const server = serveApp(
            {
              fetch: runtime.app.fetch,
              config: appConfig,
              clock: runtime.deps.clock,
              port: 0,
              hostname: '127.0.0.1',
              upgrade: runtime.upgrade,
            },
            () => resolve({ runtime, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
          );
        }),
    ),
  );
  return {
    nodes: nodes as [TestNode, TestNode],
    async close() {
      for (const node of nodes) {
        node.runtime.deps.notificationHub.dropConnections();
        const closed = new Promise<void>((resolve) => node.server.close(() => resolve()));
        (node.server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closed;
      }
      await Promise.all(nodes.map((n) => n.runtime.close()));
      await redis.release();
      await pg.release();
    },
  };
}
