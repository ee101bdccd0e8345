import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, refreshTokens, tenantMemberships, userSessions } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import {
  claimsOf,
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  GOOD_PASSWORD,
  grantRole,
  loginAs,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { createImpersonationExpiry } from './expiry.js';
import { ADMIN_CODES, grantScopedRole, member, tenantAdmin, USER_ADMIN } from '../user/admin-test-kit.js';
import { adminApi, startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

const clock = new ManualClock(Date.now());
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer({ clock });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const MINUTE = 60_000;

const endsOf = (sessionId: string) =>
  deps()
    .db.select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, 'ImpersonationEnded'), eq(auditEntries.targetId, sessionId)));

describe('impersonation', () => {
  it('starts a separate, flagged, 30-minute session without a refresh token, and ends it', async () => {
    const { tenantId, user: admin, api, token: adminToken } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId, { nickName: 'Bob' });
    const started = await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id), reason: 'ticket 42' });
    expect(started.status).toBe(200);
    const data = started.body.data;
    expect(data).toMatchObject({
      userId: String(bob.id),
      userName: bob.userName,
      tenantId: String(tenantId),
      impersonatorUserId: String(admin.id),
    });
    expect(data.token).toMatchObject({ refreshToken: '', tokenType: 'Bearer', expiresIn: 1800 });
    const as = adminApi(server, data.token.accessToken);
    expect(claimsOf(data.token.accessToken)).toMatchObject({
      UserId: String(bob.id),
      TenantId: String(tenantId),
      SessionId: data.sessionId,
    });
    expect((await as.get('/api/Auth/UserInfo')).body.data).toMatchObject({ id: String(bob.id), isImpersonating: true });
    expect((await as.get('/api/Impersonation/Impersonation')).body.data).toMatchObject({
      isImpersonating: true,
      impersonatorUserId: String(admin.id),
      userId: String(bob.id),
    });
    expect((await api.get('/api/Impersonation/Impersonation')).body.data).toMatchObject({ isImpersonating: false });

    const [session] = await deps()
      .db.select()
      .from(userSessions)
      .where(eq(userSessions.id, BigInt(data.sessionId)));
    expect(session).toMatchObject({ impersonatorUserId: admin.id, loginMethod: 'impersonation', userId: bob.id });
    expect(session!.expirationTime.getTime()).toBe(clock.nowMs() + 30 * MINUTE);
    // The token itself ends with the session, not after an ordinary token's hour.
    const { exp, iat } = claimsOf(data.token.accessToken) as { exp: number; iat: number };
    expect(exp - iat).toBe(30 * 60);
    expect(exp).toBe(Math.floor(session!.expirationTime.getTime() / 1000));
    expect(new Date(`${String(data.token.expiresAt).replace(' ', 'T')}Z`).getTime()).toBe(exp * 1000);
    expect(await deps().db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, session!.id))).toEqual([]);
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'ImpersonationStarted'), eq(auditEntries.targetId, data.sessionId)));
    expect(audit).toMatchObject({
      tenantId,
      userId: bob.id,
      actorUserId: admin.id,
      detail: expect.objectContaining({ reason: 'ticket 42' }),
    });
    // The administrator's own session is untouched; the impersonated user's list shows the session flagged.
    const sessions = (await api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id })).body.data;
    expect(sessions).toEqual([expect.objectContaining({ sessionId: data.sessionId, isImpersonation: true })]);

    expect((await as.post('/api/Impersonation/EndImpersonation')).status).toBe(200);
    expect((await as.get('/api/Auth/UserInfo')).status).toBe(401);
    expect((await adminApi(server, adminToken).get('/api/Auth/UserInfo')).status).toBe(200);
    const [ended] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'ImpersonationEnded'), eq(auditEntries.targetId, data.sessionId)));
    expect(ended).toMatchObject({ tenantId, userId: bob.id, actorUserId: admin.id });
    expect((await api.post('/api/Impersonation/EndImpersonation')).status).toBe(422);
  });

  it('cannot be refreshed and ends after the configured lifetime', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const data = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    const refresh = await server.json('/api/Auth/RefreshToken', {
      method: 'POST',
      json: { accessToken: data.token.accessToken, refreshToken: 'x'.repeat(43) },
    });
    expect(refresh.status).toBe(401);
    clock.advance(29 * MINUTE);
    expect((await adminApi(server, data.token.accessToken).get('/api/Auth/UserInfo')).status).toBe(200);
    clock.advance(2 * MINUTE);
    expect((await adminApi(server, data.token.accessToken).get('/api/Auth/UserInfo')).status).toBe(401);
  });

  it('is ended by the impersonator from its own session, and audited when the impersonation session logs out', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const first = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    expect((await api.post('/api/Impersonation/EndImpersonation', { sessionId: first.sessionId })).status).toBe(200);
    expect((await adminApi(server, first.token.accessToken).get('/api/Auth/UserInfo')).status).toBe(401);
    expect((await api.post('/api/Impersonation/EndImpersonation', { sessionId: first.sessionId })).status).toBe(404);

    const second = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    expect((await adminApi(server, second.token.accessToken).post('/api/Auth/Logout')).status).toBe(200);
    const ended = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'ImpersonationEnded'), eq(auditEntries.targetId, second.sessionId)));
    expect(ended).toHaveLength(1);
    expect(ended[0]?.detail).toMatchObject({ reason: 'logout' });
    // Someone else's impersonation session cannot be ended by id.
    const third = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    const other = await tenantAdmin(server, tenantId);
    expect((await other.api.post('/api/Impersonation/EndImpersonation', { sessionId: third.sessionId })).status).toBe(
      404,
    );
  });

  it('refuses oneself, a super-administrator, a disabled user, a non-member, and without the permission', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const start = (userId: bigint, extra: Record<string, unknown> = {}) =>
      api.post('/api/Impersonation/Impersonation', { userId: String(userId), ...extra });
    expect((await start(admin.id)).status).toBe(422);
    const root = await createSuperAdmin(deps());
    await deps().db.insert(tenantMemberships).values({ id: deps().ids.next(), tenantId, userId: root.id });
    // Hidden from the tenant's administrators (the same answer as a non-member) ...
    expect((await start(root.id)).status).toBe(422);
    // ... and refused by name to another super-administrator.
    const rootApi = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
    const superRefused = await rootApi.post('/api/Impersonation/Impersonation', { userId: String(root.id) });
    expect(superRefused.status).toBe(422);
    expect(superRefused.body.data).toMatch(/super-administrator cannot be impersonated/);
    const disabled = await member(deps(), tenantId, { status: 'Disabled' });
    expect((await start(disabled.id)).status).toBe(422);
    const stranger = await member(deps(), await createTestTenant(deps()));
    const notMember = await start(stranger.id);
    expect(notMember.status).toBe(422);
    expect(notMember.body.data).toMatch(/not an available member/);
    expect((await start(123n)).body.data).toBe(notMember.body.data);
    // A member whose membership has run out.
    const lapsed = await member(deps(), tenantId);
    await deps()
      .db.update(tenantMemberships)
      .set({ expirationTime: new Date(clock.nowMs() - MINUTE) })
      .where(eq(tenantMemberships.userId, lapsed.id));
    expect((await start(lapsed.id)).status).toBe(422);

    const plain = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
    const denied = await plain.api.post('/api/Impersonation/Impersonation', { userId: String(disabled.id) });
    expect(denied.status).toBe(403);
    expect(denied.body.data).toContain('saas:impersonation:start');
  });

  it('refuses a user holding more than the caller, and another tenant to a tenant administrator, with or without the cross-tenant code', async () => {
    const tenantId = await createTestTenant(deps());
    const limited = await tenantAdmin(server, tenantId, { codes: ['saas:impersonation:start', 'saas:user:read'] });
    const boss = await member(deps(), tenantId);
    await grantScopedRole(deps(), boss.id, tenantId, ['saas:user:delete']);
    const refused = await limited.api.post('/api/Impersonation/Impersonation', { userId: String(boss.id) });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toContain('saas:user:delete');

    const elsewhere = await createTestTenant(deps());
    const visitor = await createTestUser(deps(), { tenantId: elsewhere, memberOf: [elsewhere] });
    const cross = await limited.api.post('/api/Impersonation/Impersonation', {
      userId: String(visitor.id),
      tenantId: String(elsewhere),
    });
    expect(cross.status).toBe(403);
    expect(cross.body.data).toContain('saas:impersonation:cross-tenant');
    // The code is a platform code: inside a tenant it grants nothing.
    const crossAdmin = await tenantAdmin(server, tenantId, {
      codes: [...ADMIN_CODES, 'saas:impersonation:cross-tenant'],
    });
    const refusedCross = await crossAdmin.api.post('/api/Impersonation/Impersonation', {
      userId: String(visitor.id),
      tenantId: String(elsewhere),
    });
    expect(refusedCross.status).toBe(403);
    expect(refusedCross.body.data).toBe(
      'saas:impersonation:cross-tenant is a platform permission: it applies only in the platform operations state.',
    );
    expect(
      await deps()
        .db.select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'ImpersonationStarted'), eq(auditEntries.actorUserId, crossAdmin.user.id))),
    ).toEqual([]);
  });

  it('from the platform state with the cross-tenant code: another tenant, audited with the context it came from', async () => {
    const operator = await createTestUser(deps(), { tenantId: 0n });
    await grantRole(deps(), operator.id, 0n, [...ADMIN_CODES, 'saas:impersonation:cross-tenant']);
    const api = adminApi(server, (await loginAs(server, operator)).accessToken);
    const elsewhere = await createTestTenant(deps());
    const visitor = await member(deps(), elsewhere);
    await grantScopedRole(deps(), visitor.id, elsewhere, ['saas:user:read']);
    const ok = await api.post('/api/Impersonation/Impersonation', {
      userId: String(visitor.id),
      tenantId: String(elsewhere),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.tenantId).toBe(String(elsewhere));
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'ImpersonationStarted'), eq(auditEntries.targetId, ok.body.data.sessionId)));
    expect(audit).toMatchObject({
      tenantId: elsewhere,
      actorUserId: operator.id,
      detail: expect.objectContaining({ fromTenantId: '0' }),
    });
  });

  it('lets a super-administrator impersonate from the platform state, tenant users and platform accounts alike', async () => {
    const root = await createSuperAdmin(deps());
    const api = adminApi(server, (await loginAs(server, root)).accessToken);
    const tenantId = await createTestTenant(deps());
    const bob = await member(deps(), tenantId);
    await grantScopedRole(deps(), bob.id, tenantId, ['saas:tenant:delete']);
    expect(
      (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id), tenantId: String(tenantId) }))
        .status,
    ).toBe(200);
    const operator = await createTestUser(deps(), { tenantId: 0n });
    expect((await api.post('/api/Impersonation/Impersonation', { userId: String(operator.id) })).status).toBe(200);
    expect((await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).status).toBe(422);
  });

  it('refuses, while impersonating, password change, deletion, password and MFA reset, role changes, nesting and tenant switching', async () => {
    // The administrator holds what the deputy holds (no one impersonates someone holding more).
    const tenantId = await createTestTenant(deps());
    const { api } = await tenantAdmin(server, tenantId, { codes: [...ADMIN_CODES, 'saas:role:delete'] });
    const deputy = await member(deps(), tenantId);
    await grantScopedRole(deps(), deputy.id, tenantId, [
      'saas:user:delete',
      'saas:user-security:reset-password',
      'saas:user-security:reset-two-factor',
      'saas:user-role:grant',
      'saas:user-role:revoke',
      'saas:impersonation:start',
      'saas:user:read',
      'saas:role:delete',
    ]);
    const victim = await member(deps(), tenantId);
    const as = adminApi(
      server,
      (await api.post('/api/Impersonation/Impersonation', { userId: String(deputy.id) })).body.data.token.accessToken,
    );
    const refusals = [
      await as.post('/api/Profile/ChangePassword', { oldPassword: GOOD_PASSWORD, newPassword: 'Other#Passw0rd!7' }),
      await as.del('/api/User/User', { id: victim.id }),
      await as.post('/api/UserSecurity/ResetUserPassword', {
        basicId: String(victim.id),
        newPassword: 'Other#Passw0rd!7',
      }),
      await as.post('/api/UserSecurity/ResetUserTwoFactor', { basicId: String(victim.id) }),
      await as.post('/api/UserRole/UserRole', { userId: String(victim.id), roleId: '1' }),
      await as.del('/api/UserRole/UserRole', { id: 1 }),
      await as.del('/api/Role/Role', { id: 1 }),
      await as.post('/api/Impersonation/Impersonation', { userId: String(victim.id) }),
      // Switching tenants would carry the impersonation out of the tenant it was granted in.
      await as.post('/api/Auth/SwitchTenant', { tenantId: null }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.data).toBe('This operation is not allowed while impersonating a user.');
    }
    // Reads still work as the user.
    expect((await as.post('/api/UserQuery/UserPage', {})).status).toBe(200);
  });
});

