import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantMemberships } from '../../../../db/schema/index.js';
import { createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { adminApi, platformUser, startAdminServer, tenantUser, tenantWithAdmin, type AdminApi } from '../permission/admin-test-kit.js';

let server: TestServer;
let platform: AdminApi;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api: platform } = await platformUser(server));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now() % 1_000_000}`;

async function createTenant(body: Record<string, unknown> = {}) {
  const res = await platform.post('/api/Tenant/Tenant', { tenantCode: unique('acme'), tenantName: unique('Acme'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { basicId: string; tenantCode: string; tenantName: string; version: number };
}

describe('tenants (platform state)', () => {
  it('creates a tenant with its owner, edition, seats and quota, reads and lists it', async () => {
    const owner = await createTestUser(deps(), { tenantId: 0n });
    const edition = await platform.post('/api/Edition/Edition', { editionCode: unique('pro'), editionName: 'Pro', permissionWhitelist: ['SAAS:ROLE:READ', 'saas:user:read'] });
    expect(edition.body.data).toMatchObject({ editionName: 'Pro', permissionWhitelist: ['saas:role:read', 'saas:user:read'], status: 'Enabled' });
    const tenant = await createTenant({
      tenantName: 'Acme Widgets',
      editionId: edition.body.data.basicId,
      seatLimit: 10,
      storageQuotaBytes: '5000000000000',
      expirationTime: '2099-01-01T00:00:00Z',
      ownerUserId: String(owner.id),
    });
    expect(tenant).toMatchObject({
      tenantName: 'Acme Widgets', tenantStatus: 'Normal', configStatus: 'Configured', editionName: 'Pro', seatLimit: 10, seatsUsed: 1,
      storageQuotaBytes: '5000000000000', storageUsedBytes: '0', version: 0,
    });
    const [membership] = await deps().db.select().from(tenantMemberships).where(eq(tenantMemberships.tenantId, BigInt(tenant.basicId)));
    expect(membership).toMatchObject({ userId: owner.id, memberType: 'Owner', status: 'Active' });

    expect((await platform.get('/api/TenantQuery/TenantDetail', { id: tenant.basicId })).body.data.tenantCode).toBe(tenant.tenantCode);
    const page = await platform.post('/api/TenantQuery/TenantPage', { keyword: 'widgets' });
    expect(page.body.data.items.map((t: { basicId: string }) => t.basicId)).toEqual([tenant.basicId]);
    const byStatus = await platform.post('/api/TenantQuery/TenantPage', { tenantStatus: 'Suspended', conditions: { filters: [{ field: 'basicId', operator: 'Equal', value: tenant.basicId }] } });
    expect(byStatus.body.data.items).toEqual([]);
    // The platform context itself is not a managed tenant.
    expect((await platform.get('/api/TenantQuery/TenantDetail', { id: 0 })).status).toBe(404);
    expect((await platform.put('/api/Tenant/Tenant', { basicId: 0, tenantName: 'Hijack' })).status).toBe(404);
  });

  it('updates with optimistic versions and refuses duplicates, bad codes and unknown editions', async () => {
    const tenant = await createTenant();
    const updated = await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, version: 0, tenantShortName: 'AC', seatLimit: 2, storageQuotaBytes: 1024 });
    expect(updated.body.data).toMatchObject({ tenantShortName: 'AC', seatLimit: 2, storageQuotaBytes: '1024', version: 1 });
    expect((await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, version: 0, tenantName: 'Stale' })).status).toBe(409);
    expect((await platform.post('/api/Tenant/Tenant', { tenantCode: tenant.tenantCode.toUpperCase(), tenantName: 'Twin' })).status).toBe(409);
    expect((await platform.post('/api/Tenant/Tenant', { tenantCode: 'bad code!', tenantName: 'x' })).status).toBe(400);
    expect((await platform.post('/api/Tenant/Tenant', { tenantCode: unique('x'), tenantName: 'x', editionId: '12345' })).status).toBe(404);
    expect((await platform.post('/api/Tenant/Tenant', { tenantCode: unique('x'), tenantName: 'x', ownerUserId: '12345' })).status).toBe(404);
  });

  it('suspends a tenant: its sessions answer 403 "tenant not available" on the next request; resuming restores them', async () => {
    const tenant = await createTenant();
    const tenantId = BigInt(tenant.basicId);
    const { api: member } = await tenantUser(server, tenantId);
    expect((await member.get('/api/Auth/UserInfo')).body.data.tenantId).toBe(tenant.basicId);

    const suspended = await platform.post('/api/Tenant/SuspendTenant', { basicId: tenant.basicId, reason: 'Unpaid invoice' });
    expect(suspended.body.data).toMatchObject({ tenantStatus: 'Suspended', suspendReason: 'Unpaid invoice' });
    expect(suspended.body.data.suspendedTime).toBeTruthy();
    const refused = await member.get('/api/Auth/UserInfo');
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBe('The tenant is not available: Suspended.');

    const resumed = await platform.post('/api/Tenant/ResumeTenant', { basicId: tenant.basicId });
    expect(resumed.body.data).toMatchObject({ tenantStatus: 'Normal' });
    expect(resumed.body.data).not.toHaveProperty('suspendReason');
    expect((await member.get('/api/Auth/UserInfo')).status).toBe(200);

    const disabled = await platform.put('/api/Tenant/TenantStatus', { basicId: tenant.basicId, tenantStatus: 'Disabled' });
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
    const { tenantId } = await tenantWithAdmin(server);
    const { api: inTenant } = await tenantUser(server, tenantId, ['saas:tenant:read', 'saas:tenant:create', 'saas:edition:read']);
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
    expect((await platform.post('/api/Edition/Edition', { editionCode: unique('e'), editionName: 'E', permissionWhitelist: ['saas:no:such'] })).status).toBe(422);
    expect((await platform.post('/api/Edition/Edition', { editionCode: unique('e'), editionName: 'E', permissionWhitelist: ['*'] })).status).toBe(422);
    const edition = (await platform.post('/api/Edition/Edition', { editionCode: unique('basic'), editionName: 'Basic' })).body.data;
    expect(edition.permissionWhitelist).toEqual([]);
    const list = await platform.get('/api/EditionQuery/EditionList');
    expect(list.body.data.map((e: { basicId: string }) => e.basicId)).toContain(edition.basicId);
    const renamed = await platform.put('/api/Edition/Edition', { basicId: edition.basicId, version: 0, editionName: 'Basic+' });
    expect(renamed.body.data).toMatchObject({ editionName: 'Basic+', version: 1 });
    expect((await platform.put('/api/Edition/Edition', { basicId: edition.basicId, version: 0, editionName: 'Stale' })).status).toBe(409);

    const tenant = await createTenant({ editionId: edition.basicId });
    const inUse = await platform.del('/api/Edition/Edition', { id: edition.basicId });
    expect(inUse.status).toBe(422);
    expect(inUse.body.data).toMatch(/1 tenant/);
    await platform.put('/api/Tenant/Tenant', { basicId: tenant.basicId, editionId: null });
    expect((await platform.del('/api/Edition/Edition', { id: edition.basicId })).body.data).toBe(true);
    expect((await platform.get('/api/EditionQuery/EditionDetail', { id: edition.basicId })).status).toBe(404);
  });
});
