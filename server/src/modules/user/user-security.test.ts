import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantMemberships, users, userSecurity, userSessions } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { createTestTenant, createTestUser, loginAs, type TestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { SessionStatus } from '../auth/session/session-state.js';
import { ADMIN_CODES, grantScopedRole, member, tenantAdmin } from './admin-test-kit.js';
import { auditEntry, watchAudit, adminApi, startAdminServer } from '../../testing/admin.js';

/**
 * PUT /api/UserSecurity/UserLock and UserLoginPolicy over HTTP: what they store, what the next
 * login makes of it, who may be touched, and the audit entry each write leaves.
 */

// Whole seconds: date-times are written without fractions, so the test can compare exactly.
const clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer({ clock });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const MINUTE = 60_000;
const LOCK = '/api/UserSecurity/UserLock';
const POLICY = '/api/UserSecurity/UserLoginPolicy';
const SECURITY_CODES = [
  'saas:user:read',
  'saas:user-security:lock',
  'saas:user-security:login-policy',
  'saas:impersonation:start',
];

/** A tenant with an administrator holding the user codes plus lock and login policy. */
async function tenantWithAdmin() {
  const tenantId = await createTestTenant(deps());
  return {
    tenantId,
    ...(await tenantAdmin(server, tenantId, {
      codes: [...ADMIN_CODES, 'saas:user-security:lock', 'saas:user-security:login-policy'],
    })),
  };
}

const login = (user: TestUser) =>
  server.json('/api/Auth/Login', {
    method: 'POST',
    headers: { 'x-language': 'en-US' },
    json: { username: user.email, password: user.password },
  });
const securityOf = async (id: bigint) =>
  (await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, id)))[0]!;
/** Logins a second apart: eviction goes by login time, oldest first. */
const loginLater = (user: TestUser) => {
  clock.advance(1000);
  return loginAs(server, user);
};
const activeSessions = async (id: bigint) =>
  (
    await deps()
      .db.select()
      .from(userSessions)
      .where(and(eq(userSessions.userId, id), eq(userSessions.status, SessionStatus.Active)))
  ).length;

