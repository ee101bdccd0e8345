import { adminApi, type TenantAdminOptions } from '../../testing/admin.js';
import { createTestUser, grantRole, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { PERMISSION_CATALOGUE } from '../authz/permission-catalogue.js';

/**
 * Shared by the tests of tenants, roles, departments, positions and menus: the codes of these
 * modules and a platform operator (the rest of the kit is in server/src/testing/admin.ts).
 */

const groups = [
  'role',
  'role-permission',
  'role-hierarchy',
  'role-data-scope',
  'department',
  'position',
  'menu',
  'tenant-member',
  'permission',
];
/** Every tenant-level code of these modules. */
export const TENANT_ADMIN_CODES = PERMISSION_CATALOGUE.filter((p) => groups.includes(p.groupCode)).map((p) => p.code);
/** Every platform-level code of these modules (tenants and editions). */
export const PLATFORM_CODES = PERMISSION_CATALOGUE.filter(
  (p) => p.groupCode === 'tenant' || p.groupCode === 'edition',
).map((p) => p.code);

/** The administrator `tenantWithAdmin` makes for these tests: every tenant-level code of these modules. */
export const TENANT_ADMIN: TenantAdminOptions = { codes: TENANT_ADMIN_CODES };

/** A platform operator (platform account) holding the given codes, logged in (platform state). */
export async function platformUser(server: TestServer, codes: string[] = PLATFORM_CODES) {
  const deps = server.runtime.deps;
  const user = await createTestUser(deps, { tenantId: 0n });
  const roleId = await grantRole(deps, user.id, 0n, codes);
  return { user, roleId, api: adminApi(server, (await loginAs(server, user)).accessToken) };
}
