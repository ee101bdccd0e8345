import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, pk, softDeleteColumns, versionColumn } from './columns.js';
import { permissions } from './permission.js';

/**
 * UI structure only: Directory | Menu | Button | ExternalLink. A null permissionId means
 * display-only; a set one gates visibility. Authorization never depends on menus.
 * TenantId 0 menus are global and readable by all tenants.
 */
export const menus = pgTable(
  'menus',
  {
    id: pk(),
    tenantId: id().notNull().default(sql`0`),
    parentId: id(),
    menuType: varchar({ length: 16 }).notNull(),
    menuCode: varchar({ length: 128 }).notNull(),
    menuName: varchar({ length: 128 }).notNull(),
    title: varchar({ length: 128 }),
    i18nKey: varchar({ length: 128 }),
    path: varchar({ length: 255 }),
    component: varchar({ length: 255 }),
    redirect: varchar({ length: 255 }),
    icon: varchar({ length: 128 }),
    link: text(),
    permissionId: id().references(() => permissions.id),
    isVisible: boolean().notNull().default(true),
    keepAlive: boolean().notNull().default(false),
    affixTab: boolean().notNull().default(false),
    badge: varchar({ length: 32 }),
    badgeType: varchar({ length: 16 }),
    dot: boolean().notNull().default(false),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    sort: integer().notNull().default(0),
    remark: text(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [
    index('menus_tenant_parent_idx').on(t.tenantId, t.parentId),
    uniqueIndex('menus_tenant_code_uq').on(t.tenantId, sql`lower(${t.menuCode})`).where(sql`${t.isDeleted} = false`),
  ],
);