describe('UserSecurity/UserLock', () => {
  it('locks for the configured minutes: sessions end, login is refused; unlocking clears the failures and lets the user in', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin();
    const bob = await member(deps(), tenantId);
    const bobApi = adminApi(server, (await loginAs(server, bob)).accessToken);
    const stamp = (await securityOf(bob.id)).securityStamp;
    const revoked: unknown[] = [];
    const off = deps().events.on('SessionsRevoked', (e) => void revoked.push(e));
    const audit = await watchAudit(server);

    const locked = await api.put(LOCK, { basicId: String(bob.id), isLocked: true, remark: 'ticket 7' });
    off();
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    const until = new Date(clock.nowMs() + 30 * MINUTE);
    expect(locked.body.data).toMatchObject({
      basicId: String(bob.id),
      isLocked: true,
      failedLoginAttempts: 0,
      allowMultiLogin: true,
      maxLoginDevices: 0,
    });
    expect(new Date(locked.body.data.lockoutEndTime).getTime()).toBe(until.getTime());
    expect(await audit()).toEqual([
      auditEntry(locked, {
        action: 'UserLocked',
        actor: admin.id,
        tenantId,
        targetType: 'User',
        targetId: bob.id,
        userId: bob.id,
        detail: { lockoutEndTime: until.toISOString(), remark: 'ticket 7' },
      }),
    ]);
    // The sessions end the way disabling ends them, and the stamp rotates.
    expect(revoked).toEqual([expect.objectContaining({ userId: bob.id })]);
    expect((await bobApi.get('/api/Auth/UserInfo')).status).toBe(401);
    expect(await activeSessions(bob.id)).toBe(0);
    expect((await securityOf(bob.id)).securityStamp).not.toBe(stamp);
    const list = (await api.post('/api/UserQuery/UserPage', { keyword: bob.userName })).body.data.items;
    expect(list).toEqual([expect.objectContaining({ basicId: String(bob.id), isLocked: true })]);

    // The right password meets the lock. Wrong ones change nothing while it runs: five of them
    // would otherwise shorten it to the automatic 30 minutes, or make it one a reset lifts.
    const refused = await login(bob);
    expect(refused.status).toBe(400);
    expect(refused.body.data).toContain('locked; try again in 30 minutes');
    for (let i = 0; i < 5; i++) expect((await login({ ...bob, password: 'Wrong#Passw0rd1' })).status).toBe(400);
    expect(await securityOf(bob.id)).toMatchObject({ failedLoginAttempts: 0, lockoutEndTime: until });

    const unlocked = await api.put(LOCK, { basicId: String(bob.id), isLocked: false });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.data).toMatchObject({ isLocked: false, failedLoginAttempts: 0 });
    // Nulls are left out of the JSON.
    expect(unlocked.body.data).not.toHaveProperty('lockoutEndTime');
    expect(await audit()).toEqual([
      auditEntry(unlocked, {
        action: 'UserUnlocked',
        actor: admin.id,
        tenantId,
        targetType: 'User',
        targetId: bob.id,
        detail: {},
      }),
    ]);
    expect(await securityOf(bob.id)).toMatchObject({
      lockoutEndTime: null,
      failedLoginAttempts: 0,
      lastFailedLoginTime: null,
    });
    await loginAs(server, bob);
  });

  it('locks until an explicit end, after which login works again by itself', async () => {
    const { tenantId, api } = await tenantWithAdmin();
    const bob = await member(deps(), tenantId);
    const end = new Date(clock.nowMs() + 3 * 60 * MINUTE);
    const res = await api.put(LOCK, {
      basicId: bob.id.toString(),
      isLocked: 'true',
      lockoutEndTime: end.toISOString(),
    });
    expect(res.status).toBe(200);
    expect(new Date(res.body.data.lockoutEndTime).getTime()).toBe(end.getTime());
    expect((await login(bob)).body.data).toContain('try again in 180 minutes');
    clock.advance(3 * 60 * MINUTE + 1000);
    await loginAs(server, bob);
  });

  it('answers bad input with a 400 naming the problem, and changes nothing', async () => {
    const { tenantId, api } = await tenantWithAdmin();
    const bob = await member(deps(), tenantId);
    const id = String(bob.id);
    const cases: Array<[unknown, string]> = [
      [
        { basicId: id, isLocked: true, lockoutEndTime: new Date(clock.nowMs() - MINUTE).toISOString() },
        'later than now',
      ],
      [{ basicId: id, isLocked: true, lockoutEndTime: new Date(clock.nowMs()).toISOString() }, 'later than now'],
      [{ basicId: id, isLocked: true, lockoutEndTime: '+010000-01-01T00:00:00Z' }, 'years 0001 to 9999'],
      [{ basicId: id, isLocked: true, lockoutEndTime: 'next tuesday' }, 'lockoutEndTime'],
      [{ basicId: id }, 'isLocked'],
      [{ basicId: id, isLocked: 'maybe' }, 'isLocked'],
      [{ basicId: 'abc', isLocked: true }, 'basicId'],
      [{ isLocked: true }, 'basicId'],
      [{ basicId: id, isLocked: true, remark: 'x'.repeat(501) }, 'remark'],
    ];
    for (const [body, text] of cases) {
      const res = await api.put(LOCK, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, isSuccess: false });
      expect(JSON.stringify(res.body.data), JSON.stringify(body)).toContain(text);
    }
    expect((await securityOf(bob.id)).lockoutEndTime).toBeNull();
  });

  it('refuses to lock oneself, a system account or the tenant owner (422), but may unlock them', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin();
    const system = await member(deps(), tenantId);
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, system.id));
    const owner = await member(deps(), tenantId);
    await deps()
      .db.update(tenantMemberships)
      .set({ memberType: 'Owner' })
      .where(eq(tenantMemberships.userId, owner.id));
    const audit = await watchAudit(server);
    for (const [user, text] of [
      [admin, 'your own account'],
      [system, 'A system account'],
      [owner, 'owner of the tenant'],
    ] as const) {
      const res = await api.put(LOCK, { basicId: String(user.id), isLocked: true });
      expect(res.status).toBe(422);
      expect(res.body.data).toContain(text);
      expect((await securityOf(user.id)).lockoutEndTime).toBeNull();
    }
    expect(await audit()).toEqual([]);
    // Failed logins can lock any account, so lifting a lock is allowed for all of them.
    await deps()
      .db.update(userSecurity)
      .set({ lockoutEndTime: new Date(clock.nowMs() + MINUTE), failedLoginAttempts: 5 })
      .where(eq(userSecurity.userId, system.id));
    expect((await api.put(LOCK, { basicId: String(system.id), isLocked: false })).status).toBe(200);
    await loginAs(server, system);
  });
});

