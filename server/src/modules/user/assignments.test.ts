import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  permissions,
  rolePermissions,
  roles,
  userDepartments,
  userRoles,
} from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { createTestTenant, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { departmentChain, member, tenantAdmin, USER_ADMIN } from './admin-test-kit.js';
import { adminApi, startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

const clock = new ManualClock(Date.now());
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer({ clock });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;

/** A role of the tenant carrying the codes, not assigned to anyone. */
async function role(
  tenantId: bigint,
  codes: string[],
  fields: Partial<typeof roles.$inferInsert> = {},
): Promise<bigint> {
  const id = deps().ids.next();
  await deps()
    .db.insert(roles)
    .values({ id, tenantId, roleCode: `r${id}`, roleName: `Role ${id}`, ...fields });
  for (const code of codes) {
    const [p] = await deps().db.select({ id: permissions.id }).from(permissions).where(eq(permissions.code, code));
    await deps().db.insert(rolePermissions).values({ roleId: id, permissionId: p!.id });
  }
  return id;
}

describe('UserRole', () => {
  it('grants with a window: the permission applies on the next request only inside it', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const bobApi = adminApi(server, (await loginAs(server, bob)).accessToken);
    const reader = await role(tenantId, ['saas:user:read']);
    const start = new Date(clock.nowMs() + 3_600_000);
    const granted = await api.post('/api/UserRole/UserRole', {
      userId: String(bob.id),
      roleId: String(reader),
      effectiveTime: start.toISOString(),
    });
    expect(granted.status).toBe(200);
    const assignment = granted.body.data.basicId as string;
    expect((await bobApi.post('/api/UserQuery/UserPage', {})).status).toBe(403);
    const list = (await api.get('/api/UserRole/UserRoles', { userId: bob.id })).body.data;
    expect(list).toEqual([
      expect.objectContaining({ basicId: assignment, roleId: String(reader), isEffective: false, status: 'Enabled' }),
    ]);

    // Now inside the window (the snapshot is rebuilt once the cache lets go of it).
    expect(
      (
        await api.put('/api/UserRole/UserRole', {
          basicId: assignment,
          effectiveTime: null,
          expirationTime: new Date(clock.nowMs() + 60_000).toISOString(),
        })
      ).status,
    ).toBe(200);
    expect((await bobApi.post('/api/UserQuery/UserPage', {})).status).toBe(200);
    expect((await api.put('/api/UserRole/UserRoleStatus', { basicId: assignment, status: 'Disabled' })).status).toBe(
      200,
    );
    expect((await bobApi.post('/api/UserQuery/UserPage', {})).status).toBe(403);
    expect((await api.put('/api/UserRole/UserRoleStatus', { basicId: assignment, status: 'Enabled' })).status).toBe(
      200,
    );
    expect((await bobApi.post('/api/UserQuery/UserPage', {})).status).toBe(200);
    expect((await api.del('/api/UserRole/UserRole', { id: assignment })).status).toBe(200);
    expect((await bobApi.post('/api/UserQuery/UserPage', {})).status).toBe(403);
    const actions = (
      await deps().db.select({ action: auditEntries.action }).from(auditEntries).where(eq(auditEntries.userId, bob.id))
    ).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['UserRoleGranted', 'UserRoleChanged', 'UserRoleRevoked']));
  });

  it("refuses duplicates, bad windows, another tenant's role, more than the caller holds, the super-administrator role and full roles", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const reader = await role(tenantId, ['saas:user:read']);
    expect((await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(reader) })).status).toBe(
      200,
    );
    expect((await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(reader) })).status).toBe(
      409,
    );
    const later = new Date(clock.nowMs() + 1000).toISOString();
    const earlier = new Date(clock.nowMs()).toISOString();
    expect(
      (
        await api.post('/api/UserRole/UserRole', {
          userId: String(bob.id),
          roleId: String(await role(tenantId, [])),
          effectiveTime: later,
          expirationTime: earlier,
        })
      ).status,
    ).toBe(422);
    const foreign = await role(await createTestTenant(deps()), []);
    expect((await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(foreign) })).status).toBe(
      404,
    );
    const mighty = await role(tenantId, ['saas:tenant:delete']);
    const refused = await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(mighty) });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toContain('saas:tenant:delete');
    const [superRole] = await deps()
      .db.select()
      .from(roles)
      .where(and(eq(roles.tenantId, 0n), eq(roles.roleCode, 'super_admin')));
    expect(
      (await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(superRole!.id) })).status,
    ).toBe(403);
    const single = await role(tenantId, [], { maxMembers: 1 });
    expect((await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(single) })).status).toBe(
      200,
    );
    const carl = await member(deps(), tenantId);
    expect((await api.post('/api/UserRole/UserRole', { userId: String(carl.id), roleId: String(single) })).status).toBe(
      422,
    );
  });

  it("replaces the set of a user's roles", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const [a, b, c] = [await role(tenantId, []), await role(tenantId, []), await role(tenantId, [])];
    await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(a) });
    await api.post('/api/UserRole/UserRole', { userId: String(bob.id), roleId: String(b) });
    const until = new Date(clock.nowMs() + 86_400_000).toISOString();
    expect(
      (
        await api.put('/api/UserRole/UserRoles', {
          userId: String(bob.id),
          roles: [{ roleId: String(b), expirationTime: until }, { roleId: String(c) }],
        })
      ).status,
    ).toBe(200);
    const rows = await deps().db.select().from(userRoles).where(eq(userRoles.userId, bob.id));
    expect(rows.map((r) => r.roleId).sort()).toEqual([b, c].sort());
    expect(rows.find((r) => r.roleId === b)!.expirationTime!.toISOString()).toBe(until);
  });
});

