import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, pk, softDeleteColumns, versionColumn } from './columns.js';

/** A flat dictionary of positions. */
export const positions = pgTable(
  'positions',
  {
    id: pk(),
    tenantId: id().notNull(),
    positionCode: varchar({ length: 64 }).notNull(),
    positionName: varchar({ length: 128 }).notNull(),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    sort: integer().notNull().default(0),
    remark: text(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [
    uniqueIndex('positions_tenant_code_uq')
      .on(t.tenantId, sql`lower(${t.positionCode})`)
      .where(sql`${t.isDeleted} = false`),
  ],
);
