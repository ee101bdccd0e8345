import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  loginLogs,
  positions,
  roles,
  tenantMemberships,
  userDepartments,
  userRoles,
  users,
  userSecurity,
  userSessions,
} from '../../../../db/schema/index.js';
import { claimsOf, createTestTenant, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { ADMIN_CODES, departmentChain, grantScopedRole, member, tenantAdmin } from './admin-test-kit.js';
import { adminApi, startAdminServer, type Call } from '../../testing/admin.js';

/**
 * The isolation sweep: an administrator of tenant A, holding every code of this part (scope All),
 * tries every read and write endpoint of users, assignments, sessions, the login log and
 * impersonation with ids, filters and keywords that point at tenant B. Nothing of B comes back
 * and nothing of B changes. A new endpoint in these services fails the completeness check until
 * it is swept here.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;

const SERVICES = [
  'UserQueryService',
  'UserAppService',
  'UserSecurityAppService',
  'UserRoleAppService',
  'UserDepartmentAppService',
  'UserSessionQueryService',
  'UserSessionAppService',
  'LoginLogQueryService',
  'ImpersonationAppService',
];

/** Everything of B that a test reads back, to compare before and after. */
async function stateOf(tenantId: bigint, userIds: bigint[]) {
  const db = deps().db;
  return {
    users: await db.select().from(users).where(inArray(users.id, userIds)).orderBy(asc(users.id)),
    security: await db
      .select()
      .from(userSecurity)
      .where(inArray(userSecurity.userId, userIds))
      .orderBy(asc(userSecurity.userId)),
    memberships: await db
      .select()
      .from(tenantMemberships)
      .where(eq(tenantMemberships.tenantId, tenantId))
      .orderBy(asc(tenantMemberships.id)),
    userRoles: await db.select().from(userRoles).where(eq(userRoles.tenantId, tenantId)).orderBy(asc(userRoles.id)),
    userDepartments: await db
      .select()
      .from(userDepartments)
      .where(eq(userDepartments.tenantId, tenantId))
      .orderBy(asc(userDepartments.id)),
    sessions: await db
      .select()
      .from(userSessions)
      .where(inArray(userSessions.userId, userIds))
      .orderBy(asc(userSessions.id)),
    loginLogs: await db.select().from(loginLogs).where(eq(loginLogs.tenantId, tenantId)).orderBy(asc(loginLogs.id)),
    audit: await db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.tenantId, tenantId))
      .orderBy(asc(auditEntries.id)),
  };
}

