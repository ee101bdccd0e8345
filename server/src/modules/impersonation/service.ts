import { and, eq } from 'drizzle-orm';
import { users, userSecurity, userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import type { SessionService } from '../auth/session/session-service.js';
import type { TokenService } from '../auth/session/tokens.js';
import { appError } from '../../errors/app-error.js';
import type { CallContext } from '../../rpc/call-context.js';
import { writeAudit } from '../audit/write.js';
import { permission } from '../authz/permission-catalogue.js';
import { availableTenants } from '../auth/login/landing.js';
import { requestFacts } from '../auth/login/login-service.js';
import { requireAllowed, type AuthContext } from '../auth/session/session-gate.js';
import { SessionStatus } from '../auth/session/session-state.js';
import type { LoginToken } from '../auth/session/tokens.js';
import { callerScope, codeBeyondCallerAnywhere, findVisibleUser } from '../user/scope.js';
import { impersonationErrors } from './errors.js';
import { actingUserId, refuseWhileImpersonating } from './guard.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * Impersonation (SPEC "Impersonation"): a holder of saas:impersonation:start (a super-administrator
 * or a tenant administrator) acts as another user in a separate session flagged with the
 * impersonator, short-lived (Saas__Impersonation__SessionMinutes, default 30) and never
 * refreshable (no refresh token is issued and the refresh statement refuses such sessions).
 *
 * Refused: oneself; a super-administrator; a disabled or inactive user; a user who is not an
 * available member of the target context (a platform account, for the platform state); nesting
 * (an impersonation session cannot start another); another context than the caller's without
 * saas:impersonation:cross-tenant, a platform code: it takes effect only in the platform state,
 * so a tenant administrator impersonates only members of its current tenant. In the caller's own
 * context the target must also lie within its data scope. And nobody but a super-administrator
 * may become someone holding, in any context the account belongs to, a permission the caller
 * lacks in that context (the rule of a password reset: the session acts as the whole account,
 * whose profile and sign-in methods serve every context), so impersonation is no way round the
 * caller's own rights.
 *
 * Every start and end is audited (ImpersonationStarted / ImpersonationEnded, in the target's
 * context, with the impersonator as actor).
 */

export const CROSS_TENANT = permission('saas:impersonation:cross-tenant');

type Ctx = CallContext & { auth: AuthContext };

export interface ImpersonationStarted {
  token: LoginToken;
  sessionId: string;
  userId: string;
  userName: string;
  tenantId: string;
  impersonatorUserId: string;
  expiresAt: Date;
}

type ImpersonationDeps = Pick<AppDeps, 'db' | 'ids' | 'clock' | 'config' | 'logger' | 'events'> & {
  authz: AuthorizationService;
  sessionState: SessionStateService;
  sessions: SessionService;
  tokens: TokenService;
};

