import { sql } from 'drizzle-orm';
import type { Transaction } from '../../infra/db/client.js';

/**
 * Serializes the writes to one tenant's department tree until the transaction ends.
 *
 * Row locks alone cannot stop two moves that each look valid (A under B, B under A): they touch
 * different rows, and each checks for a cycle against a tree the other has not committed yet.
 * A transaction-scoped advisory lock per tenant makes every write validate against the tree the
 * previous one committed; under READ COMMITTED each later statement takes a fresh snapshot, so
 * the checks that follow the lock see it. (REPEATABLE READ would freeze the snapshot at this
 * statement, before the wait, and defeat the lock: the service keeps the default isolation.)
 *
 * The key includes the schema so that tenants of different schemas sharing one database (the
 * test runs) never wait for each other; hash collisions between tenants only serialize more.
 */
export async function lockDepartmentTree(tx: Transaction, tenantId: bigint): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext('portcullis.dept.' || current_schema() || '.' || ${tenantId.toString()}::text))`,
  );
}
