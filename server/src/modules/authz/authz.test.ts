import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  editions,
  permissions,
  roleDataScopeDepartments,
  roleInheritances,
  rolePermissions,
  roles,
  tenants,
  userRoles,
  users,
} from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { bootTestRuntime } from '../../testing/harness.js';
import { allows } from './snapshot.js';

const clock = new ManualClock(Date.UTC(2026, 5, 1));
let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let tenantId: bigint;
let otherTenantId: bigint;

beforeAll(async () => {
  runtime = await bootTestRuntime({ clock });
  const { db, ids } = runtime.deps;
  tenantId = ids.next();
  otherTenantId = ids.next();
  await db.insert(tenants).values([
    { id: tenantId, code: `t${tenantId}`, name: 'Tenant A' },
    { id: otherTenantId, code: `t${otherTenantId}`, name: 'Tenant B' },
  ]);
});
afterAll(() => runtime.close());

async function permissionId(code: string): Promise<bigint> {
  const [row] = await runtime.deps.db
    .select({ id: permissions.id })
    .from(permissions)
    .where(eq(permissions.code, code));
  return row!.id;
}

async function makeRole(
  tenant: bigint,
  code: string,
  grants: string[],
  extra: Partial<typeof roles.$inferInsert> = {},
): Promise<bigint> {
  const { db, ids } = runtime.deps;
  const id = ids.next();
  await db.insert(roles).values({ id, tenantId: tenant, roleCode: `${code}_${id}`, roleName: code, ...extra });
  for (const g of grants) await db.insert(rolePermissions).values({ roleId: id, permissionId: await permissionId(g) });
  return id;
}

async function makeUser(): Promise<bigint> {
  const { db, ids } = runtime.deps;
  const id = ids.next();
  await db.insert(users).values({ id, tenantId, userName: `u${id}` });
  return id;
}

async function assign(
  userId: bigint,
  roleId: bigint,
  tenant: bigint,
  window: { effectiveTime?: Date; expirationTime?: Date } = {},
) {
  await runtime.deps.db
    .insert(userRoles)
    .values({ id: runtime.deps.ids.next(), tenantId: tenant, userId, roleId, ...window });
}

