import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleDataScopeDepartments, roles, users } from '../../../../db/schema/index.js';
import { loadMigrations } from '../../infra/db/migrator.js';
import { createTestUser, grantRole } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import {
  adminApi,
  startAdminServer,
  tenantUser,
  tenantWithAdmin,
  watchAudit,
  type AdminApi,
} from '../../testing/admin.js';
import { TENANT_ADMIN } from '../permission/admin-test-kit.js';

/**
 * RoleType and DataPermissionScope carry the original's names and numbers (its admin front end
 * sends numbers), and a role update applies the data scope the original's update body carries.
 */

let server: TestServer;
let tenantId: bigint;
let api: AdminApi;
beforeAll(async () => {
  server = await startAdminServer();
  ({ tenantId, api } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const code = () => `enum_${++seq}_${Date.now() % 100000}`;
const create = (body: Record<string, unknown>) =>
  api.post('/api/Role/Role', { roleCode: code(), roleName: `Enum role ${seq}`, ...body });
const storedScope = async (id: string) =>
  (
    await deps()
      .db.select({ s: roles.dataScope })
      .from(roles)
      .where(eq(roles.id, BigInt(id)))
  )[0]!.s;

describe('original enum names and numbers', () => {
  it('reads DataPermissionScope by number or name and writes the name: 0 is SelfOnly, 3 is All', async () => {
    const expected: Array<[unknown, string]> = [
      [0, 'SelfOnly'],
      [1, 'DepartmentOnly'],
      [2, 'DepartmentAndChildren'],
      [3, 'All'],
      [99, 'Custom'],
      ['3', 'All'],
      ['departmentonly', 'DepartmentOnly'],
      ['SelfOnly', 'SelfOnly'],
    ];
    for (const [dataScope, name] of expected) {
      const res = await create({ dataScope });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.dataScope).toBe(name);
      expect(await storedScope(res.body.data.basicId)).toBe(name);
    }
    // Absent: SelfOnly, the original's default.
    expect((await create({})).body.data.dataScope).toBe('SelfOnly');
    // The names this service wrote before are still read, with their meaning.
    expect((await create({ dataScope: 'Self' })).body.data.dataScope).toBe('SelfOnly');
    expect((await create({ dataScope: 'DeptAndBelow' })).body.data.dataScope).toBe('DepartmentAndChildren');
  });

  it('reads RoleType by number or name and writes the name', async () => {
    for (const [roleType, name] of [
      [0, 'System'],
      [1, 'Business'],
      [2, 'Custom'],
      ['business', 'Business'],
    ] as const) {
      const res = await create({ roleType });
      expect(res.body.data.roleType).toBe(name);
    }
    expect((await create({})).body.data.roleType).toBe('Custom');
  });

  it('answers 400 with the envelope for an unknown name or number, on create, update, RoleDataScope and the page', async () => {
    const role = (await create({})).body.data.basicId as string;
    const bad = [
      await create({ dataScope: 4 }),
      await create({ dataScope: 'Everything' }),
      await create({ roleType: 3 }),
      await create({ dataScope: -1 }),
      await api.put('/api/Role/Role', { basicId: role, dataScope: 100 }),
      await api.put('/api/Role/RoleDataScope', { roleId: role, dataScope: 5 }),
      await api.post('/api/RoleQuery/RolePage', { dataScope: 'Dept-ish' }),
      await api.post('/api/RoleQuery/RolePage', {
        conditions: { filters: [{ field: 'roleType', operator: 'Equal', value: 7 }] },
      }),
    ];
    for (const res of bad) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, isSuccess: false });
    }
    expect(await storedScope(role)).toBe('SelfOnly');
  });

  it('filters the page by number: 0 finds SelfOnly roles only', async () => {
    const self = (await create({ dataScope: 0 })).body.data.basicId;
    const all = (await create({ dataScope: 3 })).body.data.basicId;
    const items = (await api.post('/api/RoleQuery/RolePage', { dataScope: 0, page: { pageSize: 500 } })).body.data
      .items as Array<{ basicId: string; dataScope: string }>;
    expect(items.map((r) => r.basicId)).toContain(self);
    expect(items.map((r) => r.basicId)).not.toContain(all);
    expect(new Set(items.map((r) => r.dataScope))).toEqual(new Set(['SelfOnly']));
  });

  it('gives a role set to data scope 0 the narrowest view, and 3 everything (the privilege case)', async () => {
    const { user: holder, roleId, api: holderApi } = await tenantUser(server, tenantId, ['saas:user:read']);
    await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    const visible = async () =>
      ((await holderApi.post('/api/UserQuery/UserPage', {})).body.data.items as Array<{ basicId: string }>).map(
        (u) => u.basicId,
      );

    const narrowed = await api.put('/api/Role/RoleDataScope', { roleId: String(roleId), dataScope: 0 });
    expect(narrowed.body.data.dataScope).toBe('SelfOnly');
    expect(await visible()).toEqual([String(holder.id)]);

    const widened = await api.put('/api/Role/Role', { basicId: String(roleId), dataScope: 3 });
    expect(widened.body.data.dataScope).toBe('All');
    expect((await visible()).length).toBeGreaterThan(1);
  });
});

