import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  roles,
  tenantMemberships,
  tenants,
  userRoles,
  userSessions,
} from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import {
  bearer,
  claimsOf,
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  loginAs,
} from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';

// Memberships and tenants expire by this clock, which the tests move by hand.
const clock = new ManualClock(Date.now());
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock, config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;

async function info(token: string) {
  return (await server.json('/api/Auth/UserInfo', { headers: bearer(token) })).body.data;
}

describe('login landing', () => {
  it('lands a platform account in the platform state, without a TenantId claim', async () => {
    const user = await createTestUser(deps(), { tenantId: 0n });
    const token = await loginAs(server, user);
    expect(claimsOf(token.accessToken)).not.toHaveProperty('TenantId');
    expect(await info(token.accessToken)).toMatchObject({ isPlatform: true, canAccessPlatform: true });
  });

  it('lands a user with exactly one available membership in that tenant', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const token = await loginAs(server, user);
    expect(claimsOf(token.accessToken).TenantId).toBe(String(tenant));
    expect(await info(token.accessToken)).toMatchObject({
      isPlatform: false,
      tenantId: String(tenant),
      canAccessPlatform: false,
    });
    const [session] = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(session!.tenantId).toBe(tenant);
  });

  it('lands users with zero or several available memberships in the platform state', async () => {
    const a = await createTestTenant(deps());
    const b = await createTestTenant(deps());
    const several = await createTestUser(deps(), { tenantId: a, memberOf: [a, b] });
    expect(claimsOf((await loginAs(server, several)).accessToken)).not.toHaveProperty('TenantId');
    const none = await createTestUser(deps(), { tenantId: a });
    expect(claimsOf((await loginAs(server, none)).accessToken)).not.toHaveProperty('TenantId');
  });

  it('counts only available memberships: not expired, not suspended tenants, not disabled memberships', async () => {
    const good = await createTestTenant(deps());
    const suspended = await createTestTenant(deps(), { status: 'Suspended' });
    const expired = await createTestTenant(deps(), { expirationTime: new Date(clock.nowMs() - 1000) });
    const unconfigured = await createTestTenant(deps(), { configStatus: 'Pending' });
    const lapsedMembership = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: good, memberOf: [good, suspended, expired, unconfigured] });
    await deps()
      .db.insert(tenantMemberships)
      .values({
        id: deps().ids.next(),
        tenantId: lapsedMembership,
        userId: user.id,
        expirationTime: new Date(clock.nowMs() - 1),
      });
    const token = await loginAs(server, user);
    expect(claimsOf(token.accessToken).TenantId).toBe(String(good));
    const list = (await server.json('/api/TenantQuery/MyAvailableTenants', { headers: bearer(token.accessToken) })).body
      .data;
    expect(list.map((t: { tenantId: string }) => t.tenantId)).toEqual([String(good)]);
    expect(list[0]).toMatchObject({ isCurrent: true, memberType: 'Member', tenantStatus: 'Normal' });
  });

  it('lands the super-administrator in the platform state, who may list every available tenant', async () => {
    const tenant = await createTestTenant(deps());
    const token = await loginAs(server, await createSuperAdmin(deps()));
    expect(claimsOf(token.accessToken)).not.toHaveProperty('TenantId');
    const list = (await server.json('/api/TenantQuery/MyAvailableTenants', { headers: bearer(token.accessToken) })).body
      .data;
    expect(list.map((t: { tenantId: string }) => t.tenantId)).toContain(String(tenant));
  });
});

