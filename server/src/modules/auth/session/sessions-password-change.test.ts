import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, notifications, userSecurity } from '../../../../../db/schema/index.js';
import { createTestUser, loginAs, type TestUser } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { SessionStatus } from './session-state.js';
import { sessionApi, sessionRow, startSessionServer } from './sessions-test-kit.js';

/**
 * The forced password change (SPEC "Session lock", rows 3-4) and POST /api/Profile/ChangePassword:
 * a default password or an administrator's "must change" locks the new session until the
 * password changes; the change rotates the security stamp and ends the other sessions.
 */

/** The built-in seed password and administrator (Saas.Seed defaults). */
const SEED_PASSWORD = 'Portcullis@123';
const ADMIN_EMAIL = 'admin@portcullis.local';
const CONFIGURED_DEFAULT = 'Welcome#Default1';
const NEW_PASSWORD = 'Brand#New-Passw0rd';

let server: TestServer;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  // The configured list replaces the built-in one, so the seed password below is matched as the seed password.
  server = await startSessionServer({ config: { Saas: { Auth: { DefaultPasswords: [CONFIGURED_DEFAULT] } } } });
  api = sessionApi(server);
});
afterAll(() => server.close());

async function stampOf(userId: bigint) {
  const [row] = await server.runtime.deps.db.select().from(userSecurity).where(eq(userSecurity.userId, userId));
  return row!;
}

async function expectPasswordChangeRequired(accessToken: string) {
  const res = await api.userInfo(accessToken);
  expect(res.status).toBe(423);
  expect(res.body.message).toMatch(/default password/i);
  expect((res.body.data as { reason: string }).reason).toBe('PasswordChangeRequired');
}

async function securityNotices(userId: bigint) {
  return server.runtime.deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.notificationType, 'Security')))
    .orderBy(desc(notifications.createdTime), desc(notifications.id));
}

describe('logins that force a password change', () => {
  it('an account marked "must change password" gets a locked session', async () => {
    const user = await createTestUser(server.runtime.deps, { mustChangePassword: true });
    const token = await loginAs(server, user);
    const row = await sessionRow(server, token.accessToken);
    expect(row.isLocked).toBe(true);
    expect(row.lockReason).toBe('PasswordChangeRequired');
    await expectPasswordChangeRequired(token.accessToken);
    expect((await api.permissions(token.accessToken)).status).toBe(423);
  });

  it('the seed password forces it (the seeded administrator)', async () => {
    const token = await loginAs(server, { email: ADMIN_EMAIL, userName: 'superadmin', password: SEED_PASSWORD });
    await expectPasswordChangeRequired(token.accessToken);
  });

  it('the seed password forces it for any account that uses it', async () => {
    const user = await createTestUser(server.runtime.deps, { password: SEED_PASSWORD });
    await expectPasswordChangeRequired((await loginAs(server, user)).accessToken);
  });

  it('a configured default password forces it', async () => {
    const user = await createTestUser(server.runtime.deps, { password: CONFIGURED_DEFAULT });
    await expectPasswordChangeRequired((await loginAs(server, user)).accessToken);
  });

  it('a seed password set in the configuration forces it', async () => {
    const custom = 'Seed#Pass-2026x';
    const other = await startSessionServer({ config: { Saas: { Seed: { AdminPassword: custom } } } });
    try {
      const user = await createTestUser(other.runtime.deps, { password: custom });
      const token = await loginAs(other, user);
      const res = await sessionApi(other).userInfo(token.accessToken);
      expect(res.status).toBe(423);
      expect((res.body.data as { reason: string }).reason).toBe('PasswordChangeRequired');
    } finally {
      await other.close();
    }
  });

  it('an ordinary password does not', async () => {
    const user = await createTestUser(server.runtime.deps);
    const token = await loginAs(server, user);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    expect((await sessionRow(server, token.accessToken)).isLocked).toBe(false);
  });
});

describe('while the change is pending', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser(server.runtime.deps, { mustChangePassword: true });
  });

  it('UnlockSession answers 423 (only the change, logout and refresh are allowed), even with the right password', async () => {
    const token = await loginAs(server, user);
    const res = await api.unlock(token.accessToken, user.password);
    expect(res.status).toBe(423);
    expect((res.body.data as { reason: string }).reason).toBe('PasswordChangeRequired');
    await expectPasswordChangeRequired(token.accessToken);
  });

  it('LockSession answers 423 and cannot turn it into a screen lock that a PIN releases', async () => {
    const token = await loginAs(server, user);
    expect((await api.lock(token.accessToken, '1234')).status).toBe(423);
    expect((await api.unlock(token.accessToken, '1234')).status).toBe(423);
    await expectPasswordChangeRequired(token.accessToken);
    expect((await sessionRow(server, token.accessToken)).lockReason).toBe('PasswordChangeRequired');
  });

  it('RefreshToken works and the lock stays', async () => {
    const token = await loginAs(server, user);
    const res = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(res.status).toBe(200);
    await expectPasswordChangeRequired(res.body.data.accessToken);
  });

  it('Logout works', async () => {
    const token = await loginAs(server, user);
    expect((await api.logout(token.accessToken)).status).toBe(200);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });
});

