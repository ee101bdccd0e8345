import { boolean, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { pk } from './columns.js';

/** The catalogue of permission codes (`saas:<group>:<action>`); `*` is the super-administrator's wildcard. */
export const permissions = pgTable('permissions', {
  id: pk(),
  code: varchar({ length: 128 }).notNull().unique(),
  name: varchar({ length: 128 }).notNull(),
  groupCode: varchar({ length: 64 }).notNull(),
  description: text(),
  isEnabled: boolean().notNull().default(true),
  sort: integer().notNull().default(0),
});