describe('UserSecurity/UserLoginPolicy', () => {
  it('stores the policy; open sessions stay and the next login applies it', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin();
    const bob = await member(deps(), tenantId);
    await loginLater(bob);
    await loginLater(bob);
    const audit = await watchAudit(server);

    const single = await api.put(POLICY, {
      basicId: String(bob.id),
      allowMultiLogin: false,
      maxLoginDevices: 1,
      remark: 'kiosk',
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body.data).toMatchObject({
      basicId: String(bob.id),
      allowMultiLogin: false,
      maxLoginDevices: 1,
      isLocked: false,
    });
    expect(await audit()).toEqual([
      auditEntry(single, {
        action: 'UserLoginPolicyChanged',
        actor: admin.id,
        tenantId,
        targetType: 'User',
        targetId: bob.id,
        detail: {
          from: { allowMultiLogin: true, maxLoginDevices: 0 },
          to: { allowMultiLogin: false, maxLoginDevices: 1 },
          remark: 'kiosk',
        },
      }),
    ]);
    expect(await activeSessions(bob.id)).toBe(2);
    const newest = adminApi(server, (await loginLater(bob)).accessToken);
    expect(await activeSessions(bob.id)).toBe(1);
    expect((await newest.get('/api/Auth/UserInfo')).status).toBe(200);

    // A device limit keeps the newest sessions; 0 lifts it.
    expect((await api.put(POLICY, { basicId: String(bob.id), allowMultiLogin: true, maxLoginDevices: 2 })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) await loginLater(bob);
    expect(await activeSessions(bob.id)).toBe(2);
    expect((await newest.get('/api/Auth/UserInfo')).status).toBe(401);
    expect(
      (await api.put(POLICY, { basicId: String(bob.id), allowMultiLogin: 'true', maxLoginDevices: 0 })).status,
    ).toBe(200);
    await loginLater(bob);
    expect(await activeSessions(bob.id)).toBe(3);
    expect(await securityOf(bob.id)).toMatchObject({ allowMultiLogin: true, maxLoginDevices: 0 });
  });

  it('refuses a device count below 0 (400) and multi-login off without a device count (422)', async () => {
    const { tenantId, api } = await tenantWithAdmin();
    const bob = await member(deps(), tenantId);
    const id = String(bob.id);
    for (const body of [
      { basicId: id, allowMultiLogin: true, maxLoginDevices: -1 },
      { basicId: id, allowMultiLogin: true, maxLoginDevices: 1.5 },
      { basicId: id, allowMultiLogin: true, maxLoginDevices: 4_000_000_000 },
      { basicId: id, allowMultiLogin: true, maxLoginDevices: '2' },
      { basicId: id, allowMultiLogin: true },
    ]) {
      const res = await api.put(POLICY, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.data)).toContain('maxLoginDevices');
    }
    expect((await api.put(POLICY, { basicId: id, maxLoginDevices: 1 })).status).toBe(400);
    const off = await api.put(POLICY, { basicId: id, allowMultiLogin: false, maxLoginDevices: 0 });
    expect(off.status).toBe(422);
    expect(off.body.data).toBe('With multi-login off, maxLoginDevices must be greater than 0.');
    expect(await securityOf(bob.id)).toMatchObject({ allowMultiLogin: true, maxLoginDevices: 0 });
  });
});

