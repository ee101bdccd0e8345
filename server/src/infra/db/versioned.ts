import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import type { Executor } from './client.js';

type VersionedTable = PgTable & { id: PgColumn; version: PgColumn };

/**
 * Optimistic concurrency: updates the row only if it still has the version the caller read,
 * and bumps the version. Zero rows updated means someone else changed (or deleted) it first:
 * 409, never a silent overwrite.
 */
export async function updateVersioned<T extends VersionedTable>(
  db: Executor,
  table: T,
  id: bigint,
  expectedVersion: number,
  values: Record<string, unknown>,
  extraWhere?: SQL,
): Promise<void> {
  const updated = await db
    .update(table)
    .set({ ...values, version: sql`${table.version} + 1` } as never)
    .where(and(eq(table.id, id), eq(table.version, expectedVersion), extraWhere))
    .returning({ id: table.id });
  if (updated.length === 0) throw appError(commonErrors.VERSION_CONFLICT);
}
