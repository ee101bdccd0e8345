import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import type { ServiceScope } from '../../rpc/context.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import { authErrors } from '../auth/errors.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { SessionStatus } from '../auth/session/session-state.js';
import { deviceTypeCode } from '../user-session/device-type.js';
import { profileErrors } from './errors.js';
import { queueWithLogins } from '../auth/login/user-lock.js';

/**
 * The caller's own sessions under /api/Profile (the original service): list them, end one, end
 * all but the current one. Every session of the user counts, in any context. A user's
 * revocations run one at a time (see lockCaller), so of two racing calls one ends the sessions
 * and the other finds them ended; the caches on every node are dropped and connected clients
 * told (SessionsRevoked) once the change has committed.
 */

type Ctx = CallContext & { auth: AuthContext };

const REASON_ONE = 'Revoked by the user';
const REASON_OTHERS = 'Signed out of other sessions by the user';

/** Live sessions of a user: Active, not deleted, not past their absolute expiry. */
function live(userId: bigint, now: Date) {
  return and(
    eq(userSessions.userId, userId),
    eq(userSessions.status, SessionStatus.Active),
    notDeleted(userSessions.isDeleted),
    gt(userSessions.expirationTime, now),
  );
}

/** GET /api/Profile/Sessions: current first, then the latest activity (at most 500). */
export async function listOwnSessions({ deps }: ServiceScope, ctx: Ctx) {
  const { sessionId, userId } = ctx.auth;
  const rows = await deps.db
    .select()
    .from(userSessions)
    .where(live(userId, deps.clock.now()))
    // In SQL, so that the current session survives the limit however many others there are.
    .orderBy(desc(sql`${userSessions.id} = ${sessionId}`), desc(userSessions.lastActivityTime), desc(userSessions.id))
    .limit(500);
  return rows.map((s) => ({
    sessionId: String(s.id),
    deviceName: s.deviceName,
    deviceType: deviceTypeCode(s.deviceType, s.operatingSystem),
    browser: s.browser,
    operatingSystem: s.operatingSystem,
    ipAddress: s.ipAddress,
    location: s.location,
    loginTime: s.loginTime,
    lastActivityTime: s.lastActivityTime,
    isCurrent: s.id === sessionId,
  }));
}

/**
 * Inside a revocation's transaction, first: queues the user's revocations one after another (on
 * the row that logins applying device policies lock too), then checks that the calling session
 * itself is still live. Without this, two devices each revoking the other at the same moment would both have
 * passed the gate, and both would end: the one that commits second must find itself revoked.
 */
async function lockCaller(tx: Executor, ctx: Ctx): Promise<void> {
  await queueWithLogins(tx, ctx.auth.userId);
  const [own] = await tx
    .select({ status: userSessions.status, isDeleted: userSessions.isDeleted })
    .from(userSessions)
    .where(eq(userSessions.id, ctx.auth.sessionId));
  if (!own || own.status !== SessionStatus.Active || own.isDeleted) throw appError(authErrors.LOGIN_EXPIRED);
}

/** Revokes the given sessions inside the caller's transaction and audits it there. */
async function revokeLocked({ deps, services }: ServiceScope, ctx: Ctx, tx: Executor, ids: bigint[], reason: string) {
  if (ids.length === 0) return;
  await services.sessions.revokeIn(tx, ids, reason);
  const target =
    ids.length === 1
      ? { type: 'Session', id: ids[0]!, userId: ctx.auth.userId }
      : { type: 'User', id: ctx.auth.userId, userId: ctx.auth.userId };
  await auditChange(tx, deps, actorOf(ctx), 'SessionRevoked', target, {
    sessionIds: ids.map(String),
    byAdministrator: false,
  });
}

/**
 * POST /api/Profile/RevokeSession: ends one of the caller's other sessions. The current one is
 * refused (Logout ends it); an unknown id and another user's answer the same. An own session
 * that has already ended is not an error: the caller wanted it gone, and it is.
 */
export async function revokeOwnSession({ deps, services }: ServiceScope, ctx: Ctx, target: bigint): Promise<void> {
  const { userId, sessionId } = ctx.auth;
  if (target === sessionId) throw appError(profileErrors.CURRENT_SESSION);
  const revoked = await deps.db.transaction(async (tx) => {
    await lockCaller(tx, ctx);
    const [row] = await tx
      .select({ id: userSessions.id, status: userSessions.status })
      .from(userSessions)
      .where(and(eq(userSessions.id, target), eq(userSessions.userId, userId), notDeleted(userSessions.isDeleted)));
    if (!row) throw appError(profileErrors.SESSION_NOT_FOUND);
    if (row.status !== SessionStatus.Active) return [];
    await revokeLocked({ deps, services }, ctx, tx, [row.id], REASON_ONE);
    return [row.id];
  });
  await services.sessions.announceRevoked(userId, revoked, REASON_ONE);
}

/** POST /api/Profile/RevokeOtherSessions: ends every other session of the caller; answers how many. */
export async function revokeOtherSessions(
  { deps, services }: ServiceScope,
  ctx: Ctx,
): Promise<{ revokedCount: number }> {
  const { userId, sessionId } = ctx.auth;
  const revoked = await deps.db.transaction(async (tx) => {
    await lockCaller(tx, ctx);
    const rows = await tx
      .select({ id: userSessions.id })
      .from(userSessions)
      .where(
        and(
          eq(userSessions.userId, userId),
          eq(userSessions.status, SessionStatus.Active),
          notDeleted(userSessions.isDeleted),
          ne(userSessions.id, sessionId),
        ),
      );
    const ids = rows.map((r) => r.id);
    await revokeLocked({ deps, services }, ctx, tx, ids, REASON_OTHERS);
    return ids;
  });
  await services.sessions.announceRevoked(userId, revoked, REASON_OTHERS);
  return { revokedCount: revoked.length };
}
