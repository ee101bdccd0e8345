import { pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { id, instant } from './columns.js';

/**
 * Runtime settings stored in the database (login methods shown, OAuth buttons, branding),
 * as JSON text per key, editable without a restart.
 */
export const systemSettings = pgTable('system_settings', {
  settingKey: varchar({ length: 128 }).primaryKey(),
  settingValue: text().notNull(),
  modifiedTime: instant().notNull().defaultNow(),
  modifiedBy: id(),
});
