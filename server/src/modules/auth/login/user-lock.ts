import { eq } from 'drizzle-orm';
import { userSecurity } from '../../../../../db/schema/index.js';
import type { Executor } from '../../../infra/db/client.js';

/**
 * Queues the caller's transaction behind every other one that changes who is signed in as this
 * user (logins applying device policies, the user's own revocations, disabling and deleting the
 * account), on the user's security row. Taking it first, in all of them, keeps one lock order: a
 * transaction that wrote the users row first and then waited here deadlocked with a login.
 */
export async function queueWithLogins(tx: Executor, userId: bigint): Promise<void> {
  await tx.select({ id: userSecurity.userId }).from(userSecurity).where(eq(userSecurity.userId, userId)).for('update');
}
