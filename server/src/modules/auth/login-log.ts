import { and, desc, eq } from 'drizzle-orm';
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
 */
async function isRisky(db: Executor, userId: bigint, request: RequestFacts): Promise<boolean> {
  const previous = await db
    .select({ device: loginLogs.deviceFingerprint, location: loginLogs.loginLocation })
    .from(loginLogs)
    .where(and(eq(loginLogs.userId, userId), eq(loginLogs.result, LoginResult.Success)))
    .orderBy(desc(loginLogs.loginTime))
    .limit(50);
  if (previous.length === 0) return false;
  const device = deviceOf(request);
  const network = networkOf(request.ip);
  return !previous.some((p) => p.device === device) || !previous.some((p) => p.location === network);
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

/** Writes one row per attempt; success rows get the risk flag. */
export async function writeLoginLog(db: Executor, ids: IdGenerator, entry: LoginLogEntry): Promise<{ isRiskLogin: boolean }> {
  const ua = parseUserAgent(entry.request.userAgent);
  const isRiskLogin = entry.result === 'Success' && entry.userId !== null ? await isRisky(db, entry.userId, entry.request) : false;
  await db.insert(loginLogs).values({
    id: ids.next(),
    tenantId: entry.tenantId,
    userId: entry.userId,
    userName: entry.userName.slice(0, 254),
    sessionId: entry.sessionId,
    loginTime: entry.at,
    loginMethod: entry.method,
    loginIp: entry.request.ip,
    loginLocation: networkOf(entry.request.ip),
    browser: ua.browser.slice(0, 64),
    operatingSystem: ua.os.slice(0, 64),
    deviceFingerprint: deviceOf(entry.request).slice(0, 200),
    result: LoginResult[entry.result],
    message: entry.message,
    isRiskLogin,
    traceId: entry.request.traceId,
  });
  return { isRiskLogin };
}
