import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { refreshTokens, userSessions } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { Executor } from '../../../infra/db/client.js';
import type { RequestFacts } from '../events.js';
import { parseUserAgent, type UserAgentInfo } from './user-agent.js';
import {
  insertLoginSession,
  insertSessionIn,
  REFRESH_STATEMENT,
  refreshParams,
  type LoginLogFields,
} from './queries.js';
import { LOGIN_SUCCEEDED, loginLogRow, type LoginLogEntry } from '../../login-log/write.js';
import { SessionStatus, type LockReason, type SessionState, type SessionStateService } from './session-state.js';
import { hashRefreshToken, type LoginToken, type TokenService, type TokenSubject } from './tokens.js';
import type { AuthorizationService } from '../../authz/service.js';
import { notDeleted } from '../../../infra/db/predicates.js';
import { queueWithLogins } from '../login/user-lock.js';
import { writeAudit, type AuditEntry } from '../../audit/write.js';

/** The account facts a new session needs. */
export interface SessionUser extends TokenSubject {
  securityStamp: string;
  allowMultiLogin: boolean;
  maxLoginDevices: number;
}

/** What a login (or an impersonation) asks of a new session. */
export interface CreateSessionOptions {
  user: SessionUser;
  tenantId: bigint;
  method: string;
  request: RequestFacts;
  lockReason?: LockReason;
  /** Set for impersonation sessions (short, not refreshable). */
  impersonatorUserId?: bigint;
  /**
   * A login also records the user's last login time and address and its success row of the
   * login log (under the name it logged in with), atomically with the session.
   */
  recordLogin?: { loginName: string };
  /** How long the session lasts (default: the refresh token's lifetime); its access token ends with it at the latest. */
  lifetimeMs?: number;
}

/** Who ended sessions, for the audit of an impersonation that ends with them. */
export interface RevokedBy {
  userId: bigint;
  ip?: string;
  traceId?: string;
  /** The audit's reason when it is not the revocation's (e.g. 'logout'). */
  endReason?: string;
}

/** The ImpersonationEnded entry of an impersonation session (in its context, the impersonator as actor). */
export function impersonationEnded(
  session: { id: bigint; userId: bigint; tenantId: bigint; impersonatorUserId: bigint | null; loginTime: Date },
  at: Date,
  reason: string,
  by?: RevokedBy,
): AuditEntry {
  return {
    action: 'ImpersonationEnded',
    tenantId: session.tenantId,
    userId: session.userId,
    actorUserId: session.impersonatorUserId,
    targetType: 'Session',
    targetId: String(session.id),
    detail: {
      endedBy: by ? String(by.userId) : undefined,
      reason,
      durationSeconds: Math.round((at.getTime() - session.loginTime.getTime()) / 1000),
    },
    ip: by?.ip,
    traceId: by?.traceId,
    at,
  };
}

/** A refresh's answer: a pair (`rotated` false for the reuse grace's repeat), or why not. */
export type RefreshOutcome = { token: LoginToken; rotated: boolean } | 'invalid' | 'reused';

const SAME_DEVICE = 'Signed in again on the same device';
const OTHER_DEVICE = 'Signed in on another device';

type SessionDeps = Pick<AppDeps, 'db' | 'database' | 'ids' | 'clock' | 'events'> & {
  tokens: TokenService;
  authz: AuthorizationService;
  sessionState: SessionStateService;
};

/**
 * Sessions: one per login per device. Creating one applies the device policies; tokens are
 * issued against it; revoking one (or all of a user's) ends its tokens on every node at once.
 *
 * Two rules hold throughout. Nothing inside a transaction reads through `db` (or a service that
 * does, like the authorization snapshot): PGlite has one connection, which the transaction holds,
 * so such a read waits forever, and on PostgreSQL it needs a second pool connection while this
 * one holds locks. And caches are dropped only after the change has committed: a request that
 * reloads between an early drop and the commit would cache the old row for the cache's lifetime.
 */