describe('tenant isolation of user administration', () => {
  it('gives a tenant administrator nothing of another tenant and lets it change nothing there', async () => {
    // Tenant B: users with roles, departments, a position, sessions and login-log rows.
    const b = await createTestTenant(deps());
    const bDepartments = await departmentChain(deps(), b);
    const bAlice = await member(deps(), b, {
      userName: `b_alice_${b}`,
      nickName: 'Beatrix',
      phone: '+4917700000001',
      departmentId: bDepartments.child,
    });
    const bBob = await member(deps(), b, { userName: `b_bob_${b}` });
    const bRole = await grantScopedRole(deps(), bBob.id, b, ['saas:user:read']);
    const [bUserRole] = await deps().db.select().from(userRoles).where(eq(userRoles.userId, bBob.id));
    const [bUserDepartment] = await deps()
      .db.select()
      .from(userDepartments)
      .where(eq(userDepartments.userId, bAlice.id));
    const bPosition = deps().ids.next();
    await deps()
      .db.insert(positions)
      .values({ id: bPosition, tenantId: b, positionCode: `p${bPosition}`, positionName: 'B position' });
    const bAliceToken = (await loginAs(server, bAlice)).accessToken;
    const bBobToken = (await loginAs(server, bBob)).accessToken;
    await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: bAlice.email, password: 'Wrong#Passw0rd1' },
    });
    const bSession = claimsOf(bAliceToken).SessionId as string;

    // Tenant A: an administrator with every code, a member, a role and a department of its own.
    const a = await createTestTenant(deps());
    const aDepartments = await departmentChain(deps(), a);
    const admin = await tenantAdmin(server, a, {
      codes: [...ADMIN_CODES, 'saas:user-security:lock', 'saas:user-security:login-policy'],
    });
    const aUser = await member(deps(), a, { departmentId: aDepartments.root });
    const [aRole] = await deps().db.select().from(roles).where(eq(roles.tenantId, a));
    const api = admin.api;

    const bUsers = [bAlice.id, bBob.id];
    const before = await stateOf(b, bUsers);

    const B = {
      alice: String(bAlice.id),
      bob: String(bBob.id),
      role: String(bRole),
      userRole: String(bUserRole!.id),
      userDepartment: String(bUserDepartment!.id),
      department: String(bDepartments.child),
      position: String(bPosition),
      session: bSession,
      tenant: String(b),
    };
    const bTexts = [
      bAlice.userName,
      bBob.userName,
      bAlice.email!,
      bBob.email!,
      'Beatrix',
      '+4917700000001',
      'B position',
      'Sales East',
    ];
    const bIds = Object.values(B);
    const swept = new Set<string>();
    const calls: Array<{ route: string; res: Call; expected?: number }> = [];
    const call = async (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      input: Record<string, unknown> = {},
      expected?: number,
    ) => {
      swept.add(`${method} ${path}`);
      const res =
        method === 'GET'
          ? await api.get(path, input)
          : method === 'DELETE'
            ? await api.del(path, input)
            : method === 'POST'
              ? await api.post(path, input)
              : await api.put(path, input);
      calls.push({ route: `${method} ${path} ${JSON.stringify(input)}`, res, expected });
      return res;
    };
    const keyword = (value: string) => ({ conditions: { keyword: { value } } });
    const filter = (field: string, value: string) => ({
      conditions: { filters: [{ field, operator: 'Equal', value }] },
    });

    // Reads.
    for (const id of [B.alice, B.bob]) await call('GET', '/api/UserQuery/UserDetail', { id });
    for (const body of [
      {},
      { keyword: bAlice.userName },
      keyword('Beatrix'),
      keyword('+491770'),
      keyword(bAlice.email!),
      filter('basicId', B.alice),
      filter('userName', bAlice.userName),
      { departmentId: B.department },
      { roleId: B.role },
      { page: { pageSize: 500 } },
    ]) {
      await call('POST', '/api/UserQuery/UserPage', body);
    }
    await call('GET', '/api/UserQuery/EnabledUsers', { keyword: 'b_' });
    await call('GET', '/api/UserQuery/EnabledUsers', { limit: 1000 });
    await call('GET', '/api/UserRole/UserRoles', { userId: B.bob }, 404);
    await call('GET', '/api/UserDepartment/UserDepartments', { userId: B.alice }, 404);
    await call('GET', '/api/UserSessionQuery/UserSessions', { userId: B.alice }, 404);
    await call('GET', '/api/UserSessionQuery/UserSessions', { userId: B.alice, includeInactive: true }, 404);
    for (const body of [
      {},
      { userId: B.alice },
      { userName: 'b_alice' },
      { keyword: 'b_alice' },
      filter('userId', B.alice),
      filter('sessionId', B.session),
      { page: { pageSize: 500 } },
    ]) {
      await call('POST', '/api/LoginLogQuery/LoginLogPage', body);
    }
    await call('GET', '/api/Impersonation/Impersonation');

    // Writes.
    await call(
      'POST',
      '/api/User/User',
      { userName: `a_new_${a}`, initialPassword: 'Str0ng#Passw0rd!', departmentId: B.department },
      404,
    );
    await call(
      'POST',
      '/api/User/User',
      { userName: `a_new_${a}`, initialPassword: 'Str0ng#Passw0rd!', positionId: B.position },
      404,
    );
    await call('PUT', '/api/User/User', { basicId: B.alice, nickName: 'hacked', country: 'XX' }, 404);
    await call('PUT', '/api/User/UserStatus', { basicId: B.alice, status: 'Disabled' }, 404);
    await call('DELETE', '/api/User/User', { id: B.alice }, 404);
    await call(
      'POST',
      '/api/UserSecurity/ResetUserPassword',
      { basicId: B.alice, newPassword: 'Hacked#Passw0rd!1' },
      404,
    );
    await call('POST', '/api/UserSecurity/ResetUserTwoFactor', { basicId: B.alice }, 404);
    await call('PUT', '/api/UserSecurity/UserLock', { basicId: B.alice, isLocked: true }, 404);
    await call('PUT', '/api/UserSecurity/UserLock', { basicId: B.bob, isLocked: false }, 404);
    await call(
      'PUT',
      '/api/UserSecurity/UserLoginPolicy',
      { basicId: B.alice, allowMultiLogin: false, maxLoginDevices: 1 },
      404,
    );
    await call('POST', '/api/UserRole/UserRole', { userId: B.alice, roleId: String(aRole!.id) }, 404);
    await call('POST', '/api/UserRole/UserRole', { userId: String(aUser.id), roleId: B.role }, 404);
    await call(
      'PUT',
      '/api/UserRole/UserRole',
      { basicId: B.userRole, expirationTime: new Date(Date.now() + 1000).toISOString() },
      404,
    );
    await call('PUT', '/api/UserRole/UserRoleStatus', { basicId: B.userRole, status: 'Disabled' }, 404);
    await call('DELETE', '/api/UserRole/UserRole', { id: B.userRole }, 404);
    await call('PUT', '/api/UserRole/UserRoles', { userId: B.bob, roles: [] }, 404);
    await call('PUT', '/api/UserRole/UserRoles', { userId: String(aUser.id), roles: [{ roleId: B.role }] }, 404);
    await call(
      'POST',
      '/api/UserDepartment/UserDepartment',
      { userId: B.alice, departmentId: String(aDepartments.child) },
      404,
    );
    await call(
      'POST',
      '/api/UserDepartment/UserDepartment',
      { userId: String(aUser.id), departmentId: B.department },
      404,
    );
    await call(
      'PUT',
      '/api/UserDepartment/UserDepartment',
      { basicId: B.userDepartment, isMain: false, positionId: B.position },
      404,
    );
    await call('DELETE', '/api/UserDepartment/UserDepartment', { id: B.userDepartment }, 404);
    await call('POST', '/api/UserSession/RevokeUserSession', { sessionId: B.session }, 404);
    await call('POST', '/api/UserSession/RevokeUserSessions', { userId: B.alice }, 404);
    await call('POST', '/api/Impersonation/Impersonation', { userId: B.alice }, 422);
    await call('POST', '/api/Impersonation/Impersonation', { userId: B.alice, tenantId: B.tenant }, 403);
    await call('POST', '/api/Impersonation/EndImpersonation', { sessionId: B.session }, 404);

    // Every endpoint of these services was tried.
    const routes = server.runtime.table.filter((e) => SERVICES.includes(e.service)).map((e) => `${e.method} ${e.path}`);
    expect([...swept].sort()).toEqual([...new Set(routes)].sort());

    for (const { route, res, expected } of calls) {
      const text = JSON.stringify(res.body);
      if (expected !== undefined) expect(res.status, route).toBe(expected);
      else expect(res.status, route).toBe(200);
      // Nothing of B in any answer: no names or contacts ever; no ids in a success (a refusal may
      // repeat the id the caller sent).
      for (const t of bTexts) expect(text.includes(t), `${route} reveals ${t}`).toBe(false);
      if (res.body.isSuccess)
        for (const id of bIds) expect(text.includes(`"${id}"`), `${route} reveals ${id}`).toBe(false);
    }

    // Nothing of B changed, and B's users carry on.
    expect(await stateOf(b, bUsers)).toEqual(before);
    expect((await adminApi(server, bAliceToken).get('/api/Auth/UserInfo')).status).toBe(200);
    expect((await adminApi(server, bBobToken).post('/api/UserQuery/UserPage', {})).status).toBe(200);
  });

  it('shows a member whose home is another tenant without what that tenant knows of them', async () => {
    const b = await createTestTenant(deps());
    const bAdmin = await tenantAdmin(server, b);
    // Created and changed by B's administrator, last seen logging in from B's office.
    const shared = await member(deps(), b, { userName: `shared_${deps().ids.next()}` });
    await deps()
      .db.update(users)
      .set({
        createdBy: bAdmin.user.id,
        modifiedBy: bAdmin.user.id,
        modifiedTime: new Date(),
        lastLoginTime: new Date(),
        lastLoginIp: '203.0.113.77',
      })
      .where(eq(users.id, shared.id));
    const a = await createTestTenant(deps());
    const aAdmin = await tenantAdmin(server, a);
    await deps().db.insert(tenantMemberships).values({ id: deps().ids.next(), tenantId: a, userId: shared.id });
    const secrets = [String(b), String(bAdmin.user.id), bAdmin.user.userName, '203.0.113.77'];

    const detail = await aAdmin.api.get('/api/UserQuery/UserDetail', { id: String(shared.id) });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ basicId: String(shared.id), userName: shared.userName, isManaged: false });
    // Null fields are left out of the answer (the serialization rules).
    const absent = (row: Record<string, unknown>, keys: string[]) =>
      keys.filter((k) => row[k] !== undefined && row[k] !== null);
    expect(
      absent(detail.body.data, [
        'tenantId',
        'createdId',
        'createdBy',
        'modifiedId',
        'modifiedBy',
        'modifiedTime',
        'lastLoginTime',
        'lastLoginIp',
      ]),
    ).toEqual([]);
    const page = await aAdmin.api.post('/api/UserQuery/UserPage', { keyword: shared.userName });
    expect(page.body.data.items).toHaveLength(1);
    expect(absent(page.body.data.items[0], ['lastLoginTime', 'lastLoginIp', 'modifiedTime'])).toEqual([]);
    for (const res of [detail, page]) {
      const text = JSON.stringify(res.body.data);
      for (const secret of secrets) expect(text.includes(secret), `reveals ${secret}`).toBe(false);
    }
    // Nor can filters or sorts on those fields tell them: for A they are empty.
    const since = (field: string) => ({
      conditions: {
        keyword: { value: shared.userName },
        filters: [{ field, operator: 'GreaterThan', value: '2000-01-01T00:00:00Z' }],
      },
    });
    for (const field of ['lastLoginTime', 'modifiedTime']) {
      expect((await aAdmin.api.post('/api/UserQuery/UserPage', since(field))).body.data.items, field).toHaveLength(0);
      expect((await bAdmin.api.post('/api/UserQuery/UserPage', since(field))).body.data.items, field).toHaveLength(1);
    }
    // Sorting: with A's members last seen in 2001 and 2020 and the shared one (really) in 2010,
    // the shared one must not land between them.
    await deps()
      .db.update(users)
      .set({ lastLoginTime: new Date('2010-01-01T00:00:00Z') })
      .where(eq(users.id, shared.id));
    for (const year of [2001, 2020]) {
      const local = await member(deps(), a, { userName: `${shared.userName}_${year}` });
      await deps()
        .db.update(users)
        .set({ lastLoginTime: new Date(`${year}-01-01T00:00:00Z`) })
        .where(eq(users.id, local.id));
    }
    for (const direction of ['Ascending', 'Descending']) {
      const sorted = await aAdmin.api.post('/api/UserQuery/UserPage', {
        conditions: { keyword: { value: shared.userName }, sorts: [{ field: 'lastLoginTime', direction }] },
      });
      const names = sorted.body.data.items.map((i: { userName: string }) => i.userName);
      expect(names, direction).toHaveLength(3);
      expect(names[1], direction).not.toBe(shared.userName);
    }
    // At home, B's administrator sees all of it.
    const atHome = await bAdmin.api.get('/api/UserQuery/UserDetail', { id: String(shared.id) });
    expect(atHome.body.data).toMatchObject({
      tenantId: String(b),
      createdId: String(bAdmin.user.id),
      lastLoginIp: '203.0.113.77',
    });
  });
});
