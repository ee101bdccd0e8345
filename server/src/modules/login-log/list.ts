import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { loginLogs } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import { definePagedList, escapeLike, pagedRequest, pagedResponse, type PagedResult } from '../../query/index.js';
import { defineEnum, zBool, zDateTime, zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';
import { LoginResult as LoginResultValues } from '../auth/login-log.js';
import { whoCondition, type CallerScope } from '../user/scope.js';

/** The original's LoginResult numbering, written by name. */
export const LoginResult = defineEnum('LoginResult', LoginResultValues);

/** The login-log list of LoginLogQuery/LoginLogPage: what a request may filter, sort and search. */
export const loginLogList = definePagedList({
  fields: {
    basicId: { column: loginLogs.id, type: 'id' },
    userId: { column: loginLogs.userId, type: 'id' },
    userName: { column: loginLogs.userName, type: 'string', keyword: true },
    sessionId: { column: loginLogs.sessionId, type: 'id' },
    loginTime: { column: loginLogs.loginTime, type: 'datetime' },
    loginMethod: { column: loginLogs.loginMethod, type: 'string' },
    loginIp: { column: loginLogs.loginIp, type: 'string', keyword: true },
    loginLocation: { column: loginLogs.loginLocation, type: 'string' },
    browser: { column: loginLogs.browser, type: 'string', keyword: true },
    operatingSystem: { column: loginLogs.operatingSystem, type: 'string', keyword: true },
    result: { column: loginLogs.result, type: 'enum', enum: LoginResult, stored: 'number' },
    message: { column: loginLogs.message, type: 'string', keyword: true },
    isRiskLogin: { column: loginLogs.isRiskLogin, type: 'boolean' },
  },
  defaultSort: [{ field: 'loginTime', direction: 'Descending' }],
  tieBreaker: loginLogs.id,
  defaultKeywordFields: ['userName', 'loginIp', 'browser', 'operatingSystem', 'message'],
});

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

export const loginLogPageRequest = pagedRequest({
  /** Shorthand for conditions.keyword (user name, address, browser, system, message). */
  keyword: optional(z.string().trim().max(200)),
  userId: optional(zId()),
  /** Contains, ignoring case. */
  userName: optional(z.string().trim().max(254)),
  result: optional(LoginResult.schema()),
  isRiskLogin: optional(zBool()),
  loginIp: optional(z.string().trim().max(64)),
  /** From (inclusive) and to (exclusive) login times. */
  startTime: optional(zDateTime()),
  endTime: optional(zDateTime()),
});

export const loginLogItem = z.object({
  basicId: zIdOut(),
  userId: zIdOut().nullable(),
  userName: z.string().nullable(),
  sessionId: zIdOut().nullable(),
  loginTime: zDateTimeOut(),
  loginMethod: z.string().nullable(),
  loginIp: z.string().nullable(),
  loginLocation: z.string().nullable(),
  browser: z.string().nullable(),
  operatingSystem: z.string().nullable(),
  result: LoginResult.out(),
  message: z.string().nullable(),
  isRiskLogin: z.boolean(),
});
export const loginLogPageResponse = pagedResponse(loginLogItem);

/**
 * The login log of the caller's context (rows recorded in that tenant, or in the platform state),
 * limited like users are: rows of hidden super-administrators are left out, and with a data
 * scope narrower than All only rows of users in that scope (attempts on unknown accounts need All).
 */
export async function loginLogPage(db: Executor, scope: CallerScope, input: z.infer<typeof loginLogPageRequest>): Promise<PagedResult<z.infer<typeof loginLogItem>>> {
  const request = { conditions: input.conditions, page: input.page };
  if (!request.conditions.keyword && input.keyword) {
    request.conditions = { ...request.conditions, keyword: { value: input.keyword, fields: [], matchMode: 'Contains' } };
  }
  const who = whoCondition(scope, loginLogs.userId);
  const base = and(
    eq(loginLogs.tenantId, scope.tenantId),
    // Rows without a user (unknown accounts) fail a data-scope test (null never matches): only
    // scope All sees them.
    who,
    input.userId ? eq(loginLogs.userId, input.userId) : undefined,
    input.userName ? sql`lower(${loginLogs.userName}) like ${`%${escapeLike(input.userName.toLowerCase())}%`}` : undefined,
    input.result ? eq(loginLogs.result, LoginResult.valueOf(input.result)) : undefined,
    input.isRiskLogin === undefined || input.isRiskLogin === null ? undefined : eq(loginLogs.isRiskLogin, input.isRiskLogin),
    input.loginIp ? eq(loginLogs.loginIp, input.loginIp) : undefined,
    input.startTime ? gte(loginLogs.loginTime, input.startTime) : undefined,
    input.endTime ? lt(loginLogs.loginTime, input.endTime) : undefined,
  );
  const result = await loginLogList.run(db, { request, base, can: scope.can, select: (q) => q.select().from(loginLogs).$dynamic() });
  return {
    ...result,
    items: result.items.map((r) => ({
      basicId: String(r.id),
      userId: r.userId === null ? null : String(r.userId),
      userName: r.userName,
      sessionId: r.sessionId === null ? null : String(r.sessionId),
      loginTime: r.loginTime,
      loginMethod: r.loginMethod,
      loginIp: r.loginIp,
      loginLocation: r.loginLocation,
      browser: r.browser,
      operatingSystem: r.operatingSystem,
      result: LoginResult.nameOf(r.result) ?? 'Failed',
      message: r.message,
      isRiskLogin: r.isRiskLogin,
    })),
  };
}
