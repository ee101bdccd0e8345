import type { AppDeps } from '../../app-deps.js';
import type { Culture } from '../../config/schema.js';
import { writeAudit } from '../audit/write.js';
import type { RequestFacts } from './events.js';
import { recoveryCodesRemaining, spendRecoveryCode } from './recovery-codes.js';
import { notifyTwoFactor } from './two-factor-notices.js';

/**
 * A recovery code presented at login in place of the second factor. A right code is spent at
 * once (of two requests with the same code, one wins), audited as RecoveryCodeUsed with the
 * count left, and the user is told: a code used by someone else is the sign of a stolen password
 * and a stolen code sheet. False for a wrong or spent code (the caller counts the failure).
 */
export async function useRecoveryCode(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'messages' | 'logger' | 'events' | 'twoFactorSecrets'>,
  user: { userId: bigint; tenantId: bigint; culture: Culture },
  code: string,
  facts: RequestFacts,
): Promise<boolean> {
  if (!(await spendRecoveryCode(deps.db, deps, user.userId, code))) return false;
  const remaining = await recoveryCodesRemaining(deps.db, user.userId);
  await writeAudit(deps.db, deps.ids, {
    action: 'RecoveryCodeUsed',
    tenantId: user.tenantId,
    userId: user.userId,
    detail: { remaining },
    ip: facts.ip,
    traceId: facts.traceId,
    at: deps.clock.now(),
  });
  await notifyTwoFactor(deps, user, { kind: 'recoveryUsed', remaining });
  return true;
}