describe('authorization snapshot', () => {
  it('gives the seeded super-administrator the wildcard and the All scope in any context', async () => {
    const [admin] = await runtime.deps.db.select({ id: users.id }).from(users).where(eq(users.isSystemAccount, true));
    const platform = await runtime.deps.authz.get(admin!.id, 0n);
    expect(platform).toMatchObject({
      roles: ['super_admin'],
      permissions: ['*'],
      isSuperAdmin: true,
      dataScopes: ['All'],
    });
    expect(allows(platform, 'saas:user:delete')).toBe(true);
    expect((await runtime.deps.authz.get(admin!.id, tenantId)).isSuperAdmin).toBe(true);
  });

  it('combines assigned and inherited roles (through chains and cycles), enabled grants only', async () => {
    const user = await makeUser();
    const grand = await makeRole(tenantId, 'grand', ['saas:menu:read']);
    const parent = await makeRole(tenantId, 'parent', ['saas:role:read']);
    const child = await makeRole(tenantId, 'child', ['saas:user:read']);
    await runtime.deps.db.insert(roleInheritances).values([
      { roleId: child, parentRoleId: parent },
      { roleId: parent, parentRoleId: grand },
      { roleId: grand, parentRoleId: child },
    ]);
    const disabledGrant = await permissionId('saas:user:delete');
    await runtime.deps.db
      .insert(rolePermissions)
      .values({ roleId: child, permissionId: disabledGrant, status: 'Disabled' });
    await assign(user, child, tenantId);
    const snap = await runtime.deps.authz.get(user, tenantId);
    expect(snap.permissions).toEqual(['saas:menu:read', 'saas:role:read', 'saas:user:read']);
    expect(snap.roles).toHaveLength(3);
    expect(snap.isSuperAdmin).toBe(false);
    expect(allows(snap, 'saas:user:read')).toBe(true);
    expect(allows(snap, 'SAAS:USER:READ')).toBe(true);
    expect(allows(snap, 'saas:user:delete')).toBe(false);
  });

  it('honours role windows, disabled roles, deleted roles and the context tenant', async () => {
    const user = await makeUser();
    const future = await makeRole(tenantId, 'future', ['saas:user:create']);
    const expired = await makeRole(tenantId, 'expired', ['saas:user:update']);
    const disabled = await makeRole(tenantId, 'disabled', ['saas:user:status'], { status: 'Disabled' });
    const deleted = await makeRole(tenantId, 'deleted', ['saas:user:export'], { isDeleted: true });
    const elsewhere = await makeRole(otherTenantId, 'elsewhere', ['saas:position:read']);
    const current = await makeRole(tenantId, 'current', ['saas:department:read']);
    await assign(user, future, tenantId, { effectiveTime: new Date(clock.nowMs() + 3_600_000) });
    await assign(user, expired, tenantId, { expirationTime: new Date(clock.nowMs() - 1) });
    await assign(user, disabled, tenantId);
    await assign(user, deleted, tenantId);
    await assign(user, elsewhere, otherTenantId);
    await assign(user, current, tenantId, {
      effectiveTime: new Date(clock.nowMs() - 1),
      expirationTime: new Date(clock.nowMs() + 1000),
    });
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:department:read']);
    expect((await runtime.deps.authz.get(user, otherTenantId)).permissions).toEqual(['saas:position:read']);
    expect((await runtime.deps.authz.get(user, 0n)).permissions).toEqual([]);
  });

  it('applies a role window that opens or closes with no write as soon as it does (no cache keeps the old roles)', async () => {
    const user = await makeUser();
    const ending = await makeRole(tenantId, 'ending', ['saas:user:read']);
    const starting = await makeRole(tenantId, 'starting', ['saas:role:read']);
    await assign(user, ending, tenantId, { expirationTime: new Date(clock.nowMs() + 1_000) });
    await assign(user, starting, tenantId, { effectiveTime: new Date(clock.nowMs() + 5_000) });
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:read']);
    clock.advance(1_000);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual([]);
    clock.advance(4_000);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:role:read']);
    // No boundary ahead: cached again as usual.
    expect((await runtime.deps.authz.get(user, tenantId)).validUntil).toBeNull();
  });

  it('does not reuse a shared snapshot built before a window boundary (another node, or a restart)', async () => {
    const user = await makeUser();
    const ending = await makeRole(tenantId, 'ending2', ['saas:user:read']);
    await assign(user, ending, tenantId, { expirationTime: new Date(clock.nowMs() + 1_000) });
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:read']);
    // This node forgets its copy without a generation change, as a node that never had it.
    await runtime.deps.authz.stop();
    const { createAuthorizationService } = await import('./service.js');
    const fresh = createAuthorizationService({
      db: runtime.deps.db,
      store: runtime.deps.store,
      clock,
      logger: runtime.deps.logger,
    });
    clock.advance(2_000);
    expect((await fresh.get(user, tenantId)).permissions).toEqual([]);
    await runtime.deps.authz.start();
  });

  it('applies the tenant edition whitelist', async () => {
    const { db, ids } = runtime.deps;
    const editionId = ids.next();
    await db
      .insert(editions)
      .values({ id: editionId, code: `basic${editionId}`, name: 'Basic', permissionWhitelist: ['saas:user:read'] });
    await db.update(tenants).set({ editionId }).where(eq(tenants.id, otherTenantId));
    const user = await makeUser();
    await assign(user, await makeRole(otherTenantId, 'both', ['saas:user:read', 'saas:role:read']), otherTenantId);
    const snap = await runtime.deps.authz.get(user, otherTenantId);
    expect(snap.editionWhitelist).toEqual(['saas:user:read']);
    expect(allows(snap, 'saas:user:read')).toBe(true);
    expect(allows(snap, 'saas:role:read')).toBe(false);
  });

  it('reports data scopes, the user override and the departments of Custom scopes', async () => {
    const user = await makeUser();
    const custom = await makeRole(tenantId, 'custom', [], { dataScope: 'Custom' });
    await runtime.deps.db.insert(roleDataScopeDepartments).values([
      { roleId: custom, departmentId: 11n },
      { roleId: custom, departmentId: 7n },
    ]);
    await assign(user, custom, tenantId);
    await assign(user, await makeRole(tenantId, 'dept', [], { dataScope: 'DepartmentOnly' }), tenantId);
    const snap = await runtime.deps.authz.get(user, tenantId);
    expect(snap.dataScopes).toEqual(['Custom', 'DepartmentOnly']);
    expect(snap.customDepartmentIds).toEqual(['11', '7']);
    await runtime.deps.db.update(users).set({ dataScopeOverride: 'SelfOnly' }).where(eq(users.id, user));
    await runtime.deps.authz.invalidateUser(user);
    expect((await runtime.deps.authz.get(user, tenantId)).dataScopes).toEqual(['SelfOnly']);
  });

  it('applies a grant or a revocation at once on the node that wrote, after invalidation', async () => {
    const user = await makeUser();
    const role = await makeRole(tenantId, 'live', ['saas:user:read']);
    await assign(user, role, tenantId);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:read']);
    await runtime.deps.db
      .insert(rolePermissions)
      .values({ roleId: role, permissionId: await permissionId('saas:user:create') });
    // Cached until someone says the grants changed:
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:read']);
    await runtime.deps.authz.invalidateTenant(tenantId);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:create', 'saas:user:read']);
    await runtime.deps.db.delete(userRoles).where(and(eq(userRoles.userId, user), eq(userRoles.roleId, role)));
    await runtime.deps.authz.invalidateUser(user);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual([]);
  });

  it('expires local entries after a minute even without an invalidation', async () => {
    const user = await makeUser();
    const role = await makeRole(tenantId, 'ttl', ['saas:user:read']);
    await assign(user, role, tenantId);
    await runtime.deps.authz.get(user, tenantId);
    await runtime.deps.db.delete(userRoles).where(eq(userRoles.userId, user));
    // L2 still holds the old snapshot under the same generations; bump the user's generation
    // as a write would, but without the message (a lost message): only L1 expiry can help.
    await runtime.deps.store.incrementCounter(`authz:gen:user:${user}`);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual(['saas:user:read']);
    clock.advance(61_000);
    expect((await runtime.deps.authz.get(user, tenantId)).permissions).toEqual([]);
  });
});