describe('role update with a data scope', () => {
  it('applies dataScope and Custom departments, keeps them when the same scope comes back, ignores a status, and audits the scope change', async () => {
    const role = (await create({ dataScope: 'DepartmentOnly' })).body.data as { basicId: string; roleCode: string };
    const dept = (await api.post('/api/Department/Department', { departmentName: `Scope ${seq}` })).body.data
      .basicId as string;
    const audit = await watchAudit(server);

    const updated = await api.put('/api/Role/Role', {
      basicId: role.basicId,
      version: 0,
      roleName: 'Renamed',
      dataScope: 99,
      departmentIds: [dept],
      status: 'Disabled',
    });
    expect(updated.body.data).toMatchObject({
      roleName: 'Renamed',
      dataScope: 'Custom',
      status: 'Enabled',
      version: 1,
    });
    expect((await api.get('/api/RoleQuery/RoleDataScope', { roleId: role.basicId })).body.data).toMatchObject({
      dataScope: 'Custom',
      departmentIds: [dept],
    });
    const entries = await audit();
    expect(entries.map((e) => e.action).sort()).toEqual(['RoleDataScopeChanged', 'RoleUpdated']);
    expect(entries.find((e) => e.action === 'RoleDataScopeChanged')!.detail).toMatchObject({
      roleCode: role.roleCode,
      from: 'DepartmentOnly',
      to: 'Custom',
      departmentIds: [dept],
    });
    expect(entries.find((e) => e.action === 'RoleUpdated')!.detail).toMatchObject({ fields: ['roleName'] });

    // What the original's front end sends on every save: the whole body, the same scope, no departments.
    const again = await api.put('/api/Role/Role', {
      basicId: role.basicId,
      roleName: 'Renamed again',
      dataScope: 'Custom',
    });
    expect(again.status).toBe(200);
    expect((await api.get('/api/RoleQuery/RoleDataScope', { roleId: role.basicId })).body.data.departmentIds).toEqual([
      dept,
    ]);
    expect((await audit()).map((e) => e.action)).toEqual(['RoleUpdated']);

    // Only the scope: one entry, the scope's; leaving Custom clears the departments.
    const all = await api.put('/api/Role/Role', { basicId: role.basicId, dataScope: 'All' });
    expect(all.body.data.dataScope).toBe('All');
    expect(
      await deps()
        .db.select()
        .from(roleDataScopeDepartments)
        .where(eq(roleDataScopeDepartments.roleId, BigInt(role.basicId))),
    ).toEqual([]);
    expect((await audit()).map((e) => [e.action, (e.detail as { from?: string }).from])).toEqual([
      ['RoleDataScopeChanged', 'Custom'],
    ]);
  });

  it('creates a role with a chosen scope only with the data-scope code; the default scope needs none', async () => {
    const { api: creator } = await tenantUser(server, tenantId, ['saas:role:create', 'saas:role:read']);
    const denied = await creator.post('/api/Role/Role', { roleCode: code(), roleName: 'Sees all', dataScope: 'All' });
    expect(denied.status).toBe(403);
    expect(denied.body.data).toContain('saas:role-data-scope:update');
    const plain = await creator.post('/api/Role/Role', { roleCode: code(), roleName: 'Plain', dataScope: 'SelfOnly' });
    expect(plain.status).toBe(200);
    expect((await create({ dataScope: 'All' })).status).toBe(200);
  });

  it('refuses a changed scope without the data-scope code, or over departments of another tenant; an unchanged one passes', async () => {
    const role = (await create({ dataScope: 'DepartmentOnly' })).body.data.basicId as string;
    const { api: editor } = await tenantUser(server, tenantId, ['saas:role:update', 'saas:role:read']);
    const denied = await editor.put('/api/Role/Role', { basicId: role, roleName: 'Wider', dataScope: 3 });
    expect(denied.status).toBe(403);
    expect(denied.body.data).toContain('saas:role-data-scope:update');
    expect(await storedScope(role)).toBe('DepartmentOnly');
    const same = await editor.put('/api/Role/Role', { basicId: role, roleName: 'Same scope', dataScope: 1 });
    expect(same.body.data).toMatchObject({ roleName: 'Same scope', dataScope: 'DepartmentOnly' });

    const { tenantId: other, api: otherAdmin } = await tenantWithAdmin(server, TENANT_ADMIN);
    expect(other).not.toBe(tenantId);
    const foreign = (await otherAdmin.post('/api/Department/Department', { departmentName: 'Foreign' })).body.data
      .basicId as string;
    expect(
      (await api.put('/api/Role/Role', { basicId: role, dataScope: 'Custom', departmentIds: [foreign] })).status,
    ).toBe(404);
    expect(await storedScope(role)).toBe('DepartmentOnly');
  });
});