describe('ChangePassword', () => {
  it('releases the forced change: checks, policy, stamp, other sessions, audit, notice, logins', async () => {
    const user = await createTestUser(server.runtime.deps, { mustChangePassword: true });
    const other = await loginAs(server, user, { deviceId: 'tablet' });
    const token = await loginAs(server, user, { deviceId: 'desk' });
    const before = await stampOf(user.id);
    const noticesBefore = (await securityNotices(user.id)).length;

    const wrongOld = await api.changePassword(token.accessToken, 'not-my-password', NEW_PASSWORD);
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.data).toBe('The current password is incorrect.');

    const weak = await api.changePassword(token.accessToken, user.password, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.data).toContain('8 to 128 characters');
    expect(weak.body.data).toContain('at least three of');

    const same = await api.changePassword(token.accessToken, user.password, user.password);
    expect(same.status).toBe(400);
    expect(same.body.data).toContain('not one of your last 5 passwords');

    // None of the refusals changed anything.
    expect((await stampOf(user.id)).securityStamp).toBe(before.securityStamp);
    await expectPasswordChangeRequired(token.accessToken);

    const ok = await api.changePassword(token.accessToken, user.password, NEW_PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body.isSuccess).toBe(true);

    // The current session is released and carries on with the new stamp.
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    expect((await sessionRow(server, token.accessToken)).isLocked).toBe(false);
    expect((await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).status).toBe(200);

    // The other session ends.
    const gone = await api.userInfo(other.accessToken);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe(10001);
    expect((await api.refresh({ accessToken: other.accessToken, refreshToken: other.refreshToken })).status).toBe(401);
    const otherRow = await sessionRow(server, other.accessToken);
    expect(otherRow.status).toBe(SessionStatus.Revoked);
    expect(otherRow.revokedReason).toBe('Password changed');

    const after = await stampOf(user.id);
    expect(after.securityStamp).not.toBe(before.securityStamp);
    expect(after.mustChangePassword).toBe(false);

    const audits = await server.runtime.deps.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'PasswordChanged')));
    expect(audits).toHaveLength(1);
    const notices = await securityNotices(user.id);
    expect(notices).toHaveLength(noticesBefore + 1);
    expect(notices[0]!.title).toBe('Your password was changed');

    // The new password logs in, unlocked; the old one no longer does.
    const fresh = await loginAs(server, { ...user, password: NEW_PASSWORD });
    expect((await api.userInfo(fresh.accessToken)).status).toBe(200);
    const oldLogin = await api.login(user.email!, user.password);
    expect(oldLogin.status).toBe(400);
  });

  it('releases a default-password login too, and the default no longer applies', async () => {
    const user = await createTestUser(server.runtime.deps, { password: CONFIGURED_DEFAULT });
    const token = await loginAs(server, user);
    await expectPasswordChangeRequired(token.accessToken);
    expect((await api.changePassword(token.accessToken, CONFIGURED_DEFAULT, NEW_PASSWORD)).status).toBe(200);
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    const again = await loginAs(server, { ...user, password: NEW_PASSWORD });
    expect((await api.userInfo(again.accessToken)).status).toBe(200);
  });

  it('from an unlocked session: the others end, this one carries on', async () => {
    const user = await createTestUser(server.runtime.deps);
    const a = await loginAs(server, user, { deviceId: 'a' });
    const b = await loginAs(server, user, { deviceId: 'b' });
    const bystander = await createTestUser(server.runtime.deps);
    const theirs = await loginAs(server, bystander);
    expect((await api.changePassword(a.accessToken, user.password, NEW_PASSWORD)).status).toBe(200);
    expect((await api.userInfo(a.accessToken)).status).toBe(200);
    expect((await api.userInfo(b.accessToken)).status).toBe(401);
    expect((await api.userInfo(theirs.accessToken)).status).toBe(200);
  });

  it('of two changes racing from two sessions, exactly one wins and its session survives', async () => {
    const user = await createTestUser(server.runtime.deps);
    const a = await loginAs(server, user, { deviceId: 'a' });
    const b = await loginAs(server, user, { deviceId: 'b' });
    const [ra, rb] = await Promise.all([
      api.changePassword(a.accessToken, user.password, 'First#Winner-2026'),
      api.changePassword(b.accessToken, user.password, 'Second#Winner-2026'),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 400]);
    const [winner, password] = ra.status === 200 ? [a, 'First#Winner-2026'] : [b, 'Second#Winner-2026'];
    const loser = winner === a ? b : a;
    expect((await api.userInfo(winner.accessToken)).status).toBe(200);
    expect((await api.userInfo(loser.accessToken)).status).toBe(401);
    // The password is the winner's.
    expect((await api.login(user.email!, password)).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await server.json('/api/Profile/ChangePassword', {
      method: 'POST',
      json: { oldPassword: 'x', newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(401);
  });
});
