import { randomInt } from 'node:crypto';
import { and, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import { recoveryCodes, userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { Executor } from '../../infra/db/client.js';

/**
 * Second-factor recovery codes: 10 one-use codes `XXXX-XXXX`, shown once when made, stored as
 * keyed digests (two-factor-secrets.ts). The alphabet leaves out I, O, 0 and 1, which people
 * misread; each code carries 40 random bits, against which online guessing meets the login
 * lockout and offline guessing meets the key.
 */

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const SHAPE = /^[A-Z0-9]{4}-?[A-Z0-9]{4}$/;

function newCode(): string {
  let text = '';
  for (let i = 0; i < 8; i++) text += ALPHABET[randomInt(ALPHABET.length)];
  return `${text.slice(0, 4)}-${text.slice(4)}`;
}

/** A presented code as stored: upper case, spaces dropped, the dash put back; undefined when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | undefined {
  const text = input.replace(/\s+/g, '').toUpperCase();
  if (!SHAPE.test(text)) return undefined;
  const bare = text.replace('-', '');
  return `${bare.slice(0, 4)}-${bare.slice(4)}`;
}

type Deps = Pick<AppDeps, 'ids' | 'clock' | 'twoFactorSecrets'>;

/** Replaces the user's codes with a new set inside the caller's transaction; returns the codes (to show once). */
export async function replaceRecoveryCodesIn(tx: Executor, deps: Deps, userId: bigint): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  const now = deps.clock.now();
  const list = [...codes];
  await tx.insert(recoveryCodes).values(
    list.map((code) => ({
      id: deps.ids.next(),
      userId,
      codeDigest: deps.twoFactorSecrets.recoveryDigest(userId, code),
      createdTime: now,
    })),
  );
  return list;
}

/** Removes every code of the user (the last factor was turned off). */
export async function deleteRecoveryCodesIn(tx: Executor, userId: bigint): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/**
 * Spends a code: a single conditional update marks it used, so of two requests presenting the
 * same code at once exactly one gets the row back. False for a code that is wrong, spent, or of
 * another user.
 */
export async function spendRecoveryCode(
  db: Executor,
  deps: Pick<AppDeps, 'clock' | 'twoFactorSecrets'>,
  userId: bigint,
  input: string,
): Promise<boolean> {
  const code = normalizeRecoveryCode(input);
  if (!code) return false;
  const spent = await db
    .update(recoveryCodes)
    .set({ usedTime: deps.clock.now() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        isNull(recoveryCodes.usedTime),
        inArray(recoveryCodes.codeDigest, deps.twoFactorSecrets.recoveryCandidates(userId, code)),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return spent.length === 1;
}

/**
 * How many unused codes the user has; 0 while no second factor is on (codes left from before an
 * administrator's reset count for nothing, and a new enrolment replaces them).
 */
export async function recoveryCodesRemaining(db: Executor, userId: bigint): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .innerJoin(userSecurity, eq(userSecurity.userId, recoveryCodes.userId))
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedTime), ne(userSecurity.twoFactorMethod, 0)));
  return row?.n ?? 0;
}
