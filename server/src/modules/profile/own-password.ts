import { eq } from 'drizzle-orm';
import { userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { authErrors } from '../auth/errors.js';
import { profileErrors } from './errors.js';

/**
 * Confirms the caller's own password before a change that needs it (user name, contacts).
 * Throttled per user, 5 a minute (429 after), in the same budget as deactivation and deletion,
 * so a stolen session cannot guess the password by spreading attempts over several operations.
 */
export async function confirmOwnPassword(
  deps: Pick<AppDeps, 'db' | 'store' | 'hasher'>,
  userId: bigint,
  password: string,
): Promise<void> {
  const limit = await hitRateLimit(deps.store, `confirm-password:${userId}`, 5, 60_000);
  if (!limit.allowed)
    throw appError(authErrors.TOO_MANY_ATTEMPTS, {
      params: { seconds: limit.retryAfterSeconds },
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  const [row] = await deps.db
    .select({ hash: userSecurity.passwordHash })
    .from(userSecurity)
    .where(eq(userSecurity.userId, userId));
  if (!row || !(await deps.hasher.verify(row.hash, password)).ok) throw appError(profileErrors.PASSWORD_WRONG);
}
