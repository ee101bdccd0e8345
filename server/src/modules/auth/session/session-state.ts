import { and, eq } from 'drizzle-orm';
import { tenantMemberships, tenants, users, userSecurity, userSessions } from '../../../../../db/schema/index.js';
import type { Clock } from '../../../infra/clock.js';
import type { Database } from '../../../infra/db/client.js';
import type { Logger } from '../../../infra/logger.js';
import { createInvalidatingCache, type InvalidatingCache } from '../../../stores/invalidating-cache.js';
import type { EphemeralStore } from '../../../stores/store.js';

/** Session status values (SPEC "Session status"). */
export const SessionStatus = { Active: 0, Offline: 1, Revoked: 2, Expired: 3 } as const;
export type LockReason = 'ScreenLock' | 'PasswordChangeRequired';

/**
 * What every authenticated request needs to know about its session, read through a cache:
 * the row, its user's security state and its tenant's availability, in one query.
 */
export interface SessionState {
  sessionId: string;
  userId: string;
  tenantId: string;
  /** The same ids as bigints, parsed once per load rather than on every request. */
  ids: { sessionId: bigint; userId: bigint; tenantId: bigint };
  status: number;
  isDeleted: boolean;
  jti: string;
  expirationMs: number;
  isLocked: boolean;
  lockReason: LockReason | null;
  sessionStamp: string;
  userStamp: string;
  userEnabled: boolean;
  userName: string;
  nickName: string | null;
  realName: string | null;
  displayName: string;
  avatar: string | null;
  email: string | null;
  phone: string | null;
  homeTenantId: string;
  /** Null in the platform state. */
  tenantStatus: string | null;
  tenantExpirationMs: number | null;
  tenantConfigured: boolean;
  /**
   * In a tenant: the validity window of the user's membership there when it is Active and
   * accepted, null when there is none (the super-administrator enters without one). The gate
   * compares it with the clock on every request, so a membership that runs out on its own ends
   * access without anyone invalidating the cache.
   */
  membership: { fromMs: number | null; untilMs: number | null } | null;
  impersonatorUserId: string | null;
}

async function load(db: Database, sessionId: bigint): Promise<SessionState | null> {
  const [row] = await db
    .select({
      s: userSessions,
      userStatus: users.status,
      userActive: users.isActive,
      userDeleted: users.isDeleted,
      userName: users.userName,
      nickName: users.nickName,
      realName: users.realName,
      avatar: users.avatar,
      email: users.email,
      phone: users.phone,
      homeTenantId: users.tenantId,
      stamp: userSecurity.securityStamp,
      tenantStatus: tenants.status,
      tenantExpiration: tenants.expirationTime,
      tenantConfig: tenants.configStatus,
      tenantDeleted: tenants.isDeleted,
      memberStatus: tenantMemberships.status,
      memberInvite: tenantMemberships.inviteStatus,
      memberFrom: tenantMemberships.effectiveTime,
      memberUntil: tenantMemberships.expirationTime,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .innerJoin(userSecurity, eq(userSecurity.userId, userSessions.userId))
    .leftJoin(tenants, and(eq(tenants.id, userSessions.tenantId)))
    .leftJoin(
      tenantMemberships,
      and(eq(tenantMemberships.tenantId, userSessions.tenantId), eq(tenantMemberships.userId, userSessions.userId)),
    )
    .where(eq(userSessions.id, sessionId));
  if (!row) return null;
  const { s } = row;
  const inTenant = s.tenantId !== 0n;
  return {
    sessionId: String(s.id),
    userId: String(s.userId),
    tenantId: String(s.tenantId),
    ids: { sessionId: s.id, userId: s.userId, tenantId: s.tenantId },
    status: s.status,
    isDeleted: s.isDeleted,
    jti: s.currentAccessTokenJti,
    expirationMs: s.expirationTime.getTime(),
    isLocked: s.isLocked,
    lockReason: (s.lockReason as LockReason | null) ?? null,
    sessionStamp: s.securityStamp,
    userStamp: row.stamp,
    userEnabled: row.userStatus === 'Enabled' && row.userActive && !row.userDeleted,
    userName: row.userName,
    nickName: row.nickName,
    realName: row.realName,
    displayName: row.nickName ?? row.realName ?? row.userName,
    avatar: row.avatar,
    email: row.email,
    phone: row.phone,
    homeTenantId: String(row.homeTenantId),
    tenantStatus: inTenant ? (row.tenantDeleted ? 'Deleted' : (row.tenantStatus ?? 'Deleted')) : null,
    tenantExpirationMs: inTenant ? (row.tenantExpiration?.getTime() ?? null) : null,
    tenantConfigured: !inTenant || row.tenantConfig === 'Configured',
    membership:
      inTenant && row.memberStatus === 'Active' && row.memberInvite === 'Accepted'
        ? { fromMs: row.memberFrom?.getTime() ?? null, untilMs: row.memberUntil?.getTime() ?? null }
        : null,
    impersonatorUserId: s.impersonatorUserId === null ? null : String(s.impersonatorUserId),
  };
}

export interface SessionStateService {
  /** Synchronous on a cache hit (every authenticated request asks). */
  get(sessionId: bigint): SessionState | null | Promise<SessionState | null>;
  /** After any change to the session row (logout, lock, refresh, switch, revoke). */
  invalidateSession(sessionId: bigint | string): Promise<void>;
  /**
   * A refresh on this node changed only the session's current JTI: this node keeps its copy
   * with the new JTI (no reload), the others drop theirs. `state` must be the copy the refresh
   * read: if it was dropped meanwhile (a logout, lock or revocation committed during the
   * refresh), this node drops it too instead of bringing the old state back.
   */
  rotateJti(state: SessionState, jti: string): Promise<void>;
  /** After a change to the user (stamp, status, profile fields shown in the lock detail). */
  invalidateUser(userId: bigint | string): Promise<void>;
  /** After a change to the tenant (suspension, expiry). */
  invalidateTenant(tenantId: bigint | string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The state cache: a revocation reaches every node in milliseconds, with a 60 s backstop. */
export function createSessionStateService(deps: {
  db: Database;
  store: EphemeralStore;
  clock: Clock;
  logger: Logger;
}): SessionStateService {
  const cache: InvalidatingCache<SessionState | null> = createInvalidatingCache({
    name: 'session',
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger,
    ttlMs: 60_000,
  });
  return {
    get(sessionId) {
      const id = String(sessionId);
      // The user and tenant tags are known only after loading; the cache keeps this same array
      // with the value, so they are added to it in place.
      const tags: string[] = [`session:${id}`];
      return cache.get(id, tags, async () => {
        const state = await load(deps.db, sessionId);
        if (state) tags.push(`user:${state.userId}`, `tenant:${state.tenantId}`);
        return state;
      });
    },
    invalidateSession: (id) => cache.invalidate(`session:${id}`),
    rotateJti: (state, jti) =>
      cache.replace(
        state.sessionId,
        [`session:${state.sessionId}`, `user:${state.userId}`, `tenant:${state.tenantId}`],
        { ...state, jti },
        `session:${state.sessionId}`,
        state,
      ),
    invalidateUser: (id) => cache.invalidate(`user:${id}`),
    invalidateTenant: (id) => cache.invalidate(`tenant:${id}`),
    start: () => cache.start(),
    stop: () => cache.stop(),
  };
}
