import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, notifications, users, userSecurity } from '../../../../db/schema/index.js';
import { createTestTenant, createTestUser, GOOD_PASSWORD, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { impersonate, profileCall, signedInOn } from './profile-test-kit.js';

/** GET/PUT /api/Profile/Profile and POST /api/Profile/ChangeUserName over real HTTP. */

let server: TestServer;
beforeAll(async () => {
  server = await startSessionServer();
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;
const auditOf = (userId: bigint, action: string) =>
  deps()
    .db.select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.userId, userId)));

async function signedIn(options: Parameters<typeof signedInOn>[2] = {}) {
  const { user, tokens } = await signedInOn(server, ['laptop'], options);
  return { user, token: tokens.laptop!, call: profileCall(server, tokens.laptop!) };
}

describe('GET /api/Profile/Profile', () => {
  it("answers the original's fields", async () => {
    const { user, call } = await signedIn({ phone: '+15550111', twoFactorMethod: 0 });
    const res = await call('GET', 'Profile');
    expect(res.status).toBe(200);
    // Nulls are left out of the answer (the original's serialization): every key is one of these.
    const known = new Set([
      'userId',
      'userName',
      'realName',
      'nickName',
      'avatar',
      'email',
      'phone',
      'gender',
      'birthday',
      'country',
      'remark',
      'tenantId',
      'lastLoginTime',
      'lastLoginIp',
      'isSystemAccount',
      'twoFactorEnabled',
      'twoFactorMethod',
      'recoveryCodesRemaining',
      'emailVerified',
      'phoneVerified',
      'lastPasswordChangeTime',
      'lastUserNameChangeTime',
      'canChangeUserName',
      'isLocked',
      'lockoutEndTime',
      'failedLoginAttempts',
      'lastFailedLoginTime',
    ]);
    for (const key of Object.keys(res.body.data)) expect(known.has(key), key).toBe(true);
    expect(res.body.data).toMatchObject({
      userId: String(user.id),
      userName: user.userName,
      email: user.email,
      phone: '+15550111',
      gender: 0,
      isSystemAccount: false,
      twoFactorEnabled: false,
      twoFactorMethod: 0,
      recoveryCodesRemaining: 0,
      emailVerified: true,
      phoneVerified: false,
      canChangeUserName: true,
      isLocked: false,
      failedLoginAttempts: 0,
    });
    expect(typeof res.body.data.lastLoginTime).toBe('string');
    expect(res.body.data).not.toHaveProperty('tenantId');
  });

  it('reads the second factor, the lockout and the home tenant from the account', async () => {
    const tenantId = await createTestTenant(deps());
    const { user, call } = await signedIn({ tenantId, memberOf: [tenantId] });
    const end = new Date(Date.now() + 3_600_000);
    await deps()
      .db.update(userSecurity)
      .set({ lockoutEndTime: end, failedLoginAttempts: 4, twoFactorMethod: 3 })
      .where(eq(userSecurity.userId, user.id));
    const res = await call('GET', 'Profile');
    expect(res.body.data).toMatchObject({
      twoFactorEnabled: true,
      twoFactorMethod: 3,
      isLocked: true,
      failedLoginAttempts: 4,
      tenantId: String(tenantId),
    });
    expect(new Date(res.body.data.lockoutEndTime).getTime()).toBe(Math.floor(end.getTime() / 1000) * 1000);
  });

  it('needs a session (401)', async () => {
    expect((await server.json('/api/Profile/Profile')).status).toBe(401);
  });
});

