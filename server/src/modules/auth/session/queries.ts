import { eq } from 'drizzle-orm';
import { users, userSessions } from '../../../../../db/schema/index.js';
import type { DatabaseHandle, Executor } from '../../../infra/db/client.js';
import type { IdGenerator } from '../../../infra/ids.js';
import {
  LOGIN_SUCCEEDED,
  LoginResult,
  riskSql,
  writeLoginLog,
  type LoginLogEntry,
  type LoginLogValues,
} from '../../login-log/write.js';
import { SessionStatus } from './session-state.js';

/** The values of a new session and its first refresh token, in the driver's terms (timestamps as ISO text). */
export interface NewSessionValues {
  id: bigint;
  userId: bigint;
  tenantId: bigint;
  currentAccessTokenJti: string;
  securityStamp: string;
  deviceType: string;
  deviceName: string;
  browser: string;
  operatingSystem: string;
  ipAddress: string;
  loginMethod: string;
  /** Login time, last activity and the user's last login time. */
  now: string;
  expirationTime: string;
  isLocked: boolean;
  lockReason: string | null;
  refreshId: bigint;
  refreshHash: string;
  refreshExpires: string;
}

/** A login's success row of the login log, written by the same statement as its session. */
export interface LoginLogFields {
  logId: bigint;
  logUserName: string;
  loginLocation: string;
  logDevice: string;
  traceId: string | null;
}

/**
 * A login without device policies writes its session, its refresh token, the user's last login
 * and the success row of the login log in one statement. PostgreSQL runs a data-modifying CTE
 * whether or not the main query reads it; the log row so commits exactly when the session does. The text is written out, with each value sent once: the drizzle-built
 * statement was twice as long (every column named and quoted, defaults spelled out) and sent 41
 * parameters for 23 values, and the driver copies and hashes a statement's whole text on every
 * call to find its prepared form; through drizzle's layers that costs about a tenth of the main
 * thread's CPU a login. `partial-index-plans.test.ts` checks the risk subquery's index.
 */
export const INSERT_LOGIN_SESSION = `with inserted_session as (
    insert into user_sessions (id, user_id, tenant_id, current_access_token_jti, security_stamp, device_type, device_name,
      browser, operating_system, ip_address, login_method, login_time, last_activity_time, expiration_time, is_locked, lock_reason)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz, $12::timestamptz, $13::timestamptz, $14, $15)
    returning id),
  touched_user as (update users set last_login_time = $12::timestamptz, last_login_ip = $10 where id = $2 returning id),
  logged_login as (
    insert into login_logs (id, tenant_id, user_id, user_name, session_id, login_time, login_method, login_ip, login_location,
      browser, operating_system, device_fingerprint, result, message, is_risk_login, trace_id)
    values ($19, $3, $2, $20, $1, $12::timestamptz, $11, $10, $21, $8, $9, $22, ${LoginResult.Success}, '${LOGIN_SUCCEEDED.replaceAll("'", "''")}',
      ${riskSql('$2', '$22::varchar', '$21::varchar')}, $23)
    returning is_risk_login)
  insert into refresh_tokens (id, session_id, token_hash, issued_time, expires_time)
  select $16, id, $17, $12::timestamptz, $18::timestamptz from inserted_session`;

/** The parameters of INSERT_LOGIN_SESSION, in their numbered order. */
export function sessionParams(v: NewSessionValues, login: LoginLogFields): unknown[] {
  return [
    v.id,
    v.userId,
    v.tenantId,
    v.currentAccessTokenJti,
    v.securityStamp,
    v.deviceType,
    v.deviceName,
    v.browser,
    v.operatingSystem,
    v.ipAddress,
    v.loginMethod,
    v.now,
    v.expirationTime,
    v.isLocked,
    v.lockReason,
    v.refreshId,
    v.refreshHash,
    v.refreshExpires,
    login.logId,
    login.logUserName,
    login.loginLocation,
    login.logDevice,
    login.traceId,
  ];
}

/**
 * Writes a login's session with its refresh token, the user's last login and the login's success
 * row (with its risk flag) in one statement, outside any transaction.
 */
export async function insertLoginSession(
  database: DatabaseHandle,
  values: NewSessionValues,
  login: LoginLogFields,
): Promise<void> {
  await database.prepared(INSERT_LOGIN_SESSION, sessionParams(values, login));
}

/**
 * The same write as INSERT_LOGIN_SESSION through Drizzle, inside the caller's transaction: the
 * session row and, for a login, the user's last login and the success row of the login log
 * (the refresh token follows separately). Logins with device policies take this path, as they
 * evict sessions in the same transaction; so do sessions that record no login (impersonation).
 * `queries.test.ts` checks that both forms write the same rows.
 */
