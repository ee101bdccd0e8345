import { sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { loginLogs } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import type { IdGenerator } from '../../infra/ids.js';
import { parseUserAgent } from './user-agent.js';
import type { RequestFacts } from './events.js';

/** The original's LoginResult numbering (ORIGINAL-FACTS §10). */
export const LoginResult = {
  Success: 0, InvalidCredentials: 1, AccountLocked: 2, AccountDisabled: 3, RequiresTwoFactor: 4, TwoFactorFailed: 5,
  Logout: 10, TokenRefreshed: 11, PasswordChanged: 12, PasswordReset: 13, MfaBound: 14, MfaUnbound: 15,
  TenantSwitched: 16, SessionRevoked: 17, Failed: 99,
} as const;
export type LoginResultName = keyof typeof LoginResult;

/**
 * The network a login came from, standing in for a location (no geo database is shipped): the
 * /16 of an IPv4 address or the /48 of an IPv6 one.
 */
export function networkOf(ip: string): string {
  if (ip.includes(':')) return `${ip.split(':').slice(0, 3).join(':')}::/48`;
  const parts = ip.split('.');
  return parts.length === 4 ? `${parts[0]}.${parts[1]}.0.0/16` : ip;
}

/** The device a login came from: the client's device id when it sends one, else browser and OS. */
export function deviceOf(request: RequestFacts): string {
  if (request.deviceFingerprint) return request.deviceFingerprint;
  const ua = parseUserAgent(request.userAgent);
  return `${ua.browser}|${ua.os}`;
}

/**
 * A successful login is risky when it comes from a device or a network none of the user's last
 * 50 successful logins came from. The very first login has nothing to compare with: not risky.
 * Computed inside the INSERT (one statement per attempt, on the login path).
 */
function riskExpression(userId: bigint, device: string, network: string) {
  return sql<boolean>`(select case when count(*) = 0 then false
      else count(*) filter (where r.device_fingerprint = ${device}) = 0 or count(*) filter (where r.login_location = ${network}) = 0 end
    from (select ${loginLogs.deviceFingerprint} as device_fingerprint, ${loginLogs.loginLocation} as login_location from ${loginLogs}
          where ${loginLogs.userId} = ${userId} and ${loginLogs.result} = ${LoginResult.Success}
          order by ${loginLogs.loginTime} desc limit 50) as r)`;
}

export interface LoginLogEntry {
  userId: bigint | null;
  userName: string;
  tenantId: bigint;
  sessionId?: bigint;
  method?: string;
  result: LoginResultName;
  message?: string;
  request: RequestFacts;
  at: Date;
}

/** The columns of a login-log row that come from the request (where, from what device). */
export function requestColumns(request: RequestFacts) {
  const ua = parseUserAgent(request.userAgent);
  return {
    loginIp: request.ip,
    loginLocation: networkOf(request.ip),
    browser: ua.browser.slice(0, 64),
    operatingSystem: ua.os.slice(0, 64),
    deviceFingerprint: deviceOf(request).slice(0, 200),
  };
}

/** The login-log row of an attempt. */
function loginLogRow(ids: IdGenerator, entry: LoginLogEntry): PgInsertValue<typeof loginLogs> {
  const columns = requestColumns(entry.request);
  const device = columns.deviceFingerprint;
  const network = columns.loginLocation;
  return {
    id: ids.next(),
    tenantId: entry.tenantId,
    userId: entry.userId,
    userName: entry.userName.slice(0, 254),
    sessionId: entry.sessionId,
    loginTime: entry.at,
    loginMethod: entry.method,
    ...columns,
    result: LoginResult[entry.result],
    message: entry.message,
    isRiskLogin: entry.result === 'Success' && entry.userId !== null ? riskExpression(entry.userId, device, network) : false,
    traceId: entry.request.traceId,
  };
}

/** Writes one row per attempt; success rows get the risk flag. */
export async function writeLoginLog(db: Executor, ids: IdGenerator, entry: LoginLogEntry): Promise<{ isRiskLogin: boolean }> {
  const [row] = await db.insert(loginLogs).values(loginLogRow(ids, entry)).returning({ isRiskLogin: loginLogs.isRiskLogin });
  return { isRiskLogin: row?.isRiskLogin ?? false };
}