export function createSessionService(deps: SessionDeps) {
  const { db, ids, clock, tokens } = deps;

  /** The login-log fields of a login's session statement, taken from the row loginLogRow defines. */
  function loginLogFields(entry: LoginLogEntry, ua: UserAgentInfo): LoginLogFields {
    const row = loginLogRow(ids, entry, ua);
    return {
      logId: row.id,
      logUserName: row.userName,
      loginLocation: row.loginLocation,
      logDevice: row.deviceFingerprint,
      traceId: row.traceId,
    };
  }

  /**
   * Marks sessions revoked and spends their refresh tokens, inside the caller's transaction.
   * Once it has committed, the caller must call `announceRevoked` with the same ids. An
   * impersonation session among them is audited as ended (ImpersonationEnded) in the same
   * transaction, however it ends: its own logout, EndImpersonation, an administrator's revoke,
   * the account's deactivation or removal, a password reset, a membership removal.
   */
  async function revokeIn(tx: Executor, sessionIds: bigint[], reason: string, by?: RevokedBy): Promise<void> {
    if (sessionIds.length === 0) return;
    const now = clock.now();
    const ended = await tx
      .update(userSessions)
      .set({ status: SessionStatus.Revoked, revokedTime: now, revokedReason: reason.slice(0, 128) })
      .where(and(inArray(userSessions.id, sessionIds), eq(userSessions.status, SessionStatus.Active)))
      .returning({
        id: userSessions.id,
        userId: userSessions.userId,
        tenantId: userSessions.tenantId,
        impersonatorUserId: userSessions.impersonatorUserId,
        loginTime: userSessions.loginTime,
      });
    await tx
      .update(refreshTokens)
      .set({ usedTime: now })
      .where(and(inArray(refreshTokens.sessionId, sessionIds), isNull(refreshTokens.usedTime)));
    for (const session of ended) {
      if (session.impersonatorUserId === null) continue;
      await writeAudit(tx, ids, impersonationEnded(session, now, by?.endReason ?? reason, by));
    }
  }

  /** After a revocation has committed: every node drops the sessions, and their connected clients (only theirs) are told (ForceLogout). */
  async function announceRevoked(userId: bigint, sessionIds: bigint[], reason: string, notify = true): Promise<void> {
    if (sessionIds.length === 0) return;
    await Promise.all(sessionIds.map((id) => deps.sessionState.invalidateSession(id)));
    if (notify) await deps.events.publish('SessionsRevoked', { userId, sessionIds, reason });
  }

  /** Revokes sessions and their refresh tokens in a transaction of its own, then announces it. */
  async function revoke(
    userId: bigint,
    sessionIds: bigint[],
    reason: string,
    notify = true,
    by?: RevokedBy,
  ): Promise<void> {
    if (sessionIds.length === 0) return;
    await db.transaction((tx) => revokeIn(tx, sessionIds, reason, by));
    await announceRevoked(userId, sessionIds, reason, notify);
  }

  /** Active sessions of a user other than `except`, oldest first. */
  async function activeSessions(tx: Executor, userId: bigint, except?: bigint) {
    return tx
      .select({ id: userSessions.id, device: userSessions.deviceFingerprint })
      .from(userSessions)
      .where(
        and(
          eq(userSessions.userId, userId),
          eq(userSessions.status, SessionStatus.Active),
          notDeleted(userSessions.isDeleted),
          except ? ne(userSessions.id, except) : undefined,
        ),
      )
      .orderBy(asc(userSessions.loginTime), asc(userSessions.id));
  }

  /**
   * Issues an access token for a session in a context, with the roles of that context (read
   * before any transaction); a new session passes its start and the token's lifetime.
   */
  async function accessFor(
    user: TokenSubject,
    sessionId: bigint,
    tenantId: bigint,
    device: string | null,
    session?: { issuedAt: Date; lifetimeMs: number },
  ) {
    const snapshot = await deps.authz.get(user.userId, tenantId);
    return tokens.issueAccess({
      subject: user,
      sessionId,
      tenantId,
      deviceFingerprint: device,
      roles: snapshot.roles,
      isSuperAdmin: snapshot.isSuperAdmin,
      ...session,
    });
  }

  async function newRefreshToken(tx: Executor, sessionId: bigint, sessionExpires: Date): Promise<string> {
    const now = clock.now();
    const { token, hash } = tokens.newRefreshToken();
    const expires = new Date(Math.min(now.getTime() + tokens.refreshLifetimeMs, sessionExpires.getTime()));
    await tx
      .insert(refreshTokens)
      .values({ id: ids.next(), sessionId, tokenHash: hash, issuedTime: now, expiresTime: expires });
    return token;
  }

  return {
    revoke,
    revokeIn,
    announceRevoked,
    activeSessions,

    /** Starts a session and returns its LoginToken (no refresh token for impersonation). */
    async create(options: CreateSessionOptions): Promise<{ sessionId: bigint; token: LoginToken }> {
      const { user, request } = options;
      const now = clock.now();
      const sessionId = ids.next();
      const lifetimeMs = options.lifetimeMs ?? tokens.refreshLifetimeMs;
      const expiration = new Date(now.getTime() + lifetimeMs);
      const ua = parseUserAgent(request.userAgent);
      // A token never outlives its session; a session without a refresh token (impersonation)
      // lives on its one access token, which therefore lasts exactly as long as the session.
      const tokenLifetimeMs = options.impersonatorUserId ? lifetimeMs : Math.min(tokens.accessLifetimeMs, lifetimeMs);
      const access = await accessFor(user, sessionId, options.tenantId, request.deviceFingerprint, {
        issuedAt: now,
        lifetimeMs: tokenLifetimeMs,
      });
      const row: typeof userSessions.$inferInsert = {
        id: sessionId,
        userId: user.userId,
        tenantId: options.tenantId,
        currentAccessTokenJti: access.jti,
        securityStamp: user.securityStamp,
        deviceType: ua.deviceType,
        deviceName: ua.deviceName.slice(0, 128),
        deviceFingerprint: request.deviceFingerprint,
        browser: ua.browser.slice(0, 64),
        operatingSystem: ua.os.slice(0, 64),
        ipAddress: request.ip,
        loginMethod: options.method,
        loginTime: now,
        lastActivityTime: now,
        expirationTime: expiration,
        isLocked: options.lockReason !== undefined,
        lockReason: options.lockReason,
        impersonatorUserId: options.impersonatorUserId,
      };
      const policiesApply = !!request.deviceFingerprint || !user.allowMultiLogin || user.maxLoginDevices > 0;
      if (options.recordLogin && !options.impersonatorUserId && !policiesApply) {
        // Nothing to evict, so nothing to lock or read: the session and its refresh token are
        // written by one prepared statement (a login runs this path, and every statement costs CPU).
        const refresh = tokens.newRefreshToken();
        const refreshExpires = new Date(Math.min(now.getTime() + tokens.refreshLifetimeMs, expiration.getTime()));
        await insertLoginSession(
          deps.database,
          {
            id: sessionId,
            userId: user.userId,
            tenantId: options.tenantId,
            currentAccessTokenJti: access.jti,
            securityStamp: user.securityStamp,
            deviceType: row.deviceType!,
            deviceName: row.deviceName!,
            browser: row.browser!,
            operatingSystem: row.operatingSystem!,
            ipAddress: request.ip,
            loginMethod: options.method,
            now: now.toISOString(),
            expirationTime: expiration.toISOString(),
            isLocked: row.isLocked!,
            lockReason: options.lockReason ?? null,
            refreshId: ids.next(),
            refreshHash: refresh.hash,
            refreshExpires: refreshExpires.toISOString(),
          },
          loginLogFields(
            {
              userId: user.userId,
              userName: options.recordLogin.loginName,
              tenantId: options.tenantId,
              sessionId,
              method: options.method,
              result: 'Success',
              message: LOGIN_SUCCEEDED,
              request,
              at: now,
            },
            ua,
          ),
        );
        return { sessionId, token: tokens.loginToken(access, refresh.token) };
      }
      const sameDevice: bigint[] = [];
      const otherDevices: bigint[] = [];
      const refresh = await db.transaction(async (tx) => {
        if (!options.impersonatorUserId) {
          // Logins of one user queue here: without this, parallel logins each see the others'
          // sessions uncommitted and AllowMultiLogin=false or MaxLoginDevices would not hold.
          await queueWithLogins(tx, user.userId);
        }
        // Device policies, applied before the new session exists so they never evict it.
        const others = options.impersonatorUserId ? [] : await activeSessions(tx, user.userId);
        if (request.deviceFingerprint)
          for (const s of others) if (s.device === request.deviceFingerprint) sameDevice.push(s.id);
        const remaining = others.filter((s) => !sameDevice.includes(s.id));
        if (!user.allowMultiLogin) otherDevices.push(...remaining.map((s) => s.id));
        else if (user.maxLoginDevices > 0) {
          // Oldest first: room is made for the new session.
          otherDevices.push(
            ...remaining.slice(0, Math.max(0, remaining.length - (user.maxLoginDevices - 1))).map((s) => s.id),
          );
        }
        await revokeIn(tx, sameDevice, SAME_DEVICE);
        await revokeIn(tx, otherDevices, OTHER_DEVICE);
        const login = options.recordLogin
          ? {
              userId: user.userId,
              userName: options.recordLogin.loginName,
              tenantId: options.tenantId,
              sessionId,
              method: options.method,
              result: 'Success' as const,
              message: LOGIN_SUCCEEDED,
              request,
              at: now,
            }
          : undefined;
        await insertSessionIn(tx, ids, row, login);
        return options.impersonatorUserId ? '' : newRefreshToken(tx, sessionId, expiration);
      });
      await announceRevoked(user.userId, sameDevice, SAME_DEVICE);
      await announceRevoked(user.userId, otherDevices, OTHER_DEVICE);
      return { sessionId, token: tokens.loginToken(access, refresh) };
    },

    /**
     * Exchanges a refresh token for a new pair, in one statement: the session row is locked
     * first (the order revocation and tenant moves use), the presented token is spent only if
     * the session is still Active, unexpired, not an impersonation and in the context the new
     * token is signed for, and the session's JTI, the new refresh token and the reuse grace are
     * written with it. Of concurrent refreshes exactly one claims the token. Presenting again
     * the pair a rotation spent, within its grace, answers that rotation's pair again (`rotated`
     * false: nothing is written); presenting a token already used otherwise (or replaced) is
     * treated as theft and ends the session. A session found past its absolute expiry is marked
     * Expired.
     */
    async refresh(
      state: SessionState,
      presented: { refreshToken: string; accessJti: string },
      user: TokenSubject,
      device: string | null,
      request: RequestFacts,
    ): Promise<RefreshOutcome> {
      const { sessionId, tenantId } = state.ids;
      const refreshHash = hashRefreshToken(presented.refreshToken);
      const now = clock.now();
      const at = now.toISOString();
      // The roles of the new token, read before the statement (see the rule above).
      const snapshot = await deps.authz.get(user.userId, tenantId);
      const access = tokens.issueAccess({
        subject: user,
        sessionId,
        tenantId,
        deviceFingerprint: device,
        roles: snapshot.roles,
        isSuperAdmin: snapshot.isSuperAdmin,
      });
      const fresh = tokens.successorRefreshToken(presented.refreshToken, access.jti);
      const lifetimeEnd = new Date(now.getTime() + tokens.refreshLifetimeMs).toISOString();
      const graceMs = tokens.refreshReuseGraceMs;
      const grace =
        graceMs > 0
          ? {
              accessJti: presented.accessJti,
              until: new Date(now.getTime() + graceMs).toISOString(),
              claims: access.claimsJson,
            }
          : null;
      // The TokenRefreshed audit entry and login-log row commit with the refresh, exactly once.
      const [row] = await deps.database.prepared<{
        issued: string | number | bigint;
        status: number | null;
        expired: boolean | null;
        usable: boolean | null;
        grace_claims: string | null;
      }>(
        REFRESH_STATEMENT,
        refreshParams({
          sessionId,
          at,
          tenantId,
          refreshHash,
          jti: access.jti,
          newRefreshId: ids.next(),
          newRefreshHash: fresh.hash,
          lifetimeEnd,
          auditId: ids.next(),
          userId: user.userId,
          ip: request.ip,
          traceId: request.traceId,
          log: loginLogRow(ids, {
            userId: user.userId,
            userName: user.userName,
            tenantId,
            sessionId,
            method: 'refresh',
            result: 'TokenRefreshed',
            message: 'Access token refreshed',
            request,
            at: now,
          }),
          grace,
        }),
      );
      if (Number(row?.issued) === 1) {
        // Only the JTI changed: this node keeps its state (no reload on the next request).
        await deps.sessionState.rotateJti(state, access.jti);
        return { token: tokens.loginToken(access, fresh.token), rotated: true };
      }
      if (row?.status === null || row?.status === undefined) return 'invalid';
      if (row.status === SessionStatus.Active && row.expired) {
        await db
          .update(userSessions)
          .set({ status: SessionStatus.Expired })
          .where(and(eq(userSessions.id, sessionId), eq(userSessions.status, SessionStatus.Active)));
        await deps.sessionState.invalidateSession(sessionId);
        return 'invalid';
      }
      if (!row.usable) return 'invalid';
      if (row.grace_claims !== null) {
        // The pair the last rotation spent, within its grace: that rotation's pair, rebuilt.
        const again = tokens.reissueAccess(row.grace_claims);
        await deps.sessionState.rotateJti(state, again.jti);
        return {
          token: tokens.loginToken(again, tokens.successorRefreshToken(presented.refreshToken, again.jti).token),
          rotated: false,
        };
      }
      // The session is fine but the token was not claimed: unknown, expired, or already spent.
      const [known] = await db
        .select({ usedTime: refreshTokens.usedTime })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.tokenHash, refreshHash), eq(refreshTokens.sessionId, sessionId)));
      if (!known?.usedTime) return 'invalid';
      await revoke(user.userId, [sessionId], 'Refresh token reused');
      return 'reused';
    },

    /** Moves a session to another context with a new token pair (SPEC "Tenant switch"). */
    async moveToContext(
      sessionId: bigint,
      user: TokenSubject,
      tenantId: bigint,
      device: string | null,
    ): Promise<LoginToken> {
      const access = await accessFor(user, sessionId, tenantId, device);
      const refresh = await db.transaction(async (tx) => {
        const [session] = await tx
          .update(userSessions)
          // The pair a refresh spent belongs to the old context too: no grace repeats it.
          .set({
            tenantId,
            currentAccessTokenJti: access.jti,
            lastActivityTime: clock.now(),
            graceRefreshHash: null,
            graceAccessJti: null,
            graceUntil: null,
            graceAccessClaims: null,
          })
          .where(eq(userSessions.id, sessionId))
          .returning({ expirationTime: userSessions.expirationTime });
        // The old pair belongs to the old context; its refresh token is spent.
        await tx
          .update(refreshTokens)
          .set({ usedTime: clock.now() })
          .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.usedTime)));
        return newRefreshToken(tx, sessionId, session!.expirationTime);
      });
      await deps.sessionState.invalidateSession(sessionId);
      return tokens.loginToken(access, refresh);
    },

    /**
     * Locks an unlocked session (a locked one keeps its lock, password and failure count, even
     * when the caller's cached state said unlocked), or unlocks it (null).
     */
    async setLock(sessionId: bigint, lock: { reason: LockReason; passwordHash: string | null } | null): Promise<void> {
      await db
        .update(userSessions)
        .set(
          lock
            ? { isLocked: true, lockReason: lock.reason, lockPasswordHash: lock.passwordHash, unlockFailedAttempts: 0 }
            : { isLocked: false, lockReason: null, lockPasswordHash: null, unlockFailedAttempts: 0 },
        )
        .where(
          lock ? and(eq(userSessions.id, sessionId), eq(userSessions.isLocked, false)) : eq(userSessions.id, sessionId),
        );
      await deps.sessionState.invalidateSession(sessionId);
    },

    /** Counts a failed unlock atomically; returns the count after it. */
    async failUnlock(sessionId: bigint): Promise<number> {
      const [row] = await db
        .update(userSessions)
        .set({ unlockFailedAttempts: sql`${userSessions.unlockFailedAttempts} + 1` })
        .where(eq(userSessions.id, sessionId))
        .returning({ n: userSessions.unlockFailedAttempts });
      return row?.n ?? 0;
    },

    async lockPasswordHash(sessionId: bigint): Promise<string | null> {
      const [row] = await db
        .select({ hash: userSessions.lockPasswordHash })
        .from(userSessions)
        .where(eq(userSessions.id, sessionId));
      return row?.hash ?? null;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
