import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  loginLogs,
  notifications,
  users,
  userSecurity,
  userSessions,
} from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { bearer, createTestUser, GOOD_PASSWORD, loginAs } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { LoginResult } from '../../login-log/write.js';
import { client, mailsTo, post, tokenIn } from './self-service-test-kit.js';
import { SessionStatus } from '../session/session-state.js';

/** Password recovery over HTTP: the link is read from the outbox the way a user reads mail. */

let server: TestServer;
const deps = () => server.runtime.deps;
beforeAll(async () => {
  server = await startTestServer({
    config: { App: { TrustForwardedHeaders: true }, Saas: { Auth: { CaptchaEnabled: false } } },
  });
});
afterAll(() => server.close());

const NEW_PASSWORD = 'N3w#Secret-Phrase';

async function resetLink(server: TestServer, email: string): Promise<string> {
  const res = await post(server, '/api/Auth/PasswordResetRequest', { email });
  expect(res.status).toBe(200);
  const mail = (await mailsTo(server, email, 'password-reset')).at(-1);
  if (!mail) throw new Error('no reset mail');
  return tokenIn(mail.text);
}

describe('PasswordResetRequest', () => {
  it('answers the same accepted result for a known and an unknown address, and mails only the known one', async () => {
    const user = await createTestUser(deps());
    const known = await post(server, '/api/Auth/PasswordResetRequest', { email: user.email!.toUpperCase() });
    const unknown = await post(server, '/api/Auth/PasswordResetRequest', { email: 'no-account@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body.data).toEqual({ accepted: true });
    expect(unknown.body.data).toEqual(known.body.data);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(await mailsTo(server, 'no-account@example.test')).toEqual([]);
    const [mail] = await mailsTo(server, user.email!, 'password-reset');
    expect(mail).toMatchObject({ subject: 'Reset your password' });
    expect(mail!.text).toMatch(/^Open this link within 30 minutes/);
    // The token travels in the front end's fragment, never to a server in a query string.
    expect(mail!.text).toMatch(/http:\/\/localhost:7777\/#\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}/);
  });

  it('answers accepted to a second request within a minute and mails once (it answered 429)', async () => {
    const user = await createTestUser(deps());
    const headers = client();
    const answers = [
      await post(server, '/api/Auth/PasswordResetRequest', { email: user.email }, headers),
      await post(server, '/api/Auth/PasswordResetRequest', { email: user.email }, headers),
      // From another client address too: the window is the mailbox's.
      await post(server, '/api/Auth/PasswordResetRequest', { email: user.email!.toUpperCase() }, client()),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ accepted: true });
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    expect(await mailsTo(server, user.email!, 'password-reset')).toHaveLength(1);
    expect((await post(server, '/api/Auth/PasswordResetRequest', { email: 'x' })).status).toBe(400);
  });

  it('answers an unknown address the same, every time, and mails nothing', async () => {
    const headers = client();
    for (let i = 0; i < 2; i++) {
      const answer = await post(
        server,
        '/api/Auth/PasswordResetRequest',
        { email: 'nobody-twice@example.test' },
        headers,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ accepted: true });
    }
    expect(await mailsTo(server, 'nobody-twice@example.test')).toEqual([]);
  });
});

describe('PasswordResetRequest from one busy client address', () => {
  let busy: TestServer;
  beforeAll(async () => {
    busy = await startTestServer({
      config: { App: { TrustForwardedHeaders: true }, Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 2 } } },
    });
  });
  afterAll(() => busy.close());

  it('answers accepted past ThrottlePerIp a minute and mails no more addresses', async () => {
    const headers = client();
    const users = [
      await createTestUser(busy.runtime.deps),
      await createTestUser(busy.runtime.deps),
      await createTestUser(busy.runtime.deps),
    ];
    for (const user of users) {
      const answer = await post(busy, '/api/Auth/PasswordResetRequest', { email: user.email }, headers);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ accepted: true });
    }
    const mailed = await Promise.all(users.map(async (u) => (await mailsTo(busy, u.email!, 'password-reset')).length));
    expect(mailed).toEqual([1, 1, 0]);
    // The third address was not held: from another client it is mailed.
    expect((await post(busy, '/api/Auth/PasswordResetRequest', { email: users[2]!.email }, client())).status).toBe(200);
    expect(await mailsTo(busy, users[2]!.email!, 'password-reset')).toHaveLength(1);
  });
});

