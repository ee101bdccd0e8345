import type { DatabaseHandle } from '../../../infra/db/client.js';
import type { IdGenerator } from '../../../infra/ids.js';
import type { RequestFacts } from '../events.js';
import { loginLogRow, type LoginResultName } from '../../login-log/write.js';

/** No account has this id (ids are positive): the failure of an unknown name counts against it. */
export const NO_ACCOUNT = -1n;

/**
 * A failed login attempt's database work in one statement: the account's failure count (and
 * lockout at the threshold) and the attempt's login-log row. A name that names no account runs
 * the very same statement with NO_ACCOUNT, so the count's index probe finds nothing and only
 * the row is written: the same round trip, the same plan and one commit on both paths. Were the
 * count a statement of its own, a known account's wrong password would cost a round trip and a
 * commit more than an unknown name, and the answer time would tell which accounts exist.
 *
 * The count: a lockout that has run out starts the count again at 1; at the threshold the
 * account locks until $5; while a lockout runs nothing changes (failures then neither shorten a
 * longer lock an administrator set nor turn it into one a password reset would lift). Under the
 * WHERE, a lockout end that is set has run out, which is what the CASE tests. The row is what
 * `writeLoginLog` writes for a failure (`failed-login.test.ts` compares them).
 */
export const FAILED_LOGIN_STATEMENT = `with counted as (
    update user_security set
      failed_login_attempts = case when lockout_end_time is not null then 1 else failed_login_attempts + 1 end,
      last_failed_login_time = $2::timestamptz,
      lockout_end_time = case when (case when lockout_end_time is not null then 1 else failed_login_attempts + 1 end) >= $3::int then $4::timestamptz end
    where user_id = $1::bigint and (lockout_end_time is null or lockout_end_time <= $2::timestamptz)
    returning user_id)
  insert into login_logs (id, tenant_id, user_id, user_name, login_time, login_method, login_ip, login_location, browser,
    operating_system, device_fingerprint, result, message, is_risk_login, trace_id)
  values ($5, $6, nullif($1::bigint, ${NO_ACCOUNT}), $7, $2::timestamptz, $8, $9, $10, $11, $12, $13, $14, $15, false, $16)`;

export interface FailedLogin {
  /** The account named, or null for a name that names none. */
  userId: bigint | null;
  tenantId: bigint;
  userName: string;
  method: string;
  result: LoginResultName;
  message: string;
  request: RequestFacts;
  at: Date;
}

/** Counts a failed attempt against its account (none for an unknown name) and writes its login-log row, in one statement. */
export async function recordFailedLogin(
  database: DatabaseHandle,
  ids: IdGenerator,
  lockout: { threshold: number; minutes: number },
  attempt: FailedLogin,
): Promise<void> {
  const row = loginLogRow(ids, attempt);
  const lockUntil = new Date(attempt.at.getTime() + lockout.minutes * 60_000);
  await database.prepared(FAILED_LOGIN_STATEMENT, [
    attempt.userId ?? NO_ACCOUNT,
    attempt.at.toISOString(),
    lockout.threshold,
    lockUntil.toISOString(),
    row.id,
    row.tenantId,
    row.userName,
    row.loginMethod,
    row.loginIp,
    row.loginLocation,
    row.browser,
    row.operatingSystem,
    row.deviceFingerprint,
    row.result,
    row.message,
    row.traceId,
  ]);
}
