import { sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { loginLogs } from '../../../../db/schema/index.js';
import type { Database, Executor } from '../../infra/db/client.js';
import { preparedPerDatabase } from '../../infra/db/prepared.js';
import type { IdGenerator } from '../../infra/ids.js';
import { parseUserAgent, type UserAgentInfo } from '../auth/session/user-agent.js';

/** Where an authentication event came from: the request facts a login log row keeps. */
export interface RequestFacts {
  ip: string;
  userAgent: string;
  traceId: string;
  deviceFingerprint: string | null;
}

/** The original's LoginResult numbering (the original service). */
export const LoginResult = {
  Success: 0,
  InvalidCredentials: 1,
  AccountLocked: 2,
  AccountDisabled: 3,
  RequiresTwoFactor: 4,
  TwoFactorFailed: 5,
  Logout: 10,
  TokenRefreshed: 11,
  PasswordChanged: 12,
  PasswordReset: 13,
  MfaBound: 14,
  MfaUnbound: 15,
  TenantSwitched: 16,
  SessionRevoked: 17,
  Failed: 99,
} as const;
export type LoginResultName = keyof typeof LoginResult;

/** The message of a successful login's row. */
export const LOGIN_SUCCEEDED = 'Login succeeded';

/**
 * The network a login came from, standing in for a location (no geo database is shipped): the
 * /16 of an IPv4 address or the /48 of an IPv6 one.
 */
export function networkOf(ip: string): string {
  if (ip.includes(':')) return `${ip.split(':').slice(0, 3).join(':')}::/48`;
  const parts = ip.split('.');
  return parts.length === 4 ? `${parts[0]}.${parts[1]}.0.0/16` : ip;
}

/**
 * A successful login is risky when it comes from a device or a network none of the user's last
 * 50 successful logins came from. The very first login has nothing to compare with: not risky.
 * Computed inside the INSERT (one statement per attempt, on the login path), as SQL text over
 * the given parameter references (pass only `$n` references: they are pasted in as they are).
 * The result is written into the SQL, not sent as a parameter, so that every plan can use the
 * partial index of successes (login_logs_user_success_time_idx; see infra/db/predicates.ts).
 */
export function riskSql(userId: string, deviceFingerprint: string, loginLocation: string): string {
  return `(select case when count(*) = 0 then false
      else count(*) filter (where r.device_fingerprint = ${deviceFingerprint}) = 0
        or count(*) filter (where r.login_location = ${loginLocation}) = 0 end
    from (select device_fingerprint, login_location from login_logs
          where user_id = ${userId} and result = ${LoginResult.Success}
          order by login_time desc limit 50) as r)`;
}

/** The same check over drizzle's named placeholders: the text with its references swapped for them. */
function riskExpression(userId: string, deviceFingerprint: string, loginLocation: string): SQL<boolean> {
  const names = [userId, deviceFingerprint, loginLocation];
  // NUL never occurs in SQL text, so the markers cannot clash with the check's own text.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the chosen marker, see above.
  const parts = riskSql('\u00000', '\u00001', '\u00002').split(/\u0000(\d)/);
  return sql.join(
    parts.map((part, i) => (i % 2 ? sql`${sql.placeholder(names[Number(part)]!)}` : sql.raw(part))),
  ) as SQL<boolean>;
}

/** The row's values, named as the placeholders of the prepared insert (values the driver takes as they are). */
export interface LoginLogValues {
  id: bigint;
  tenantId: bigint;
  userId: bigint | null;
  userName: string;
  sessionId: bigint | null;
  /** ISO text: placeholders go to the driver as they are. */
  loginTime: string;
  loginMethod: string | null;
  loginIp: string;
  loginLocation: string;
  browser: string;
  operatingSystem: string;
  deviceFingerprint: string;
  result: number;
  message: string | null;
  traceId: string | null;
}

const COLUMNS: Array<keyof LoginLogValues> = [
  'id',
  'tenantId',
  'userId',
  'userName',
  'sessionId',
  'loginTime',
  'loginMethod',
  'loginIp',
  'loginLocation',
  'browser',
  'operatingSystem',
  'deviceFingerprint',
  'result',
  'message',
  'traceId',
];

/** The login-log insert over named placeholders (one per column, named after it), with or without the risk check. */
export function loginLogInsert(db: Database, risky: boolean) {
  const values = Object.fromEntries(COLUMNS.map((c) => [c, sql`${sql.placeholder(c)}`]));
  const risk = risky ? riskExpression('userId', 'deviceFingerprint', 'loginLocation') : sql`false`;
  return db
    .insert(loginLogs)
    .values({ ...values, isRiskLogin: risk } as PgInsertValue<typeof loginLogs>)
    .returning({ isRiskLogin: loginLogs.isRiskLogin });
}

/**
 * The insert, built once per database and kind (with or without the risk check): building it
 * on every attempt cost more CPU than the database spent running it. Placeholders go to the
 * driver as they are, so values are given in the driver's terms (timestamps as ISO text).
 */
function prepareInsert(db: Database, risky: boolean) {
  return loginLogInsert(db, risky).prepare(risky ? 'write_login_log_risk' : 'write_login_log');
}

const insertsOf = preparedPerDatabase((db) => ({ plain: prepareInsert(db, false), risky: prepareInsert(db, true) }));

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

/**
 * The columns of a login-log row that come from the request: where (the network) and from what
 * device (the client's device id when it sends one, else browser and OS). Pass `ua` when the
 * caller has parsed the User-Agent already.
 */
export function requestColumns(request: RequestFacts, ua: UserAgentInfo = parseUserAgent(request.userAgent)) {
  return {
    loginIp: request.ip,
    loginLocation: networkOf(request.ip),
    browser: ua.browser.slice(0, 64),
    operatingSystem: ua.os.slice(0, 64),
    deviceFingerprint: (request.deviceFingerprint || `${ua.browser}|${ua.os}`).slice(0, 200),
  };
}

/**
 * The login-log row of an attempt, as the prepared insert's values: the one definition of a
 * row. writeLoginLog inserts it; the statements that write the row together with other records
 * (a login's session, a refresh, a counted failure) insert the same values in their own SQL.
 * Pass `ua` when the caller has parsed the User-Agent already.
 */
export function loginLogRow(ids: IdGenerator, entry: LoginLogEntry, ua?: UserAgentInfo): LoginLogValues {
  return {
    id: ids.next(),
    tenantId: entry.tenantId,
    userId: entry.userId,
    userName: entry.userName.slice(0, 254),
    sessionId: entry.sessionId ?? null,
    loginTime: entry.at.toISOString(),
    loginMethod: entry.method ?? null,
    ...requestColumns(entry.request, ua),
    result: LoginResult[entry.result],
    message: entry.message ?? null,
    traceId: entry.request.traceId ?? null,
  };
}

/** Writes one row per attempt; success rows get the risk flag. */
export async function writeLoginLog(
  db: Executor,
  ids: IdGenerator,
  entry: LoginLogEntry,
): Promise<{ isRiskLogin: boolean }> {
  const inserts = insertsOf(db);
  const statement = entry.result === 'Success' && entry.userId !== null ? inserts.risky : inserts.plain;
  const [row] = await statement.execute({ ...loginLogRow(ids, entry) });
  return { isRiskLogin: row?.isRiskLogin ?? false };
}