describe('PUT /api/Profile/Profile', () => {
  it('writes the given fields, keeps absent ones, clears null or empty ones, audits the names', async () => {
    const { user, call, token } = await signedIn();
    const first = await call('PUT', 'Profile', {
      nickName: ' Nick ',
      realName: 'Real Name',
      avatar: 'https://cdn.example.test/a.png',
      gender: 2,
      birthday: '1990-05-17',
      country: 'CN',
      remark: 'hello',
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      nickName: 'Nick',
      realName: 'Real Name',
      avatar: 'https://cdn.example.test/a.png',
      gender: 2,
      birthday: '1990-05-17',
      country: 'CN',
      remark: 'hello',
    });
    const second = await call('PUT', 'Profile', { nickName: null, remark: '', avatar: '/uploads/avatar/1.png' });
    expect(second.body.data).toMatchObject({ realName: 'Real Name', avatar: '/uploads/avatar/1.png', gender: 2 });
    // Cleared: null, which the answer leaves out.
    expect(second.body.data).not.toHaveProperty('nickName');
    expect(second.body.data).not.toHaveProperty('remark');
    expect((await call('GET', 'Profile')).body.data).toMatchObject({ realName: 'Real Name', country: 'CN' });
    // The session's cached copy follows (the user info reads it).
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: { authorization: `Bearer ${token}` } })).body.data,
    ).toMatchObject({ realName: 'Real Name', avatar: '/uploads/avatar/1.png' });
    const [row] = await deps()
      .db.select({ nickName: users.nickName, remark: users.remark })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row).toEqual({ nickName: null, remark: null });
    const audits = await auditOf(user.id, 'ProfileUpdated');
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => (a.detail as { fields: string[] }).fields)).toContainEqual([
      'avatar',
      'nickName',
      'remark',
    ]);
    // Nothing given: nothing written, nothing audited.
    expect((await call('PUT', 'Profile', {})).status).toBe(200);
    expect(await auditOf(user.id, 'ProfileUpdated')).toHaveLength(2);
  });

  it('takes an image data URI within the limit and refuses a larger one or another scheme', async () => {
    const { user, call } = await signedIn();
    const small = `data:image/png;base64,${Buffer.alloc(1000, 7).toString('base64')}`;
    expect((await call('PUT', 'Profile', { avatar: small })).body.data.avatar).toBe(small);
    const big = `data:image/png;base64,${Buffer.alloc(200_000, 7).toString('base64')}`;
    for (const avatar of [
      big,
      'javascript:alert(1)',
      'data:text/html;base64,PGI+',
      'ftp://x.test/a.png',
      '//evil.test/a.png',
      'not a url',
      `https://x.test/${'a'.repeat(2100)}`,
    ]) {
      const res = await call('PUT', 'Profile', { avatar });
      expect(res.status, avatar.slice(0, 30)).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    const [row] = await deps().db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
    expect(row!.avatar).toBe(small);
  });

  it('answers bad input with a 400 envelope, never a 500', async () => {
    const { call, token } = await signedIn();
    const bad: Array<Record<string, unknown>> = [
      { nickName: 'x'.repeat(51) },
      { realName: 42 },
      { gender: 3 },
      { gender: 'Male' },
      { gender: 1.5 },
      { birthday: '1990-13-01' },
      { birthday: 'yesterday' },
      { country: 'x'.repeat(51) },
      { remark: 'x'.repeat(501) },
      { avatar: ['a'] },
      { nickName: 'a\u0000b' },
    ];
    for (const body of bad) {
      const res = await call('PUT', 'Profile', body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    for (const raw of ['', 'null', '[]', '{"nickName":']) {
      const res = await server.json('/api/Profile/Profile', {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: raw,
      });
      expect(res.status, raw).toBe(400);
    }
  });
});

describe('POST /api/Profile/ChangeUserName', () => {
  it('changes the name (password checked), audits, notifies; the new name signs in', async () => {
    const { user, call, token } = await signedIn();
    const name = `renamed_${user.id}`.slice(0, 30);
    const res = await call('POST', 'ChangeUserName', { userName: name, password: user.password });
    expect(res.status).toBe(200);
    const profile = (await call('GET', 'Profile')).body.data;
    expect(profile).toMatchObject({ userName: name, canChangeUserName: false });
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: { authorization: `Bearer ${token}` } })).body.data,
    ).toMatchObject({ userName: name });
    expect(profile.lastUserNameChangeTime).toBeTruthy();
    expect(await auditOf(user.id, 'UserNameChanged')).toEqual([
      expect.objectContaining({ actorUserId: user.id, detail: { from: user.userName, to: name } }),
    ]);
    const notes = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.title)).toContain('Your user name was changed');
    expect((await loginAs(server, { email: null, userName: name, password: user.password })).accessToken).toBeTruthy();
  });

  it('refuses a second change within 90 days and allows it after', async () => {
    const { user, call } = await signedIn();
    expect(
      (await call('POST', 'ChangeUserName', { userName: `a_${user.id}`.slice(0, 30), password: user.password })).status,
    ).toBe(200);
    const again = await call('POST', 'ChangeUserName', {
      userName: `b_${user.id}`.slice(0, 30),
      password: user.password,
    });
    expect(again.status).toBe(422);
    expect(again.body.data).toBe('The user name can be changed once in 90 days.');
    await deps()
      .db.update(users)
      .set({ lastUserNameChangeTime: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(users.id, user.id));
    expect((await call('GET', 'Profile')).body.data.canChangeUserName).toBe(true);
    expect(
      (await call('POST', 'ChangeUserName', { userName: `b_${user.id}`.slice(0, 30), password: user.password })).status,
    ).toBe(200);
  });

  it('refuses a bad pattern, a taken name in the home tenant, the same name, a wrong password, a system account', async () => {
    const { user, call } = await signedIn();
    const zh = profileCall(server, (await loginAs(server, user)).accessToken, 'zh-CN');
    for (const userName of ['ab', 'a'.repeat(31), 'has space', 'dash-name', 'dot.name', 'ünï', 'a@b']) {
      const res = await zh('POST', 'ChangeUserName', { userName, password: user.password });
      expect(res.status, userName).toBe(422);
      expect(res.body.data).toBe('用户名仅支持 3-30 位字母、数字和下划线。');
    }
    const other = await createTestUser(deps(), { userName: `Taken_${user.id}`.slice(0, 30) });
    const taken = await zh('POST', 'ChangeUserName', {
      userName: other.userName.toLowerCase(),
      password: user.password,
    });
    expect(taken.status).toBe(422);
    expect(taken.body.data).toBe('用户名已存在。');
    // Another tenant's name is free in this one.
    const tenantId = await createTestTenant(deps());
    const elsewhere = await createTestUser(deps(), { tenantId, userName: `Elsewhere_${user.id}`.slice(0, 30) });
    const same = await zh('POST', 'ChangeUserName', { userName: user.userName, password: user.password });
    expect(same.status).toBe(422);
    const wrong = await zh('POST', 'ChangeUserName', { userName: 'fresh_name_1', password: 'Wrong#Passw0rd' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.data).toBe('当前密码不正确。');
    expect(
      (await call('POST', 'ChangeUserName', { userName: elsewhere.userName, password: user.password })).status,
    ).toBe(200);

    const system = await signedIn();
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, system.user.id));
    const refused = await system.call('POST', 'ChangeUserName', { userName: 'system_new', password: GOOD_PASSWORD });
    expect(refused.status).toBe(422);
    expect(refused.body.data).toBe('The user name of a system account cannot be changed.');
    expect((await system.call('GET', 'Profile')).body.data.canChangeUserName).toBe(false);
  });

  it('of two accounts taking one name at once, one wins', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const name = `race_${a.user.id}`.slice(0, 30);
    const results = await Promise.all([
      a.call('POST', 'ChangeUserName', { userName: name, password: GOOD_PASSWORD }),
      b.call('POST', 'ChangeUserName', { userName: name, password: GOOD_PASSWORD }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('is refused while impersonating (403) and throttles wrong passwords (429)', async () => {
    const { user, token, call } = await signedIn();
    for (let i = 0; i < 5; i++) await call('POST', 'ChangeUserName', { userName: 'fresh_name_2', password: 'nope' });
    const throttled = await call('POST', 'ChangeUserName', { userName: 'fresh_name_2', password: user.password });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    await impersonate(server, token);
    expect((await call('POST', 'ChangeUserName', { userName: 'fresh_name_3', password: user.password })).status).toBe(
      403,
    );
    const [row] = await deps().db.select({ userName: users.userName }).from(users).where(eq(users.id, user.id));
    expect(row!.userName).toBe(user.userName);
  });

  it('answers bad input with a 400 envelope', async () => {
    const { call } = await signedIn();
    for (const body of [
      {},
      { userName: 'abc' },
      { password: 'x' },
      { userName: 1, password: 'x' },
      { userName: 'abc', password: null },
      { userName: 'x'.repeat(51), password: 'x' },
    ]) {
      const res = await call('POST', 'ChangeUserName', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});
