import { eq } from 'drizzle-orm';
import { roleDataScopeDepartments, roles, userDepartments } from '../../../../db/schema/index.js';
import type { AppGraph as AppDeps } from '../../services.js';
import { createDepartmentService } from '../department/service.js';
import { adminApi, type TenantAdminOptions } from '../../testing/admin.js';
import {
  createTestUser,
  grantRole,
  loginAs,
  type TestUser,
  type TestUserOptions,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { DataScope } from '../authz/snapshot.js';

/**
 * Shared by the administration tests (users, assignments, sessions, login log, impersonation):
 * their codes, members and administrators with a data scope (the rest of the kit is in
 * server/src/testing/admin.ts).
 */

/** Every code an administrator of users, sessions, the login log and impersonation uses. */
export const ADMIN_CODES = [
  'saas:user:read',
  'saas:user:read-contact',
  'saas:user:create',
  'saas:user:update',
  'saas:user:status',
  'saas:user:delete',
  'saas:user-security:reset-password',
  'saas:user-security:reset-two-factor',
  'saas:user-role:read',
  'saas:user-role:grant',
  'saas:user-role:update',
  'saas:user-role:status',
  'saas:user-role:revoke',
  'saas:user-department:read',
  'saas:user-department:grant',
  'saas:user-department:update',
  'saas:user-department:revoke',
  'saas:user-session:read',
  'saas:user-session:revoke',
  'saas:login-log:read',
  'saas:impersonation:start',
];

/** The administrator `tenantWithAdmin` makes for these tests: every code above, over all data. */
export const USER_ADMIN: TenantAdminOptions = { codes: ADMIN_CODES, dataScope: 'All' };

/** A role with codes and a data scope, assigned in the tenant; returns the role id. */
export async function grantScopedRole(
  deps: AppDeps,
  userId: bigint,
  tenantId: bigint,
  codes: string[],
  dataScope: DataScope = 'All',
  customDepartments: bigint[] = [],
): Promise<bigint> {
  const roleId = await grantRole(deps, userId, tenantId, codes);
  await deps.db.update(roles).set({ dataScope }).where(eq(roles.id, roleId));
  for (const departmentId of customDepartments)
    await deps.db.insert(roleDataScopeDepartments).values({ roleId, departmentId });
  await deps.authz.invalidateUser(userId);
  return roleId;
}

/** A member of the tenant (home there), optionally in a department. */
export async function member(
  deps: AppDeps,
  tenantId: bigint,
  options: TestUserOptions & { departmentId?: bigint; isMain?: boolean } = {},
): Promise<TestUser> {
  const user = await createTestUser(deps, { tenantId, memberOf: [tenantId], ...options });
  if (options.departmentId)
    await deps.db.insert(userDepartments).values({
      id: deps.ids.next(),
      tenantId,
      userId: user.id,
      departmentId: options.departmentId,
      isMain: options.isMain ?? true,
    });
  return user;
}

/** An administrator of a tenant with the given codes and data scope, logged in (lands in the tenant). */
export async function tenantAdmin(
  server: TestServer,
  tenantId: bigint,
  options: { codes?: string[]; dataScope?: DataScope; departmentId?: bigint; customDepartments?: bigint[] } = {},
) {
  const deps = server.runtime.deps;
  const user = await member(deps, tenantId, { departmentId: options.departmentId });
  await grantScopedRole(
    deps,
    user.id,
    tenantId,
    options.codes ?? ADMIN_CODES,
    options.dataScope ?? 'All',
    options.customDepartments,
  );
  const token = (await loginAs(server, user)).accessToken;
  return { user, token, api: adminApi(server, token) };
}

/** Departments of a tenant: a root with a child and a grandchild. */
export async function departmentChain(deps: AppDeps, tenantId: bigint) {
  const service = createDepartmentService(deps);
  const root = await service.create({ tenantId, departmentName: 'Head office' });
  const child = await service.create({ tenantId, departmentName: 'Sales', parentId: root.id });
  const grandchild = await service.create({ tenantId, departmentName: 'Sales East', parentId: child.id });
  const other = await service.create({ tenantId, departmentName: 'Research' });
  return { root: root.id, child: child.id, grandchild: grandchild.id, other: other.id };
}
