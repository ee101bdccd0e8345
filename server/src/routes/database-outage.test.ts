import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS } from '../errors/to-envelope.js';
import { openDatabase } from '../infra/db/client.js';
import { bearer, createTestUser, loginAs, type TestUser } from '../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { acquireTestPostgres, type TestPostgres } from '../testing/postgres.js';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.js';

/**
 * While PostgreSQL restarts, connections are refused (ECONNREFUSED) and those open are closed
 * under their queries (CONNECTION_CLOSED). Every such failure answers 503 with code 13000
 * (DatabaseError), Retry-After and the trace id, and nothing of the driver's text, on the REST
 * facade and on /trpc alike; once the database is back the service answers again by itself.
 *
 * The app reaches a real PostgreSQL through a proxy in this process, which the test cuts: the
 * shared server is never stopped. PostgreSQL comes from acquireTestPostgres, like every test
 * that needs one whatever the pass (DATABASE_URL; else the machine's on 127.0.0.1:5432; else a
 * private cluster from the PostgreSQL binaries); with none of them the test fails, it is not
 * skipped.
 */

let pg: TestPostgres;
let proxy: TcpProxy;
let server: TestServer;
let user: TestUser;
let token: string;

beforeAll(async () => {
  pg = await acquireTestPostgres();
  const target = new URL(pg.url);
  if (!target.hostname || target.searchParams.has('host'))
    throw new Error(`the test PostgreSQL must be reachable over TCP to be proxied: ${target.host}`);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(pg.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  server = await startTestServer({
    config: {
      // The database of acquireTestPostgres, in its default schema (not the pass's own schema).
      Database: { Url: proxied.toString(), Schema: undefined, MaxConnections: 4 },
      // Fewer background queries while a query is held at the proxy.
      App: { MaintenancePollSeconds: 3600 },
      Saas: { Auth: { CaptchaEnabled: false } },
    },
  });
  user = await createTestUser(server.runtime.deps);
  token = (await loginAs(server, user)).accessToken;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await pg?.release();
});

const en = { 'X-Language': 'en-US' };
const sessions = () => server.request('/api/Profile/Sessions', { headers: { ...bearer(token), ...en } });
const trpcSessions = () =>
  server.request('/trpc/ProfileAppService.GetSessionsAsync', { headers: { ...bearer(token), ...en } });
const login = () =>
  server.request('/api/Auth/Login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...en },
    body: JSON.stringify({ username: user.email, password: user.password }),
  });

const UNAVAILABLE = `The database is unavailable at the moment; try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds`;
// What must never reach a client: the driver's codes and text, the address, a stack.
const INTERNAL = /ECONN|CONNECTION_|CONNECT_TIMEOUT|127\.0\.0\.1|postgres|Failed query|select |\.ts:\d|node:|\n\s+at /i;

/** The envelope of a REST answer, or the one /trpc carries under error.data.envelope. */
async function expectUnavailable(res: Response, shape: 'rest' | 'trpc') {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  const body = JSON.parse(text) as { code?: number; error?: { data: { envelope: unknown } } };
  const envelope = (shape === 'trpc' ? body.error?.data.envelope : body) as {
    code: number;
    isSuccess: boolean;
    traceId: string;
    data: string;
  };
  expect(envelope).toMatchObject({ code: 13000, isSuccess: false, traceId: res.headers.get('x-trace-id') });
  expect(envelope.traceId).toMatch(/\S/);
  expect(envelope.data).toBe(`${UNAVAILABLE} (trace id ${envelope.traceId}).`);
  expect(text).not.toMatch(INTERNAL);
}

describe("a dedicated session (the node number's lock) whose connection dropped", () => {
  it('refuses queries (its locks are gone) and releases at once; nothing throws out of the driver', async () => {
    const proxied = new URL(pg.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const handle = await openDatabase({ url: proxied.toString(), maxConnections: 2 });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const session = await handle.session();
      expect(await session.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await proxy.cut();
      await proxy.restore();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(session.query('SELECT 1 AS one')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await session.release();
      // The pool itself reconnects.
      await handle.ping();
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      await handle.close();
    }
  });
});

describe('PostgreSQL unreachable', () => {
  it('answers 503 with code 13000 and Retry-After (a query cut in flight, refused connections, login, /trpc), then recovers', async () => {
    expect((await sessions()).status).toBe(200);

    // A query on its way when the connection is cut (CONNECTION_CLOSED).
    const held = proxy.hold();
    const inFlight = sessions();
    await held;
    await proxy.cut();
    await expectUnavailable(await inFlight, 'rest');

    // Nothing listens any more (ECONNREFUSED): an authenticated route, a login, /trpc.
    await expectUnavailable(await sessions(), 'rest');
    await expectUnavailable(await login(), 'rest');
    await expectUnavailable(await trpcSessions(), 'trpc');

    // The operator's log has what the client was not told.
    const logged = server.logs.join('\n');
    expect(logged).toMatch(/CONNECTION_CLOSED/);
    expect(logged).toMatch(/ECONNREFUSED/);

    await proxy.restore();
    const deadline = Date.now() + 15_000;
    let status = (await sessions()).status;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await sessions()).status;
    }
    expect(status).toBe(200);
    expect((await login()).status).toBe(200);
    expect((await trpcSessions()).status).toBe(200);
  }, 60_000);
});
