import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, pk, softDeleteColumns, versionColumn } from './columns.js';
import { permissions } from './permission.js';

/**
 * A unit of permission assignment. TenantId 0 roles are global (the super-administrator role).
 * Stored by the original's member names: RoleType System | Business | Custom; DataScope SelfOnly |
 * DepartmentOnly | DepartmentAndChildren | All | Custom. Status: Enabled | Disabled.
 */
export const roles = pgTable(
  'roles',
  {
    id: pk(),
    tenantId: id().notNull(),
    roleCode: varchar({ length: 64 }).notNull(),
    roleName: varchar({ length: 128 }).notNull(),
    roleDescription: text(),
    roleType: varchar({ length: 16 }).notNull().default('Custom'),
    dataScope: varchar({ length: 32 }).notNull().default('SelfOnly'),
    /** Most members; 0 = unlimited. */
    maxMembers: integer().notNull().default(0),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    isSystem: integer().notNull().default(0),
    sort: integer().notNull().default(0),
    remark: text(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [
    uniqueIndex('roles_tenant_code_uq').on(t.tenantId, sql`lower(${t.roleCode})`).where(sql`${t.isDeleted} = false`),
  ],
);

/** Inheritance: a role holds every permission of its parents (no cycles; checked on write). */
export const roleInheritances = pgTable(
  'role_inheritances',
  {
    roleId: id()
      .notNull()
      .references(() => roles.id),
    parentRoleId: id()
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.parentRoleId] })],
);

/** A permission granted to a role. Status: Enabled | Disabled. */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: id()
      .notNull()
      .references(() => roles.id),
    permissionId: id()
      .notNull()
      .references(() => permissions.id),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    ...auditColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.permissionId] }),
    index('role_permissions_permission_idx').on(t.permissionId),
  ],
);

/** Departments a role with the Custom data scope may see. */
export const roleDataScopeDepartments = pgTable(
  'role_data_scope_departments',
  {
    roleId: id()
      .notNull()
      .references(() => roles.id),
    departmentId: id().notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.departmentId] })],
);
