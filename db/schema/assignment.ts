import { sql } from 'drizzle-orm';
import { boolean, date, index, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, instant, pk } from './columns.js';
import { departments } from './department.js';
import { positions } from './position.js';
import { roles } from './role.js';
import { users } from './user.js';

/** A role held by a user in a tenant, optionally only within [effectiveTime, expirationTime). */
export const userRoles = pgTable(
  'user_roles',
  {
    id: pk(),
    tenantId: id().notNull(),
    userId: id()
      .notNull()
      .references(() => users.id),
    roleId: id()
      .notNull()
      .references(() => roles.id),
    effectiveTime: instant(),
    expirationTime: instant(),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('user_roles_user_role_uq').on(t.tenantId, t.userId, t.roleId),
    index('user_roles_role_idx').on(t.roleId),
  ],
);

/** A user's department membership; at most one main department per user and tenant. */
export const userDepartments = pgTable(
  'user_departments',
  {
    id: pk(),
    tenantId: id().notNull(),
    userId: id()
      .notNull()
      .references(() => users.id),
    departmentId: id()
      .notNull()
      .references(() => departments.id),
    isMain: boolean().notNull().default(false),
    positionId: id().references(() => positions.id),
    employeeNumber: varchar({ length: 64 }),
    grade: varchar({ length: 32 }),
    entryDate: date({ mode: 'string' }),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('user_departments_user_dept_uq').on(t.userId, t.departmentId),
    uniqueIndex('user_departments_main_uq').on(t.tenantId, t.userId).where(sql`${t.isMain} = true`),
    index('user_departments_dept_idx').on(t.departmentId),
  ],
);
