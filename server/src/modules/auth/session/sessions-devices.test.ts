import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSessions } from '../../../../../db/schema/index.js';
import { createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { SessionStatus } from './session-state.js';
import { sessionApi, sessionRow, startSessionServer } from './sessions-test-kit.js';

/** Device policies applied at login: same device, AllowMultiLogin, MaxLoginDevices. */

let server: TestServer;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  server = await startSessionServer();
  api = sessionApi(server);
});
afterAll(() => server.close());

async function activeSessionCount(userId: bigint): Promise<number> {
  const rows = await server.runtime.deps.db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), eq(userSessions.status, SessionStatus.Active)));
  return rows.length;
}

async function expectRevoked(accessToken: string, reason: RegExp) {
  const info = await api.userInfo(accessToken);
  expect(info.status).toBe(401);
  expect(info.body.code).toBe(10001);
  const row = await sessionRow(server, accessToken);
  expect(row.status).toBe(SessionStatus.Revoked);
  expect(row.revokedReason).toMatch(reason);
}

async function expectAlive(accessToken: string) {
  expect((await api.userInfo(accessToken)).status).toBe(200);
  expect((await sessionRow(server, accessToken)).status).toBe(SessionStatus.Active);
}

describe('device policies at login', () => {
  it('records the device of the session', async () => {
    const user = await createTestUser(server.runtime.deps);
    const res = await server.json('/api/Auth/Login', {
      method: 'POST',
      headers: {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      },
      json: { username: user.email, password: user.password, deviceId: 'desk-1' },
    });
    expect(res.status).toBe(200);
    const row = await sessionRow(server, res.body.data.token.accessToken);
    expect(row.deviceFingerprint).toBe('desk-1');
    expect(row.browser).toMatch(/chrome/i);
    expect(row.operatingSystem).toMatch(/windows/i);
    expect(row.ipAddress).toBe('127.0.0.1');
    expect(row.expirationTime.getTime() - row.loginTime.getTime()).toBe(7 * 86_400_000);
  });

  it('a login with the same deviceId ends the older session of that device only', async () => {
    const user = await createTestUser(server.runtime.deps);
    const phone = await loginAs(server, user, { deviceId: 'phone' });
    const laptop = await loginAs(server, user, { deviceId: 'laptop' });
    const phoneAgain = await loginAs(server, user, { deviceId: 'phone' });

    await expectRevoked(phone.accessToken, /same device/i);
    await expectAlive(laptop.accessToken);
    await expectAlive(phoneAgain.accessToken);
    // Its refresh token ended with it.
    expect((await api.refresh({ accessToken: phone.accessToken, refreshToken: phone.refreshToken })).status).toBe(401);
  });

  it('logins without a deviceId never evict each other (multi-login allowed)', async () => {
    const user = await createTestUser(server.runtime.deps);
    const tokens = [await loginAs(server, user), await loginAs(server, user), await loginAs(server, user)];
    for (const t of tokens) await expectAlive(t.accessToken);
    expect(await activeSessionCount(user.id)).toBe(3);
  });

  it("AllowMultiLogin=false ends every other session of the user, and no one else's", async () => {
    const user = await createTestUser(server.runtime.deps, { allowMultiLogin: false });
    const bystander = await createTestUser(server.runtime.deps, { allowMultiLogin: false });
    const theirs = await loginAs(server, bystander, { deviceId: 'a' });
    const a = await loginAs(server, user, { deviceId: 'a' });
    const b = await loginAs(server, user, { deviceId: 'b' });
    await expectRevoked(a.accessToken, /another device/i);
    await expectAlive(b.accessToken);
    const c = await loginAs(server, user);
    await expectRevoked(b.accessToken, /another device/i);
    await expectAlive(c.accessToken);
    await expectAlive(theirs.accessToken);
    expect(await activeSessionCount(user.id)).toBe(1);
  });

  it('MaxLoginDevices=2 evicts the oldest session when a third device logs in', async () => {
    const user = await createTestUser(server.runtime.deps, { maxLoginDevices: 2 });
    const bystander = await createTestUser(server.runtime.deps, { maxLoginDevices: 2 });
    const other = [
      await loginAs(server, bystander, { deviceId: 'd1' }),
      await loginAs(server, bystander, { deviceId: 'd2' }),
    ];
    const d1 = await loginAs(server, user, { deviceId: 'd1' });
    const d2 = await loginAs(server, user, { deviceId: 'd2' });
    await expectAlive(d1.accessToken);
    await expectAlive(d2.accessToken);

    const d3 = await loginAs(server, user, { deviceId: 'd3' });
    await expectRevoked(d1.accessToken, /another device/i);
    await expectAlive(d2.accessToken);
    await expectAlive(d3.accessToken);

    // A fourth: now d2 is the oldest.
    const d4 = await loginAs(server, user, { deviceId: 'd4' });
    await expectRevoked(d2.accessToken, /another device/i);
    await expectAlive(d3.accessToken);
    await expectAlive(d4.accessToken);
    expect(await activeSessionCount(user.id)).toBe(2);

    // Same device again: only that device's session is replaced, the other one stays.
    const d3Again = await loginAs(server, user, { deviceId: 'd3' });
    await expectRevoked(d3.accessToken, /same device/i);
    await expectAlive(d4.accessToken);
    await expectAlive(d3Again.accessToken);

    for (const t of other) await expectAlive(t.accessToken);
  });

  it('AllowMultiLogin=false holds under parallel logins: one session survives', async () => {
    const user = await createTestUser(server.runtime.deps, { allowMultiLogin: false });
    const logins = await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5'].map((deviceId) => loginAs(server, user, { deviceId })),
    );
    expect(await activeSessionCount(user.id)).toBe(1);
    const alive = [];
    for (const t of logins) if ((await api.userInfo(t.accessToken)).status === 200) alive.push(t);
    expect(alive).toHaveLength(1);
  });

  it('MaxLoginDevices=2 holds under parallel logins: two sessions survive', async () => {
    const user = await createTestUser(server.runtime.deps, { maxLoginDevices: 2 });
    await Promise.all(['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((deviceId) => loginAs(server, user, { deviceId })));
    expect(await activeSessionCount(user.id)).toBe(2);
  });
});
