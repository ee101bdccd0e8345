import { actingUserId, refuseWhileImpersonating } from '../../impersonation/guard.js';
import { and, eq } from 'drizzle-orm';
import { tenants, users, userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { AuthorizationService } from '../../authz/service.js';
import type { SessionStateService } from './session-state.js';
import type { SessionService } from './session-service.js';
import type { TokenService } from './tokens.js';
import { appError } from '../../../errors/app-error.js';
import type { CallContext } from '../../../rpc/call-context.js';
import { parseId } from '../../../rpc/wire.js';
import { authErrors } from '../errors.js';
import { availableTenants, tenantAvailability } from '../login/landing.js';
import { requestFacts } from '../login/login-service.js';
import type { AuthContext } from './session-gate.js';
import { asAccessClaims, type LoginToken } from './tokens.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/** The token subject of a user, read fresh (names and contacts may have changed since login). */
async function subjectOf(deps: Pick<AppDeps, 'db'>, userId: bigint) {
  const [row] = await deps.db
    .select({ user: users, stamp: userSecurity.securityStamp })
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return undefined;
  const { user } = row;
  return {
    subject: { userId: user.id, userName: user.userName, email: user.email, phone: user.phone, avatar: user.avatar },
    stamp: row.stamp,
    usable: user.status === 'Enabled' && user.isActive && !user.isDeleted,
    homeTenantId: user.tenantId,
  };
}

type SessionOperationsDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'events' | 'hasher'> & {
  authz: AuthorizationService;
  sessionState: SessionStateService;
  tokens: TokenService;
  sessions: SessionService;
};

export function createSessionOperations(deps: SessionOperationsDeps) {
  const { db, sessions, events, clock, config } = deps;

  return {
    /**
     * POST /api/Auth/RefreshToken. Anonymous: the old access token may have expired, but it
     * must be genuine (our signature) and of the session the refresh token belongs to. Any
     * failure answers 401 login-expired; a reused refresh token also ends the session (but for
     * the pair the last refresh spent, within the reuse grace: see SessionService.refresh).
     */
    async refresh(accessToken: string, refreshToken: string, ctx: CallContext): Promise<LoginToken> {
      const verified = deps.tokens.verifyAccess(accessToken, true);
      const claims = verified.ok ? asAccessClaims(verified.payload) : undefined;
      if (!claims) throw appError(authErrors.LOGIN_EXPIRED);
      const userId = BigInt(claims.UserId);
      const sessionId = BigInt(claims.SessionId);
      const facts = requestFacts(ctx, claims.DeviceFingerprint ?? null);
      // The cached session state (the same the gate reads on every request) has the user's
      // current names, contacts, status and stamp: no query when it is fresh.
      const cached = deps.sessionState.get(sessionId);
      const state = cached instanceof Promise ? await cached : cached;
      const failed = async (message: string) => {
        await events.publish('AuthLoginFailed', {
          userId,
          userName: claims.UserName,
          tenantId: state?.ids.tenantId ?? 0n,
          method: 'refresh',
          result: 'Failed',
          message,
          request: facts,
        });
        return appError(authErrors.LOGIN_EXPIRED);
      };
      if (!state || state.userId !== claims.UserId || !state.userEnabled || state.sessionStamp !== state.userStamp)
        throw await failed('Session no longer valid');
      const subject = {
        userId,
        userName: state.userName,
        email: state.email,
        phone: state.phone,
        avatar: state.avatar,
      };
      const result = await sessions.refresh(
        state,
        { refreshToken, accessJti: claims.jti },
        subject,
        claims.DeviceFingerprint ?? null,
        facts,
      );
      if (result === 'reused') throw await failed('Refresh token reused: session revoked');
      if (result === 'invalid') throw await failed('Refresh token invalid or expired');
      // The reuse grace's repeat of a rotation is not a refresh of its own.
      if (result.rotated)
        await events.publish('TokenRefreshed', {
          userId,
          userName: claims.UserName,
          tenantId: state.ids.tenantId,
          sessionId,
          request: facts,
        });
      return result.token;
    },

    /** POST /api/Auth/Logout: the session and its tokens end (logout event). */
    async logout(auth: AuthContext, ctx: CallContext): Promise<void> {
      await sessions.revoke(auth.userId, [auth.sessionId], 'Logout', true, {
        userId: actingUserId(auth),
        ip: ctx.ip,
        traceId: ctx.traceId,
        endReason: 'logout',
      });
      await events.publish('AuthLogout', {
        userId: auth.userId,
        userName: auth.state.userName,
        tenantId: auth.tenantId,
        sessionId: auth.sessionId,
        request: requestFacts(ctx, auth.claims.DeviceFingerprint),
      });
    },

    /** POST /api/Auth/LockSession: locks with a lock password chosen now (4 to 64 characters). */
    async lock(auth: AuthContext, password: string): Promise<void> {
      // Locking a locked session changes nothing. Replacing the lock would let whoever sits at an
      // unattended locked screen set a password of their own (and reset the failure count), and
      // a forced password change is a stronger lock a screen lock must not replace.
      if (auth.state.isLocked) return;
      await sessions.setLock(auth.sessionId, { reason: 'ScreenLock', passwordHash: await deps.hasher.hash(password) });
    },

    /**
     * POST /api/Auth/UnlockSession: the lock password (or the account password, for who forgot
     * it) unlocks; after UnlockMaxAttempts failures the session ends.
     */
    async unlock(auth: AuthContext, password: string): Promise<void> {
      const { state } = auth;
      if (!state.isLocked) return;
      if (state.lockReason === 'PasswordChangeRequired') throw appError(authErrors.UNLOCK_NOT_SUPPORTED);
      const lockHash = await sessions.lockPasswordHash(auth.sessionId);
      const [security] = await db
        .select({ hash: userSecurity.passwordHash })
        .from(userSecurity)
        .where(eq(userSecurity.userId, auth.userId));
      const ok =
        (lockHash !== null && (await deps.hasher.verify(lockHash, password)).ok) ||
        (security !== undefined && (await deps.hasher.verify(security.hash, password)).ok);
      if (ok) return sessions.setLock(auth.sessionId, null);
      const failures = await sessions.failUnlock(auth.sessionId);
      const max = config.Saas.Auth.UnlockMaxAttempts;
      if (failures >= max) {
        await sessions.revoke(auth.userId, [auth.sessionId], 'Too many failed unlocks');
        throw appError(authErrors.UNLOCK_EXHAUSTED);
      }
      await deps.sessionState.invalidateSession(auth.sessionId);
      throw appError(authErrors.UNLOCK_FAILED, { params: { remaining: max - failures } });
    },

    /**
     * POST /api/Auth/SwitchTenant: null or 0 selects the platform state; a tenant needs an
     * available membership (the super-administrator may enter any available tenant). The
     * session moves (no new session) and gets a new token pair with a new JTI. Never an
     * impersonation session: it is bound to the context it was granted in, and moving would
     * also give it a refresh token.
     */
    async switchTenant(auth: AuthContext, target: bigint, ctx: CallContext): Promise<LoginToken> {
      refuseWhileImpersonating(auth);
      const now = clock.now();
      if (target !== 0n) {
        const [tenant] = await db
          .select()
          .from(tenants)
          .where(and(eq(tenants.id, target), notDeleted(tenants.isDeleted)));
        if (!tenant) throw appError(authErrors.TENANT_NOT_FOUND);
        const unavailable = tenantAvailability(tenant, now);
        if (unavailable) throw appError(authErrors.TENANT_UNAVAILABLE, { params: { reason: unavailable } });
        const isSuperAdmin = (await deps.authz.get(auth.userId, 0n)).isSuperAdmin;
        const allowed = await availableTenants(db, auth.userId, isSuperAdmin, now);
        if (!allowed.some((t) => t.tenantId === target)) throw appError(authErrors.TENANT_NOT_MEMBER);
      }
      const account = await subjectOf(deps, auth.userId);
      if (!account) throw appError(authErrors.LOGIN_EXPIRED);
      const token = await sessions.moveToContext(
        auth.sessionId,
        account.subject,
        target,
        auth.claims.DeviceFingerprint ?? null,
      );
      await events.publish('TenantSwitched', {
        userId: auth.userId,
        userName: auth.state.userName,
        fromTenantId: auth.tenantId,
        toTenantId: target,
        sessionId: auth.sessionId,
        request: requestFacts(ctx, auth.claims.DeviceFingerprint),
      });
      return token;
    },
  };
}

export type SessionOperations = ReturnType<typeof createSessionOperations>;

/** Parses the SwitchTenant target: null, 0 or "0" is the platform state; otherwise a positive id. */
export function parseTenantTarget(value: string | number | null | undefined): bigint | undefined {
  if (value === null || value === undefined) return 0n;
  return parseId(value);
}
