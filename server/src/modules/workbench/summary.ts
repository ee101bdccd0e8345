import { and, count, eq, gte, lt, max } from 'drizzle-orm';
import type { z } from 'zod';
import { auditEntries, loginLogs, userSessions } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import { LoginResult } from '../login-log/write.js';
import type { dashboardSummary } from './schemas.js';

const DAY_MS = 86_400_000;

/**
 * The caller's statistics of the current UTC day in the session's context, from the rows
 * Portcullis keeps: successful logins (login log), time online and last activity (its sessions),
 * operations (audit entries it wrote). Access, API-call and failed-operation counts have no
 * source here and stay 0, as the original writes them for a day without a statistics row.
 */
export async function dashboardSummaryOf(
  db: Executor,
  who: { userId: bigint; tenantId: bigint },
  now: Date,
): Promise<z.infer<typeof dashboardSummary>> {
  const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const end = new Date(start.getTime() + DAY_MS);
  const [logins] = await db
    .select({ n: count(), last: max(loginLogs.loginTime) })
    .from(loginLogs)
    .where(
      and(
        eq(loginLogs.userId, who.userId),
        eq(loginLogs.tenantId, who.tenantId),
        eq(loginLogs.result, LoginResult.Success),
        gte(loginLogs.loginTime, start),
        lt(loginLogs.loginTime, end),
      ),
    );
  const [operations] = await db
    .select({ n: count(), last: max(auditEntries.createdTime) })
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.actorUserId, who.userId),
        eq(auditEntries.tenantId, who.tenantId),
        gte(auditEntries.createdTime, start),
        lt(auditEntries.createdTime, end),
      ),
    );
  const sessions = await db
    .select({ loginTime: userSessions.loginTime, lastActivityTime: userSessions.lastActivityTime })
    .from(userSessions)
    .where(
      and(
        eq(userSessions.userId, who.userId),
        eq(userSessions.tenantId, who.tenantId),
        gte(userSessions.lastActivityTime, start),
        lt(userSessions.loginTime, end),
      ),
    );

  let onlineMs = 0;
  let lastAccess: Date | null = null;
  for (const s of sessions) {
    const from = Math.max(s.loginTime.getTime(), start.getTime());
    const to = Math.min(s.lastActivityTime.getTime(), now.getTime(), end.getTime());
    if (to > from) onlineMs += to - from;
    if (s.lastActivityTime <= now && (!lastAccess || s.lastActivityTime > lastAccess)) lastAccess = s.lastActivityTime;
  }
  return {
    generatedTime: now,
    statistics: {
      statisticsDate: start.toISOString().slice(0, 10),
      period: 'Today',
      loginCount: Number(logins?.n ?? 0),
      accessCount: 0,
      onlineTime: Math.floor(onlineMs / 1000),
      operationCount: Number(operations?.n ?? 0),
      apiCallCount: 0,
      errorOperationCount: 0,
      lastLoginTime: logins?.last ?? null,
      lastAccessTime: lastAccess,
      lastOperationTime: operations?.last ?? null,
    },
  };
}
