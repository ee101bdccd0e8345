import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, tenantMemberships, users, userSecurity, userSessions } from '../../../../db/schema/index.js';
import { createTestTenant, createTestUser, GOOD_PASSWORD, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { profileApi, sessionOf, signedInOn } from './profile-test-kit.js';

/**
 * POST /api/Profile/DeactivateAccount and DeleteAccount (SPEC "Session status": password
 * confirmed, all sessions revoked; the original service: Disabled / soft-deleted, refused for
 * system accounts and tenant owners), over real HTTP.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startSessionServer();
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;

const stateOf = async (userId: bigint) => {
  const [row] = await deps()
    .db.select({ status: users.status, isDeleted: users.isDeleted, stamp: userSecurity.securityStamp })
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(eq(users.id, userId));
  return row!;
};
const auditOf = (userId: bigint, action: 'AccountDeactivated' | 'AccountDeleted') =>
  deps()
    .db.select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.userId, userId)));

describe.each([
  ['DeactivateAccount', 'deactivate', 'AccountDeactivated'],
  ['DeleteAccount', 'remove', 'AccountDeleted'],
] as const)('POST /api/Profile/%s', (path, call, action) => {
  it('ends every session (this one too) on the next request, rotates the stamp and audits', async () => {
    const { user, tokens } = await signedInOn(server, ['phone', 'laptop']);
    const before = await stateOf(user.id);
    const api = profileApi(server, tokens.laptop!);
    expect((await profileApi(server, tokens.phone!).userInfo()).status).toBe(200);
    const pushed: Array<{ sessionIds: unknown }> = [];
    const off = deps().events.on('SessionsRevoked', (e) => void pushed.push(e));
    const res = await api[call](user.password);
    off();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, isSuccess: true });
    for (const token of [tokens.phone!, tokens.laptop!]) {
      const next = await profileApi(server, token).userInfo();
      expect(next.status).toBe(401);
      expect(next.body.code).toBe(10001);
    }
    const rows = await deps()
      .db.select({ status: userSessions.status })
      .from(userSessions)
      .where(eq(userSessions.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual([2, 2]);
    expect(pushed.length).toBeGreaterThan(0);
    const after = await stateOf(user.id);
    expect(after.stamp).not.toBe(before.stamp);
    expect(after).toMatchObject(
      call === 'deactivate' ? { status: 'Disabled', isDeleted: false } : { status: 'Enabled', isDeleted: true },
    );
    expect(await auditOf(user.id, action)).toEqual([
      expect.objectContaining({ actorUserId: user.id, targetType: 'User', targetId: String(user.id) }),
    ]);
    // The password no longer signs in.
    const login = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password },
    });
    expect(login.status).not.toBe(200);
  });

  it('refuses a wrong password with 422 and changes nothing; the sixth attempt in a minute is 429', async () => {
    const { user, tokens } = await signedInOn(server, ['phone']);
    const api = profileApi(server, tokens.phone!, 'zh-CN');
    const wrong = await api[call]('Wrong#Passw0rd!');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 422, isSuccess: false, data: '当前密码不正确。' });
    expect((await profileApi(server, tokens.phone!)[call]('nope')).body.data).toBe(
      'The current password is incorrect.',
    );
    for (let i = 0; i < 3; i++) await api[call]('nope');
    const throttled = await api[call](user.password);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stateOf(user.id)).toMatchObject({ status: 'Enabled', isDeleted: false });
    expect((await api.userInfo()).status).toBe(200);
    expect(await auditOf(user.id, action)).toEqual([]);
  });

  it('refuses system accounts and tenant owners (422), with the password right', async () => {
    const system = await signedInOn(server, ['phone']);
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, system.user.id));
    const refused = await profileApi(server, system.tokens.phone!)[call](GOOD_PASSWORD);
    expect(refused.status).toBe(422);
    expect(refused.body.data).toBe('A system account cannot be deactivated or deleted.');

    const tenantId = await createTestTenant(deps());
    const owner = await createTestUser(deps(), { tenantId });
    await deps()
      .db.insert(tenantMemberships)
      .values({ id: deps().ids.next(), tenantId, userId: owner.id, memberType: 'Owner' });
    const token = (await loginAs(server, owner)).accessToken;
    const ownerRes = await profileApi(server, token, 'zh-CN')[call](GOOD_PASSWORD);
    expect(ownerRes.status).toBe(422);
    expect(ownerRes.body.data).toBe('租户所有者不能停用或注销账号，请先转让租户所有权。');
    for (const u of [system.user, owner])
      expect(await stateOf(u.id)).toMatchObject({ status: 'Enabled', isDeleted: false });
    expect((await profileApi(server, token).userInfo()).status).toBe(200);
  });

  it('is refused (403) while impersonating, even with the right password', async () => {
    const { user, tokens } = await signedInOn(server, ['phone']);
    const admin = await createTestUser(deps());
    const sessionId = BigInt(sessionOf(tokens.phone!));
    await deps().db.update(userSessions).set({ impersonatorUserId: admin.id }).where(eq(userSessions.id, sessionId));
    await deps().sessionState.invalidateSession(sessionId);
    const res = await profileApi(server, tokens.phone!)[call](user.password);
    expect(res.status).toBe(403);
    expect(res.body.data).toBe('This operation is not allowed while impersonating a user.');
    expect(await stateOf(user.id)).toMatchObject({ status: 'Enabled', isDeleted: false });
  });

  it('answers bad input with a validation envelope, never a 500', async () => {
    const { user, tokens } = await signedInOn(server, ['phone']);
    const api = profileApi(server, tokens.phone!);
    for (const bad of [undefined, null, 12345678, true, {}, [], '', 'x'.repeat(1025)]) {
      const res = await api[call](bad);
      expect(res.status, JSON.stringify(bad)?.slice(0, 20)).toBe(400);
      expect(res.body.data.map((d: { field: string }) => d.field)).toContain('password');
    }
    for (const body of ['', '{"password":', '[]', 'null', '"pw"']) {
      const res = await api.raw(path, body);
      expect(res.status, body).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    expect(await stateOf(user.id)).toMatchObject({ status: 'Enabled', isDeleted: false });
    // Unknown fields are ignored; the wrong method is 405.
    const extra = await api.raw(path, JSON.stringify({ password: 'nope', userId: '1', isSystemAccount: false }));
    expect(extra.status).toBe(422);
    const del = await server.json(`/api/Profile/${path}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.phone}` },
    });
    expect(del.status).toBe(405);
    expect(del.body.code).toBe(405);
  });
});

describe('POST /api/Profile/DeleteAccount, more', () => {
  it("frees the user name and e-mail for a new account, as the administrator's delete does", async () => {
    const { user, tokens } = await signedInOn(server, ['phone']);
    expect((await profileApi(server, tokens.phone!).remove(user.password)).status).toBe(200);
    const again = await createTestUser(deps(), { userName: user.userName, email: user.email });
    expect((await loginAs(server, again)).accessToken).toBeTruthy();
    expect(again.id).not.toBe(user.id);
  });

  it('racing a login of the same account leaves no usable session', async () => {
    const { user, tokens } = await signedInOn(server, ['phone']);
    const login = () =>
      server.json('/api/Auth/Login', {
        method: 'POST',
        json: { username: user.email, password: user.password, deviceId: 'racer' },
      });
    const [deleted, ...logins] = await Promise.all([
      profileApi(server, tokens.phone!).remove(user.password),
      login(),
      login(),
      login(),
    ]);
    expect(deleted.status).toBe(200);
    for (const res of logins) {
      expect(res.status).toBeLessThan(500);
      if (res.status !== 200) continue;
      // A login that passed its checks before the deletion committed holds a dead token.
      const next = await profileApi(server, res.body.data.token.accessToken).userInfo();
      expect(next.status).toBe(401);
      expect(next.body.code).toBe(10001);
    }
    expect((await login()).status).toBe(400);
    expect(await stateOf(user.id)).toMatchObject({ isDeleted: true });
  });

  it('of two deletions racing from two devices, one succeeds and the account is audited once', async () => {
    const { user, tokens } = await signedInOn(server, ['phone', 'laptop']);
    const results = await Promise.all([
      profileApi(server, tokens.phone!).remove(user.password),
      profileApi(server, tokens.laptop!).remove(user.password),
    ]);
    expect(results.some((r) => r.status === 200)).toBe(true);
    for (const r of results) expect([200, 401]).toContain(r.status);
    expect(await auditOf(user.id, 'AccountDeleted')).toHaveLength(1);
  });
});
