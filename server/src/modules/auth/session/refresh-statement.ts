import { LoginResult } from '../login-log.js';
import { SessionStatus } from './session-state.js';

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
  logId: bigint;
  userName: string;
  log: { loginIp: string; loginLocation: string; browser: string; operatingSystem: string; deviceFingerprint: string };
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
    v.sessionId, v.at, v.tenantId, v.refreshHash, v.jti, v.newRefreshId, v.newRefreshHash, v.lifetimeEnd, v.auditId, v.userId,
    String(v.sessionId), v.ip, v.traceId, v.logId, v.userName.slice(0, 254),
    v.log.loginIp, v.log.loginLocation, v.log.browser, v.log.operatingSystem, v.log.deviceFingerprint,
    v.grace ? v.refreshHash : null, v.grace?.accessJti ?? null, v.grace?.until ?? null, v.grace?.claims ?? null,
  ];
}
