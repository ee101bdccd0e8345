import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, instant, pk, versionColumn } from './columns.js';
import { users } from './user.js';

/**
 * One login on one device. Only the JTI of the current access token is stored.
 * Status: 0 Active, 1 Offline, 2 Revoked, 3 Expired (SPEC "Session status").
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: pk(),
    userId: id()
      .notNull()
      .references(() => users.id),
    /** Current context: 0 = platform state. */
    tenantId: id().notNull().default(sql`0`),
    currentAccessTokenJti: varchar({ length: 64 }).notNull(),
    /** The user's security stamp when the session began; a different current stamp ends it. */
    securityStamp: varchar({ length: 64 }).notNull(),
    deviceType: varchar({ length: 16 }).notNull().default('Web'),
    deviceName: varchar({ length: 128 }),
    deviceFingerprint: varchar({ length: 200 }),
    browser: varchar({ length: 64 }),
    operatingSystem: varchar({ length: 64 }),
    ipAddress: varchar({ length: 64 }),
    location: varchar({ length: 128 }),
    loginMethod: varchar({ length: 16 }).notNull().default('password'),
    loginTime: instant().notNull(),
    lastActivityTime: instant().notNull(),
    expirationTime: instant().notNull(),
    status: smallint().notNull().default(0),
    isLocked: boolean().notNull().default(false),
    /** ScreenLock | PasswordChangeRequired. */
    lockReason: varchar({ length: 32 }),
    lockPasswordHash: text(),
    unlockFailedAttempts: integer().notNull().default(0),
    revokedTime: instant(),
    revokedReason: varchar({ length: 128 }),
    /** Set on impersonation sessions: who is acting. */
    impersonatorUserId: id(),
    /**
     * The reuse grace of the last refresh (see server/src/modules/auth/refresh-grace.ts): the
     * pair it spent (the refresh token's SHA-256, the access token's JTI), until when that pair
     * may be presented again, and the claims (JSON) of the access token it issued. Null when no
     * grace is open.
     */
    graceRefreshHash: varchar({ length: 64 }),
    graceAccessJti: varchar({ length: 64 }),
    graceUntil: instant(),
    graceAccessClaims: text(),
    isDeleted: boolean().notNull().default(false),
    ...versionColumn(),
  },
  (t) => [
    index('user_sessions_user_status_idx').on(t.userId, t.status),
    index('user_sessions_tenant_idx').on(t.tenantId),
    // The expiry sweep of impersonation sessions reads only these few rows.
    index('user_sessions_impersonation_active_idx')
      .on(t.expirationTime)
      .where(sql`${t.impersonatorUserId} is not null and ${t.status} = 0`),
  ],
);

/**
 * Refresh tokens: only a SHA-256 hash is stored, bound to one session. A used token is kept
 * (with usedTime) so that presenting it again is recognised as reuse and revokes the session.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: pk(),
    sessionId: id()
      .notNull()
      .references(() => userSessions.id),
    tokenHash: varchar({ length: 64 }).notNull(),
    issuedTime: instant().notNull(),
    expiresTime: instant().notNull(),
    usedTime: instant(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);
