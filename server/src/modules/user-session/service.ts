import { actingUserId } from '../impersonation/guard.js';
import { and, desc, eq, gt, ne, type SQL } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionService } from '../auth/session/session-service.js';
import { appError } from '../../errors/app-error.js';
import type { CallContext } from '../../rpc/call-context.js';
import { writeAudit } from '../audit/write.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { SessionStatus } from '../auth/session/session-state.js';
import { callerScope, type CallerScope } from '../user/scope.js';
import { requireVisibleUser } from '../user/service.js';
import { deviceTypeCode } from './device-type.js';
import { userSessionErrors } from './errors.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * Sessions for administrators: a user's sessions, and revoking one or all of them. A user the
 * caller cannot see has no sessions it can see. For an account managed in the caller's context
 * (its home tenant) every session counts; for a member from elsewhere only the sessions in this
 * context do: its sessions in other tenants are theirs.
 */

export const SESSION_STATUS_NAMES = ['Active', 'Offline', 'Revoked', 'Expired'] as const;
export type SessionStatusName = (typeof SESSION_STATUS_NAMES)[number];

type Ctx = CallContext & { auth: AuthContext };
const REASON = 'Revoked by an administrator';

/** The sessions of a user the caller may see, in the caller's terms. */
function sessionsOf(scope: CallerScope, user: { id: bigint; tenantId: bigint }): SQL {
  return and(
    eq(userSessions.userId, user.id),
    notDeleted(userSessions.isDeleted),
    user.tenantId === scope.tenantId ? undefined : eq(userSessions.tenantId, scope.tenantId),
  )!;
}

export function createUserSessionService(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'events'> & { authz: AuthorizationService; sessions: SessionService },
) {
  const { db, clock } = deps;

  async function audit(ctx: Ctx, userId: bigint, sessionIds: bigint[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await writeAudit(db, deps.ids, {
      action: 'SessionRevoked',
      tenantId: ctx.auth.tenantId,
      userId,
      actorUserId: ctx.auth.userId,
      targetType: 'Session',
      targetId: sessionIds.length === 1 ? String(sessionIds[0]) : undefined,
      detail: { sessionIds: sessionIds.map(String), byAdministrator: true },
      ip: ctx.ip,
      traceId: ctx.traceId,
      at: clock.now(),
    });
  }

  return {
    /** GET /api/UserSessionQuery/UserSessions: active, unexpired sessions first by activity; all with includeInactive. */
    async list(ctx: Ctx, userId: bigint, includeInactive: boolean) {
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireVisibleUser(db, scope, userId);
      const now = clock.now();
      const rows = await db
        .select()
        .from(userSessions)
        .where(
          and(
            sessionsOf(scope, user),
            includeInactive
              ? undefined
              : and(eq(userSessions.status, SessionStatus.Active), gt(userSessions.expirationTime, now)),
          ),
        )
        .orderBy(desc(userSessions.lastActivityTime), desc(userSessions.id))
        .limit(500);
      return rows.map((s) => {
        const expired = s.status === SessionStatus.Active && s.expirationTime <= now;
        return {
          sessionId: String(s.id),
          userId: String(s.userId),
          tenantId: String(s.tenantId),
          deviceType: deviceTypeCode(s.deviceType, s.operatingSystem),
          deviceName: s.deviceName,
          browser: s.browser,
          operatingSystem: s.operatingSystem,
          ipAddress: s.ipAddress,
          location: s.location,
          loginMethod: s.loginMethod,
          loginTime: s.loginTime,
          lastActivityTime: s.lastActivityTime,
          expirationTime: s.expirationTime,
          status: expired ? 'Expired' : (SESSION_STATUS_NAMES[s.status] ?? 'Revoked'),
          isLocked: s.isLocked,
          isImpersonation: s.impersonatorUserId !== null,
          revokedTime: s.revokedTime,
          revokedReason: s.revokedReason,
          isCurrent: s.id === ctx.auth.sessionId,
        };
      });
    },

    /** POST /api/UserSession/RevokeUserSession: ends one session (already ended: nothing to do). */
    async revokeOne(ctx: Ctx, sessionId: bigint): Promise<void> {
      if (sessionId === ctx.auth.sessionId) throw appError(userSessionErrors.IS_CURRENT);
      const scope = await callerScope(deps, ctx.auth);
      const [session] = await db
        .select({ id: userSessions.id, userId: userSessions.userId, status: userSessions.status })
        .from(userSessions)
        .where(and(eq(userSessions.id, sessionId), notDeleted(userSessions.isDeleted)));
      const notFound = () => appError(userSessionErrors.NOT_FOUND, { params: { id: String(sessionId) } });
      if (!session) throw notFound();
      const user = await requireVisibleUser(db, scope, session.userId).catch(() => {
        throw notFound();
      });
      const [inScope] = await db
        .select({ id: userSessions.id })
        .from(userSessions)
        .where(and(eq(userSessions.id, sessionId), sessionsOf(scope, user)));
      if (!inScope) throw notFound();
      if (session.status !== SessionStatus.Active) return;
      await deps.sessions.revoke(user.id, [session.id], REASON, true, {
        userId: actingUserId(ctx.auth),
        ip: ctx.ip,
        traceId: ctx.traceId,
      });
      await audit(ctx, user.id, [session.id]);
    },

    /** POST /api/UserSession/RevokeUserSessions: ends every session of the user the caller may see (never its own current one). */
    async revokeAll(ctx: Ctx, userId: bigint): Promise<{ revokedCount: number }> {
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireVisibleUser(db, scope, userId);
      const rows = await db
        .select({ id: userSessions.id })
        .from(userSessions)
        .where(
          and(
            sessionsOf(scope, user),
            eq(userSessions.status, SessionStatus.Active),
            ne(userSessions.id, ctx.auth.sessionId),
          ),
        );
      const ids = rows.map((r) => r.id);
      await deps.sessions.revoke(user.id, ids, REASON, true, {
        userId: actingUserId(ctx.auth),
        ip: ctx.ip,
        traceId: ctx.traceId,
      });
      await audit(ctx, user.id, ids);
      return { revokedCount: ids.length };
    },
  };
}
