import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, permissions, rolePermissions, roles, userRoles } from '../../../../db/schema/index.js';
import {
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  loginAs,
  type TestUser,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { TENANT_ADMIN_CODES, TENANT_ADMIN } from '../permission/admin-test-kit.js';
import { expectAuthors } from '../user/authors-test-kit.js';
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
let creator: TestUser;
beforeAll(async () => {
  server = await startAdminServer();
  let admin;
  ({ tenantId, api, user: admin } = await tenantWithAdmin(server, TENANT_ADMIN));
  adminId = admin.id;
  creator = admin;
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const code = (prefix = 'role') => `${prefix}_${++seq}_${Date.now() % 100000}`;
const createRole = async (body: Record<string, unknown> = {}) => {
  const res = await api.post('/api/Role/Role', { roleCode: code(), roleName: `Role ${seq}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { basicId: string; roleCode: string; roleName: string; version: number };
};

describe('roles', () => {
  it('creates, reads, lists, updates with optimistic versions, and refuses duplicates and the reserved code', async () => {
    const created = await createRole({
      roleName: 'Auditors',
      roleDescription: 'Reads everything',
      dataScope: 'DepartmentOnly',
      sort: 5,
      maxMembers: 3,
    });
    expect(created).toMatchObject({
      roleName: 'Auditors',
      roleType: 'Custom',
      dataScope: 'DepartmentOnly',
      status: 'Enabled',
      isSystem: false,
      sort: 5,
      maxMembers: 3,
      version: 0,
    });

    const detail = await api.get('/api/RoleQuery/RoleDetail', { id: created.basicId });
    expect(detail.body.data).toMatchObject({
      basicId: created.basicId,
      roleCode: created.roleCode,
      roleDescription: 'Reads everything',
    });

    const page = await api.post('/api/RoleQuery/RolePage', { keyword: 'auditor', page: { pageSize: 5 } });
    expect(page.body.data.items.map((r: { basicId: string }) => r.basicId)).toEqual([created.basicId]);
    const filtered = await api.post('/api/RoleQuery/RolePage', {
      conditions: { filters: [{ field: 'dataScope', operator: 'Equal', value: 'DepartmentOnly' }] },
    });
    expect(filtered.body.data.items.map((r: { basicId: string }) => r.basicId)).toEqual([created.basicId]);

    // The status has its own operation (and code): an update leaves it. The data scope is in the
    // original's update body and applies (original-enums.test.ts has the details).
    const updated = await api.put('/api/Role/Role', {
      basicId: created.basicId,
      version: 0,
      roleName: 'Internal auditors',
      remark: 'r',
      status: 'Disabled',
      dataScope: 'All',
    });
    expect(updated.body.data).toMatchObject({
      roleName: 'Internal auditors',
      remark: 'r',
      version: 1,
      roleDescription: 'Reads everything',
      status: 'Enabled',
      dataScope: 'All',
    });
    const stale = await api.put('/api/Role/Role', { basicId: created.basicId, version: 0, roleName: 'Lost update' });
    expect(stale.status).toBe(409);

    const duplicate = await api.post('/api/Role/Role', { roleCode: created.roleCode.toUpperCase(), roleName: 'Twin' });
    expect(duplicate.status).toBe(409);
    const reserved = await api.post('/api/Role/Role', { roleCode: 'Super_Admin', roleName: 'Sneaky' });
    expect(reserved.status).toBe(422);
    expect(reserved.body.data).toMatch(/reserved/);
    const renamed = await api.put('/api/Role/Role', { basicId: created.basicId, roleCode: 'super_admin' });
    expect(renamed.status).toBe(422);
    const invalid = await api.post('/api/Role/Role', { roleCode: '', roleName: 'x', dataScope: 'Everything' });
    expect(invalid.status).toBe(400);
  });

  it('switches status (disabled roles leave the enabled list) and deletes only roles nobody holds', async () => {
    const role = await createRole();
    const off = await api.put('/api/Role/RoleStatus', { basicId: role.basicId, status: 'Disabled' });
    expect(off.body.data.status).toBe('Disabled');
    const enabled = await api.get('/api/RoleQuery/EnabledRoles');
    expect(enabled.body.data.map((r: { basicId: string }) => r.basicId)).not.toContain(role.basicId);
    await api.put('/api/Role/RoleStatus', { basicId: role.basicId, status: 1 });
    expect(
      (await api.get('/api/RoleQuery/EnabledRoles')).body.data.map((r: { basicId: string }) => r.basicId),
    ).toContain(role.basicId);

    const holder = await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    await deps()
      .db.insert(userRoles)
      .values({ id: deps().ids.next(), tenantId, userId: holder.id, roleId: BigInt(role.basicId) });
    const inUse = await api.del('/api/Role/Role', { id: role.basicId });
    expect(inUse.status).toBe(422);
    expect(inUse.body.data).toMatch(/1 user/);
    await deps()
      .db.delete(userRoles)
      .where(eq(userRoles.roleId, BigInt(role.basicId)));
    expect((await api.del('/api/Role/Role', { id: role.basicId })).body.data).toBe(true);
    expect((await api.get('/api/RoleQuery/RoleDetail', { id: role.basicId })).status).toBe(404);
    // The code is free again once the role is deleted.
    expect((await api.post('/api/Role/Role', { roleCode: role.roleCode, roleName: 'Again' })).status).toBe(200);
  });

  it('keeps system roles read-only, even for the super-administrator', async () => {
    const admin = await createSuperAdmin(deps());
    const root = adminApi(server, (await loginAs(server, admin)).accessToken);
    const [superRole] = await deps().db.select({ id: roles.id }).from(roles).where(eq(roles.roleCode, 'super_admin'));
    const id = String(superRole!.id);
    expect((await root.get('/api/RoleQuery/RoleDetail', { id })).body.data).toMatchObject({
      roleCode: 'super_admin',
      isSystem: true,
    });
    for (const call of [
      root.put('/api/Role/Role', { basicId: id, roleName: 'Renamed' }),
      root.put('/api/Role/RoleStatus', { basicId: id, status: 'Disabled' }),
      root.del('/api/Role/Role', { id }),
      root.post('/api/Role/RolePermission', { roleId: id, permissionCode: 'saas:user:read' }),
    ]) {
      const res = await call;
      expect(res.status).toBe(422);
      expect(res.body.data).toMatch(/system role/);
    }
  });
});

describe('role permissions', () => {
  it('grants by code or id, lists, disables, re-enables and revokes', async () => {
    const role = await createRole();
    const [p] = await deps()
      .db.select({ id: permissions.id })
      .from(permissions)
      .where(eq(permissions.code, 'saas:position:read'));
    expect(
      (await api.post('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: 'SAAS:ROLE:READ' })).status,
    ).toBe(200);
    const granted = await api.post('/api/Role/RolePermission', { roleId: role.basicId, permissionId: String(p!.id) });
    expect(granted.body.data.map((g: { permissionCode: string }) => g.permissionCode).sort()).toEqual([
      'saas:position:read',
      'saas:role:read',
    ]);

    const off = await api.put('/api/Role/RolePermissionStatus', {
      roleId: role.basicId,
      permissionCode: 'saas:role:read',
      status: 'Disabled',
    });
    expect(off.body.data.find((g: { permissionCode: string }) => g.permissionCode === 'saas:role:read').status).toBe(
      'Disabled',
    );
    const listed = await api.get('/api/RoleQuery/RolePermissions', { roleId: role.basicId });
    expect(listed.body.data).toHaveLength(2);
    await api.put('/api/Role/RolePermissionStatus', {
      roleId: role.basicId,
      permissionCode: 'saas:role:read',
      status: 'Enabled',
    });

    const revoked = await api.del('/api/Role/RolePermission', {
      roleId: role.basicId,
      permissionCode: 'saas:role:read',
    });
    expect(revoked.body.data.map((g: { permissionCode: string }) => g.permissionCode)).toEqual(['saas:position:read']);
    const notGranted = await api.put('/api/Role/RolePermissionStatus', {
      roleId: role.basicId,
      permissionCode: 'saas:role:read',
      status: 'Enabled',
    });
    expect(notGranted.status).toBe(404);
  });

  it('replaces the whole set in a batch and answers what changed', async () => {
    const role = await createRole();
    await api.post('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: 'saas:role:read' });
    const batch = await api.post('/api/Role/BatchUpdateRolePermissions', {
      roleId: role.basicId,
      permissionCodes: ['saas:menu:read', 'saas:position:read'],
    });
    expect(batch.body.data).toEqual({ granted: ['saas:menu:read', 'saas:position:read'], revoked: ['saas:role:read'] });
    const again = await api.post('/api/Role/BatchUpdateRolePermissions', {
      roleId: role.basicId,
      permissionCodes: ['saas:menu:read', 'saas:position:read'],
    });
    expect(again.body.data).toEqual({ granted: [], revoked: [] });
    const cleared = await api.post('/api/Role/BatchUpdateRolePermissions', { roleId: role.basicId });
    expect(cleared.body.data.revoked).toHaveLength(2);
  });

  it('refuses codes the caller does not hold, the wildcard and unknown codes', async () => {
    const role = await createRole();
    const unheld = await api.post('/api/Role/RolePermission', {
      roleId: role.basicId,
      permissionCode: 'saas:user:delete',
    });
    expect(unheld.status).toBe(403);
    expect(unheld.body.data).toMatch(/saas:user:delete/);
    const batch = await api.post('/api/Role/BatchUpdateRolePermissions', {
      roleId: role.basicId,
      permissionCodes: ['saas:role:read', 'saas:user:delete'],
    });
    expect(batch.status).toBe(403);
    expect((await api.get('/api/RoleQuery/RolePermissions', { roleId: role.basicId })).body.data).toEqual([]);
    expect((await api.post('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: '*' })).status).toBe(
      422,
    );
    expect(
      (await api.post('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: 'saas:nothing:here' }))
        .status,
    ).toBe(422);
    expect((await api.post('/api/Role/RolePermission', { roleId: role.basicId })).status).toBe(400);
  });
});

describe('role inheritance', () => {
  it('links parents, reads both directions, refuses cycles and self-inheritance, and unlinks', async () => {
    const [a, b, c] = [await createRole(), await createRole(), await createRole()];
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: a.basicId, parentRoleId: b.basicId })).status).toBe(
      200,
    );
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: b.basicId, parentRoleId: c.basicId })).status).toBe(
      200,
    );
    const cycle = await api.post('/api/Role/RoleHierarchy', { roleId: c.basicId, parentRoleId: a.basicId });
    expect(cycle.status).toBe(422);
    expect(cycle.body.data).toMatch(/cycle/);
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: a.basicId, parentRoleId: a.basicId })).status).toBe(
      422,
    );

    const view = await api.get('/api/RoleQuery/RoleHierarchy', { roleId: b.basicId });
    expect(view.body.data.parents.map((r: { basicId: string }) => r.basicId)).toEqual([c.basicId]);
    expect(view.body.data.children.map((r: { basicId: string }) => r.basicId)).toEqual([a.basicId]);

    const removed = await api.del('/api/Role/RoleHierarchy', { roleId: b.basicId, parentRoleId: c.basicId });
    expect(removed.body.data.parents).toEqual([]);
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: c.basicId, parentRoleId: a.basicId })).status).toBe(
      200,
    );
  });

  it('refuses two concurrent links that would close a cycle together: exactly one wins', async () => {
    const [a, b] = [await createRole(), await createRole()];
    const results = await Promise.all([
      api.post('/api/Role/RoleHierarchy', { roleId: a.basicId, parentRoleId: b.basicId }),
      api.post('/api/Role/RoleHierarchy', { roleId: b.basicId, parentRoleId: a.basicId }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('refuses inheriting a role whose codes the caller does not hold', async () => {
    const strong = await createRole();
    await deps()
      .db.insert(rolePermissions)
      .values({
        roleId: BigInt(strong.basicId),
        permissionId: (
          await deps()
            .db.select({ id: permissions.id })
            .from(permissions)
            .where(eq(permissions.code, 'saas:user:delete'))
        )[0]!.id,
      });
    const weak = await createRole();
    const res = await api.post('/api/Role/RoleHierarchy', { roleId: weak.basicId, parentRoleId: strong.basicId });
    expect(res.status).toBe(403);
    expect(res.body.data).toMatch(/saas:user:delete/);
  });
});

describe('role data scope', () => {
  it('sets a Custom scope over departments of the tenant only, and clears them for other scopes', async () => {
    const role = await createRole();
    const dept = await api.post('/api/Department/Department', { departmentName: 'Scoped' });
    const other = await createTestTenant(deps());
    const foreign = deps().ids.next();
    await deps().db.insert(departments).values({ id: foreign, tenantId: other, departmentName: 'Foreign' });

    const set = await api.put('/api/Role/RoleDataScope', {
      roleId: role.basicId,
      dataScope: 'Custom',
      departmentIds: [dept.body.data.basicId],
    });
    expect(set.body.data).toMatchObject({ dataScope: 'Custom', departmentIds: [dept.body.data.basicId] });
    expect((await api.get('/api/RoleQuery/RoleDataScope', { roleId: role.basicId })).body.data.departmentIds).toEqual([
      dept.body.data.basicId,
    ]);
    const refused = await api.put('/api/Role/RoleDataScope', {
      roleId: role.basicId,
      dataScope: 'Custom',
      departmentIds: [String(foreign)],
    });
    expect(refused.status).toBe(404);
    const stale = await api.put('/api/Role/RoleDataScope', { roleId: role.basicId, dataScope: 'All', version: 0 });
    expect(stale.status).toBe(409);
    const all = await api.put('/api/Role/RoleDataScope', { roleId: role.basicId, dataScope: 'All' });
    expect(all.body.data).toMatchObject({ dataScope: 'All', departmentIds: [] });
  });
});

describe('impersonation', () => {
  it('refuses permission changes from an impersonation session', async () => {
    const { user: target } = await tenantUser(server, tenantId, TENANT_ADMIN_CODES);
    const {
      api: boss,
      roleId: bossRole,
      user: bossUser,
    } = await tenantUser(server, tenantId, [...TENANT_ADMIN_CODES, 'saas:impersonation:start']);
    // Impersonation reaches only users within the caller's data scope.
    await deps().db.update(roles).set({ dataScope: 'All' }).where(eq(roles.id, bossRole!));
    await deps().authz.invalidateUser(bossUser.id);
    const started = await boss.post('/api/Impersonation/Impersonation', { userId: String(target.id) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const as = adminApi(server, started.body.data.token.accessToken);
    const role = await createRole();
    const calls = [
      as.post('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: 'saas:role:read' }),
      as.del('/api/Role/RolePermission', { roleId: role.basicId, permissionCode: 'saas:role:read' }),
      as.put('/api/Role/RolePermissionStatus', {
        roleId: role.basicId,
        permissionCode: 'saas:role:read',
        status: 'Disabled',
      }),
      as.post('/api/Role/BatchUpdateRolePermissions', { roleId: role.basicId, permissionCodes: [] }),
      as.post('/api/Role/RoleHierarchy', { roleId: role.basicId, parentRoleId: role.basicId }),
      as.del('/api/Role/RoleHierarchy', { roleId: role.basicId, parentRoleId: role.basicId }),
      as.put('/api/Role/RoleDataScope', { roleId: role.basicId, dataScope: 'All' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.data).toMatch(/impersonat/);
    }
    // Reading is still allowed.
    expect((await as.get('/api/RoleQuery/RolePermissions', { roleId: role.basicId })).status).toBe(200);
  });
});

describe('audit', () => {
  const entry = (call: Call, action: AuditAction, roleId: string, detail: Record<string, unknown>) =>
    auditEntry(call, { action, actor: adminId, tenantId, targetType: 'Role', targetId: roleId, detail });

  it('records one entry per role write, in the context, naming the role and what changed', async () => {
    const audit = await watchAudit(server);
    const roleCode = code('audited');
    const created = await api.post('/api/Role/Role', { roleCode, roleName: 'Audited', dataScope: 'DepartmentOnly' });
    const id = created.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(created, 'RoleCreated', id, {
        roleCode,
        roleName: 'Audited',
        dataScope: 'DepartmentOnly',
        departmentIds: [],
      }),
    ]);

    const updated = await api.put('/api/Role/Role', { basicId: id, roleName: 'Audited twice', remark: 'r' });
    expect(await audit()).toEqual([entry(updated, 'RoleUpdated', id, { roleCode, fields: ['remark', 'roleName'] })]);
    const disabled = await api.put('/api/Role/RoleStatus', { basicId: id, status: 'Disabled' });
    expect(await audit()).toEqual([entry(disabled, 'RoleStatusChanged', id, { from: 'Enabled', to: 'Disabled' })]);

    const dept = (await api.post('/api/Department/Department', { departmentName: 'Audit scope' })).body.data
      .basicId as string;
    await audit();
    const scoped = await api.put('/api/Role/RoleDataScope', { roleId: id, dataScope: 'Custom', departmentIds: [dept] });
    expect(await audit()).toEqual([
      entry(scoped, 'RoleDataScopeChanged', id, { from: 'DepartmentOnly', to: 'Custom', departmentIds: [dept] }),
    ]);

    const granted = await api.post('/api/Role/RolePermission', { roleId: id, permissionCode: 'saas:role:read' });
    expect(await audit()).toEqual([
      entry(granted, 'RolePermissionGranted', id, { added: ['saas:role:read'], removed: [] }),
    ]);
    const batch = await api.post('/api/Role/BatchUpdateRolePermissions', {
      roleId: id,
      permissionCodes: ['saas:position:read', 'saas:menu:read'],
    });
    expect(await audit()).toEqual([
      entry(batch, 'RolePermissionsReplaced', id, {
        added: ['saas:menu:read', 'saas:position:read'],
        removed: ['saas:role:read'],
      }),
    ]);
    const off = await api.put('/api/Role/RolePermissionStatus', {
      roleId: id,
      permissionCode: 'saas:menu:read',
      status: 'Disabled',
    });
    expect(await audit()).toEqual([
      entry(off, 'RolePermissionStatusChanged', id, { permissionCode: 'saas:menu:read', to: 'Disabled' }),
    ]);
    const revoked = await api.del('/api/Role/RolePermission', { roleId: id, permissionCode: 'saas:menu:read' });
    expect(await audit()).toEqual([
      entry(revoked, 'RolePermissionRevoked', id, { added: [], removed: ['saas:menu:read'] }),
    ]);

    const parent = await createRole();
    await audit();
    const linked = await api.post('/api/Role/RoleHierarchy', { roleId: id, parentRoleId: parent.basicId });
    expect(await audit()).toEqual([
      entry(linked, 'RoleParentAdded', id, { parentRoleId: parent.basicId, parentRoleCode: parent.roleCode }),
    ]);
    const unlinked = await api.del('/api/Role/RoleHierarchy', { roleId: id, parentRoleId: parent.basicId });
    expect(await audit()).toEqual([entry(unlinked, 'RoleParentRemoved', id, { parentRoleId: parent.basicId })]);

    const deleted = await api.del('/api/Role/Role', { id });
    expect(await audit()).toEqual([entry(deleted, 'RoleDeleted', id, { roleCode, roleName: 'Audited twice' })]);
  });

  it('records nothing for refused role writes', async () => {
    const [a, b] = [await createRole(), await createRole()];
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: a.basicId, parentRoleId: b.basicId })).status).toBe(
      200,
    );
    const audit = await watchAudit(server);
    expect((await api.post('/api/Role/RoleHierarchy', { roleId: b.basicId, parentRoleId: a.basicId })).status).toBe(
      422,
    );
    expect((await api.post('/api/Role/Role', { roleCode: a.roleCode, roleName: 'Twin' })).status).toBe(409);
    expect((await api.put('/api/Role/Role', { basicId: a.basicId, version: 7, roleName: 'Stale' })).status).toBe(409);
    expect(
      (await api.post('/api/Role/RolePermission', { roleId: a.basicId, permissionCode: 'saas:user:delete' })).status,
    ).toBe(403);
    expect(
      (
        await api.post('/api/Role/BatchUpdateRolePermissions', {
          roleId: a.basicId,
          permissionCodes: ['saas:role:read', 'saas:user:delete'],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api.post('/api/Role/BatchUpdateRolePermissions', {
          roleId: a.basicId,
          permissionCodes: ['saas:role:read', 'saas:tenant:create'],
        })
      ).status,
    ).toBe(422);
    const { api: reader } = await tenantUser(server, tenantId, ['saas:role:read']);
    expect((await reader.put('/api/Role/RoleStatus', { basicId: a.basicId, status: 'Disabled' })).status).toBe(403);
    expect(await audit()).toEqual([]);
  });
});

describe('role authors', () => {
  it('names who created and who last changed a role (id and user name), in the detail and the page', () =>
    expectAuthors({
      server,
      tenantId,
      creator: { user: creator, api },
      create: (as, n) => as.post('/api/Role/Role', { roleCode: code('authored'), roleName: `Authored ${n}` }),
      update: (as, id) => as.put('/api/Role/Role', { basicId: id, remark: 'edited' }),
      detail: (as, id) => as.get('/api/RoleQuery/RoleDetail', { id }),
      lists: [async (as) => (await as.post('/api/RoleQuery/RolePage', { keyword: 'authored' })).body.data.items],
    }));
});
