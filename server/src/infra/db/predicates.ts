import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `column = false` with the `false` written into the SQL text, never sent as a parameter.
 *
 * The unique indexes on e-mail, user name and the codes are partial (`WHERE is_deleted =
 * false`). postgres.js prepares every statement, and PostgreSQL soon plans a prepared statement
 * once for any parameters (a generic plan): with `is_deleted = $2` that plan cannot prove the
 * index's condition, so it scanned the whole users table on every login. A literal keeps the
 * partial index usable in every plan (server/src/infra/db/partial-index-plans.test.ts).
 */
export function notDeleted(column: AnyPgColumn): SQL {
  return sql`${column} = false`;
}
