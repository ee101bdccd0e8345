import { and, eq } from 'drizzle-orm';
import { tenantMemberships, tenants, users, userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { ServiceScope } from '../../rpc/context.js';
import { appError } from '../../errors/app-error.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { CallContext } from '../../rpc/call-context.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { authErrors } from '../auth/errors.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { setAccountStatus, softDeleteAccount } from '../user/account-removal.js';
import { profileErrors } from './errors.js';

/**
 * POST /api/Profile/DeactivateAccount and DeleteAccount (SPEC "Session status", the original service
 * §3.3): the user ends their own account after confirming the password. Deactivation disables
 * it, deletion soft-deletes it (name and e-mail become free); both rotate the security stamp,
 * end every session and are audited, through the same code as the administrator's endpoints.
 */

type Ctx = CallContext & { auth: AuthContext };

/**
 * The checks both operations share. Impersonation is refused first: an administrator acting as
 * the user must never end the user's account. The password is throttled per user (a stolen
 * session must not guess it quickly) and verified through the password gate; then system
 * accounts and tenant owners are refused (a tenant must never lose its owner this way).
 */
async function confirm(deps: AppDeps, ctx: Ctx, password: string): Promise<{ userName: string }> {
  refuseWhileImpersonating(ctx.auth);
  const { db } = deps;
  const userId = ctx.auth.userId;
  const limit = await hitRateLimit(deps.store, `confirm-password:${userId}`, 5, 60_000);
  if (!limit.allowed)
    throw appError(authErrors.TOO_MANY_ATTEMPTS, {
      params: { seconds: limit.retryAfterSeconds },
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  const [row] = await db
    .select({ hash: userSecurity.passwordHash, userName: users.userName, isSystemAccount: users.isSystemAccount })
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(and(eq(users.id, userId), notDeleted(users.isDeleted)));
  if (!row || !(await deps.hasher.verify(row.hash, password)).ok) throw appError(profileErrors.PASSWORD_WRONG);
  if (row.isSystemAccount) throw appError(profileErrors.SYSTEM_ACCOUNT);
  const [owned] = await db
    .select({ id: tenantMemberships.id })
    .from(tenantMemberships)
    .innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId))
    .where(
      and(
        eq(tenantMemberships.userId, userId),
        eq(tenantMemberships.memberType, 'Owner'),
        notDeleted(tenants.isDeleted),
      ),
    )
    .limit(1);
  if (owned) throw appError(profileErrors.TENANT_OWNER);
  return { userName: row.userName };
}

/** Disables the caller's account: every session ends (this one too) and the stamp rotates. */
export async function deactivateAccount({ deps, services }: ServiceScope, ctx: Ctx, password: string): Promise<void> {
  const { userName } = await confirm(deps, ctx, password);
  const reason = 'Account deactivated by the user';
  await setAccountStatus({ ...deps, ...services }, ctx, ctx.auth.userId, 'Disabled', {
    reason,
    rotateStamp: true,
    audit: { action: 'AccountDeactivated', detail: { userName } },
  });
  deps.logger.info('account deactivated', { userId: String(ctx.auth.userId) });
}

/** Soft-deletes the caller's account: every session and connection ends; name and e-mail become free. */
export async function deleteAccount({ deps, services }: ServiceScope, ctx: Ctx, password: string): Promise<void> {
  const { userName } = await confirm(deps, ctx, password);
  await softDeleteAccount({ ...deps, ...services }, ctx, ctx.auth.userId, {
    reason: 'Account deleted by the user',
    audit: { action: 'AccountDeleted', detail: { userName } },
  });
  deps.logger.info('account deleted', { userId: String(ctx.auth.userId) });
}
