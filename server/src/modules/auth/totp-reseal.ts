import { and, eq, isNotNull } from 'drizzle-orm';
import { userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';

/**
 * Seals every stored TOTP secret under the current credential key: those of a retired key (so it
 * can be removed) and plain ones from an import (so none stays readable at rest). Each row is
 * written only over the value read, so a concurrent enrolment or reset is never overwritten.
 * Part of `npm run credentials:reseal`.
 */
export async function resealTotpSecrets(
  deps: Pick<AppDeps, 'db' | 'twoFactorSecrets' | 'logger'>,
): Promise<{ resealed: number; unreadable: number }> {
  const { db, twoFactorSecrets: box } = deps;
  const rows = await db
    .select({ userId: userSecurity.userId, stored: userSecurity.twoFactorSecret })
    .from(userSecurity)
    .where(isNotNull(userSecurity.twoFactorSecret));
  let resealed = 0;
  let unreadable = 0;
  for (const { userId, stored } of rows) {
    if (!stored || box.sealedUnderCurrentKey(stored)) continue;
    const secret = box.openTotp(stored, userId);
    if (!secret) {
      unreadable++;
      deps.logger.error('TOTP secret does not open (key missing or data altered)', { userId: String(userId) });
      continue;
    }
    const updated = await db
      .update(userSecurity)
      .set({ twoFactorSecret: box.sealTotp(secret, userId) })
      .where(and(eq(userSecurity.userId, userId), eq(userSecurity.twoFactorSecret, stored)))
      .returning({ userId: userSecurity.userId });
    resealed += updated.length;
  }
  return { resealed, unreadable };
}
