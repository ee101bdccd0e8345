import { and, eq, or, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../server/src/infra/db/client.js';
import type { IdGenerator } from '../../server/src/infra/ids.js';
import {
  PERMISSION_CATALOGUE,
  SUPER_ADMIN_ROLE,
  WILDCARD_PERMISSION,
} from '../../server/src/modules/authz/permission-catalogue.js';
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
import { SEED_MENUS, type SeedMenu } from './menus.js';
import { notDeleted } from '../../server/src/infra/db/predicates.js';

/**
 * The idempotent seed: the platform context (tenant 0), the default tenant (1), the permission catalogue, the
 * super-administrator role (whose only grant is `*`), the default menus, and the platform
 * super-administrator from SEED_ADMIN_EMAIL / SEED_ADMIN_PASSWORD. Running it again changes
 * nothing that exists (an existing administrator keeps the password it has).
 */

export interface SeedOptions {
  db: Database;
  ids: IdGenerator;
  admin: { email: string; password: string; userName: string };
  hashPassword(password: string): Promise<string>;
}

export interface SeedResult {
  adminUserId: bigint;
  superAdminRoleId: bigint;
  createdAdmin: boolean;
}

export const PLATFORM_TENANT_ID = 0n;
export const DEFAULT_TENANT_ID = 1n;

async function seedMenus(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  ids: IdGenerator,
  codes: Map<string, bigint>,
): Promise<void> {
  // A menu naming a code outside the catalogue would be stored ungated: visible to everyone.
  const permissionOf = (code: string) => {
    const id = codes.get(code);
    if (id === undefined) throw new Error(`Seed menu references unknown permission ${code}`);
    return id;
  };
  const existing = new Set(
    (await tx.select({ code: menus.menuCode }).from(menus).where(eq(menus.tenantId, PLATFORM_TENANT_ID))).map((r) =>
      r.code.toLowerCase(),
    ),
  );
  const byCode = new Map<string, bigint>();
  const insert = async (menu: SeedMenu, parentId: bigint | null, sort: number) => {
    let id: bigint;
    if (existing.has(menu.code.toLowerCase())) {
      const [row] = await tx
        .select({ id: menus.id })
        .from(menus)
        .where(and(eq(menus.tenantId, PLATFORM_TENANT_ID), sql`lower(${menus.menuCode}) = ${menu.code.toLowerCase()}`));
      id = row!.id;
    } else {
      id = ids.next();
      await tx.insert(menus).values({
        id,
        tenantId: PLATFORM_TENANT_ID,
        parentId,
        menuType: menu.type,
        menuCode: menu.code,
        menuName: menu.name,
        title: menu.name,
        i18nKey: menu.i18nKey,
        path: menu.path,
        component: menu.component,
        icon: menu.icon,
        link: menu.link,
        permissionId: menu.permission ? permissionOf(menu.permission) : null,
        sort,
      });
    }
    byCode.set(menu.code, id);
    for (const [i, child] of (menu.children ?? []).entries()) await insert(child, id, i);
  };
  for (const [i, menu] of SEED_MENUS.entries()) await insert(menu, null, i);
}

export async function seedDatabase(options: SeedOptions): Promise<SeedResult> {
  const { db, ids, admin } = options;
  // Hash outside the transaction: it takes tens of milliseconds and needs no lock.
  const passwordHash = await options.hashPassword(admin.password);
  return db.transaction(async (tx) => {
    await tx
      .insert(tenants)
      .values({
        id: PLATFORM_TENANT_ID,
        code: 'platform',
        name: 'Platform',
        status: 'Normal',
        configStatus: 'Configured',
      })
      .onConflictDoNothing();
    // The default tenant: home of self-registered and external-login accounts (Saas__Auth__SelfServiceTenantId).
    await tx
      .insert(tenants)
      .values({ id: DEFAULT_TENANT_ID, code: 'default', name: 'Default', status: 'Normal', configStatus: 'Configured' })
      .onConflictDoNothing();

    for (const p of PERMISSION_CATALOGUE) {
      await tx
        .insert(permissions)
        .values({ id: ids.next(), code: p.code, name: p.name, groupCode: p.groupCode })
        .onConflictDoUpdate({ target: permissions.code, set: { name: p.name, groupCode: p.groupCode } });
    }
    const codes = new Map(
      (await tx.select({ id: permissions.id, code: permissions.code }).from(permissions)).map((r) => [r.code, r.id]),
    );

    let [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(
        and(
          eq(roles.tenantId, PLATFORM_TENANT_ID),
          sql`lower(${roles.roleCode}) = ${SUPER_ADMIN_ROLE}`,
          notDeleted(roles.isDeleted),
        ),
      );
    if (!role) {
      role = { id: ids.next() };
      await tx.insert(roles).values({
        id: role.id,
        tenantId: PLATFORM_TENANT_ID,
        roleCode: SUPER_ADMIN_ROLE,
        roleName: 'Super administrator',
        roleType: 'System',
        dataScope: 'All',
        isSystem: 1,
      });
    }
    await tx
      .insert(rolePermissions)
      .values({ roleId: role.id, permissionId: codes.get(WILDCARD_PERMISSION)! })
      .onConflictDoNothing();

    await seedMenus(tx, ids, codes);

    // The administrator is created once: found by its e-mail, or by its platform user name when
    // SEED_ADMIN_EMAIL changed since (it is then left as it is: its e-mail is changed through the
    // profile, not by restarting; creating a second one would collide on the name and stop the start).
    let [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          or(
            sql`lower(${users.email}) = ${admin.email.trim().toLowerCase()}`,
            and(
              eq(users.tenantId, PLATFORM_TENANT_ID),
              sql`lower(${users.userName}) = ${admin.userName.toLowerCase()}`,
            ),
          ),
          notDeleted(users.isDeleted),
        ),
      )
      .orderBy(sql`lower(${users.email}) = ${admin.email.trim().toLowerCase()} desc`)
      .limit(1);
    const createdAdmin = !user;
    if (!user) {
      user = { id: ids.next() };
      await tx.insert(users).values({
        id: user.id,
        tenantId: PLATFORM_TENANT_ID,
        userName: admin.userName,
        email: admin.email.trim(),
        emailVerified: true,
        isActive: true,
        isSystemAccount: true,
        nickName: 'Super administrator',
        status: 'Enabled',
      });
      // The seed password is a default password: the first login forces a change.
      await tx
        .insert(userSecurity)
        .values({ userId: user.id, passwordHash, securityStamp: randomUUID(), mustChangePassword: true });
      await tx
        .insert(userRoles)
        .values({ id: ids.next(), tenantId: PLATFORM_TENANT_ID, userId: user.id, roleId: role.id });
    }
    return { adminUserId: user.id, superAdminRoleId: role.id, createdAdmin };
  });
}
