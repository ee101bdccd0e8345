import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, rolePermissions, roles, tenantMemberships, userRoles } from '../../../../db/schema/index.js';
import { allows } from '../authz/snapshot.js';
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
let platform: AdminApi;
let operatorId: bigint;
beforeAll(async () => {
  server = await startAdminServer();
  let operator;
  ({ api: platform, user: operator } = await platformUser(server));
  operatorId = operator.id;
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now() % 1_000_000}`;

async function createTenant(body: Record<string, unknown> = {}) {
  const res = await platform.post('/api/Tenant/Tenant', {
    tenantCode: unique('acme'),
    tenantName: unique('Acme'),
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { basicId: string; tenantCode: string; tenantName: string; version: number };
}

describe('tenants (platform state)', () => {
  it('creates a tenant with its owner, edition, seats and quota, reads and lists it', async () => {
    const owner = await createTestUser(deps(), { tenantId: 0n });
    const edition = await platform.post('/api/Edition/Edition', {
      editionCode: unique('pro'),
      editionName: 'Pro',
      permissionWhitelist: ['SAAS:ROLE:READ', 'saas:user:read'],
    });
    expect(edition.body.data).toMatchObject({
      editionName: 'Pro',
      permissionWhitelist: ['saas:role:read', 'saas:user:read'],
      status: 'Enabled',
    });
    const tenant = await createTenant({
      tenantName: 'Acme Widgets',
      editionId: edition.body.data.basicId,
      seatLimit: 10,
      storageQuotaBytes: '5000000000000',
      expirationTime: '2099-01-01T00:00:00Z',
      ownerUserId: String(owner.id),
    });
    expect(tenant).toMatchObject({
      tenantName: 'Acme Widgets',
      tenantStatus: 'Normal',
      configStatus: 'Configured',
      editionName: 'Pro',
      seatLimit: 10,
      seatsUsed: 1,
      storageQuotaBytes: '5000000000000',
      storageUsedBytes: '0',
      version: 0,
    });
    const [membership] = await deps()
      .db.select()
      .from(tenantMemberships)
      .where(eq(tenantMemberships.tenantId, BigInt(tenant.basicId)));
    expect(membership).toMatchObject({ userId: owner.id, memberType: 'Owner', status: 'Active' });

    expect((await platform.get('/api/TenantQuery/TenantDetail', { id: tenant.basicId })).body.data.tenantCode).toBe(
      tenant.tenantCode,
    );
    const page = await platform.post('/api/TenantQuery/TenantPage', { keyword: 'widgets' });
    expect(page.body.data.items.map((t: { basicId: string }) => t.basicId)).toEqual([tenant.basicId]);
    const byStatus = await platform.post('/api/TenantQuery/TenantPage', {
      tenantStatus: 'Suspended',
      conditions: { filters: [{ field: 'basicId', operator: 'Equal', value: tenant.basicId }] },
    });
    expect(byStatus.body.data.items).toEqual([]);
    // The platform context itself is not a managed tenant.
    expect((await platform.get('/api/TenantQuery/TenantDetail', { id: 0 })).status).toBe(404);
    expect((await platform.put('/api/Tenant/Tenant', { basicId: 0, tenantName: 'Hijack' })).status).toBe(404);
  });

  it('updates with optimistic versions and refuses duplicates, bad codes and unknown editions', async () => {
    const tenant = await createTenant();
    const updated = await platform.put('/api/Tenant/Tenant', {
      basicId: tenant.basicId,
      version: 0,
      tenantShortName: 'AC',
      seatLimit: 2,
      storageQuotaBytes: 1024,
    });
    expect(updated.body.data).toMatchObject({
      tenantShortName: 'AC',
      seatLimit: 2,
      storageQuotaBytes: '1024',
      version: 1,
    });
    expect(
      (await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, version: 0, tenantName: 'Stale' })).status,
    ).toBe(409);
    expect(
      (await platform.post('/api/Tenant/Tenant', { tenantCode: tenant.tenantCode.toUpperCase(), tenantName: 'Twin' }))
        .status,
    ).toBe(409);
    expect((await platform.post('/api/Tenant/Tenant', { tenantCode: 'bad code!', tenantName: 'x' })).status).toBe(400);
    expect(
      (await platform.post('/api/Tenant/Tenant', { tenantCode: unique('x'), tenantName: 'x', editionId: '12345' }))
        .status,
    ).toBe(404);
    expect(
      (await platform.post('/api/Tenant/Tenant', { tenantCode: unique('x'), tenantName: 'x', ownerUserId: '12345' }))
        .status,
    ).toBe(404);
  });

  it('suspends a tenant: its sessions answer 403 "tenant not available" on the next request; resuming restores them', async () => {
    const tenant = await createTenant();
    const tenantId = BigInt(tenant.basicId);
    const { api: member } = await tenantUser(server, tenantId);
    expect((await member.get('/api/Auth/UserInfo')).body.data.tenantId).toBe(tenant.basicId);

    const suspended = await platform.post('/api/Tenant/SuspendTenant', {
      basicId: tenant.basicId,
      reason: 'Unpaid invoice',
    });
    expect(suspended.body.data).toMatchObject({ tenantStatus: 'Suspended', suspendReason: 'Unpaid invoice' });
    expect(suspended.body.data.suspendedTime).toBeTruthy();
    const refused = await member.get('/api/Auth/UserInfo');
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBe('The tenant is not available: Suspended.');

    const resumed = await platform.post('/api/Tenant/ResumeTenant', { basicId: tenant.basicId });
    expect(resumed.body.data).toMatchObject({ tenantStatus: 'Normal' });
    expect(resumed.body.data).not.toHaveProperty('suspendReason');
    expect((await member.get('/api/Auth/UserInfo')).status).toBe(200);

    const disabled = await platform.put('/api/Tenant/TenantStatus', {
      basicId: tenant.basicId,
      tenantStatus: 'Disabled',
    });
    expect(disabled.body.data.tenantStatus).toBe('Disabled');
    expect((await member.get('/api/Auth/UserInfo')).body.data).toBe('The tenant is not available: Disabled.');
    await platform.put('/api/Tenant/TenantStatus', { basicId: tenant.basicId, tenantStatus: 0 });

    // Expiry set in the past applies at once too.
    await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, expirationTime: '2001-01-01T00:00:00Z' });
    expect((await member.get('/api/Auth/UserInfo')).body.data).toBe('The tenant is not available: Expired.');
    await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, expirationTime: null });
    expect((await member.get('/api/Auth/UserInfo')).status).toBe(200);

    expect((await platform.del('/api/Tenant/Tenant', { id: tenant.basicId })).body.data).toBe(true);
    expect((await member.get('/api/Auth/UserInfo')).body.data).toBe('The tenant is not available: Deleted.');
    expect((await platform.get('/api/TenantQuery/TenantDetail', { id: tenant.basicId })).status).toBe(404);
  });

  it('is a platform operation: refused inside a tenant, even with the codes, and without the codes', async () => {
    const { tenantId } = await tenantWithAdmin(server, TENANT_ADMIN);
    const { api: inTenant } = await tenantUser(server, tenantId, [
      'saas:tenant:read',
      'saas:tenant:create',
      'saas:edition:read',
    ]);
    const page = await inTenant.post('/api/TenantQuery/TenantPage', {});
    expect(page.status).toBe(403);
    expect(page.body.data).toMatch(/platform operations state/);
    expect((await inTenant.post('/api/Tenant/Tenant', { tenantCode: unique('t'), tenantName: 't' })).status).toBe(403);
    expect((await inTenant.get('/api/EditionQuery/EditionList')).status).toBe(403);

    const plain = await createTestUser(deps(), { tenantId: 0n });
    const nobody = adminApi(server, (await loginAs(server, plain)).accessToken);
    const denied = await nobody.post('/api/TenantQuery/TenantPage', {});
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(10004);
  });
});

describe('editions', () => {
  it('validate their whitelist, list, update with versions, and refuse deletion while in use', async () => {
    expect(
      (
        await platform.post('/api/Edition/Edition', {
          editionCode: unique('e'),
          editionName: 'E',
          permissionWhitelist: ['saas:no:such'],
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await platform.post('/api/Edition/Edition', {
          editionCode: unique('e'),
          editionName: 'E',
          permissionWhitelist: ['*'],
        })
      ).status,
    ).toBe(422);
    const edition = (
      await platform.post('/api/Edition/Edition', { editionCode: unique('basic'), editionName: 'Basic' })
    ).body.data;
    expect(edition.permissionWhitelist).toEqual([]);
    const list = await platform.get('/api/EditionQuery/EditionList');
    expect(list.body.data.map((e: { basicId: string }) => e.basicId)).toContain(edition.basicId);
    const renamed = await platform.put('/api/Edition/Edition', {
      basicId: edition.basicId,
      version: 0,
      editionName: 'Basic+',
    });
    expect(renamed.body.data).toMatchObject({ editionName: 'Basic+', version: 1 });
    expect(
      (await platform.put('/api/Edition/Edition', { basicId: edition.basicId, version: 0, editionName: 'Stale' }))
        .status,
    ).toBe(409);

    const tenant = await createTenant({ editionId: edition.basicId });
    const inUse = await platform.del('/api/Edition/Edition', { id: edition.basicId });
    expect(inUse.status).toBe(422);
    expect(inUse.body.data).toMatch(/1 tenant/);
    await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, editionId: null });
    expect((await platform.del('/api/Edition/Edition', { id: edition.basicId })).body.data).toBe(true);
    expect((await platform.get('/api/EditionQuery/EditionDetail', { id: edition.basicId })).status).toBe(404);
  });
});

describe('a disabled edition', () => {
  it('keeps limiting the tenants on it, and is given to no other tenant', async () => {
    const edition = (
      await platform.post('/api/Edition/Edition', {
        editionCode: unique('lite'),
        editionName: 'Lite',
        permissionWhitelist: ['saas:role:read'],
      })
    ).body.data;
    const tenant = await createTenant({ editionId: edition.basicId });
    const user = await createTestUser(deps(), { tenantId: BigInt(tenant.basicId), memberOf: [BigInt(tenant.basicId)] });
    const canReadPositions = async () =>
      allows(await deps().authz.get(user.id, BigInt(tenant.basicId)), 'saas:position:read');
    const roleId = deps().ids.next();
    await deps()
      .db.insert(roles)
      .values({ id: roleId, tenantId: BigInt(tenant.basicId), roleCode: `r${roleId}`, roleName: 'r' });
    for (const code of ['saas:role:read', 'saas:position:read']) {
      const [p] = await deps().db.select({ id: permissions.id }).from(permissions).where(eq(permissions.code, code));
      await deps().db.insert(rolePermissions).values({ roleId, permissionId: p!.id });
    }
    await deps()
      .db.insert(userRoles)
      .values({ id: deps().ids.next(), tenantId: BigInt(tenant.basicId), userId: user.id, roleId });
    expect(await canReadPositions()).toBe(false);
    const disabled = await platform.put('/api/Edition/Edition', {
      basicId: edition.basicId,
      version: 0,
      status: 'Disabled',
    });
    expect(disabled.status).toBe(200);
    expect(await canReadPositions()).toBe(false);
    // The tenant on it keeps it (a form sends the same edition back); another tenant cannot get it.
    expect(
      (
        await platform.put('/api/Tenant/Tenant', {
          basicId: tenant.basicId,
          tenantName: 'Renamed',
          editionId: edition.basicId,
        })
      ).status,
    ).toBe(200);
    const refused = await platform.post('/api/Tenant/Tenant', {
      tenantCode: unique('new'),
      tenantName: 'New',
      editionId: edition.basicId,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.data).toMatch(/disabled/);
    const other = await createTenant();
    expect(
      (await platform.put('/api/Tenant/Tenant', { basicId: other.basicId, editionId: edition.basicId })).status,
    ).toBe(422);
  });
});

describe('audit', () => {
  /** A tenant's entries go to that tenant's trail; editions are the platform's (0). */
  const entry = (
    call: Call,
    action: AuditAction,
    targetType: 'Tenant' | 'Edition',
    targetId: string,
    detail: Record<string, unknown>,
  ) =>
    auditEntry(call, {
      action,
      actor: operatorId,
      tenantId: targetType === 'Tenant' ? BigInt(targetId) : 0n,
      targetType,
      targetId,
      detail,
    });

  it('records one entry per tenant and edition write, naming what changed', async () => {
    const audit = await watchAudit(server);
    const [proCode, basicCode] = [unique('pro'), unique('basic')];
    const pro = await platform.post('/api/Edition/Edition', {
      editionCode: proCode,
      editionName: 'Pro',
      permissionWhitelist: ['saas:user:read', 'SAAS:ROLE:READ'],
    });
    const proId = pro.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(pro, 'EditionCreated', 'Edition', proId, {
        editionCode: proCode,
        added: ['saas:role:read', 'saas:user:read'],
        removed: [],
      }),
    ]);
    const basic = await platform.post('/api/Edition/Edition', { editionCode: basicCode, editionName: 'Basic' });
    const basicId = basic.body.data.basicId as string;
    expect(await audit()).toEqual([entry(basic, 'EditionCreated', 'Edition', basicId, { added: [], removed: [] })]);
    const whitelist = await platform.put('/api/Edition/Edition', {
      basicId: proId,
      permissionWhitelist: ['saas:user:read', 'saas:menu:read'],
    });
    expect(await audit()).toEqual([
      entry(whitelist, 'EditionUpdated', 'Edition', proId, {
        editionCode: proCode,
        fields: ['permissionWhitelist'],
        added: ['saas:menu:read'],
        removed: ['saas:role:read'],
      }),
    ]);

    const tenantCode = unique('audited');
    const created = await platform.post('/api/Tenant/Tenant', {
      tenantCode,
      tenantName: 'Audited',
      editionId: proId,
      seatLimit: 5,
    });
    const id = created.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(created, 'TenantCreated', 'Tenant', id, { tenantCode, editionId: proId, seatLimit: 5, ownerUserId: null }),
    ]);
    const renamed = await platform.put('/api/Tenant/Tenant', { basicId: id, tenantName: 'Audited Ltd' });
    expect(await audit()).toEqual([entry(renamed, 'TenantUpdated', 'Tenant', id, { fields: ['tenantName'] })]);
    const moved = await platform.put('/api/Tenant/Tenant', { basicId: id, editionId: basicId, seatLimit: 8 });
    expect(await audit()).toEqual([
      entry(moved, 'TenantEditionChanged', 'Tenant', id, {
        fields: ['editionId', 'seatLimit'],
        editionId: { from: proId, to: basicId },
        seatLimit: { from: 5, to: 8 },
      }),
    ]);

    const suspended = await platform.post('/api/Tenant/SuspendTenant', { basicId: id, reason: 'Unpaid invoice' });
    expect(await audit()).toEqual([
      entry(suspended, 'TenantSuspended', 'Tenant', id, { from: 'Normal', to: 'Suspended', reason: 'Unpaid invoice' }),
    ]);
    const resumed = await platform.post('/api/Tenant/ResumeTenant', { basicId: id });
    expect(await audit()).toEqual([entry(resumed, 'TenantResumed', 'Tenant', id, { from: 'Suspended', to: 'Normal' })]);
    const disabled = await platform.put('/api/Tenant/TenantStatus', { basicId: id, tenantStatus: 'Disabled' });
    expect(await audit()).toEqual([
      entry(disabled, 'TenantStatusChanged', 'Tenant', id, { from: 'Normal', to: 'Disabled' }),
    ]);

    const deleted = await platform.del('/api/Tenant/Tenant', { id });
    expect(await audit()).toEqual([entry(deleted, 'TenantDeleted', 'Tenant', id, { tenantCode })]);
    const dropped = await platform.del('/api/Edition/Edition', { id: basicId });
    expect(await audit()).toEqual([entry(dropped, 'EditionDeleted', 'Edition', basicId, { editionCode: basicCode })]);
  });

  it('records nothing for refused tenant and edition writes', async () => {
    const tenant = await createTenant();
    const edition = (await platform.post('/api/Edition/Edition', { editionCode: unique('used'), editionName: 'Used' }))
      .body.data.basicId as string;
    await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, editionId: edition });
    const { tenantId } = await tenantWithAdmin(server, TENANT_ADMIN);
    const { api: inTenant } = await tenantUser(server, tenantId, ['saas:tenant:status', 'saas:edition:delete']);
    const audit = await watchAudit(server);
    expect(
      (await platform.post('/api/Tenant/Tenant', { tenantCode: tenant.tenantCode, tenantName: 'Twin' })).status,
    ).toBe(409);
    expect(
      (await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, version: 0, tenantName: 'Stale' })).status,
    ).toBe(409);
    expect((await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, editionId: '12345' })).status).toBe(
      404,
    );
    expect((await platform.del('/api/Edition/Edition', { id: edition })).status).toBe(422);
    expect((await platform.put('/api/Edition/Edition', { basicId: edition, permissionWhitelist: ['*'] })).status).toBe(
      422,
    );
    expect((await inTenant.post('/api/Tenant/SuspendTenant', { basicId: tenant.basicId })).status).toBe(403);
    expect((await inTenant.del('/api/Edition/Edition', { id: edition })).status).toBe(403);
    expect(await audit()).toEqual([]);
  });
});
