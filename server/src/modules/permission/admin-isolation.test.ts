import { eq, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  departmentHierarchy,
  departments,
  menus,
  positions,
  roleDataScopeDepartments,
  roleInheritances,
  rolePermissions,
  roles,
  tenantInvitations,
  tenantMemberships,
  tenants,
  userRoles,
} from '../../../../db/schema/index.js';
import { createTestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { PLATFORM_CODES, TENANT_ADMIN_CODES, TENANT_ADMIN } from './admin-test-kit.js';
import { startAdminServer, tenantUser, tenantWithAdmin, type AdminApi, type Call } from '../../testing/admin.js';

/**
 * The isolation sweep: an administrator of tenant A, holding every code of these
 * modules (the platform ones too), calls every read and write endpoint of tenants, memberships,
 * roles, departments, positions and menus with ids, filters and keywords that point at tenant B.
 * Nothing of B may appear in any answer, and nothing of B may change.
 */

let server: TestServer;
let a: AdminApi;
let b: AdminApi;
let tenantB: bigint;
/** A word in every name, code and path of B's records. */
const MARK = `bravo${Date.now() % 1_000_000}`;
const B: Record<string, string> = {};
const A: Record<string, string> = {};

beforeAll(async () => {
  server = await startAdminServer();
  const deps = server.runtime.deps;
  ({ tenantId: tenantB, api: b } = await tenantWithAdmin(server, TENANT_ADMIN));
  const tenantA = (await tenantWithAdmin(server, TENANT_ADMIN)).tenantId;
  ({ api: a } = await tenantUser(server, tenantA, [...TENANT_ADMIN_CODES, ...PLATFORM_CODES]));

  const ok = (res: Call) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  // Tenant B's records, made through B's own administrator.
  B.dept = ok(
    await b.post('/api/Department/Department', { departmentName: `${MARK} root`, departmentCode: `${MARK}-d` }),
  ).basicId;
  B.deptChild = ok(
    await b.post('/api/Department/Department', { parentId: B.dept, departmentName: `${MARK} child` }),
  ).basicId;
  B.role = ok(
    await b.post('/api/Role/Role', {
      roleCode: `${MARK}_r1`,
      roleName: `${MARK} role`,
      roleDescription: MARK,
      dataScope: 'Custom',
      departmentIds: [B.deptChild],
    }),
  ).basicId;
  B.parentRole = ok(await b.post('/api/Role/Role', { roleCode: `${MARK}_r2`, roleName: `${MARK} parent` })).basicId;
  ok(await b.post('/api/Role/RolePermission', { roleId: B.role, permissionCode: 'saas:position:read' }));
  ok(await b.post('/api/Role/RoleHierarchy', { roleId: B.role, parentRoleId: B.parentRole }));
  B.position = ok(
    await b.post('/api/Position/Position', { positionCode: `${MARK}-p`, positionName: `${MARK} position` }),
  ).basicId;
  B.menu = ok(
    await b.post('/api/Menu/Menu', {
      menuType: 'Menu',
      menuCode: `${MARK}-m`,
      menuName: `${MARK} menu`,
      path: `/${MARK}`,
    }),
  ).basicId;
  const bUser = await createTestUser(deps, { tenantId: tenantB, userName: `${MARK}_user`, nickName: `${MARK} nick` });
  B.user = String(bUser.id);
  B.membership = ok(
    await b.post('/api/TenantMember/TenantMember', { userId: B.user, displayName: `${MARK} member` }),
  ).basicId;
  B.tenant = String(tenantB);
  B.invitation = ok(
    await b.post('/api/TenantInvitation/TenantInvitation', {
      email: `${MARK}@example.test`,
      displayName: `${MARK} guest`,
    }),
  ).basicId;

  // Tenant A's own records, to aim at B's from.
  A.role = ok(await a.post('/api/Role/Role', { roleCode: 'alpha_r', roleName: 'Alpha role' })).basicId;
  A.dept = ok(await a.post('/api/Department/Department', { departmentName: 'Alpha dept' })).basicId;
  A.menu = ok(
    await a.post('/api/Menu/Menu', { menuType: 'Menu', menuCode: 'alpha-m', menuName: 'Alpha menu' }),
  ).basicId;
});
afterAll(() => server.close());

/** Every row of B these modules own, in a stable order. */
async function rowsOfB() {
  const { db } = server.runtime.deps;
  const roleIds = (await db.select({ id: roles.id }).from(roles).where(eq(roles.tenantId, tenantB))).map((r) => r.id);
  const byId = <T extends { id: bigint }>(rows: T[]) => rows.sort((x, y) => (x.id < y.id ? -1 : 1));
  return {
    tenant: await db.select().from(tenants).where(eq(tenants.id, tenantB)),
    roles: byId(await db.select().from(roles).where(eq(roles.tenantId, tenantB))),
    grants: (await db.select().from(rolePermissions).where(inArray(rolePermissions.roleId, roleIds)))
      .map((g) => `${g.roleId}:${g.permissionId}:${g.status}`)
      .sort(),
    inheritance: (
      await db
        .select()
        .from(roleInheritances)
        .where(or(inArray(roleInheritances.roleId, roleIds), inArray(roleInheritances.parentRoleId, roleIds)))
    )
      .map((i) => `${i.roleId}>${i.parentRoleId}`)
      .sort(),
    scopes: (await db.select().from(roleDataScopeDepartments).where(inArray(roleDataScopeDepartments.roleId, roleIds)))
      .map((s) => `${s.roleId}:${s.departmentId}`)
      .sort(),
    departments: byId(await db.select().from(departments).where(eq(departments.tenantId, tenantB))),
    closure: (await db.select().from(departmentHierarchy).where(eq(departmentHierarchy.tenantId, tenantB)))
      .map((c) => `${c.ancestorId}>${c.descendantId}:${c.depth}:${c.pathName}`)
      .sort(),
    positions: byId(await db.select().from(positions).where(eq(positions.tenantId, tenantB))),
    menus: byId(await db.select().from(menus).where(eq(menus.tenantId, tenantB))),
    memberships: byId(await db.select().from(tenantMemberships).where(eq(tenantMemberships.tenantId, tenantB))),
    invitations: byId(await db.select().from(tenantInvitations).where(eq(tenantInvitations.tenantId, tenantB))),
    userRoles: byId(await db.select().from(userRoles).where(eq(userRoles.tenantId, tenantB))),
  };
}

type Attempt = [label: string, call: () => Promise<Call>, request: unknown, route: string];

function attempts(): { reads: Attempt[]; writes: Attempt[]; creations: Attempt[] } {
  const r = (label: string, path: string, q: Record<string, unknown> = {}): Attempt => [
    label,
    () => a.get(path, q),
    q,
    `GET ${path}`,
  ];
  const p = (label: string, path: string, body: Record<string, unknown>): Attempt => [
    label,
    () => a.post(path, body),
    body,
    `POST ${path}`,
  ];
  const u = (label: string, path: string, body: Record<string, unknown>): Attempt => [
    label,
    () => a.put(path, body),
    body,
    `PUT ${path}`,
  ];
  const d = (label: string, path: string, q: Record<string, unknown>): Attempt => [
    label,
    () => a.del(path, q),
    q,
    `DELETE ${path}`,
  ];
  const ids = (...keys: string[]) => keys.map((k) => B[k]);
  const filterIds = (...keys: string[]) => ({
    conditions: { filters: [{ field: 'basicId', operator: 'In', values: ids(...keys) }] },
  });
  const keyword = (fields: string[]) => ({ conditions: { keyword: { value: MARK, fields } } });

  const reads: Attempt[] = [
    r('RoleDetail', '/api/RoleQuery/RoleDetail', { id: B.role }),
    p('RolePage keyword', '/api/RoleQuery/RolePage', { keyword: MARK }),
    p('RolePage conditions.keyword', '/api/RoleQuery/RolePage', keyword(['roleCode', 'roleName', 'roleDescription'])),
    p('RolePage ids', '/api/RoleQuery/RolePage', filterIds('role', 'parentRole')),
    r('EnabledRoles', '/api/RoleQuery/EnabledRoles'),
    r('RolePermissions', '/api/RoleQuery/RolePermissions', { roleId: B.role }),
    r('RoleHierarchy', '/api/RoleQuery/RoleHierarchy', { roleId: B.role }),
    r('RoleHierarchy of A', '/api/RoleQuery/RoleHierarchy', { roleId: A.role }),
    r('RoleDataScope', '/api/RoleQuery/RoleDataScope', { roleId: B.role }),
    r('DepartmentDetail', '/api/DepartmentQuery/DepartmentDetail', { id: B.dept }),
    p('DepartmentPage keyword', '/api/DepartmentQuery/DepartmentPage', { keyword: MARK }),
    p('DepartmentPage ids', '/api/DepartmentQuery/DepartmentPage', filterIds('dept', 'deptChild')),
    p('DepartmentPage parent', '/api/DepartmentQuery/DepartmentPage', { parentId: B.dept }),
    r('DepartmentTree', '/api/DepartmentQuery/DepartmentTree'),
    r('EnabledDepartments', '/api/DepartmentQuery/EnabledDepartments'),
    r('PositionDetail', '/api/PositionQuery/PositionDetail', { id: B.position }),
    p('PositionPage keyword', '/api/PositionQuery/PositionPage', keyword(['positionCode', 'positionName'])),
    p('PositionPage ids', '/api/PositionQuery/PositionPage', filterIds('position')),
    r('EnabledPositions', '/api/PositionQuery/EnabledPositions'),
    r('MenuDetail', '/api/MenuQuery/MenuDetail', { id: B.menu }),
    p('MenuPage keyword', '/api/MenuQuery/MenuPage', { keyword: MARK }),
    p('MenuPage ids', '/api/MenuQuery/MenuPage', filterIds('menu')),
    p('MenuPage path', '/api/MenuQuery/MenuPage', {
      conditions: { filters: [{ field: 'path', operator: 'Contains', value: MARK }] },
    }),
    r('MenuList', '/api/MenuQuery/MenuList'),
    r('MenuTree', '/api/MenuQuery/MenuTree'),
    r('TenantMemberDetail', '/api/TenantMemberQuery/TenantMemberDetail', { id: B.membership }),
    p('TenantMemberPage keyword', '/api/TenantMemberQuery/TenantMemberPage', { keyword: MARK }),
    p('TenantMemberPage user', '/api/TenantMemberQuery/TenantMemberPage', {
      conditions: { filters: [{ field: 'userId', operator: 'Equal', value: B.user }] },
    }),
    p('TenantMemberPage ids', '/api/TenantMemberQuery/TenantMemberPage', filterIds('membership')),
    p('TenantInvitationPage keyword', '/api/TenantInvitationQuery/TenantInvitationPage', { keyword: MARK }),
    p('TenantInvitationPage ids', '/api/TenantInvitationQuery/TenantInvitationPage', filterIds('invitation')),
    r('MyTenantInvitations', '/api/TenantInvitationQuery/MyTenantInvitations'),
    r('TenantDetail', '/api/TenantQuery/TenantDetail', { id: B.tenant }),
    p('TenantPage', '/api/TenantQuery/TenantPage', { keyword: MARK, ...filterIds('tenant') }),
    r('EditionList', '/api/EditionQuery/EditionList'),
    r('EditionDetail', '/api/EditionQuery/EditionDetail', { id: 1 }),
    r('Permissions', '/api/PermissionQuery/Permissions'),
    r('MyAvailableTenants', '/api/TenantQuery/MyAvailableTenants'),
  ];

  const writes: Attempt[] = [
    u('UpdateRole', '/api/Role/Role', { basicId: B.role, roleName: 'hijacked' }),
    u('UpdateRoleStatus', '/api/Role/RoleStatus', { basicId: B.role, status: 'Disabled' }),
    d('DeleteRole', '/api/Role/Role', { id: B.parentRole }),
    p('GrantRolePermission', '/api/Role/RolePermission', { roleId: B.role, permissionCode: 'saas:role:read' }),
    d('RevokeRolePermission', '/api/Role/RolePermission', { roleId: B.role, permissionCode: 'saas:position:read' }),
    u('RolePermissionStatus', '/api/Role/RolePermissionStatus', {
      roleId: B.role,
      permissionCode: 'saas:position:read',
      status: 'Disabled',
    }),
    p('BatchRolePermissions', '/api/Role/BatchUpdateRolePermissions', { roleId: B.role, permissionCodes: [] }),
    u('RoleDataScope of B', '/api/Role/RoleDataScope', { roleId: B.role, dataScope: 'All' }),
    u("RoleDataScope over B's department", '/api/Role/RoleDataScope', {
      roleId: A.role,
      dataScope: 'Custom',
      departmentIds: [B.dept],
    }),
    p("CreateRole over B's department", '/api/Role/Role', {
      roleCode: 'alpha_scope',
      roleName: 'Alpha scope',
      dataScope: 'Custom',
      departmentIds: [B.deptChild],
    }),
    p("Inherit B's role", '/api/Role/RoleHierarchy', { roleId: A.role, parentRoleId: B.parentRole }),
    p('B inherits A', '/api/Role/RoleHierarchy', { roleId: B.role, parentRoleId: A.role }),
    d('Unlink B', '/api/Role/RoleHierarchy', { roleId: B.role, parentRoleId: B.parentRole }),
    p('Department under B', '/api/Department/Department', { parentId: B.dept, departmentName: 'Intruder' }),
    u('UpdateDepartment', '/api/Department/Department', { basicId: B.deptChild, departmentName: 'hijacked' }),
    u("Move B's department", '/api/Department/Department', { basicId: B.deptChild, parentId: 0 }),
    u('Move under B', '/api/Department/Department', { basicId: A.dept, parentId: B.dept }),
    u('DepartmentStatus', '/api/Department/DepartmentStatus', { basicId: B.dept, status: 'Disabled' }),
    d('DeleteDepartment', '/api/Department/Department', { id: B.deptChild }),
    p("B's user as leader", '/api/Department/Department', { departmentName: 'Led', leaderId: B.user }),
    u('UpdatePosition', '/api/Position/Position', { basicId: B.position, positionName: 'hijacked' }),
    u('PositionStatus', '/api/Position/PositionStatus', { basicId: B.position, status: 'Disabled' }),
    d('DeletePosition', '/api/Position/Position', { id: B.position }),
    u('UpdateMenu', '/api/Menu/Menu', { basicId: B.menu, menuName: 'hijacked' }),
    u('MenuStatus', '/api/Menu/MenuStatus', { basicId: B.menu, status: 'Disabled' }),
    d('DeleteMenu', '/api/Menu/Menu', { id: B.menu }),
    p('Menu under B', '/api/Menu/Menu', {
      parentId: B.menu,
      menuType: 'Button',
      menuCode: 'alpha-b',
      menuName: 'Intruder',
    }),
    u('Move menu under B', '/api/Menu/Menu', { basicId: A.menu, parentId: B.menu }),
    u('UpdateMembership', '/api/TenantMember/TenantMember', { basicId: B.membership, status: 'Disabled' }),
    d('RemoveMembership', '/api/TenantMember/TenantMember', { id: B.membership }),
    p("Add B's user by id", '/api/TenantMember/TenantMember', { userId: B.user }),
    d('RevokeInvitation', '/api/TenantInvitation/TenantInvitation', { id: B.invitation }),
    p('AcceptInvitation', '/api/TenantInvitation/AcceptTenantInvitation', { invitationId: B.invitation }),
    p('RejectInvitation', '/api/TenantInvitation/RejectTenantInvitation', { invitationId: B.invitation }),
    u('UpdateTenant', '/api/Tenant/Tenant', { basicId: B.tenant, tenantName: 'hijacked', seatLimit: 1 }),
    p('SuspendTenant', '/api/Tenant/SuspendTenant', { basicId: B.tenant }),
    p('ResumeTenant', '/api/Tenant/ResumeTenant', { basicId: B.tenant }),
    u('TenantStatus', '/api/Tenant/TenantStatus', { basicId: B.tenant, tenantStatus: 'Disabled' }),
    d('DeleteTenant', '/api/Tenant/Tenant', { id: B.tenant }),
    p('CreateEdition', '/api/Edition/Edition', { editionCode: 'alpha-e', editionName: 'Alpha' }),
    u('UpdateEdition', '/api/Edition/Edition', { basicId: 1, editionName: 'Alpha' }),
    d('DeleteEdition', '/api/Edition/Edition', { id: 1 }),
    p('CreateTenant', '/api/Tenant/Tenant', { tenantCode: 'alpha-t', tenantName: 'Alpha' }),
  ];
  // Creations in A's own context: they succeed, and B stays as it was.
  const creations: Attempt[] = [
    p('CreatePosition', '/api/Position/Position', { positionCode: 'alpha-p', positionName: 'Alpha position' }),
    p('CreateDepartment', '/api/Department/Department', { departmentName: 'Alpha second' }),
    p('CreateMenu', '/api/Menu/Menu', { menuType: 'Directory', menuCode: 'alpha-dir', menuName: 'Alpha dir' }),
    p('CreateRole', '/api/Role/Role', { roleCode: 'alpha_r2', roleName: 'Alpha second' }),
    // Inviting the address B invited: A's own invitation, B's stays as it was.
    p('CreateInvitation', '/api/TenantInvitation/TenantInvitation', { email: 'alpha.guest@example.test' }),
  ];
  return { reads, writes, creations };
}

/** What an answer must not hold: B's words anywhere; B's ids anywhere but echoed from the request in a refusal. */
function leaks(res: Call, request: unknown): string[] {
  const text = JSON.stringify(res.body);
  const asked = JSON.stringify(request);
  const found: string[] = [];
  if (text.includes(MARK)) found.push(MARK);
  for (const [name, id] of Object.entries(B)) {
    const echoed = !res.body?.isSuccess && asked.includes(id);
    if (text.includes(id) && !echoed) found.push(`${name}=${id}`);
  }
  return found;
}

describe("tenant isolation of the administration endpoints (tenant A's administrator against tenant B)", () => {
  it('every read answers nothing of B', async () => {
    for (const [label, call, request] of attempts().reads) {
      const res = await call();
      expect(leaks(res, request), `${label}: ${JSON.stringify(res.body)}`).toEqual([]);
      expect([200, 403, 404], `${label}: ${res.status}`).toContain(res.status);
    }
  });

  it('every write aimed at B is refused, and nothing of B changes', async () => {
    const before = await rowsOfB();
    for (const [label, call, request] of attempts().writes) {
      const res = await call();
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(leaks(res, request), `${label}: ${JSON.stringify(res.body)}`).toEqual([]);
    }
    for (const [label, call, request] of attempts().creations) {
      const res = await call();
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(leaks(res, request), label).toEqual([]);
    }
    expect(await rowsOfB()).toEqual(before);
    // B's administrator works on undisturbed.
    expect(
      (await b.get('/api/RoleQuery/RolePermissions', { roleId: B.role })).body.data.map(
        (g: { permissionCode: string }) => g.permissionCode,
      ),
    ).toEqual(['saas:position:read']);
  });

  it('tries every endpoint of these modules', async () => {
    const { reads, writes, creations } = attempts();
    const tried = new Set([...reads, ...writes, ...creations].map(([, , , route]) => route));
    const doc = (await server.json('/openapi/v1.json')).body;
    const mine = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) =>
        /^\/api\/(Role|RoleQuery|Department|DepartmentQuery|Position|PositionQuery|Menu|MenuQuery|Tenant|TenantQuery|TenantMember|TenantMemberQuery|TenantInvitation|TenantInvitationQuery|Edition|EditionQuery|PermissionQuery)\//.test(
          path,
        ),
      )
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(mine.length).toBeGreaterThan(55);
    expect(mine.filter((op) => !tried.has(op))).toEqual([]);
  });
});
