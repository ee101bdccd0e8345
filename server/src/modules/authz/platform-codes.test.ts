import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, editions, permissions, rolePermissions, roles } from '../../../../db/schema/index.js';
import { loadMigrations } from '../../infra/db/migrator.js';
import { createSuperAdmin, createTestTenant, createTestUser, grantRole, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { TENANT_ADMIN_CODES } from '../permission/admin-test-kit.js';
import { PERMISSION_CATALOGUE } from './permission-catalogue.js';
import { adminApi, startAdminServer, tenantUser, type AdminApi } from '../../testing/admin.js';

/**
 * Platform codes (tenants, editions, cross-tenant impersonation) belong to the platform state: a
 * tenant's role cannot be given one, an edition cannot list one, and one a tenant's role carries
 * anyway (written outside the API) grants nothing there.
 */

const CROSS = 'saas:impersonation:cross-tenant';
const NOT_GRANTABLE = (code: string) =>
  `${code} is a platform permission, effective only in the platform operations state: a tenant's role or an edition's whitelist cannot include it.`;
const PLATFORM_CODES = PERMISSION_CATALOGUE.filter((p) => p.platform).map((p) => p.code);

let server: TestServer;
const deps = () => server.runtime.deps;
let root: AdminApi;

/** A super-administrator's session of its own, moved into the tenant. */
async function superAdminIn(tenantId: bigint): Promise<AdminApi> {
  const own = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
  const switched = await own.post('/api/Auth/SwitchTenant', { tenantId: String(tenantId) });
  expect(switched.status).toBe(200);
  return adminApi(server, switched.body.data.accessToken);
}

beforeAll(async () => {
  server = await startAdminServer();
  root = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
});
afterAll(() => server.close());

const codeId = async (code: string) =>
  (await deps().db.select({ id: permissions.id }).from(permissions).where(eq(permissions.code, code)))[0]!.id;
const codesOfRole = async (roleId: bigint) =>
  (
    await deps()
      .db.select({ code: permissions.code })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(eq(rolePermissions.roleId, roleId))
  )
    .map((r) => r.code)
    .sort();

it("is the catalogue's list: every tenant and edition code, and the cross-tenant code", () => {
  expect(PLATFORM_CODES.sort()).toEqual(
    [
      ...PERMISSION_CATALOGUE.filter((p) => p.groupCode === 'tenant' || p.groupCode === 'edition').map((p) => p.code),
      CROSS,
    ].sort(),
  );
});

describe('granting a platform code inside a tenant', () => {
  it('is refused with a clear error to a tenant administrator who holds the code through its own role', async () => {
    const tenantId = await createTestTenant(deps());
    // Holds the code through a role of its tenant (written outside the API).
    const { api, roleId: ownRole } = await tenantUser(server, tenantId, [
      ...TENANT_ADMIN_CODES,
      CROSS,
      'saas:tenant:read',
    ]);
    const role = (await api.post('/api/Role/Role', { roleCode: `r${deps().ids.next()}`, roleName: 'Helpers' })).body
      .data.basicId as string;
    const audited = async () =>
      (
        await deps()
          .db.select()
          .from(auditEntries)
          .where(and(eq(auditEntries.tenantId, tenantId), eq(auditEntries.targetId, role)))
      ).length;
    const before = await audited();

    const single = await api.post('/api/Role/RolePermission', { roleId: role, permissionCode: CROSS });
    expect(single.status).toBe(422);
    expect(single.body.data).toBe(NOT_GRANTABLE(CROSS));
    const byId = await api.post('/api/Role/RolePermission', {
      roleId: role,
      permissionId: String(await codeId(CROSS)),
    });
    expect(byId.status).toBe(422);
    const batch = await api.post('/api/Role/BatchUpdateRolePermissions', {
      roleId: role,
      permissionCodes: ['saas:role:read', CROSS],
    });
    expect(batch.status).toBe(422);
    expect(batch.body.data).toBe(NOT_GRANTABLE(CROSS));
    expect(
      (await api.post('/api/Role/BatchUpdateRolePermissions', { roleId: role, permissionCodes: ['saas:tenant:read'] }))
        .body.data,
    ).toBe(NOT_GRANTABLE('saas:tenant:read'));
    // Re-enabling an old, disabled grant hands it out again.
    await deps()
      .db.insert(rolePermissions)
      .values({ roleId: BigInt(role), permissionId: await codeId(CROSS), status: 'Disabled' });
    const enable = await api.put('/api/Role/RolePermissionStatus', {
      roleId: role,
      permissionCode: CROSS,
      status: 'Enabled',
    });
    expect(enable.status).toBe(422);
    expect(enable.body.data).toBe(NOT_GRANTABLE(CROSS));
    // Inheriting from a role that carries it (its own) would hand it out too.
    const inherit = await api.post('/api/Role/RoleHierarchy', { roleId: role, parentRoleId: String(ownRole) });
    expect(inherit.status).toBe(422);
    expect(inherit.body.data).toBe(NOT_GRANTABLE(CROSS));

    expect(await codesOfRole(BigInt(role))).toEqual([CROSS]);
    const [still] = await deps()
      .db.select({ status: rolePermissions.status })
      .from(rolePermissions)
      .where(eq(rolePermissions.roleId, BigInt(role)));
    expect(still!.status).toBe('Disabled');
    expect(await audited()).toBe(before);
  });

  it('is refused to the super-administrator inside a tenant, and allowed to a global role in the platform state', async () => {
    const tenantId = await createTestTenant(deps());
    const inTenant = await superAdminIn(tenantId);
    const role = (await inTenant.post('/api/Role/Role', { roleCode: `r${deps().ids.next()}`, roleName: 'Tenant role' }))
      .body.data.basicId as string;
    const refused = await inTenant.post('/api/Role/RolePermission', { roleId: role, permissionCode: CROSS });
    expect(refused.status).toBe(422);
    expect(refused.body.data).toBe(NOT_GRANTABLE(CROSS));
    expect(await codesOfRole(BigInt(role))).toEqual([]);

    const global = (
      await root.post('/api/Role/Role', { roleCode: `g${deps().ids.next()}`, roleName: 'Platform operators' })
    ).body.data.basicId as string;
    const granted = await root.post('/api/Role/RolePermission', { roleId: global, permissionCode: CROSS });
    expect(granted.status).toBe(200);
    expect(await codesOfRole(BigInt(global))).toEqual([CROSS]);
  });

  it('is refused in an edition whitelist', async () => {
    const created = await root.post('/api/Edition/Edition', {
      editionCode: `e${deps().ids.next()}`,
      editionName: 'E',
      permissionWhitelist: ['saas:user:read', CROSS],
    });
    expect(created.status).toBe(422);
    expect(created.body.data).toBe(NOT_GRANTABLE(CROSS));
    const edition = (
      await root.post('/api/Edition/Edition', {
        editionCode: `e${deps().ids.next()}`,
        editionName: 'E',
        permissionWhitelist: ['saas:user:read'],
      })
    ).body.data.basicId as string;
    const updated = await root.put('/api/Edition/Edition', {
      basicId: edition,
      permissionWhitelist: ['saas:user:read', 'saas:edition:read'],
    });
    expect(updated.status).toBe(422);
    expect(updated.body.data).toBe(NOT_GRANTABLE('saas:edition:read'));
    expect(
      (
        await deps()
          .db.select({ w: editions.permissionWhitelist })
          .from(editions)
          .where(eq(editions.id, BigInt(edition)))
      )[0]!.w,
    ).toEqual(['saas:user:read']);
  });
});

describe('a platform code held inside a tenant', () => {
  it("grants nothing: not in the session's codes, not in the tenant's catalogue, not usable", async () => {
    const tenantId = await createTestTenant(deps());
    const { api } = await tenantUser(server, tenantId, [
      'saas:permission:read',
      'saas:impersonation:start',
      CROSS,
      'saas:tenant:read',
    ]);
    const info = (await api.get('/api/Auth/UserInfo')).body.data;
    expect(info.permissions).toEqual(['saas:impersonation:start', 'saas:permission:read']);
    expect((await api.get('/api/Auth/Permissions')).body.data.permissions).toEqual([
      'saas:impersonation:start',
      'saas:permission:read',
    ]);
    const catalogue = (await api.get('/api/PermissionQuery/Permissions')).body.data.map(
      (p: { permissionCode: string }) => p.permissionCode,
    );
    expect(catalogue).toContain('saas:impersonation:start');
    for (const code of [CROSS, 'saas:tenant:read', ...PLATFORM_CODES]) expect(catalogue).not.toContain(code);
    const page = await api.post('/api/TenantQuery/TenantPage', {});
    expect(page.status).toBe(403);
    expect(page.body.data).toBe(
      'saas:tenant:read is a platform permission: it applies only in the platform operations state.',
    );
  });

  it('grants nothing to the super-administrator either, whose platform state lists every code', async () => {
    const tenantId = await createTestTenant(deps());
    const platformCodes = (await root.get('/api/Auth/Permissions')).body.data.permissions as string[];
    expect(platformCodes).toEqual(expect.arrayContaining([CROSS, 'saas:tenant:read', ...PLATFORM_CODES]));
    const inTenant = await superAdminIn(tenantId);
    const tenantCodes = (await inTenant.get('/api/Auth/Permissions')).body.data.permissions as string[];
    expect(tenantCodes).toContain('saas:role:read');
    for (const code of [CROSS, 'saas:tenant:read', ...PLATFORM_CODES]) expect(tenantCodes).not.toContain(code);
  });
});

describe('the upgrade of an existing database', () => {
  it("removes platform codes from tenants' roles and from edition whitelists that keep other codes; global roles keep theirs", async () => {
    const tenantId = await createTestTenant(deps());
    const holder = await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    const tenantRole = await grantRole(deps(), holder.id, tenantId, [
      'saas:user:read',
      CROSS,
      'saas:tenant:read',
      'saas:edition:update',
    ]);
    const operator = await createTestUser(deps(), { tenantId: 0n });
    const globalRole = await grantRole(deps(), operator.id, 0n, ['saas:user:read', CROSS, 'saas:tenant:read']);
    const [mixed, onlyPlatform] = [deps().ids.next(), deps().ids.next()];
    await deps()
      .db.insert(editions)
      .values([
        {
          id: mixed,
          code: `m${mixed}`,
          name: 'Mixed',
          permissionWhitelist: ['saas:user:read', CROSS, 'saas:tenant:read'],
        },
        // Emptied, it would allow every code: left as it is (its tenants can use nothing in it).
        { id: onlyPlatform, code: `p${onlyPlatform}`, name: 'Platform only', permissionWhitelist: [CROSS] },
      ]);

    const migration = (await loadMigrations()).find((m) => m.tag === '0008_platform_codes_out_of_tenants');
    for (const statement of migration!.statements) await deps().db.execute(sql.raw(statement));

    expect(await codesOfRole(tenantRole)).toEqual(['saas:user:read']);
    expect(await codesOfRole(globalRole)).toEqual([CROSS, 'saas:tenant:read', 'saas:user:read'].sort());
    const whitelists = await deps()
      .db.select({ id: editions.id, w: editions.permissionWhitelist })
      .from(editions)
      .where(inArray(editions.id, [mixed, onlyPlatform]));
    expect(Object.fromEntries(whitelists.map((e) => [String(e.id), e.w]))).toEqual({
      [String(mixed)]: ['saas:user:read'],
      [String(onlyPlatform)]: [CROSS],
    });
    // Every platform code of the catalogue is one the upgrade knows.
    const all = await grantRole(deps(), holder.id, tenantId, PLATFORM_CODES);
    for (const statement of migration!.statements) await deps().db.execute(sql.raw(statement));
    expect(await codesOfRole(all)).toEqual([]);
    expect((await deps().db.select().from(roles).where(eq(roles.id, all))).length).toBe(1);
  });
});
