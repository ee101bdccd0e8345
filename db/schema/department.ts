import { index, integer, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, pk, softDeleteColumns, versionColumn } from './columns.js';

/** A node of a strict single-parent tree (parentId null = a root). */
export const departments = pgTable(
  'departments',
  {
    id: pk(),
    tenantId: id().notNull(),
    parentId: id(),
    departmentName: varchar({ length: 128 }).notNull(),
    departmentCode: varchar({ length: 64 }),
    /** A DepartmentType member name (the original's: Corporation … Subsidiary, Other). */
    departmentType: varchar({ length: 32 }).notNull().default('Department'),
    leaderId: id(),
    phone: varchar({ length: 32 }),
    email: varchar({ length: 254 }),
    address: text(),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    sort: integer().notNull().default(0),
    remark: text(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [index('departments_tenant_parent_idx').on(t.tenantId, t.parentId)],
);

/**
 * The closure of the department tree: every (ancestor, descendant) pair with its depth, the
 * self pair at depth 0, and the path of ids and names from the root. A derived mirror, rebuilt
 * whenever a department is added, moved or deleted.
 */
export const departmentHierarchy = pgTable(
  'department_hierarchy',
  {
    tenantId: id().notNull(),
    ancestorId: id().notNull(),
    descendantId: id().notNull(),
    depth: integer().notNull(),
    /** Ids from the root to the descendant, `/`-joined. */
    path: text().notNull(),
    /** Names from the root to the descendant, `/`-joined. */
    pathName: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.descendantId] }),
    index('department_hierarchy_descendant_idx').on(t.descendantId),
  ],
);
