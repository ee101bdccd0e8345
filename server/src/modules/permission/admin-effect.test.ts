import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, userRoles } from '../../../../db/schema/index.js';
import { createSuperAdmin, createTestTenant, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { PERMISSION_CATALOGUE } from '../authz/permission-catalogue.js';
import { platformUser, TENANT_ADMIN } from './admin-test-kit.js';
import { adminApi, startAdminServer, tenantUser, tenantWithAdmin, type AdminApi } from '../../testing/admin.js';

/**
 * Grants and revocations made through the administration endpoints apply to the holders' very
 * next request, without a new login (the cached authorization snapshots are dropped after each
 * change commits, on every node).
 */

let server: TestServer;
let tenantId: bigint;
let admin: AdminApi;
beforeAll(async () => {
  server = await startAdminServer();
  ({ tenantId, api: admin } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const status = async (call: Promise<{ status: number }>) => (await call).status;

/** A member holding one empty role (returned), logged in once for the whole test. */
async function holder() {
  const role = (await admin.post('/api/Role/Role', { roleCode: `holder_${deps().ids.next()}`, roleName: 'Holder' }))
    .body.data.basicId as string;
  const { user, api } = await tenantUser(server, tenantId);
  await deps()
    .db.insert(userRoles)
    .values({ id: deps().ids.next(), tenantId, userId: user.id, roleId: BigInt(role) });
  await deps().authz.invalidateUser(user.id);
  return { role, user, api };
}

describe('changes apply on the next request, without a new login', () => {
  it('role permission grant, disable, enable, revoke and batch', async () => {
    const { role, api } = await holder();
    const probe = () => status(api.get('/api/PositionQuery/EnabledPositions'));
    expect(await probe()).toBe(403);
    await admin.post('/api/Role/RolePermission', { roleId: role, permissionCode: 'saas:position:read' });
    expect(await probe()).toBe(200);
    await admin.put('/api/Role/RolePermissionStatus', {
      roleId: role,
      permissionCode: 'saas:position:read',
      status: 'Disabled',
    });
    expect(await probe()).toBe(403);
    await admin.put('/api/Role/RolePermissionStatus', {
      roleId: role,
      permissionCode: 'saas:position:read',
      status: 'Enabled',
    });
    expect(await probe()).toBe(200);
    await admin.del('/api/Role/RolePermission', { roleId: role, permissionCode: 'saas:position:read' });
    expect(await probe()).toBe(403);
    await admin.post('/api/Role/BatchUpdateRolePermissions', { roleId: role, permissionCodes: ['saas:position:read'] });
    expect(await probe()).toBe(200);
    await admin.post('/api/Role/BatchUpdateRolePermissions', { roleId: role, permissionCodes: [] });
    expect(await probe()).toBe(403);
  });

  it('role status', async () => {
    const { role, api } = await holder();
    await admin.post('/api/Role/RolePermission', { roleId: role, permissionCode: 'saas:menu:read' });
    expect(await status(api.get('/api/MenuQuery/MenuList'))).toBe(200);
    await admin.put('/api/Role/RoleStatus', { basicId: role, status: 'Disabled' });
    expect(await status(api.get('/api/MenuQuery/MenuList'))).toBe(403);
    await admin.put('/api/Role/RoleStatus', { basicId: role, status: 'Enabled' });
    expect(await status(api.get('/api/MenuQuery/MenuList'))).toBe(200);
  });

  it('role inheritance, added and removed', async () => {
    const { role, api } = await holder();
    const parent = (await admin.post('/api/Role/Role', { roleCode: `parent_${deps().ids.next()}`, roleName: 'Parent' }))
      .body.data.basicId;
    await admin.post('/api/Role/RolePermission', { roleId: parent, permissionCode: 'saas:department:read' });
    expect(await status(api.get('/api/DepartmentQuery/DepartmentTree'))).toBe(403);
    await admin.post('/api/Role/RoleHierarchy', { roleId: role, parentRoleId: parent });
    expect(await status(api.get('/api/DepartmentQuery/DepartmentTree'))).toBe(200);
    // A grant to the parent reaches the child's holders too.
    await admin.post('/api/Role/RolePermission', { roleId: parent, permissionCode: 'saas:position:read' });
    expect(await status(api.get('/api/PositionQuery/EnabledPositions'))).toBe(200);
    await admin.del('/api/Role/RoleHierarchy', { roleId: role, parentRoleId: parent });
    expect(await status(api.get('/api/DepartmentQuery/DepartmentTree'))).toBe(403);
  });

  it('role data scope', async () => {
    const { role, user } = await holder();
    const dept = (await admin.post('/api/Department/Department', { departmentName: `Scope ${deps().ids.next()}` })).body
      .data.basicId;
    expect((await deps().authz.get(user.id, tenantId)).dataScopes).toEqual(['SelfOnly']);
    await admin.put('/api/Role/RoleDataScope', { roleId: role, dataScope: 'Custom', departmentIds: [dept] });
    expect(await deps().authz.get(user.id, tenantId)).toMatchObject({
      dataScopes: ['Custom'],
      customDepartmentIds: [dept],
    });
    await admin.put('/api/Role/RoleDataScope', { roleId: role, dataScope: 'DepartmentAndChildren' });
    expect(await deps().authz.get(user.id, tenantId)).toMatchObject({
      dataScopes: ['DepartmentAndChildren'],
      customDepartmentIds: [],
    });
  });

  it("the tenant's edition whitelist", async () => {
    const { api: operator } = await platformUser(server);
    const edition = (
      await operator.post('/api/Edition/Edition', {
        editionCode: `ed-${deps().ids.next()}`,
        editionName: 'Small',
        permissionWhitelist: ['saas:position:read'],
      })
    ).body.data;
    const tenant = await createTestTenant(deps());
    await operator.put('/api/Tenant/Tenant', { basicId: String(tenant), editionId: edition.basicId });
    const { api } = await tenantUser(server, tenant, ['saas:position:read', 'saas:menu:read']);
    expect(await status(api.get('/api/PositionQuery/EnabledPositions'))).toBe(200);
    const excluded = await api.get('/api/MenuQuery/MenuList');
    expect(excluded.status).toBe(403);
    expect(excluded.body.code).toBe(10004);

    await operator.put('/api/Edition/Edition', { basicId: edition.basicId, permissionWhitelist: ['saas:menu:read'] });
    expect(await status(api.get('/api/PositionQuery/EnabledPositions'))).toBe(403);
    expect(await status(api.get('/api/MenuQuery/MenuList'))).toBe(200);
    await operator.put('/api/Tenant/Tenant', { basicId: String(tenant), editionId: null });
    expect(await status(api.get('/api/PositionQuery/EnabledPositions'))).toBe(200);
  });

  it('global roles (tenant 0), changed by the platform, in every tenant', async () => {
    const root = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
    const global = (
      await root.post('/api/Role/Role', { roleCode: `global_${deps().ids.next()}`, roleName: 'Global helper' })
    ).body.data.basicId;
    const [row] = await deps()
      .db.select({ tenantId: roles.tenantId })
      .from(roles)
      .where(eq(roles.id, BigInt(global)));
    expect(row!.tenantId).toBe(0n);
    const { user, api } = await tenantUser(server, tenantId);
    await deps()
      .db.insert(userRoles)
      .values({ id: deps().ids.next(), tenantId: 0n, userId: user.id, roleId: BigInt(global) });
    await deps().authz.invalidateUser(user.id);
    expect(await status(api.get('/api/RoleQuery/EnabledRoles'))).toBe(403);
    await root.post('/api/Role/RolePermission', { roleId: global, permissionCode: 'saas:role:read' });
    expect(await status(api.get('/api/RoleQuery/EnabledRoles'))).toBe(200);
    await root.put('/api/Role/RoleStatus', { basicId: global, status: 'Disabled' });
    expect(await status(api.get('/api/RoleQuery/EnabledRoles'))).toBe(403);
    await deps()
      .db.delete(userRoles)
      .where(and(eq(userRoles.userId, user.id), eq(userRoles.roleId, BigInt(global))));
  });
});

describe('permission catalogue and documentation', () => {
  it('lists the catalogue without the wildcard; inside a tenant, no platform code and only what its edition allows', async () => {
    const all = await admin.get('/api/PermissionQuery/Permissions');
    const codes = all.body.data.map((p: { permissionCode: string }) => p.permissionCode);
    expect(codes).toEqual(
      expect.arrayContaining(['saas:role:read', 'saas:tenant-member:grant', 'saas:role-hierarchy:create']),
    );
    expect(codes).not.toContain('*');
    // The administrator is in a tenant: platform codes cannot take effect there, so they are not listed.
    expect(codes).toHaveLength(PERMISSION_CATALOGUE.filter((p) => !p.platform).length - 1);
    expect(codes).not.toContain('saas:impersonation:cross-tenant');
    expect(codes).not.toContain('saas:tenant:read');
    const roleGroup = await admin.get('/api/PermissionQuery/Permissions', { groupCode: 'role' });
    expect(roleGroup.body.data.map((p: { permissionCode: string }) => p.permissionCode).sort()).toEqual(
      PERMISSION_CATALOGUE.filter((p) => p.groupCode === 'role')
        .map((p) => p.code)
        .sort(),
    );

    const { api: operator } = await platformUser(server);
    const edition = (
      await operator.post('/api/Edition/Edition', {
        editionCode: `cat-${deps().ids.next()}`,
        editionName: 'Cat',
        permissionWhitelist: ['saas:permission:read', 'saas:role:read'],
      })
    ).body.data;
    const tenant = await createTestTenant(deps(), { editionId: BigInt(edition.basicId) });
    const { api } = await tenantUser(server, tenant, ['saas:permission:read']);
    const limited = await api.get('/api/PermissionQuery/Permissions');
    expect(limited.body.data.map((p: { permissionCode: string }) => p.permissionCode).sort()).toEqual([
      'saas:permission:read',
      'saas:role:read',
    ]);
  });

  it('documents every endpoint of these modules with its permission code in the OpenAPI document', async () => {
    const doc = (await server.json('/openapi/v1.json')).body;
    const codes = new Set(PERMISSION_CATALOGUE.map((p) => p.code));
    const ops = Object.entries(
      doc.paths as Record<string, Record<string, { 'x-permission'?: string; description?: string }>>,
    )
      .filter(([path]) =>
        /^\/api\/(Role|RoleQuery|Department|DepartmentQuery|Position|PositionQuery|Menu|MenuQuery|Tenant|TenantQuery|TenantMember|TenantMemberQuery|Edition|EditionQuery|PermissionQuery)\//.test(
          path,
        ),
      )
      .filter(([path]) => path !== '/api/TenantQuery/MyAvailableTenants')
      .flatMap(([path, byMethod]) =>
        Object.entries(byMethod).map(([method, op]) => ({
          route: `${method} ${path}`,
          code: op['x-permission'],
          description: op.description,
        })),
      );
    expect(ops.length).toBeGreaterThan(55);
    for (const op of ops) {
      expect(codes.has(op.code ?? ''), `${op.route}: ${op.code}`).toBe(true);
      expect(op.description, op.route).toContain(`Requires permission \`${op.code}\``);
    }
    expect(doc.paths['/api/Role/BatchUpdateRolePermissions'].post['x-permission']).toBe('saas:role-permission:update');
    expect(doc.paths['/api/RoleQuery/RolePage'].post['x-permission']).toBe('saas:role:read');
    expect(doc.paths['/api/Role/RoleStatus'].put['x-permission']).toBe('saas:role:status');
  });
});