describe('every end of an impersonation is audited once', () => {
  async function started() {
    const setup = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), setup.tenantId);
    const data = (await setup.api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    return { ...setup, bob, sessionId: data.sessionId as string, as: adminApi(server, data.token.accessToken) };
  }

  it('EndImpersonation and Logout: once each, naming who ended it', async () => {
    const a = await started();
    expect((await a.as.post('/api/Impersonation/EndImpersonation')).status).toBe(200);
    const ended = await endsOf(a.sessionId);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({
      tenantId: a.tenantId,
      userId: a.bob.id,
      actorUserId: a.user.id,
      detail: expect.objectContaining({ reason: 'ended', endedBy: String(a.user.id) }),
    });
    const b = await started();
    expect((await b.as.post('/api/Auth/Logout')).status).toBe(200);
    expect(await endsOf(b.sessionId)).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ reason: 'logout', endedBy: String(b.user.id) }) }),
    ]);
  });

  it("an administrator's revoke of the session or of all the user's sessions", async () => {
    const a = await started();
    const other = await tenantAdmin(server, a.tenantId);
    expect((await other.api.post('/api/UserSession/RevokeUserSession', { sessionId: a.sessionId })).status).toBe(200);
    expect((await a.as.get('/api/Auth/UserInfo')).status).toBe(401);
    expect(await endsOf(a.sessionId)).toEqual([
      expect.objectContaining({
        actorUserId: a.user.id,
        detail: expect.objectContaining({ endedBy: String(other.user.id) }),
      }),
    ]);

    const b = await started();
    expect((await b.api.post('/api/UserSession/RevokeUserSessions', { userId: String(b.bob.id) })).status).toBe(200);
    expect(await endsOf(b.sessionId)).toHaveLength(1);
  });

  it("the target's deactivation, and the removal of its membership", async () => {
    const a = await started();
    expect((await a.api.put('/api/User/UserStatus', { basicId: String(a.bob.id), status: 'Disabled' })).status).toBe(
      200,
    );
    expect((await a.as.get('/api/Auth/UserInfo')).status).toBe(401);
    expect(await endsOf(a.sessionId)).toHaveLength(1);

    const b = await started();
    const [membership] = await deps()
      .db.select()
      .from(tenantMemberships)
      .where(and(eq(tenantMemberships.userId, b.bob.id), eq(tenantMemberships.tenantId, b.tenantId)));
    const members = await tenantAdmin(server, b.tenantId, { codes: ['saas:tenant-member:revoke'] });
    expect((await members.api.del('/api/TenantMember/TenantMember', { id: String(membership!.id) })).status).toBe(200);
    expect((await b.as.get('/api/Auth/UserInfo')).status).toBe(401);
    expect(await endsOf(b.sessionId)).toHaveLength(1);
  });

  it('running out: the sweep marks it expired and audits it at its end time, once however many sweep', async () => {
    const a = await started();
    const expiry = createImpersonationExpiry(deps());
    clock.advance(29 * MINUTE);
    await expiry.sweep();
    expect(await endsOf(a.sessionId)).toEqual([]);
    clock.advance(2 * MINUTE);
    await Promise.all([expiry.sweep(), expiry.sweep(), createImpersonationExpiry(deps()).sweep()]);
    await expiry.sweep();
    const ended = await endsOf(a.sessionId);
    expect(ended).toHaveLength(1);
    const [session] = await deps()
      .db.select()
      .from(userSessions)
      .where(eq(userSessions.id, BigInt(a.sessionId)));
    expect(session!.status).toBe(3);
    expect(ended[0]).toMatchObject({
      actorUserId: a.user.id,
      createdTime: session!.expirationTime,
      detail: expect.objectContaining({ reason: 'expired', durationSeconds: 1800 }),
    });
    // Ended already: an administrator's revoke afterwards is not a second end.
    expect((await a.api.post('/api/UserSession/RevokeUserSession', { sessionId: a.sessionId })).status).toBe(200);
    expect(await endsOf(a.sessionId)).toHaveLength(1);
  });
});

describe('an impersonation session longer than an ordinary access token', () => {
  const longClock = new ManualClock(Date.now());
  let longServer: TestServer;
  beforeAll(async () => {
    longServer = await startAdminServer({
      clock: longClock,
      config: { Saas: { Impersonation: { SessionMinutes: 90 } } },
    });
  });
  afterAll(() => longServer.close());

  it('has one access token lasting the whole session (it cannot be refreshed), refused after the session ends', async () => {
    const { tenantId, api } = await tenantWithAdmin(longServer, USER_ADMIN);
    const bob = await member(longServer.runtime.deps, tenantId);
    const data = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data;
    const { exp, iat } = claimsOf(data.token.accessToken) as { exp: number; iat: number };
    expect(exp - iat).toBe(90 * 60);
    expect(data.token.expiresIn).toBe(90 * 60);
    const as = adminApi(longServer, data.token.accessToken);
    longClock.advance(89 * MINUTE);
    expect((await as.get('/api/Auth/UserInfo')).status).toBe(200);
    longClock.advance(2 * MINUTE);
    expect((await as.get('/api/Auth/UserInfo')).status).toBe(401);
  });
});
