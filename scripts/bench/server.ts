/**
 * The server side of the benchmarks, in its own process so the load generator does not share its
 * event loop: the real app on one port and a bare Hono app on another, for comparison.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { users, userSecurity } from '../../db/schema/index.js';
import { boot } from '../../server/src/bootstrap.js';
import { coalesceResponses } from '../../server/src/http/coalesce.js';
import { serveApp } from '../../server/src/http/serve.js';
import { trackInFlight } from '../../server/src/http/in-flight.js';
import { loadConfig } from '../../server/src/config/load.js';
import { createPasswordHasher } from '../../server/src/infra/password.js';

// Benchmarks measure the machinery, so the login captcha and throttles are out of the way.
const config = loadConfig(process.env, {
  App: { LogLevel: 'warn', Env: 'development' },
  Database: { InMemory: !process.env.DATABASE_URL },
  Saas: { Auth: { CaptchaEnabled: false, ThrottlePerAccountAndIp: 10_000, ThrottlePerIp: 100_000 } },
});
const runtime = await boot(config);
await runtime.ready;

/** `BENCH_USERS=n`: n accounts sharing one password (hashed once), for the auth benchmarks. */
export const BENCH_PASSWORD = 'Bench#Passw0rd!';
const benchUsers: string[] = [];
const count = Number(process.env.BENCH_USERS ?? 0);
const hasher = createPasswordHasher();
const benchHash = count > 0 ? await hasher.hash(BENCH_PASSWORD) : '';
if (count > 0) {
  const { db, ids } = runtime.deps;
  for (let i = 0; i < count; i++) {
    const id = ids.next();
    const email = `bench${i}-${id}@example.test`;
    await db.insert(users).values({ id, tenantId: 0n, userName: `bench_${id}`, email, emailVerified: true });
    await db.insert(userSecurity).values({ userId: id, passwordHash: benchHash, securityStamp: randomUUID() });
    benchUsers.push(email);
  }
}

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
    data: {
      serverTime: `${now.toISOString().slice(0, 19)}+00:00`,
      unixSeconds: Math.floor(now.getTime() / 1000),
      timeZone: 'UTC',
    },
    traceId,
    timestamp: `${now.toISOString().slice(0, -1)}+00:00`,
    isSuccess: true,
  });
});

// The baselines answer what the app answered: the parent sends the exact body a UserInfo call (or
// a login) gave, and the bare routes serialize it again per request, as a bare Hono route would.
let echoBody: unknown = {};
process.on('message', (m: { type?: string; body?: unknown }) => {
  if (m?.type === 'echo-body') echoBody = m.body;
});
bare.get('/bare-echo', (c) => {
  c.header('x-trace-id', crypto.randomUUID().replaceAll('-', ''));
  return c.json(echoBody);
});

// The login benchmark's ceiling: HTTP, the JSON body and one verification on the server's hash
// threads (the bench users' own hash), answering a login's bytes; no database, no session.
bare.post('/bare-argon2', async (c) => {
  const body = await c.req.json<{ password?: string }>();
  if (!(await hasher.verify(benchHash, body.password ?? '')).ok) return c.json({ isSuccess: false }, 400);
  c.header('x-trace-id', crypto.randomUUID().replaceAll('-', ''));
  return c.json(echoBody);
});

const servers: Array<ReturnType<typeof serve>> = [];
type Env = Parameters<typeof runtime.app.fetch>[1];
const inFlight = trackInFlight((request: Request, env: Env) => runtime.app.fetch(request, env));
const listening = (s: ReturnType<typeof serve>) =>
  new Promise<number>((resolve) => {
    servers.push(s);
    s.once('listening', () => resolve((s.address() as AddressInfo).port));
  });
// The app is served as main.ts serves it (serveApp: responses coalesced per event-loop turn);
// the bare app as it comes, and again behind the same coalescing, to show what that alone does.
const bareOn = (fetch: (req: Request) => Response | Promise<Response>) =>
  listening(serve({ fetch, port: 0, hostname: '127.0.0.1' }));
const ports = {
  app: await listening(
    serveApp({ fetch: inFlight.handler, config, clock: runtime.deps.clock, port: 0, hostname: '127.0.0.1' }),
  ),
  bare: await bareOn(bare.fetch),
  bareCoalesced: await bareOn(coalesceResponses(bare.fetch)),
};
process.send?.({ ...ports, users: benchUsers, password: BENCH_PASSWORD });
// Requests still in flight when the load stops finish before the database closes under them.
process.on('disconnect', () => {
  const drained = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
  for (const s of servers) (s as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  void Promise.race([Promise.all([...drained, inFlight.idle()]), new Promise((r) => setTimeout(r, 5000))])
    .then(() => runtime.close())
    .finally(() => process.exit(0));
});
