import { and, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loginLogs } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import { definePagedList, escapeLike, type PagedResult } from '../../query/index.js';
import { whoCondition, type CallerScope } from '../user/scope.js';
import { LoginResult, type loginLogItem, type loginLogPageRequest } from './schemas.js';

/**
 * The login-log list of LoginLogQuery/LoginLogPage: what a request may filter, sort and search,
 * under the item's names. `result` and `operatingSystem` are the earlier names of `loginResult`
 * and `os`, kept so that stored filters and sorts of existing clients still work.
 */
export const loginLogList = definePagedList({
  fields: {
    basicId: { column: loginLogs.id, type: 'id' },
    userId: { column: loginLogs.userId, type: 'id' },
    userName: { column: loginLogs.userName, type: 'string', keyword: true },
    sessionId: { column: loginLogs.sessionId, type: 'id' },
    traceId: { column: loginLogs.traceId, type: 'string', keyword: true },
    loginTime: { column: loginLogs.loginTime, type: 'datetime' },
    createdTime: { column: loginLogs.loginTime, type: 'datetime' },
    loginMethod: { column: loginLogs.loginMethod, type: 'string' },
    loginIp: { column: loginLogs.loginIp, type: 'string', keyword: true },
    loginLocation: { column: loginLogs.loginLocation, type: 'string' },
    browser: { column: loginLogs.browser, type: 'string', keyword: true },
    os: { column: loginLogs.operatingSystem, type: 'string', keyword: true },
    operatingSystem: { column: loginLogs.operatingSystem, type: 'string', keyword: true },
    loginResult: { column: loginLogs.result, type: 'enum', enum: LoginResult, stored: 'number' },
    result: { column: loginLogs.result, type: 'enum', enum: LoginResult, stored: 'number' },
    message: { column: loginLogs.message, type: 'string', keyword: true },
    isRiskLogin: { column: loginLogs.isRiskLogin, type: 'boolean' },
  },
  defaultSort: [{ field: 'loginTime', direction: 'Descending' }],
  tieBreaker: loginLogs.id,
  defaultKeywordFields: ['userName', 'loginIp', 'browser', 'os', 'message', 'traceId'],
});

/**
 * The login log of the caller's context (rows recorded in that tenant, or in the platform state),
 * limited like users are: rows of hidden super-administrators are left out, and with a data
 * scope narrower than All only rows of users in that scope (attempts on unknown accounts need All).
 */
export async function loginLogPage(
  db: Executor,
  scope: CallerScope,
  input: z.infer<typeof loginLogPageRequest>,
): Promise<PagedResult<z.infer<typeof loginLogItem>>> {
  const request = { conditions: input.conditions, page: input.page };
  if (!request.conditions.keyword && input.keyword) {
    request.conditions = {
      ...request.conditions,
      keyword: { value: input.keyword, fields: [], matchMode: 'Contains' },
    };
  }
  const who = whoCondition(scope, loginLogs.userId);
  const base = and(
    eq(loginLogs.tenantId, scope.tenantId),
    // Rows without a user (unknown accounts) fail a data-scope test (null never matches): only
    // scope All sees them.
    who,
    input.userId ? eq(loginLogs.userId, input.userId) : undefined,
    input.userName
      ? sql`lower(${loginLogs.userName}) like ${`%${escapeLike(input.userName.toLowerCase())}%`}`
      : undefined,
    input.sessionId ? eq(loginLogs.sessionId, input.sessionId) : undefined,
    input.traceId ? eq(loginLogs.traceId, input.traceId) : undefined,
    input.loginResult ? eq(loginLogs.result, LoginResult.valueOf(input.loginResult)) : undefined,
    input.isRiskLogin === undefined || input.isRiskLogin === null
      ? undefined
      : eq(loginLogs.isRiskLogin, input.isRiskLogin),
    input.loginIp ? eq(loginLogs.loginIp, input.loginIp) : undefined,
    input.loginTimeStart ? gte(loginLogs.loginTime, input.loginTimeStart) : undefined,
    input.loginTimeEnd ? lte(loginLogs.loginTime, input.loginTimeEnd) : undefined,
    // The earlier names are extra conditions with their own meaning (endTime exclusive); a
    // client sending both spellings gets both.
    input.result ? eq(loginLogs.result, LoginResult.valueOf(input.result)) : undefined,
    input.startTime ? gte(loginLogs.loginTime, input.startTime) : undefined,
    input.endTime ? lt(loginLogs.loginTime, input.endTime) : undefined,
  );
  const result = await loginLogList.run(db, {
    request,
    base,
    can: scope.can,
    select: (q) => q.select().from(loginLogs).$dynamic(),
  });
  return {
    ...result,
    items: result.items.map((r) => ({
      basicId: String(r.id),
      userId: r.userId === null ? null : String(r.userId),
      userName: r.userName,
      sessionId: r.sessionId === null ? null : String(r.sessionId),
      traceId: r.traceId,
      loginTime: r.loginTime,
      loginMethod: r.loginMethod,
      loginIp: r.loginIp,
      loginLocation: r.loginLocation,
      browser: r.browser,
      os: r.operatingSystem,
      loginResult: LoginResult.nameOf(r.result) ?? 'Failed',
      message: r.message,
      isRiskLogin: r.isRiskLogin,
      createdTime: r.loginTime,
    })),
  };
}
