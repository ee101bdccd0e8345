import type { SQL } from 'drizzle-orm';
import type { Executor } from './client.js';

/**
 * Runs raw SQL and returns its rows, whichever driver answers: postgres.js gives an array,
 * PGlite an object with `rows`. For the few statements Drizzle's builders cannot express in one
 * round trip (several data-modifying CTEs with a lock taken first).
 */
export async function executeRows<T extends Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
