import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { passwordHistory, users, userSecurity, userSessions } from '../../../../db/schema/index.js';
import type { ServiceScope } from '../../rpc/context.js';
import { appError } from '../../errors/app-error.js';
import type { CallContext } from '../../rpc/call-context.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { authErrors } from '../auth/errors.js';
import { requestFacts } from '../auth/login/login-service.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { notifySecurity } from '../notifications/notify.js';
import { formerPasswordHashes } from '../auth/password-history.js';

/**
 * POST /api/Profile/ChangePassword. The old password is checked (and throttled, so a stolen
 * session cannot guess it quickly); the new one must pass the policy. The security stamp
 * rotates, so every other session's tokens stop working (they are revoked too); the current
 * session carries on with the new stamp and, if it was locked for a forced change, unlocks.
 * PasswordChanged is audited and the user gets a security notice.
 */
export async function changePassword(
  { deps, services }: ServiceScope,
  ctx: CallContext,
  auth: AuthContext,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  // Someone acting as the user (impersonation) never changes the user's password.
  refuseWhileImpersonating(auth);
  const { db, clock, config } = deps;
  const limit = await hitRateLimit(deps.store, `change-password:${auth.userId}`, 5, 60_000);
  if (!limit.allowed)
    throw appError(authErrors.TOO_MANY_ATTEMPTS, {
      params: { seconds: limit.retryAfterSeconds },
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  const [row] = await db
    .select({ hash: userSecurity.passwordHash, userName: users.userName, email: users.email })
    .from(userSecurity)
    .innerJoin(users, eq(users.id, userSecurity.userId))
    .where(eq(userSecurity.userId, auth.userId));
  if (!row || !(await deps.hasher.verify(row.hash, oldPassword)).ok) throw appError(authErrors.OLD_PASSWORD_WRONG);
  const history = await formerPasswordHashes(db, auth.userId);
  await assertPasswordPolicy(
    newPassword,
    {
      userName: row.userName,
      email: row.email,
      hasher: deps.hasher,
      recentHashes: [row.hash, ...history],
    },
    ctx.culture,
  );

  const now = clock.now();
  const stamp = randomUUID();
  const expiryDays = config.Saas.Auth.PasswordExpiryDays;
  const newHash = await deps.hasher.hash(newPassword);
  const others = await db.transaction(async (tx) => {
    // Only over the hash the old password was checked against: of two changes racing from two
    // sessions, the second would otherwise overwrite the first and revoke the session that made it.
    const [changed] = await tx
      .update(userSecurity)
      .set({
        passwordHash: newHash,
        passwordChangedTime: now,
        mustChangePassword: false,
        securityStamp: stamp,
        passwordExpiresTime: expiryDays ? new Date(now.getTime() + expiryDays * 86_400_000) : null,
      })
      .where(and(eq(userSecurity.userId, auth.userId), eq(userSecurity.passwordHash, row.hash)))
      .returning({ userId: userSecurity.userId });
    if (!changed) throw appError(authErrors.OLD_PASSWORD_WRONG);
    await tx
      .insert(passwordHistory)
      .values({ id: deps.ids.next(), userId: auth.userId, passwordHash: row.hash, createdTime: now });
    await tx
      .update(userSessions)
      .set({ securityStamp: stamp, isLocked: false, lockReason: null, lockPasswordHash: null, unlockFailedAttempts: 0 })
      .where(eq(userSessions.id, auth.sessionId));
    const active = await services.sessions.activeSessions(tx, auth.userId, auth.sessionId);
    const ids = active.map((s) => s.id);
    await services.sessions.revokeIn(tx, ids, 'Password changed');
    return ids;
  });
  // Only now that it has committed: a request reloading the state earlier would cache the old stamp.
  await services.sessionState.invalidateUser(auth.userId);
  await services.sessions.announceRevoked(auth.userId, others, 'Password changed');
  await deps.events.publish('PasswordChanged', {
    userId: auth.userId,
    userName: row.userName,
    tenantId: auth.tenantId,
    request: requestFacts(ctx, auth.claims.DeviceFingerprint),
  });
  await notifySecurity(deps, {
    userId: auth.userId,
    tenantId: auth.tenantId,
    culture: ctx.culture,
    kind: 'passwordChanged',
    request: ctx,
  });
  deps.logger.info('password changed', { userId: String(auth.userId), otherSessionsRevoked: others.length });
}