describe('UserDepartment', () => {
  it('keeps one main department: the first is main, isMain moves it, and lists main first', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const d = await departmentChain(deps(), tenantId);
    const bob = await member(deps(), tenantId);
    const first = await api.post('/api/UserDepartment/UserDepartment', {
      userId: String(bob.id),
      departmentId: String(d.child),
      employeeNumber: 'E-1',
    });
    expect(first.status).toBe(200);
    const second = await api.post('/api/UserDepartment/UserDepartment', {
      userId: String(bob.id),
      departmentId: String(d.other),
    });
    expect(
      (await api.post('/api/UserDepartment/UserDepartment', { userId: String(bob.id), departmentId: String(d.other) }))
        .status,
    ).toBe(409);
    let list = (await api.get('/api/UserDepartment/UserDepartments', { userId: bob.id })).body.data;
    expect(list.map((x: { departmentName: string; isMain: boolean }) => [x.departmentName, x.isMain])).toEqual([
      ['Sales', true],
      ['Research', false],
    ]);
    expect(
      (
        await api.put('/api/UserDepartment/UserDepartment', {
          basicId: second.body.data.basicId,
          isMain: true,
          grade: 'P5',
        })
      ).status,
    ).toBe(200);
    list = (await api.get('/api/UserDepartment/UserDepartments', { userId: bob.id })).body.data;
    expect(list.map((x: { departmentName: string; isMain: boolean }) => [x.departmentName, x.isMain])).toEqual([
      ['Research', true],
      ['Sales', false],
    ]);
    expect(list[0].grade).toBe('P5');
    expect(
      (await api.post('/api/UserQuery/UserPage', { keyword: bob.userName })).body.data.items[0].departmentName,
    ).toBe('Research');
    expect((await api.del('/api/UserDepartment/UserDepartment', { id: first.body.data.basicId })).status).toBe(200);
    expect(await deps().db.select().from(userDepartments).where(eq(userDepartments.userId, bob.id))).toHaveLength(1);
    const foreign = await departmentChain(deps(), await createTestTenant(deps()));
    expect(
      (
        await api.post('/api/UserDepartment/UserDepartment', {
          userId: String(bob.id),
          departmentId: String(foreign.root),
        })
      ).status,
    ).toBe(404);
  });

  it('lets a scoped administrator assign only departments within its scope', async () => {
    const tenantId = await createTestTenant(deps());
    const d = await departmentChain(deps(), tenantId);
    const bob = await member(deps(), tenantId, { departmentId: d.grandchild });
    const scoped = await tenantAdmin(server, tenantId, { dataScope: 'DepartmentAndChildren', departmentId: d.child });
    expect(
      (
        await scoped.api.post('/api/UserDepartment/UserDepartment', {
          userId: String(bob.id),
          departmentId: String(d.other),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await scoped.api.post('/api/UserDepartment/UserDepartment', {
          userId: String(bob.id),
          departmentId: String(d.child),
        })
      ).status,
    ).toBe(200);
  });
});