describe('migration 0002_original_enum_names', () => {
  it("renames the former stored data scopes of roles and users' overrides to the original's names", async () => {
    const role = await grantRole(
      deps(),
      (await createTestUser(deps(), { tenantId, memberOf: [tenantId] })).id,
      tenantId,
      [],
    );
    const former = {
      Self: 'SelfOnly',
      Dept: 'DepartmentOnly',
      DeptAndBelow: 'DepartmentAndChildren',
      All: 'All',
      Custom: 'Custom',
    };
    const migration = (await loadMigrations()).find((m) => m.tag === '0002_original_enum_names')!;
    const user = await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    for (const [old, name] of Object.entries(former)) {
      await deps().db.update(roles).set({ dataScope: old }).where(eq(roles.id, role));
      await deps().db.update(users).set({ dataScopeOverride: old }).where(eq(users.id, user.id));
      for (const statement of migration.statements) await deps().db.execute(sql.raw(statement));
      expect(await storedScope(String(role))).toBe(name);
      expect(
        (await deps().db.select({ o: users.dataScopeOverride }).from(users).where(eq(users.id, user.id)))[0]!.o,
      ).toBe(name);
      expect((await api.get('/api/RoleQuery/RoleDetail', { id: role })).body.data.dataScope).toBe(name);
    }
  });
});

describe('impersonation', () => {
  it('refuses RoleStatus and a data-scope change through a role update from an impersonation session', async () => {
    const { user: target } = await tenantUser(server, tenantId, [
      'saas:role:read',
      'saas:role:update',
      'saas:role:status',
      'saas:role-data-scope:update',
    ]);
    const { api: boss, roleId } = await tenantUser(server, tenantId, [
      'saas:role:read',
      'saas:role:update',
      'saas:role:status',
      'saas:role-data-scope:update',
      'saas:impersonation:start',
    ]);
    // Impersonation reaches only users within the caller's data scope.
    await api.put('/api/Role/RoleDataScope', { roleId: String(roleId), dataScope: 'All' });
    const started = await boss.post('/api/Impersonation/Impersonation', { userId: String(target.id) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const as = adminApi(server, started.body.data.token.accessToken);
    const role = (await create({ dataScope: 'SelfOnly' })).body.data.basicId as string;
    for (const res of [
      await as.put('/api/Role/RoleStatus', { basicId: role, status: 'Disabled' }),
      await as.put('/api/Role/Role', { basicId: role, dataScope: 'All' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.data).toMatch(/impersonat/);
    }
    expect((await api.get('/api/RoleQuery/RoleDetail', { id: role })).body.data).toMatchObject({
      status: 'Enabled',
      dataScope: 'SelfOnly',
    });
    // Other fields, and the same scope, still change.
    expect(
      (await as.put('/api/Role/Role', { basicId: role, roleName: 'Renamed while impersonating', dataScope: 0 })).status,
    ).toBe(200);
  });
});
