/**
 * The server side of the benchmarks, in its own process so the load generator does not share its
 * event loop: the real app on one port and a bare Hono app on another, for comparison.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { boot } from '../../server/src/bootstrap.js';
import { loadConfig } from '../../server/src/config/load.js';

const config = loadConfig(process.env, { App: { LogLevel: 'warn', Env: 'development' }, Database: { InMemory: !process.env.DATABASE_URL } });
const runtime = await boot(config);

// The baseline answers the same bytes a derived route does (an envelope of the same size, the
// same headers), built inline: the comparison measures our machinery, not the payload size.
const bare = new Hono();
bare.get('/bare', (c) => {
  const now = new Date();
  const traceId = crypto.randomUUID().replaceAll('-', '');
  c.header('x-trace-id', traceId);
  return c.json({
    code: 200,
    message: 'Success',
    data: { serverTime: now.toISOString().slice(0, 19) + '+00:00', unixSeconds: Math.floor(now.getTime() / 1000), timeZone: 'UTC' },
    traceId,
    timestamp: now.toISOString().slice(0, -1) + '+00:00',
    isSuccess: true,
  });
});

const listen = (fetch: (req: Request) => Response | Promise<Response>) =>
  new Promise<number>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve((s.address() as AddressInfo).port));
  });

const ports = { app: await listen(runtime.app.fetch), bare: await listen(bare.fetch) };
process.send?.(ports);
process.on('disconnect', () => {
  void runtime.close().finally(() => process.exit(0));
});