describe('ConsumePasswordResetToken', () => {
  it('sets the password, voids the token, rotates the stamp, revokes every session and audits PasswordReset', async () => {
    const user = await createTestUser(deps());
    const before = await loginAs(server, user);
    const other = await loginAs(server, user, { deviceId: 'phone' });
    const [previous] = await deps()
      .db.select({ stamp: userSecurity.securityStamp })
      .from(userSecurity)
      .where(eq(userSecurity.userId, user.id));
    const token = await resetLink(server, user.email!);

    const res = await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true });

    const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(security!.securityStamp).not.toBe(previous!.stamp);
    for (const t of [before, other])
      expect((await server.json('/api/Auth/UserInfo', { headers: bearer(t.accessToken) })).status).toBe(401);
    const sessions = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(sessions.every((s) => s.status === SessionStatus.Revoked)).toBe(true);
    // Their refresh tokens are spent too.
    expect(
      (
        await post(server, '/api/Auth/RefreshToken', {
          accessToken: before.accessToken,
          refreshToken: before.refreshToken,
        })
      ).status,
    ).toBe(401);

    expect((await post(server, '/api/Auth/Login', { username: user.email, password: GOOD_PASSWORD })).status).toBe(400);
    expect((await post(server, '/api/Auth/Login', { username: user.email, password: NEW_PASSWORD })).status).toBe(200);

    const audit = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'PasswordReset')));
    expect(audit).toHaveLength(1);
    const log = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.PasswordReset)));
    expect(log).toHaveLength(1);
    const notices = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notices.map((x) => x.notificationType)).toContain('Security');

    const reuse = await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: 'An0ther#Phrase' });
    expect(reuse.status).toBe(400);
    expect(reuse.body.data).toBe('The reset link is invalid or has expired; request a new one.');
  });

  it("lifts a lockout that failed logins caused, never an administrator's lock", async () => {
    const later = new Date(Date.now() + 3 * 3_600_000);
    const reset = async (failedLoginAttempts: number) => {
      const user = await createTestUser(deps());
      await deps()
        .db.update(userSecurity)
        .set({ failedLoginAttempts, lockoutEndTime: later })
        .where(eq(userSecurity.userId, user.id));
      const token = await resetLink(server, user.email!);
      expect(
        (await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: NEW_PASSWORD })).status,
      ).toBe(200);
      const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
      return {
        user,
        security: security!,
        login: await post(server, '/api/Auth/Login', { username: user.email, password: NEW_PASSWORD }),
      };
    };
    // Five failures locked it: the owner of the mailbox forgot the password and may now log in.
    const forgot = await reset(5);
    expect(forgot.security).toMatchObject({ lockoutEndTime: null, failedLoginAttempts: 0 });
    expect(forgot.login.status).toBe(200);
    // An administrator locked it (UserSecurity/UserLock leaves the count at 0): the lock stays.
    const locked = await reset(0);
    expect(locked.security.lockoutEndTime).toEqual(later);
    expect(locked.login.status).toBe(400);
  });

  it('refuses a password outside 8-128 characters or the policy without spending the link', async () => {
    const user = await createTestUser(deps());
    const token = await resetLink(server, user.email!);
    for (const newPassword of ['Sh0rt!', `${'Aa1!'.repeat(32)}x`, 'onlylowercase', GOOD_PASSWORD]) {
      const res = await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword });
      expect(res.status, newPassword).toBe(400);
      expect(res.body.data, newPassword).toMatch(/does not meet the requirements/);
    }
    expect(
      (await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
  });

  it('answers bad input and unknown tokens with 400', async () => {
    for (const body of [
      undefined,
      {},
      { token: 'x' },
      { newPassword: NEW_PASSWORD },
      { token: '', newPassword: NEW_PASSWORD },
      { token: 1, newPassword: NEW_PASSWORD },
    ]) {
      const res = await server.json('/api/Auth/ConsumePasswordResetToken', {
        method: 'POST',
        headers: client(),
        ...(body === undefined ? {} : { json: body }),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await post(server, '/api/Auth/ConsumePasswordResetToken', {
      token: 'not-a-token',
      newPassword: NEW_PASSWORD,
    });
    expect(unknown.body.data).toMatch(/reset link is invalid/);
  });

  it('a password changed after the link was mailed voids the link', async () => {
    const user = await createTestUser(deps());
    const token = await resetLink(server, user.email!);
    const session = await loginAs(server, user);
    const changed = await server.json('/api/Profile/ChangePassword', {
      method: 'POST',
      headers: bearer(session.accessToken),
      json: { oldPassword: GOOD_PASSWORD, newPassword: 'Chang3d#Elsewhere' },
    });
    expect(changed.status).toBe(200);
    expect(
      (await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: NEW_PASSWORD })).status,
    ).toBe(400);
  });

  it('verifies the e-mail of an unverified account (the link proved the mailbox)', async () => {
    const user = await createTestUser(deps(), { isActive: false, emailVerified: false });
    const token = await resetLink(server, user.email!);
    expect(
      (await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
    const [row] = await deps().db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ isActive: true, emailVerified: true });
  });

  it('20 parallel consumptions of one token: exactly one succeeds', async () => {
    const user = await createTestUser(deps());
    const token = await resetLink(server, user.email!);
    const headers = client();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: `${NEW_PASSWORD}${i}` }, headers),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
    const winner = results.indexOf(ok[0]!);
    expect(
      (await post(server, '/api/Auth/Login', { username: user.email, password: `${NEW_PASSWORD}${winner}` })).status,
    ).toBe(200);
    const audit = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'PasswordReset')));
    expect(audit).toHaveLength(1);
  });
});