export function createImpersonationService(deps: ImpersonationDeps) {
  const { db, clock } = deps;
  const lifetimeMs = () => deps.config.Saas.Impersonation.SessionMinutes * 60_000;

  return {
    /** POST /api/Impersonation/Impersonation. */
    async start(
      ctx: Ctx,
      input: { userId: bigint; tenantId?: bigint | null; reason?: string | null },
    ): Promise<ImpersonationStarted> {
      const { auth } = ctx;
      refuseWhileImpersonating(auth);
      const target = input.tenantId ?? auth.tenantId;
      const scope = await callerScope(deps, auth);
      if (target !== auth.tenantId) requireAllowed(scope.snapshot, CROSS_TENANT);
      if (input.userId === auth.userId) throw appError(impersonationErrors.TARGET_IS_SELF);
      const notMember = () => appError(impersonationErrors.TARGET_NOT_MEMBER);
      const [row] = await db
        .select({ user: users, security: userSecurity })
        .from(users)
        .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
        .where(and(eq(users.id, input.userId), notDeleted(users.isDeleted)));
      if (!row) throw notMember();
      const { user, security } = row;
      // In the caller's own context: only a user it may see (same answer as a non-member otherwise).
      if (target === auth.tenantId && !(await findVisibleUser(db, scope, user.id))) throw notMember();
      const now = clock.now();
      if (target === 0n) {
        if (user.tenantId !== 0n) throw notMember();
      } else {
        // An active, accepted membership within its window, in a tenant that is available now.
        const tenants = await availableTenants(db, user.id, false, now);
        if (!tenants.some((t) => t.tenantId === target && t.membershipId !== null)) throw notMember();
      }
      const platform = await deps.authz.get(user.id, 0n);
      if (platform.isSuperAdmin) throw appError(impersonationErrors.TARGET_SUPER_ADMIN);
      if (user.status !== 'Enabled' || !user.isActive) throw appError(impersonationErrors.TARGET_DISABLED);
      const beyond = await codeBeyondCallerAnywhere(deps, scope, user.id);
      if (beyond) throw appError(impersonationErrors.TARGET_MORE_PRIVILEGED, { params: { permission: beyond.code } });

      const { sessionId, token } = await deps.sessions.create({
        user: {
          userId: user.id,
          userName: user.userName,
          email: user.email,
          phone: user.phone,
          avatar: user.avatar,
          securityStamp: security.securityStamp,
          allowMultiLogin: true,
          maxLoginDevices: 0,
        },
        tenantId: target,
        method: 'impersonation',
        request: requestFacts(ctx, null),
        impersonatorUserId: auth.userId,
        lifetimeMs: lifetimeMs(),
      });
      // The session's end, which its one access token shares (exp, expiresIn, expiresAt).
      const expiresAt = token.expiresAt.date;
      await writeAudit(db, deps.ids, {
        action: 'ImpersonationStarted',
        tenantId: target,
        userId: user.id,
        actorUserId: auth.userId,
        targetType: 'Session',
        targetId: String(sessionId),
        detail: {
          impersonatorSessionId: String(auth.sessionId),
          fromTenantId: String(auth.tenantId),
          reason: input.reason ?? undefined,
          expiresAt: expiresAt.toISOString(),
        },
        ip: ctx.ip,
        traceId: ctx.traceId,
        at: now,
      });
      deps.logger.info('impersonation started', {
        impersonatorUserId: String(auth.userId),
        userId: String(user.id),
        tenantId: String(target),
        sessionId: String(sessionId),
      });
      return {
        token,
        sessionId: String(sessionId),
        userId: String(user.id),
        userName: user.userName,
        tenantId: String(target),
        impersonatorUserId: String(auth.userId),
        expiresAt,
      };
    },

    /**
     * POST /api/Impersonation/EndImpersonation: from the impersonation session itself, or (with
     * `sessionId`) from the impersonator's own session for one it started. The session ends and
     * its connections are told.
     */
    async end(ctx: Ctx, sessionId?: bigint | null): Promise<void> {
      const { auth } = ctx;
      const own = sessionId === undefined || sessionId === null || sessionId === auth.sessionId;
      if (own && auth.state.impersonatorUserId === null) throw appError(impersonationErrors.NOT_IMPERSONATING);
      const id = own ? auth.sessionId : sessionId;
      const [session] = await db
        .select({
          id: userSessions.id,
          userId: userSessions.userId,
          tenantId: userSessions.tenantId,
          impersonatorUserId: userSessions.impersonatorUserId,
          loginTime: userSessions.loginTime,
          status: userSessions.status,
        })
        .from(userSessions)
        .where(
          and(
            eq(userSessions.id, id),
            notDeleted(userSessions.isDeleted),
            own ? undefined : eq(userSessions.impersonatorUserId, auth.userId),
          ),
        );
      if (!session || session.impersonatorUserId === null || session.status !== SessionStatus.Active)
        throw appError(impersonationErrors.SESSION_NOT_FOUND, { params: { id: String(id) } });
      await deps.sessions.revoke(session.userId, [session.id], 'Impersonation ended', true, {
        userId: actingUserId(auth),
        ip: ctx.ip,
        traceId: ctx.traceId,
        endReason: 'ended',
      });
    },

    /** GET /api/Impersonation/Impersonation: whether the current session is an impersonation, and whose. */
    async current(auth: AuthContext) {
      const impersonator = auth.state.impersonatorUserId;
      if (impersonator === null)
        return { isImpersonating: false, userId: auth.state.userId, sessionId: auth.state.sessionId };
      const [row] = await db
        .select({ userName: users.userName, nickName: users.nickName })
        .from(users)
        .where(eq(users.id, BigInt(impersonator)));
      return {
        isImpersonating: true,
        userId: auth.state.userId,
        sessionId: auth.state.sessionId,
        impersonatorUserId: impersonator,
        impersonatorName: row?.nickName ?? row?.userName ?? null,
        expiresAt: new Date(auth.state.expirationMs),
      };
    },
  };
}
