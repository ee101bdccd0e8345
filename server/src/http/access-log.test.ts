import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestUser, loginAs } from '../testing/auth-fixtures.js';
import type { TestServer } from '../testing/harness.js';
import { startAdminServer } from '../testing/admin.js';

/** What the log says of a request: its access line names the user and tenant; its events carry its trace id. */
describe('request logs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAdminServer({ config: { App: { LogLevel: 'debug' } } });
  });
  afterAll(() => server?.close());

  const lines = () => server.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('an authenticated request: the access line carries the user id and tenant; an anonymous one neither', async () => {
    const user = await createTestUser(server.runtime.deps);
    const token = (await loginAs(server, user)).accessToken;
    const me = await server.json('/api/Auth/UserInfo', { headers: bearer(token) });
    expect(me.status).toBe(200);
    const access = lines().find((l) => l.msg === 'request' && l.traceId === me.body.traceId);
    expect(access).toMatchObject({ path: '/api/Auth/UserInfo', status: 200, userId: String(user.id), tenantId: '0' });
    const anonymous = await server.json('/api/Auth/LoginConfig');
    const open = lines().find((l) => l.msg === 'request' && l.traceId === anonymous.body.traceId);
    expect(open).toBeDefined();
    expect(open).not.toHaveProperty('userId');
  });

  it('events raised by a request log its trace id at debug level', async () => {
    const user = await createTestUser(server.runtime.deps);
    const res = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: 'Wrong-password-9!' },
    });
    expect(res.status).toBe(400);
    const event = lines().find(
      (l) => l.msg === 'event' && l.event === 'AuthLoginFailed' && l.traceId === res.body.traceId,
    );
    expect(event).toMatchObject({ level: 'debug' });
  });
});