describe('reset link expiry (frozen clock, in-process store)', () => {
  let frozen: TestServer;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    frozen = await startTestServer({ clock, config: { Redis: { Url: undefined } } });
  });
  afterAll(() => frozen.close());

  it('is valid 30 minutes', async () => {
    const user = await createTestUser(frozen.runtime.deps);
    const a = await resetLink(frozen, user.email!);
    clock.advance(29 * 60_000);
    expect(
      (
        await frozen.json('/api/Auth/ConsumePasswordResetToken', {
          method: 'POST',
          json: { token: a, newPassword: NEW_PASSWORD },
        })
      ).status,
    ).toBe(200);
    clock.advance(2 * 60_000);
    const b = await resetLink(frozen, user.email!);
    clock.advance(30 * 60_000 + 1000);
    expect(
      (
        await frozen.json('/api/Auth/ConsumePasswordResetToken', {
          method: 'POST',
          json: { token: b, newPassword: 'Y3t#Another-One' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('password recovery switched off', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ config: { Saas: { Auth: { PasswordResetEnabled: false } } } });
  });
  afterAll(() => closed.close());

  it('answers 403', async () => {
    const res = await closed.json('/api/Auth/PasswordResetRequest', {
      method: 'POST',
      json: { email: 'a@example.test' },
      headers: { 'x-language': 'en-US' },
    });
    expect(res.status).toBe(403);
    expect(
      (
        await closed.json('/api/Auth/ConsumePasswordResetToken', {
          method: 'POST',
          json: { token: 'x', newPassword: NEW_PASSWORD },
        })
      ).status,
    ).toBe(403);
  });
});
