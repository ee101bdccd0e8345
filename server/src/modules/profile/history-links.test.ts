import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  externalLogins,
  loginLogs,
  notificationPreferences,
  notifications,
  users,
  userSessions,
} from '../../../../db/schema/index.js';
import { createTestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { mailsTo } from '../auth/self-service/self-service-test-kit.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { notifySecurity } from '../notifications/notify.js';
import { periodStarts } from './history.js';
import { profileCall, sessionOf, signedInOn } from './profile-test-kit.js';

/** LoginLogs, Activity, LinkedAccounts, UnlinkAccount and NotificationPreference over real HTTP. */

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

const logRow = (userId: bigint, at: Date, result: number, message = 'm') => ({
  id: deps().ids.next(),
  userId,
  userName: 'u',
  loginTime: at,
  result,
  message,
  loginIp: '10.0.0.1',
  browser: 'Chrome',
  operatingSystem: 'Windows',
});

describe('GET /api/Profile/LoginLogs', () => {
  it("lists the caller's own rows newest first, paged, with the total", async () => {
    const { user, call } = await signedIn();
    const other = await createTestUser(deps());
    const base = Date.now() - 3_600_000;
    await deps().db.delete(loginLogs).where(eq(loginLogs.userId, user.id));
    await deps()
      .db.insert(loginLogs)
      .values([0, 1, 2, 3, 4].map((i) => logRow(user.id, new Date(base + i * 60_000), i === 1 ? 1 : 0, `row ${i}`)));
    await deps()
      .db.insert(loginLogs)
      .values(logRow(other.id, new Date(), 0, 'other'));
    const first = await call('GET', 'LoginLogs?page=1&pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.data.total).toBe(5);
    expect(first.body.data.items.map((i: { message: string }) => i.message)).toEqual(['row 4', 'row 3']);
    expect(first.body.data.items[0]).toMatchObject({
      loginIp: '10.0.0.1',
      browser: 'Chrome',
      os: 'Windows',
      loginResult: 'Success',
    });
    const last = await call('GET', 'LoginLogs?page=3&pageSize=2');
    expect(last.body.data.items.map((i: { message: string }) => i.message)).toEqual(['row 0']);
    const second = await call('GET', 'LoginLogs?page=2&pageSize=2');
    expect(second.body.data.items.map((i: { loginResult: string }) => i.loginResult)).toEqual([
      'Success',
      'InvalidCredentials',
    ]);
    // Defaults: page 1, 10 a page.
    expect((await call('GET', 'LoginLogs')).body.data.items).toHaveLength(5);
    expect((await call('GET', 'LoginLogs?page=99')).body.data).toEqual({ items: [], total: 5 });
  });

  it('answers out-of-range or malformed paging with 400', async () => {
    const { call } = await signedIn();
    for (const q of ['page=0', 'page=10001', 'pageSize=0', 'pageSize=51', 'page=abc', 'pageSize=1.5', 'page=-1']) {
      const res = await call('GET', `LoginLogs?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
  });
});

describe('GET /api/Profile/Activity', () => {
  it("has the original's shape and counts from the login log, the audit trail and the sessions", async () => {
    const { user, token, call } = await signedIn();
    const now = new Date();
    const { today } = periodStarts(now);
    // The sign-in of signedIn() is in the log; add one failure and one change today.
    await deps()
      .db.insert(loginLogs)
      .values(logRow(user.id, new Date(Math.max(today.getTime(), now.getTime() - 1000)), 1));
    await call('PUT', 'Profile', { nickName: 'Busy' });
    // The session has been in use for a quarter of an hour (within today, unless just past midnight).
    const from = new Date(Math.max(today.getTime(), now.getTime() - 15 * 60_000));
    await deps()
      .db.update(userSessions)
      .set({ loginTime: from, lastActivityTime: now })
      .where(eq(userSessions.id, BigInt(sessionOf(token))));
    const res = await call('GET', 'Activity');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual([
      'lastAccessTime',
      'lastLoginTime',
      'lastOperationTime',
      'thisMonth',
      'thisWeek',
      'today',
      'trend',
    ]);
    expect(data.today).toMatchObject({ loginCount: 1, operationCount: 1 });
    expect(data.today.accessCount).toBeGreaterThanOrEqual(2);
    expect(data.today.onlineTime).toBeGreaterThanOrEqual(Math.floor((now.getTime() - from.getTime()) / 1000) - 1);
    expect(data.thisMonth.loginCount).toBeGreaterThanOrEqual(
      data.thisWeek.loginCount >= data.today.loginCount ? data.today.loginCount : 0,
    );
    const day = now.toISOString().slice(0, 10);
    expect(data.trend.at(-1)).toMatchObject({ date: day, operationCount: 1 });
    expect(data.trend.at(-1).accessCount).toBeGreaterThanOrEqual(2);
    for (const key of ['lastLoginTime', 'lastAccessTime', 'lastOperationTime'])
      expect(typeof data[key], key).toBe('string');
  });

  it('a fresh account has zeros, no trend and leaves the unknown times out', async () => {
    const { user, call } = await signedIn();
    await deps().db.delete(loginLogs).where(eq(loginLogs.userId, user.id));
    await deps()
      .db.update(userSessions)
      .set({
        lastActivityTime: new Date(Date.now() - 800 * 86_400_000),
        loginTime: new Date(Date.now() - 800 * 86_400_000),
      })
      .where(eq(userSessions.userId, user.id));
    const data = (await call('GET', 'Activity')).body.data;
    // The GET itself refreshed the session's last activity; only that is left.
    expect(data.today).toMatchObject({ loginCount: 0, accessCount: 0, operationCount: 0 });
    expect(data).not.toHaveProperty('lastOperationTime');
  });
});

describe('LinkedAccounts and UnlinkAccount', () => {
  const link = (userId: bigint, provider: string, email: string | null = null) =>
    deps()
      .db.insert(externalLogins)
      .values({
        id: deps().ids.next(),
        tenantId: 0n,
        userId,
        provider,
        providerKey: `key-${deps().ids.next()}`,
        providerDisplayName: provider.toUpperCase(),
        email,
        lastLoginTime: new Date(),
      });

  it('lists the links and unlinks one while another remains; audited', async () => {
    const { user, call } = await signedIn();
    await deps()
      .db.update(users)
      .set({ email: `x_${user.id}@external.local` })
      .where(eq(users.id, user.id));
    await link(user.id, 'github', 'gh@example.test');
    await link(user.id, 'google');
    const listed = await call('GET', 'LinkedAccounts');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ provider: 'github', providerDisplayName: 'GITHUB', email: 'gh@example.test' }),
      expect.objectContaining({ provider: 'google', providerDisplayName: 'GOOGLE' }),
    ]);
    expect((await call('POST', 'UnlinkAccount', { provider: 'GitHub' })).status).toBe(200);
    expect((await call('GET', 'LinkedAccounts')).body.data.map((l: { provider: string }) => l.provider)).toEqual([
      'google',
    ]);
    expect(await auditOf(user.id, 'ExternalLoginUnlinked')).toEqual([
      expect.objectContaining({ detail: { provider: 'github' } }),
    ]);
    // The last one, with only a placeholder address and no phone: refused.
    const last = await call('POST', 'UnlinkAccount', { provider: 'google' });
    expect(last.status).toBe(422);
    expect(last.body.data).toMatch(/only way to sign in/);
    expect((await call('GET', 'LinkedAccounts')).body.data).toHaveLength(1);
  });

  it('the last link goes when a real e-mail or a verified phone remains', async () => {
    const withEmail = await signedIn();
    await link(withEmail.user.id, 'github');
    expect((await withEmail.call('POST', 'UnlinkAccount', { provider: 'github' })).status).toBe(200);

    const withPhone = await signedIn({ phone: '+15550177', phoneVerified: true });
    await deps()
      .db.update(users)
      .set({ email: `p_${withPhone.user.id}@external.local` })
      .where(eq(users.id, withPhone.user.id));
    await link(withPhone.user.id, 'github');
    expect((await withPhone.call('POST', 'UnlinkAccount', { provider: 'github' })).status).toBe(200);
  });

  it('two unlinks of the last two links at once: one is refused', async () => {
    const { user, call } = await signedIn();
    await deps()
      .db.update(users)
      .set({ email: `r_${user.id}@external.local` })
      .where(eq(users.id, user.id));
    await link(user.id, 'github');
    await link(user.id, 'google');
    const results = await Promise.all([
      call('POST', 'UnlinkAccount', { provider: 'github' }),
      call('POST', 'UnlinkAccount', { provider: 'google' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect((await call('GET', 'LinkedAccounts')).body.data).toHaveLength(1);
  });

  it("refuses an unknown provider or someone else's link (422) and bad input (400)", async () => {
    const { call } = await signedIn();
    const other = await createTestUser(deps());
    await link(other.id, 'gitee');
    const res = await call('POST', 'UnlinkAccount', { provider: 'gitee' });
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('No external account of that provider is linked.');
    expect(await deps().db.select().from(externalLogins).where(eq(externalLogins.userId, other.id))).toHaveLength(1);
    for (const body of [{}, { provider: '' }, { provider: 7 }, { provider: 'x'.repeat(65) }, { provider: null }]) {
      expect((await call('POST', 'UnlinkAccount', body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('NotificationPreference', () => {
  it("answers the original's defaults, saves given switches, keeps the others, audits the changes", async () => {
    const { user, call } = await signedIn();
    const defaults = {
      channelInApp: true,
      channelEmail: true,
      channelSms: false,
      channelPush: true,
      channelBot: false,
      typeAnnouncement: true,
      typeTask: true,
      typeApproval: true,
      typeSecurity: true,
      typeMarketing: false,
    };
    expect((await call('GET', 'NotificationPreference')).body.data).toEqual(defaults);
    const saved = await call('PUT', 'NotificationPreference', {
      channelEmail: false,
      typeMarketing: 'true',
      channelSms: 0,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ ...defaults, channelEmail: false, typeMarketing: true });
    expect((await call('GET', 'NotificationPreference')).body.data).toEqual(saved.body.data);
    expect((await call('PUT', 'NotificationPreference', { typeTask: false })).body.data).toEqual({
      ...defaults,
      channelEmail: false,
      typeMarketing: true,
      typeTask: false,
    });
    const audits = await auditOf(user.id, 'NotificationPreferenceChanged');
    expect(audits.map((a) => a.detail)).toEqual(
      expect.arrayContaining([{ channelEmail: false, typeMarketing: true }, { typeTask: false }]),
    );
    expect(audits).toHaveLength(2);
  });

  it('security notices honour it, except the mandatory ones', async () => {
    const { user, call } = await signedIn();
    await call('PUT', 'NotificationPreference', { typeSecurity: false });
    const notice = (kind: 'userNameChanged' | 'passwordChanged') =>
      notifySecurity(deps(), { userId: user.id, tenantId: 0n, culture: 'en-US', kind });
    await notice('userNameChanged');
    let rows = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(rows).toEqual([]);
    expect(await mailsTo(server, user.email!, 'security-alert')).toEqual([]);
    await notice('passwordChanged');
    rows = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(rows.map((r) => r.title)).toEqual(['Your password was changed']);
    expect((await mailsTo(server, user.email!, 'security-alert')).map((m) => m.subject)).toEqual([
      'Your password was changed',
    ]);
    // E-mail off, security on: in-app only.
    await call('PUT', 'NotificationPreference', { typeSecurity: true, channelEmail: false });
    await notice('userNameChanged');
    rows = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(rows).toHaveLength(2);
    expect(await mailsTo(server, user.email!, 'security-alert')).toHaveLength(1);
    expect(
      await deps().db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
    ).toHaveLength(1);
  });

  it('answers bad input with 400', async () => {
    const { call } = await signedIn();
    for (const body of [{ channelEmail: 'maybe' }, { typeTask: 2 }, { channelSms: null }, { channelInApp: [] }]) {
      expect((await call('PUT', 'NotificationPreference', body)).status, JSON.stringify(body)).toBe(400);
    }
    for (const raw of ['[]', 'null', '{']) {
      const res = await server.json('/api/Profile/NotificationPreference', {
        method: 'PUT',
        headers: { ...(await authHeaders()), 'content-type': 'application/json' },
        body: raw,
      });
      expect(res.status, raw).toBe(400);
    }
  });
});

async function authHeaders() {
  const { token } = await signedIn();
  return { authorization: `Bearer ${token}` };
}

describe('every self-service route needs a session', () => {
  it('answers 401 without a token and 405 for the wrong method', async () => {
    const routes: Array<[string, string]> = [
      ['GET', 'Profile/Profile'],
      ['PUT', 'Profile/Profile'],
      ['POST', 'Profile/ChangeUserName'],
      ['POST', 'Profile/SendChangeEmailCode'],
      ['POST', 'Profile/ConfirmChangeEmail'],
      ['POST', 'Profile/SendChangePhoneCode'],
      ['POST', 'Profile/ConfirmChangePhone'],
      ['POST', 'Profile/SendEmailVerifyCode'],
      ['POST', 'Profile/VerifyEmail'],
      ['POST', 'Profile/SendPhoneVerifyCode'],
      ['POST', 'Profile/VerifyPhone'],
      ['GET', 'Profile/LoginLogs'],
      ['GET', 'Profile/Activity'],
      ['GET', 'Profile/LinkedAccounts'],
      ['POST', 'Profile/UnlinkAccount'],
      ['GET', 'Profile/NotificationPreference'],
      ['PUT', 'Profile/NotificationPreference'],
      ['POST', 'UserSetting/Save'],
      ['GET', 'UserSettingQuery/Get'],
    ];
    const { token } = await signedIn();
    for (const [method, path] of routes) {
      const res = await server.json(`/api/${path}`, { method, ...(method === 'GET' ? {} : { json: {} }) });
      expect(res.status, `${method} ${path}`).toBe(401);
      const wrong = await server.json(`/api/${path}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(wrong.status, `DELETE ${path}`).toBe(405);
    }
  });
});
