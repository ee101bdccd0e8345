import type { DatabaseHandle } from '../../infra/db/client.js';
import { LOGIN_SUCCEEDED, LoginResult, riskSql } from './login-log.js';

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
    v.id, v.userId, v.tenantId, v.currentAccessTokenJti, v.securityStamp, v.deviceType, v.deviceName, v.browser, v.operatingSystem,
    v.ipAddress, v.loginMethod, v.now, v.expirationTime, v.isLocked, v.lockReason, v.refreshId, v.refreshHash, v.refreshExpires,
    login.logId, login.logUserName, login.loginLocation, login.logDevice, login.traceId,
  ];
}

/**
 * Writes a login's session with its refresh token, the user's last login and the login's success
 * row (with its risk flag) in one statement, outside any transaction.
 */
export async function insertLoginSession(database: DatabaseHandle, values: NewSessionValues, login: LoginLogFields): Promise<void> {
  await database.prepared(INSERT_LOGIN_SESSION, sessionParams(values, login));
}