describe('UserSecurity lock and policy: who may be touched', () => {
  it('answers 404 outside the scope, 422 for a member from elsewhere, 403 without the code or while impersonating', async () => {
    const { tenantId, api } = await tenantWithAdmin();
    const other = await createTestTenant(deps());
    const stranger = await member(deps(), other);
    const visitor = await createTestUser(deps(), { tenantId: other, memberOf: [other, tenantId] });
    for (const [path, body] of [
      [LOCK, { isLocked: true }],
      [POLICY, { allowMultiLogin: false, maxLoginDevices: 1 }],
    ] as const) {
      for (const id of [stranger.id, 999_999_999_999n]) {
        const res = await api.put(path, { basicId: String(id), ...body });
        expect(res.status, path).toBe(404);
        expect(res.body.data).toContain('does not exist');
      }
      expect((await api.put(path, { basicId: String(visitor.id), ...body })).status, path).toBe(422);

      const plain = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
      const bob = await member(deps(), tenantId);
      expect((await plain.api.put(path, { basicId: String(bob.id), ...body })).status, path).toBe(403);
    }
    for (const id of [stranger.id, visitor.id])
      expect(await securityOf(id)).toMatchObject({ lockoutEndTime: null, allowMultiLogin: true });

    // An impersonation session of an administrator holding both codes may not use them.
    const deputy = await tenantAdmin(server, tenantId, { codes: SECURITY_CODES });
    const colleague = await tenantAdmin(server, tenantId, { codes: SECURITY_CODES });
    const victim = await member(deps(), tenantId);
    const started = await deputy.api.post('/api/Impersonation/Impersonation', { userId: String(colleague.user.id) });
    expect(started.status).toBe(200);
    const as = adminApi(server, started.body.data.token.accessToken);
    for (const res of [
      await as.put(LOCK, { basicId: String(victim.id), isLocked: true }),
      await as.put(POLICY, { basicId: String(victim.id), allowMultiLogin: false, maxLoginDevices: 1 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.data).toBe('This operation is not allowed while impersonating a user.');
    }
    expect(await securityOf(victim.id)).toMatchObject({
      lockoutEndTime: null,
      allowMultiLogin: true,
      maxLoginDevices: 0,
    });
  });
});

describe('taking an account over', () => {
  it('refuses to reset the password or second factor of a user holding a permission the administrator lacks (403)', async () => {
    const tenantId = await createTestTenant(deps());
    const helpdesk = await tenantAdmin(server, tenantId, {
      codes: ['saas:user:read', 'saas:user-security:reset-password', 'saas:user-security:reset-two-factor'],
    });
    const boss = await member(deps(), tenantId);
    await grantScopedRole(deps(), boss.id, tenantId, ['saas:user:read', 'saas:role-permission:grant']);
    const clerk = await member(deps(), tenantId);
    await grantScopedRole(deps(), clerk.id, tenantId, ['saas:user:read']);
    for (const [path, body] of [
      [
        '/api/UserSecurity/ResetUserPassword',
        { basicId: String(boss.id), newPassword: 'Taken#Over9Pass', mustChangePassword: false },
      ],
      ['/api/UserSecurity/ResetUserTwoFactor', { basicId: String(boss.id) }],
    ] as const) {
      const refused = await helpdesk.api.post(path, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body.data).toMatch(/saas:role-permission:grant/);
    }
    expect((await login(boss)).status).toBe(200);
    // Someone holding nothing more than the administrator can still be helped.
    expect(
      (
        await helpdesk.api.post('/api/UserSecurity/ResetUserPassword', {
          basicId: String(clerk.id),
          newPassword: 'Fresh#Start9Pass',
          mustChangePassword: true,
        })
      ).status,
    ).toBe(200);
    expect(
      (await helpdesk.api.post('/api/UserSecurity/ResetUserTwoFactor', { basicId: String(clerk.id) })).status,
    ).toBe(200);
  });

  it("counts what the user holds in every tenant it belongs to, not only the administrator's", async () => {
    const tenantId = await createTestTenant(deps());
    const elsewhere = await createTestTenant(deps());
    const helpdesk = await tenantAdmin(server, tenantId, {
      codes: ['saas:user:read', 'saas:user-security:reset-password', 'saas:user-security:reset-two-factor'],
    });
    // Home here, a plain user here, but reading users in the other tenant, where helpdesk holds nothing.
    const roamer = await createTestUser(deps(), { tenantId, memberOf: [tenantId, elsewhere] });
    await grantScopedRole(deps(), roamer.id, tenantId, ['saas:user:read']);
    await grantScopedRole(deps(), roamer.id, elsewhere, ['saas:user:read']);
    for (const [path, body] of [
      [
        '/api/UserSecurity/ResetUserPassword',
        { basicId: String(roamer.id), newPassword: 'Taken#Over9Pass', mustChangePassword: false },
      ],
      ['/api/UserSecurity/ResetUserTwoFactor', { basicId: String(roamer.id) }],
    ] as const) {
      const refused = await helpdesk.api.post(path, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body.data).toMatch(/saas:user:read/);
    }
    // Once helpdesk holds the same there, it may help.
    await grantScopedRole(deps(), helpdesk.user.id, elsewhere, ['saas:user:read']);
    expect(
      (await helpdesk.api.post('/api/UserSecurity/ResetUserTwoFactor', { basicId: String(roamer.id) })).status,
    ).toBe(200);
  });
});
