import { desc, eq } from 'drizzle-orm';
import { passwordHistory } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';

/**
 * The user's former password hashes the policy refuses again, newest first: with the current hash,
 * the last five passwords (the policy's "not one of the last five").
 */
export async function formerPasswordHashes(db: Executor, userId: bigint): Promise<string[]> {
  const rows = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdTime))
    .limit(4);
  return rows.map((r) => r.hash);
}