describe('SwitchTenant', () => {
  it('moves the session to a tenant with a new token pair and JTI, and back to the platform with null', async () => {
    const a = await createTestTenant(deps());
    const b = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: a, memberOf: [a, b] });
    const first = await loginAs(server, user);
    const sessionId = claimsOf(first.accessToken).SessionId;
    const toB = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: String(b) },
      headers: bearer(first.accessToken),
    });
    expect(toB.status).toBe(200);
    const claims = claimsOf(toB.body.data.accessToken);
    expect(claims).toMatchObject({ TenantId: String(b), SessionId: sessionId });
    expect(claims.jti).not.toBe(claimsOf(first.accessToken).jti);
    expect(toB.body.data.refreshToken).not.toBe(first.refreshToken);
    // The old access token no longer works; no new session was created.
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(first.accessToken) })).status).toBe(401);
    const sessions = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.tenantId).toBe(b);
    const audit = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'TenantSwitched')));
    expect(audit).toHaveLength(1);

    const toPlatform = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: null },
      headers: bearer(toB.body.data.accessToken),
    });
    expect(toPlatform.status).toBe(200);
    expect(claimsOf(toPlatform.body.data.accessToken)).not.toHaveProperty('TenantId');
    const [row] = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(row!.tenantId).toBe(0n);
  });

  it('refuses a tenant without membership, an unknown one, an unavailable one, and bad ids', async () => {
    const mine = await createTestTenant(deps());
    const other = await createTestTenant(deps());
    const frozen = await createTestTenant(deps(), { status: 'Suspended' });
    const user = await createTestUser(deps(), { tenantId: mine, memberOf: [mine, frozen] });
    const token = (await loginAs(server, user)).accessToken;
    const go = (tenantId: unknown) =>
      server.json('/api/Auth/SwitchTenant', {
        method: 'POST',
        json: { tenantId },
        headers: { ...bearer(token), 'x-language': 'en-US' },
      });
    expect((await go(String(other))).status).toBe(403);
    expect((await go('424242424242')).status).toBe(404);
    const suspended = await go(String(frozen));
    expect(suspended.status).toBe(403);
    expect(suspended.body.data).toMatch(/Suspended/);
    // Past 64 bits (as text, or as a JSON number, which the body parser keeps exact): 400, never a 500.
    // biome-ignore lint/correctness/noPrecisionLoss: the literal is meant to exceed a double's precision.
    const huge = ['9223372036854775808', '9999999999999999999', 9223372036854775807];
    for (const bad of ['-1', 'abc', {}, true, ...huge]) expect((await go(bad)).status, JSON.stringify(bad)).toBe(400);
  });

  it('lets the super-administrator enter any available tenant and rebuilds the snapshot for it', async () => {
    const tenant = await createTestTenant(deps());
    const token = (await loginAs(server, await createSuperAdmin(deps()))).accessToken;
    const res = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: Number(tenant) < Number.MAX_SAFE_INTEGER ? Number(tenant) : String(tenant) },
      headers: bearer(token),
    });
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.data.accessToken)).toMatchObject({ TenantId: String(tenant), permission: '*' });
    expect(await info(res.body.data.accessToken)).toMatchObject({
      isPlatform: false,
      tenantId: String(tenant),
      canAccessPlatform: true,
    });
  });

  it('ends access to a tenant that is suspended while a session is in it', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const token = (await loginAs(server, user)).accessToken;
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(token) })).status).toBe(200);
    await deps().db.update(tenants).set({ status: 'Suspended' }).where(eq(tenants.id, tenant));
    await deps().sessionState.invalidateTenant(tenant);
    const res = await server.json('/api/Auth/UserInfo', { headers: { ...bearer(token), 'x-language': 'en-US' } });
    expect(res.status).toBe(403);
    expect(res.body.data).toMatch(/not available: Suspended/);
  });

  it('ends access when the membership runs out, is disabled or removed, but lets the user log out, list and switch away', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const until = new Date(clock.nowMs() + 60_000);
    await deps()
      .db.update(tenantMemberships)
      .set({ expirationTime: until })
      .where(eq(tenantMemberships.userId, user.id));
    const token = (await loginAs(server, user)).accessToken;
    const en = { ...bearer(token), 'x-language': 'en-US' };
    expect((await server.json('/api/Auth/UserInfo', { headers: en })).status).toBe(200);
    // Nobody invalidates anything: the validity period simply passes.
    clock.advance(61_000);
    const refused = await server.json('/api/Auth/UserInfo', { headers: en });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toMatch(/not an active member/);
    expect((await server.json('/api/TenantQuery/MyAvailableTenants', { headers: en })).status).toBe(200);
    const away = await server.json('/api/Auth/SwitchTenant', { method: 'POST', json: { tenantId: null }, headers: en });
    expect(away.status).toBe(200);
    expect(await info(away.body.data.accessToken)).toMatchObject({ isPlatform: true });

    // A membership disabled behind the service's back (no invalidation): refused once the cached state is reloaded.
    const other = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const second = (await loginAs(server, other)).accessToken;
    await deps().db.update(tenantMemberships).set({ status: 'Disabled' }).where(eq(tenantMemberships.userId, other.id));
    await deps().sessionState.invalidateTenant(tenant);
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(second) })).status).toBe(403);
    expect((await server.json('/api/Auth/Logout', { method: 'POST', json: {}, headers: bearer(second) })).status).toBe(
      200,
    );
  });

  it('keeps a membership that has not started yet from opening the tenant, and lets the super-administrator in without one', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const token = (await loginAs(server, user)).accessToken;
    await deps()
      .db.update(tenantMemberships)
      .set({ effectiveTime: new Date(clock.nowMs() + 3_600_000) })
      .where(eq(tenantMemberships.userId, user.id));
    await deps().sessionState.invalidateTenant(tenant);
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(token) })).status).toBe(403);

    const admin = (await loginAs(server, await createSuperAdmin(deps()))).accessToken;
    const inside = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: String(tenant) },
      headers: bearer(admin),
    });
    expect(inside.status).toBe(200);
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(inside.body.data.accessToken) })).status).toBe(
      200,
    );
  });

  it('makes only the platform role a super-administrator, not a tenant role carrying its code', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const roleId = deps().ids.next();
    await deps()
      .db.insert(roles)
      .values({ id: roleId, tenantId: tenant, roleCode: 'super_admin', roleName: 'Impostor' });
    await deps().db.insert(userRoles).values({ id: deps().ids.next(), tenantId: tenant, userId: user.id, roleId });
    await deps().authz.invalidateUser(user.id);
    expect((await deps().authz.get(user.id, tenant)).isSuperAdmin).toBe(false);
    const token = (await loginAs(server, user)).accessToken;
    expect(claimsOf(token)).not.toHaveProperty('permission', '*');
  });
});
