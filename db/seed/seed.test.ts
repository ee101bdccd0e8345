import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorToEnvelope } from '../../server/src/errors/to-envelope.js';
import { updateVersioned } from '../../server/src/infra/db/versioned.js';
import { createPasswordHasher } from '../../server/src/infra/password.js';
import { PERMISSION_CATALOGUE } from '../../server/src/modules/authz/permission-catalogue.js';
import { bootTestRuntime } from '../../server/src/testing/harness.js';
import {
  menus,
  permissions,
  rolePermissions,
  roles,
  tenants,
  userRoles,
  users,
  userSecurity,
} from '../schema/index.js';
import { seedDatabase } from './seed.js';

const { hash: hashPassword, verifyArgon2 } = createPasswordHasher();

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
beforeAll(async () => {
  runtime = await bootTestRuntime();
});
afterAll(() => runtime.close());

const counts = async () => {
  const { db } = runtime.deps;
  const n = async (
    table:
      | typeof tenants
      | typeof permissions
      | typeof roles
      | typeof rolePermissions
      | typeof menus
      | typeof users
      | typeof userRoles,
  ) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    tenants: await n(tenants),
    permissions: await n(permissions),
    roles: await n(roles),
    grants: await n(rolePermissions),
    menus: await n(menus),
    users: await n(users),
    userRoles: await n(userRoles),
  };
};

describe('seed', () => {
  it('creates the platform context, the catalogue, the super-administrator role with only *, menus and the admin', async () => {
    const { db, config } = runtime.deps;
    const [platform] = await db.select().from(tenants).where(eq(tenants.id, 0n));
    expect(platform).toMatchObject({ code: 'platform', status: 'Normal' });
    const codes = (await db.select({ code: permissions.code }).from(permissions)).map((r) => r.code).sort();
    expect(codes).toEqual(PERMISSION_CATALOGUE.map((p) => p.code).sort());
    const grants = await db
      .select({ code: permissions.code })
      .from(rolePermissions)
      .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(eq(roles.roleCode, 'super_admin'));
    expect(grants.map((g) => g.code)).toEqual(['*']);
    const [admin] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${config.Saas.Seed.AdminEmail.toLowerCase()}`);
    expect(admin).toMatchObject({
      tenantId: 0n,
      isSystemAccount: true,
      isActive: true,
      status: 'Enabled',
      userName: config.Saas.Seed.AdminUserName,
    });
    const [security] = await db.select().from(userSecurity).where(eq(userSecurity.userId, admin!.id));
    expect(security!.mustChangePassword).toBe(true);
    expect(security!.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyArgon2(security!.passwordHash, config.Saas.Seed.AdminPassword)).toBe(true);
    const [link] = await db.select().from(userRoles).where(eq(userRoles.userId, admin!.id));
    expect(link!.tenantId).toBe(0n);
    const [usersMenu] = await db
      .select()
      .from(menus)
      .where(and(eq(menus.menuCode, 'user'), eq(menus.tenantId, 0n)));
    expect(usersMenu!.permissionId).not.toBeNull();
  });

  it('is idempotent: running it again adds and changes nothing, and keeps the admin password', async () => {
    const before = await counts();
    const result = await seedDatabase({
      db: runtime.deps.db,
      ids: runtime.deps.ids,
      admin: {
        email: runtime.deps.config.Saas.Seed.AdminEmail.toUpperCase(),
        password: 'Another#Pass9',
        userName: 'superadmin',
      },
      hashPassword,
    });
    expect(result.createdAdmin).toBe(false);
    expect(await counts()).toEqual(before);
    const [security] = await runtime.deps.db
      .select()
      .from(userSecurity)
      .where(eq(userSecurity.userId, result.adminUserId));
    expect(await verifyArgon2(security!.passwordHash, 'Another#Pass9')).toBe(false);
  });

  it('keeps the administrator it made when SEED_ADMIN_EMAIL changes later (no second one, no failed start)', async () => {
    const before = await counts();
    const result = await seedDatabase({
      db: runtime.deps.db,
      ids: runtime.deps.ids,
      admin: {
        email: 'new-admin@example.test',
        password: 'Another#Pass9',
        userName: runtime.deps.config.Saas.Seed.AdminUserName,
      },
      hashPassword,
    });
    expect(result.createdAdmin).toBe(false);
    expect(await counts()).toEqual(before);
    const [admin] = await runtime.deps.db.select().from(users).where(eq(users.id, result.adminUserId));
    expect(admin!.email).toBe(runtime.deps.config.Saas.Seed.AdminEmail);
  });
});

describe('database errors', () => {
  it('maps a unique violation to 409 with a clear text, hiding the SQL', async () => {
    const error = await runtime.deps.db
      .insert(permissions)
      .values({ id: runtime.deps.ids.next(), code: '*', name: 'x', groupCode: 'x' })
      .catch((e: unknown) => e);
    const res = errorToEnvelope(error, { culture: 'en-US', traceId: 't', deps: runtime.deps });
    expect(res.status).toBe(409);
    expect(res.envelope.code).toBe(409);
    expect(JSON.stringify(res.envelope)).not.toMatch(/permissions_code|duplicate key|insert/i);
  });

  it('e-mail uniqueness is case-insensitive and platform-wide', async () => {
    const { db, ids, config } = runtime.deps;
    const error = await db
      .insert(users)
      .values({
        id: ids.next(),
        tenantId: 0n,
        userName: 'someone-else',
        email: config.Saas.Seed.AdminEmail.toUpperCase(),
      })
      .catch((e: unknown) => e);
    expect(errorToEnvelope(error, { culture: 'en-US', traceId: 't', deps: runtime.deps }).status).toBe(409);
  });

  it('refuses a stale version with 409 and lets exactly one of two racing updates win', async () => {
    const { db, ids } = runtime.deps;
    const id = ids.next();
    await db.insert(roles).values({ id, tenantId: 0n, roleCode: `race_${id}`, roleName: 'Race' });
    const results = await Promise.allSettled([
      updateVersioned(db, roles, id, 0, { roleName: 'A' }),
      updateVersioned(db, roles, id, 0, { roleName: 'B' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failure = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(errorToEnvelope(failure.reason, { culture: 'en-US', traceId: 't', deps: runtime.deps }).status).toBe(409);
    const [row] = await db.select({ version: roles.version }).from(roles).where(eq(roles.id, id));
    expect(row!.version).toBe(1);
  });
});
