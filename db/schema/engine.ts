import { pgTable, varchar } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';

/**
 * The schema versions applied by the upgrade engine and the application version that applied them.
 * The engine creates this table and app_versions itself, before any migration, so their DDL lives
 * in server/src/infra/db/migrator.ts and this file is not part of the schema drizzle-kit reads.
 */
export const schemaVersions = pgTable('schema_versions', {
  version: varchar({ length: 128 }).primaryKey(),
  checksum: varchar({ length: 64 }).notNull(),
  appVersion: varchar({ length: 32 }).notNull(),
  appliedTime: instant().notNull().defaultNow(),
});

/** Every application version that started against this database. */
export const appVersions = pgTable('app_versions', {
  appVersion: varchar({ length: 32 }).primaryKey(),
  firstStartedTime: instant().notNull().defaultNow(),
  lastStartedTime: instant().notNull().defaultNow(),
});
