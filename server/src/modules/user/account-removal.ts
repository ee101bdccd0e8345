import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { users, userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import type { SessionService } from '../auth/session/session-service.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { announceEnded, endAllSessionsIn } from '../user-session/revoke-all.js';
import { queueWithLogins } from '../auth/login/user-lock.js';

/**
 * The writes that disable or delete an account, shared by the administrator's endpoints
 * (User/UserStatus, DELETE User/User) and the user's own (Profile/DeactivateAccount,
 * DeleteAccount), so both end the same sessions, free the same names and drop the same caches.
 * Callers check who may do it first; these only write, audit and announce.
 */

type Ctx = CallContext & { auth: AuthContext };

export interface RemovalAudit {
  action: AuditAction;
  detail?: Record<string, unknown>;
}

/** What removing or disabling an account touches. */
type RemovalDeps = Pick<AppDeps, 'db' | 'ids' | 'clock' | 'events'> & {
  authz: AuthorizationService;
  sessions: SessionService;
  sessionState: SessionStateService;
};

/**
 * Sets an account's status. Disabling ends every session of the user and every impersonation
 * session it started; with `rotateStamp` the security stamp changes too (outstanding reset links
 * and any token minted before it die even if a session escaped). Caches drop after the commit.
 */
export async function setAccountStatus(
  deps: RemovalDeps,
  ctx: Ctx,
  userId: bigint,
  status: 'Enabled' | 'Disabled',
  options: { reason: string; audit: RemovalAudit; rotateStamp?: boolean },
): Promise<void> {
  const { db, clock } = deps;
  const ended = await db.transaction(async (tx) => {
    await queueWithLogins(tx, userId);
    await tx
      .update(users)
      .set({ status, modifiedTime: clock.now(), modifiedBy: ctx.auth.userId, version: sql`${users.version} + 1` })
      .where(eq(users.id, userId));
    if (options.rotateStamp)
      await tx.update(userSecurity).set({ securityStamp: randomUUID() }).where(eq(userSecurity.userId, userId));
    await auditChange(
      tx,
      deps,
      actorOf(ctx),
      options.audit.action,
      { type: 'User', id: userId, userId },
      options.audit.detail,
    );
    return status === 'Disabled' ? endAllSessionsIn(tx, deps, userId, options.reason) : new Map<bigint, bigint[]>();
  });
  await deps.sessionState.invalidateUser(userId);
  await announceEnded(deps, userId, ended, options.reason);
}

/**
 * Soft-deletes an account: the row stays (ids in logs and audit keep their meaning) while the
 * partial unique indexes, which skip deleted rows, free its user name and e-mail. The stamp
 * rotates, every session ends and every connection of the user is told to log out (SessionsRevoked
 * with no session ids). Of two deletions racing, the one that finds the row already deleted
 * writes and announces nothing:
 * no second audit entry.
 */
export async function softDeleteAccount(
  deps: RemovalDeps,
  ctx: Ctx,
  userId: bigint,
  options: { reason: string; audit: RemovalAudit },
): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const ended = await db.transaction(async (tx) => {
    await queueWithLogins(tx, userId);
    const [deleted] = await tx
      .update(users)
      .set({
        isDeleted: true,
        deletedTime: now,
        deletedBy: ctx.auth.userId,
        modifiedTime: now,
        modifiedBy: ctx.auth.userId,
        version: sql`${users.version} + 1`,
      })
      .where(and(eq(users.id, userId), notDeleted(users.isDeleted)))
      .returning({ id: users.id });
    if (!deleted) return null;
    await tx.update(userSecurity).set({ securityStamp: randomUUID() }).where(eq(userSecurity.userId, userId));
    await auditChange(
      tx,
      deps,
      actorOf(ctx),
      options.audit.action,
      { type: 'User', id: userId, userId },
      options.audit.detail,
    );
    return endAllSessionsIn(tx, deps, userId, options.reason);
  });
  if (!ended) return;
  await Promise.all([deps.sessionState.invalidateUser(userId), deps.authz.invalidateUser(userId)]);
  await announceEnded(deps, userId, ended, options.reason, true);
}
