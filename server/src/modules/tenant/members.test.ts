import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantMemberships, tenants, userRoles } from '../../../../db/schema/index.js';
import { createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { platformUser, TENANT_ADMIN } from '../permission/admin-test-kit.js';
import {
  adminApi,
  auditEntry,
  startAdminServer,
  tenantUser,
  tenantWithAdmin,
  watchAudit,
  type AdminApi,
  type Call,
} from '../../testing/admin.js';

let server: TestServer;
let tenantId: bigint;
let api: AdminApi;
let adminId: bigint;
beforeAll(async () => {
  server = await startAdminServer();
  let admin;
  ({ tenantId, api, user: admin } = await tenantWithAdmin(server, TENANT_ADMIN));
  adminId = admin.id;
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const membershipOf = async (userId: bigint) =>
  (
    await deps()
      .db.select()
      .from(tenantMemberships)
      .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)))
  )[0];

describe('memberships of the current tenant', () => {
  it('adds a user by id with a validity period, reads and lists them, and refuses duplicates and e-mail', async () => {
    const ada = await createTestUser(deps(), { tenantId, nickName: 'Ada' });
    const bob = await createTestUser(deps(), { tenantId: 0n });
    const byId = await api.post('/api/TenantMember/TenantMember', {
      userId: String(ada.id),
      memberType: 'Admin',
      displayName: 'Ada L.',
      effectiveTime: '2020-01-01T00:00:00Z',
      expirationTime: '2099-01-01T00:00:00Z',
    });
    expect(byId.body.data).toMatchObject({
      userId: String(ada.id),
      userName: ada.userName,
      nickName: 'Ada',
      memberType: 'Admin',
      status: 'Active',
      inviteStatus: 'Accepted',
      displayName: 'Ada L.',
    });
    // Users of other tenants are invited (tenant-invitation) rather than added.
    const byEmail = await api.post('/api/TenantMember/TenantMember', { email: bob.email!.toUpperCase() });
    expect(byEmail.status).toBe(422);

    expect(
      (await api.get('/api/TenantMemberQuery/TenantMemberDetail', { id: byId.body.data.basicId })).body.data
        .displayName,
    ).toBe('Ada L.');
    const page = await api.post('/api/TenantMemberQuery/TenantMemberPage', { keyword: 'ada' });
    expect(page.body.data.items.map((m: { basicId: string }) => m.basicId)).toEqual([byId.body.data.basicId]);
    const admins = await api.post('/api/TenantMemberQuery/TenantMemberPage', { memberType: 'Admin' });
    expect(admins.body.data.items.map((m: { userId: string }) => m.userId)).toEqual([String(ada.id)]);

    expect((await api.post('/api/TenantMember/TenantMember', { userId: String(ada.id) })).status).toBe(409);
    expect((await api.post('/api/TenantMember/TenantMember', { userId: '4242' })).status).toBe(404);
    // By id only the tenant's own users; others are invited by e-mail.
    expect(
      (
        await api.post('/api/TenantMember/TenantMember', {
          userId: String((await createTestUser(deps(), { tenantId: 0n })).id),
        })
      ).status,
    ).toBe(404);
    expect((await api.post('/api/TenantMember/TenantMember', { email: 'nobody@example.test' })).status).toBe(422);
    expect((await api.post('/api/TenantMember/TenantMember', {})).status).toBe(400);
    const backwards = await api.post('/api/TenantMember/TenantMember', {
      userId: String((await createTestUser(deps(), { tenantId })).id),
      effectiveTime: '2030-01-01T00:00:00Z',
      expirationTime: '2029-01-01T00:00:00Z',
    });
    expect(backwards.status).toBe(422);
  });

  it('refuses a new member at the seat limit, and frees the seat when one is disabled', async () => {
    const { tenantId: small, api: smallAdmin } = await tenantWithAdmin(server, {
      ...TENANT_ADMIN,
      fields: { seatLimit: 2 },
    });
    const first = await createTestUser(deps(), { tenantId: small });
    const second = await createTestUser(deps(), { tenantId: small });
    const added = await smallAdmin.post('/api/TenantMember/TenantMember', { userId: String(first.id) });
    expect(added.status).toBe(200);
    const full = await smallAdmin.post('/api/TenantMember/TenantMember', { userId: String(second.id) });
    expect(full.status).toBe(422);
    expect(full.body.data).toMatch(/limit of 2 seats/);
    await smallAdmin.put('/api/TenantMember/TenantMember', { basicId: added.body.data.basicId, status: 'Disabled' });
    expect((await smallAdmin.post('/api/TenantMember/TenantMember', { userId: String(second.id) })).status).toBe(200);
    // Re-enabling needs a free seat again.
    expect(
      (await smallAdmin.put('/api/TenantMember/TenantMember', { basicId: added.body.data.basicId, status: 'Active' }))
        .status,
    ).toBe(422);
    await deps().db.update(tenants).set({ seatLimit: 0 }).where(eq(tenants.id, small));
    expect(
      (await smallAdmin.put('/api/TenantMember/TenantMember', { basicId: added.body.data.basicId, status: 'Active' }))
        .status,
    ).toBe(200);
  });

  it('counts a membership extended past its expiry as a new seat', async () => {
    const { tenantId: small, api: smallAdmin } = await tenantWithAdmin(server, {
      ...TENANT_ADMIN,
      fields: { seatLimit: 2 },
    });
    const first = await createTestUser(deps(), { tenantId: small });
    const second = await createTestUser(deps(), { tenantId: small });
    const added = await smallAdmin.post('/api/TenantMember/TenantMember', { userId: String(first.id) });
    expect(added.status).toBe(200);
    // It expires (no write through the API): its seat is free, and another member takes it.
    await deps()
      .db.update(tenantMemberships)
      .set({ expirationTime: new Date(Date.now() - 60_000) })
      .where(eq(tenantMemberships.id, BigInt(added.body.data.basicId)));
    expect((await smallAdmin.post('/api/TenantMember/TenantMember', { userId: String(second.id) })).status).toBe(200);
    const current = (await smallAdmin.get('/api/TenantMember/TenantMember', { id: added.body.data.basicId })).body.data;
    const extended = await smallAdmin.put('/api/TenantMember/TenantMember', {
      basicId: added.body.data.basicId,
      version: current?.version,
      expirationTime: '2099-01-01T00:00:00Z',
    });
    expect(extended.status).toBe(422);
    expect(extended.body.data).toMatch(/limit of 2 seats/);
  });

  it("protects owners and the caller's own membership", async () => {
    const owner = await createTestUser(deps());
    await deps()
      .db.insert(tenantMemberships)
      .values({ id: deps().ids.next(), tenantId, userId: owner.id, memberType: 'Owner' });
    const ownerMembership = (await membershipOf(owner.id))!;
    expect(
      (
        await api.post('/api/TenantMember/TenantMember', {
          userId: String((await createTestUser(deps(), { tenantId })).id),
          memberType: 'Owner',
        })
      ).status,
    ).toBe(422);
    expect((await api.del('/api/TenantMember/TenantMember', { id: String(ownerMembership.id) })).status).toBe(422);
    expect(
      (await api.put('/api/TenantMember/TenantMember', { basicId: String(ownerMembership.id), memberType: 'Member' }))
        .status,
    ).toBe(422);
    expect(
      (await api.put('/api/TenantMember/TenantMember', { basicId: String(ownerMembership.id), status: 'Disabled' }))
        .status,
    ).toBe(422);
    expect(
      (
        await api.put('/api/TenantMember/TenantMember', {
          basicId: String(ownerMembership.id),
          displayName: 'The owner',
        })
      ).body.data.displayName,
    ).toBe('The owner');

    const mine = (await membershipOf(adminId))!;
    const self = await api.del('/api/TenantMember/TenantMember', { id: String(mine.id) });
    expect(self.status).toBe(422);
    expect(self.body.data).toMatch(/your own membership/);
    expect(
      (
        await api.put('/api/TenantMember/TenantMember', {
          basicId: String(mine.id),
          expirationTime: '2001-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(422);
  });

  it("removing a member ends the member's sessions in the tenant and drops the member's roles there", async () => {
    const { user, api: memberApi } = await tenantUser(server, tenantId, ['saas:role:read']);
    expect((await memberApi.get('/api/RoleQuery/EnabledRoles')).status).toBe(200);
    const membership = (await membershipOf(user.id))!;
    expect((await api.del('/api/TenantMember/TenantMember', { id: String(membership.id) })).body.data).toBe(true);
    const after = await memberApi.get('/api/RoleQuery/EnabledRoles');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(10001);
    expect(
      await deps()
        .db.select()
        .from(userRoles)
        .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, user.id))),
    ).toEqual([]);
    // The next login no longer lands in the tenant.
    const again = adminApi(server, (await loginAs(server, user)).accessToken);
    expect((await again.get('/api/Auth/UserInfo')).body.data).not.toHaveProperty('tenantId');
  });

  it("disabling a membership or ending its validity ends the member's sessions there; optimistic versions apply", async () => {
    const { user, api: memberApi } = await tenantUser(server, tenantId, ['saas:role:read']);
    const membership = (await membershipOf(user.id))!;
    const changed = await api.put('/api/TenantMember/TenantMember', {
      basicId: String(membership.id),
      version: 0,
      displayName: 'Temp',
    });
    expect(changed.body.data.version).toBe(1);
    expect(
      (
        await api.put('/api/TenantMember/TenantMember', {
          basicId: String(membership.id),
          version: 0,
          status: 'Disabled',
        })
      ).status,
    ).toBe(409);
    expect((await memberApi.get('/api/RoleQuery/EnabledRoles')).status).toBe(200);
    await api.put('/api/TenantMember/TenantMember', {
      basicId: String(membership.id),
      expirationTime: '2001-01-01T00:00:00Z',
    });
    expect((await memberApi.get('/api/RoleQuery/EnabledRoles')).status).toBe(401);
    // The roles stay (only removal drops them); the membership can be renewed.
    expect((await deps().db.select().from(userRoles).where(eq(userRoles.userId, user.id))).length).toBe(1);
    expect(
      (await api.put('/api/TenantMember/TenantMember', { basicId: String(membership.id), expirationTime: null })).body
        .data,
    ).not.toHaveProperty('expirationTime');
  });

  it('needs a tenant: refused in the platform state', async () => {
    const { api: operator } = await platformUser(server, ['saas:tenant-member:read', 'saas:tenant-member:grant']);
    const res = await operator.post('/api/TenantMemberQuery/TenantMemberPage', {});
    expect(res.status).toBe(422);
    expect(res.body.data).toMatch(/Switch into a tenant/);
    expect((await operator.post('/api/TenantMember/TenantMember', { userId: String(adminId) })).status).toBe(422);
  });
});

describe('audit', () => {
  const entry = (
    call: Call,
    action: AuditAction,
    membershipId: string,
    userId: bigint,
    detail: Record<string, unknown>,
  ) =>
    auditEntry(call, {
      action,
      actor: adminId,
      tenantId,
      targetType: 'TenantMember',
      targetId: membershipId,
      userId,
      detail,
    });

  it('records one entry per membership write, naming the user and the old and new validity', async () => {
    const ada = await createTestUser(deps(), { tenantId });
    const audit = await watchAudit(server);
    const added = await api.post('/api/TenantMember/TenantMember', {
      userId: String(ada.id),
      memberType: 'Admin',
      expirationTime: '2099-01-01T00:00:00Z',
    });
    const id = added.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(added, 'TenantMemberAdded', id, ada.id, {
        memberType: 'Admin',
        effectiveTime: null,
        expirationTime: '2099-01-01T00:00:00.000Z',
      }),
    ]);

    const renewed = await api.put('/api/TenantMember/TenantMember', {
      basicId: id,
      effectiveTime: '2030-01-01T00:00:00Z',
      expirationTime: null,
    });
    expect(await audit()).toEqual([
      entry(renewed, 'TenantMemberUpdated', id, ada.id, {
        fields: ['effectiveTime', 'expirationTime'],
        effectiveTime: { from: null, to: '2030-01-01T00:00:00.000Z' },
        expirationTime: { from: '2099-01-01T00:00:00.000Z', to: null },
        sessionsRevoked: 0,
      }),
    ]);
    const disabled = await api.put('/api/TenantMember/TenantMember', { basicId: id, status: 'Disabled' });
    expect(await audit()).toEqual([
      entry(disabled, 'TenantMemberUpdated', id, ada.id, {
        fields: ['status'],
        status: { from: 'Active', to: 'Disabled' },
      }),
    ]);

    const removed = await api.del('/api/TenantMember/TenantMember', { id });
    expect(await audit()).toEqual([
      entry(removed, 'TenantMemberRemoved', id, ada.id, { memberType: 'Admin', sessionsRevoked: 0 }),
    ]);
  });

  it('records nothing for refused membership writes', async () => {
    const { user } = await tenantUser(server, tenantId);
    const membership = (await membershipOf(user.id))!;
    const mine = (await membershipOf(adminId))!;
    const { api: reader } = await tenantUser(server, tenantId, ['saas:tenant-member:read']);
    const audit = await watchAudit(server);
    expect((await api.post('/api/TenantMember/TenantMember', { userId: String(user.id) })).status).toBe(409);
    expect(
      (await api.post('/api/TenantMember/TenantMember', { userId: String(user.id), memberType: 'Owner' })).status,
    ).toBe(422);
    expect(
      (
        await api.put('/api/TenantMember/TenantMember', {
          basicId: String(membership.id),
          version: 5,
          status: 'Disabled',
        })
      ).status,
    ).toBe(409);
    expect((await api.del('/api/TenantMember/TenantMember', { id: String(mine.id) })).status).toBe(422);
    expect((await reader.del('/api/TenantMember/TenantMember', { id: String(membership.id) })).status).toBe(403);
    expect(await audit()).toEqual([]);
  });
});