export async function insertSessionIn(
  tx: Executor,
  ids: IdGenerator,
  session: typeof userSessions.$inferInsert,
  login: LoginLogEntry | undefined,
): Promise<void> {
  await tx.insert(userSessions).values(session);
  if (!login) return;
  await tx
    .update(users)
    .set({ lastLoginTime: login.at, lastLoginIp: login.request.ip })
    .where(eq(users.id, login.userId!));
  await writeLoginLog(tx, ids, login);
}

/**
 * The whole refresh in one statement (see SessionService.refresh): the session row is locked
 * first, the presented token is spent only if the session is still Active, unexpired, not an
 * impersonation and in the context the new token is signed for; the JTI, the reuse grace of the
 * spent pair, the new refresh token, the TokenRefreshed audit entry and the login-log row are
 * written with it. A request that does not rotate reads the grace from the locked row: locking
 * waits for a concurrent rotation to commit and returns the row as it committed it (the rest of
 * the statement reads the snapshot from before the wait). Kept as text with
 * numbered parameters so PostgreSQL parses and plans it once per connection: with seven CTEs,
 * planning cost more than running it, on every refresh.
 */
export const REFRESH_STATEMENT = `with locked as (
    select id, status, is_deleted, expiration_time, tenant_id, impersonator_user_id, grace_refresh_hash, grace_access_jti, grace_until, grace_access_claims
    from user_sessions where id = $1 for update),
  usable as (
    select id, expiration_time from locked
    where status = ${SessionStatus.Active} and not is_deleted and impersonator_user_id is null
      and expiration_time > $2::timestamptz and tenant_id = $3),
  claimed as (
    update refresh_tokens set used_time = $2::timestamptz
    where token_hash = $4 and session_id = (select id from usable) and used_time is null and expires_time > $2::timestamptz
    returning session_id),
  moved as (
    update user_sessions set current_access_token_jti = $5, last_activity_time = $2::timestamptz,
      grace_refresh_hash = $21, grace_access_jti = $22, grace_until = $23::timestamptz, grace_access_claims = $24
    where id = (select session_id from claimed)
    returning expiration_time),
  issued as (
    insert into refresh_tokens (id, session_id, token_hash, issued_time, expires_time)
    select $6, $1, $7, $2::timestamptz, least($8::timestamptz, expiration_time) from moved
    returning id),
  audited as (
    insert into audit_entries (id, tenant_id, user_id, actor_user_id, action, target_type, target_id, ip_address, trace_id, created_time)
    select $9, $3, $10, $10, 'TokenRefreshed', 'Session', $11, $12, $13, $2::timestamptz from issued
    returning id),
  logged as (
    insert into login_logs (id, tenant_id, user_id, user_name, session_id, login_time, login_method, login_ip, login_location, browser, operating_system, device_fingerprint, result, message, is_risk_login, trace_id)
    select $14, $3, $10, $15, $1, $2::timestamptz, 'refresh', $16, $17, $18, $19, $20, ${LoginResult.TokenRefreshed}, 'Access token refreshed', false, $13 from issued
    returning id)
  select (select count(*) from issued) as issued, (select status from locked) as status,
         (select expiration_time <= $2::timestamptz from locked) as expired, (select count(*) > 0 from usable) as usable,
         (select grace_access_claims from locked where grace_refresh_hash = $4 and grace_access_jti = $22 and grace_until > $2::timestamptz) as grace_claims`;

export interface RefreshValues {
  sessionId: bigint;
  at: string;
  tenantId: bigint;
  refreshHash: string;
  jti: string;
  newRefreshId: bigint;
  newRefreshHash: string;
  lifetimeEnd: string;
  auditId: bigint;
  userId: bigint;
  ip: string;
  traceId: string | null;
  /** The refresh's login-log row (loginLogRow); the statement writes its id, name and request columns. */
  log: LoginLogValues;
  /**
   * The pair presented (the refresh token's hash is `refreshHash`), open to the reuse grace
   * until `until` with the claims of the access token issued now; null when the grace is off:
   * then nothing is kept and no presented pair matches.
   */
  grace: { accessJti: string; until: string; claims: string } | null;
}

/** The statement's parameters, in their numbered order. */
export function refreshParams(v: RefreshValues): unknown[] {
  return [
    v.sessionId,
    v.at,
    v.tenantId,
    v.refreshHash,
    v.jti,
    v.newRefreshId,
    v.newRefreshHash,
    v.lifetimeEnd,
    v.auditId,
    v.userId,
    String(v.sessionId),
    v.ip,
    v.traceId,
    v.log.id,
    v.log.userName,
    v.log.loginIp,
    v.log.loginLocation,
    v.log.browser,
    v.log.operatingSystem,
    v.log.deviceFingerprint,
    v.grace ? v.refreshHash : null,
    v.grace?.accessJti ?? null,
    v.grace?.until ?? null,
    v.grace?.claims ?? null,
  ];
}
