import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../../../db/schema/index.js';
import { createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { SessionStatus } from './session-state.js';
import { sessionApi, sessionRow, startSessionServer } from './sessions-test-kit.js';

/** The screen lock (SPEC "Session lock", Errors rule 5): LockSession, UnlockSession, 423. */

const LOCK_PASSWORD = 'pin-2468';
const AVATAR = 'https://cdn.example.test/a.png';

let server: TestServer;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  server = await startSessionServer();
  api = sessionApi(server);
});
afterAll(() => server.close());

async function lockedSession() {
  const user = await createTestUser(server.runtime.deps, { nickName: 'Ada' });
  await server.runtime.deps.db.update(users).set({ avatar: AVATAR }).where(eq(users.id, user.id));
  const token = await loginAs(server, user);
  expect((await api.userInfo(token.accessToken)).status).toBe(200);
  const res = await api.lock(token.accessToken, LOCK_PASSWORD);
  expect(res.status).toBe(200);
  return { user, token };
}

function expectScreenLocked(res: { status: number; body: { code: number; isSuccess: boolean; data?: unknown } }) {
  expect(res.status).toBe(423);
  expect(res.body.code).toBe(423);
  expect(res.body.isSuccess).toBe(false);
  expect(res.body.data).toEqual({ reason: 'ScreenLock', displayName: 'Ada', avatarUrl: AVATAR });
}

describe('LockSession', () => {
  it('takes a lock password of 4 to 64 characters', async () => {
    const user = await createTestUser(server.runtime.deps);
    const token = await loginAs(server, user);
    for (const password of ['abc', 'x'.repeat(65), '']) {
      const res = await api.lock(token.accessToken, password);
      expect(res.status, password).toBe(400);
      expect((res.body.data as Array<{ field: string }>).map((d) => d.field)).toContain('password');
    }
    const missing = await server.json('/api/Auth/LockSession', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.accessToken}` },
      json: {},
    });
    expect(missing.status).toBe(400);
    // None of those locked anything.
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    expect((await api.lock(token.accessToken, 'abcd')).status).toBe(200);
    expect((await api.userInfo(token.accessToken)).status).toBe(423);
  });

  it('needs a token', async () => {
    const res = await server.json('/api/Auth/LockSession', { method: 'POST', json: { password: LOCK_PASSWORD } });
    expect(res.status).toBe(401);
  });

  it('makes every other call answer 423 with the lock detail', async () => {
    const { token } = await lockedSession();
    expectScreenLocked(await api.userInfo(token.accessToken));
    expectScreenLocked(await api.permissions(token.accessToken));
    // Even the password change: it is reachable only under the forced-change lock.
    expectScreenLocked(await api.changePassword(token.accessToken, 'whatever', 'N3w#Passphrase!'));
    expectScreenLocked(
      await server.json('/api/Auth/SwitchTenant', {
        method: 'POST',
        headers: { authorization: `Bearer ${token.accessToken}` },
        json: { tenantId: null },
      }),
    );
    expect((await sessionRow(server, token.accessToken)).isLocked).toBe(true);
  });

  it('keeps Logout reachable while locked', async () => {
    const { token } = await lockedSession();
    expect((await api.logout(token.accessToken)).status).toBe(200);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
    expect((await api.userInfo(token.accessToken)).status).toBe(401);
  });

  it('locking a locked session changes nothing: the first lock password still rules', async () => {
    const { token } = await lockedSession();
    const again = await api.lock(token.accessToken, 'attacker-pin');
    expect(again.status).toBe(200);
    expect((await api.unlock(token.accessToken, 'attacker-pin')).status).toBe(400);
    expectScreenLocked(await api.userInfo(token.accessToken));
    expect((await api.unlock(token.accessToken, LOCK_PASSWORD)).status).toBe(200);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
  });

  it('leaves RefreshToken working while locked, and the lock stays', async () => {
    const { token } = await lockedSession();
    const res = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(res.status).toBe(200);
    const next = res.body.data as typeof token;
    expectScreenLocked(await api.userInfo(next.accessToken));
    expect((await api.unlock(next.accessToken, LOCK_PASSWORD)).status).toBe(200);
    expect((await api.userInfo(next.accessToken)).status).toBe(200);
  });
});

describe('UnlockSession', () => {
  it('unlocks with the lock password', async () => {
    const { token } = await lockedSession();
    const res = await api.unlock(token.accessToken, LOCK_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.isSuccess).toBe(true);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    const row = await sessionRow(server, token.accessToken);
    expect(row.isLocked).toBe(false);
    expect(row.lockPasswordHash).toBeNull();
  });

  it('unlocks with the account password', async () => {
    const { user, token } = await lockedSession();
    expect((await api.unlock(token.accessToken, user.password)).status).toBe(200);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
  });

  it('is a no-op on an unlocked session', async () => {
    const user = await createTestUser(server.runtime.deps);
    const token = await loginAs(server, user);
    expect((await api.unlock(token.accessToken, 'anything')).status).toBe(200);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
  });

  it('refuses a wrong password with the remaining attempts, and the 5th failure ends the session', async () => {
    const { token } = await lockedSession();
    for (const remaining of [4, 3, 2, 1]) {
      const res = await api.unlock(token.accessToken, 'wrong-pin');
      expect(res.status).toBe(400);
      expect(res.body.data).toBe(`Wrong unlock password; ${remaining} attempts left.`);
      expectScreenLocked(await api.userInfo(token.accessToken));
    }
    const last = await api.unlock(token.accessToken, 'wrong-pin');
    expect(last.status).toBe(401);
    expect(last.body.code).toBe(10001);

    const info = await api.userInfo(token.accessToken);
    expect(info.status).toBe(401);
    expect(info.body.code).toBe(10001);
    expect((await api.unlock(token.accessToken, LOCK_PASSWORD)).status).toBe(401);
    expect((await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).status).toBe(401);
    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Revoked);
    expect(row.revokedReason).toMatch(/unlock/i);
  });

  it('counts failures across a repeated LockSession (it cannot reset them)', async () => {
    const { token } = await lockedSession();
    for (let i = 0; i < 3; i++) expect((await api.unlock(token.accessToken, 'wrong')).status).toBe(400);
    expect((await api.lock(token.accessToken, 'another-pin')).status).toBe(200);
    expect((await api.unlock(token.accessToken, 'wrong')).status).toBe(400);
    expect((await api.unlock(token.accessToken, 'wrong')).status).toBe(401);
  });

  it('a successful unlock starts the count again', async () => {
    const { token } = await lockedSession();
    for (let i = 0; i < 4; i++) expect((await api.unlock(token.accessToken, 'wrong')).status).toBe(400);
    expect((await api.unlock(token.accessToken, LOCK_PASSWORD)).status).toBe(200);
    expect((await api.lock(token.accessToken, LOCK_PASSWORD)).status).toBe(200);
    const res = await api.unlock(token.accessToken, 'wrong');
    expect(res.status).toBe(400);
    expect(res.body.data).toBe('Wrong unlock password; 4 attempts left.');
  });

  it('counts parallel wrong attempts exactly: 4 refusals, then the session ends', async () => {
    const { token } = await lockedSession();
    const results = await Promise.all(Array.from({ length: 8 }, () => api.unlock(token.accessToken, 'wrong')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 401, 401, 401, 401]);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });
});
