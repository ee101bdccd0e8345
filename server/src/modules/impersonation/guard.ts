import { appError } from '../../errors/app-error.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { impersonationErrors } from './errors.js';

/** Whether the calling session is an impersonation session (someone acting as this user). */
export function isImpersonating(auth: Pick<AuthContext, 'state'>): boolean {
  return auth.state.impersonatorUserId !== null;
}

/** The person behind the request: the impersonator during an impersonation, else the user. */
export function actingUserId(auth: Pick<AuthContext, 'state' | 'userId'>): bigint {
  return auth.state.impersonatorUserId === null ? auth.userId : BigInt(auth.state.impersonatorUserId);
}

/**
 * Refuses (403) what an impersonation session must not do (SPEC "Impersonation"): password
 * change, MFA reset, permission changes, deletion, key regeneration and further impersonation.
 * Call it first thing in such an operation:
 *
 * ```ts
 * .mutation(({ ctx, input }) => { refuseWhileImpersonating(ctx.auth); ... })
 * ```
 */
export function refuseWhileImpersonating(auth: Pick<AuthContext, 'state'>): void {
  if (isImpersonating(auth)) throw appError(impersonationErrors.REFUSED_WHILE_IMPERSONATING);
}
