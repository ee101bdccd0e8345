import { and, count, desc, eq, gte, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditEntries, loginLogs, users, userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { LoginResult } from '../login-log/schemas.js';
import type { activityOut, loginLogsRequest, ownLoginLogPage } from './history-schemas.js';

/**
 * GET /api/Profile/LoginLogs and GET /api/Profile/Activity: the caller's own history. The login
 * log lists the user's rows in every context, newest first. Activity has the original's shape;
 * the original reads pre-aggregated statistics and access logs this service does not keep, so
 * its figures come from the login log (sign-ins, and every event as an access), the audit trail
 * (operations the user made) and the sessions (time from sign-in to the last activity). Periods
 * are UTC: today, this ISO week (from Monday), this month.
 */

export type HistoryDeps = Pick<AppDeps, 'db' | 'clock'>;

const DAY_MS = 86_400_000;
const TREND_DAYS = 371;
/** The sessions read for online time: the most recent ones, enough for a year of daily use. */
const SESSION_SCAN = 5000;

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export function periodStarts(now: Date) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const week = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { today, week, month };
}

export function createHistory(deps: HistoryDeps) {
  const { db, clock } = deps;

  return {
    async loginLogs(userId: bigint, input: z.infer<typeof loginLogsRequest>): Promise<z.infer<typeof ownLoginLogPage>> {
      const mine = eq(loginLogs.userId, userId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(loginLogs)
          .where(mine)
          .orderBy(desc(loginLogs.loginTime), desc(loginLogs.id))
          .limit(input.pageSize)
          .offset((input.page - 1) * input.pageSize),
        db.select({ n: count() }).from(loginLogs).where(mine),
      ]);
      return {
        items: rows.map((r) => ({
          loginTime: r.loginTime,
          loginIp: r.loginIp,
          loginLocation: r.loginLocation,
          browser: r.browser,
          os: r.operatingSystem,
          loginResult: LoginResult.nameOf(r.result) ?? 'Failed',
          message: r.message,
        })),
        total: Number(total?.n ?? 0),
      };
    },

    async activity(userId: bigint): Promise<z.infer<typeof activityOut>> {
      const now = clock.now();
      const starts = periodStarts(now);
      const since = new Date(starts.today.getTime() - (TREND_DAYS - 1) * DAY_MS);
      const earliest = new Date(Math.min(since.getTime(), starts.week.getTime(), starts.month.getTime()));
      const day = (column: typeof loginLogs.loginTime | typeof auditEntries.createdTime) =>
        sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
      const [logDays, auditDays, sessions, [user], [lastOp]] = await Promise.all([
        db
          .select({
            day: day(loginLogs.loginTime),
            events: count(),
            logins: sql<number>`count(*) filter (where ${loginLogs.result} = 0)`,
          })
          .from(loginLogs)
          .where(and(eq(loginLogs.userId, userId), gte(loginLogs.loginTime, earliest)))
          .groupBy(day(loginLogs.loginTime)),
        db
          .select({ day: day(auditEntries.createdTime), n: count() })
          .from(auditEntries)
          .where(and(eq(auditEntries.actorUserId, userId), gte(auditEntries.createdTime, earliest)))
          .groupBy(day(auditEntries.createdTime)),
        db
          .select({ from: userSessions.loginTime, to: userSessions.lastActivityTime })
          .from(userSessions)
          .where(and(eq(userSessions.userId, userId), gte(userSessions.lastActivityTime, earliest)))
          .orderBy(desc(userSessions.lastActivityTime))
          .limit(SESSION_SCAN),
        db.select({ lastLogin: users.lastLoginTime }).from(users).where(eq(users.id, userId)),
        db
          .select({ at: max(auditEntries.createdTime) })
          .from(auditEntries)
          .where(eq(auditEntries.actorUserId, userId)),
      ]);

      // Seconds online per UTC day, each session split at midnight.
      const online = new Map<string, number>();
      let lastAccess: Date | null = null;
      for (const s of sessions) {
        const end = Math.min(s.to.getTime(), now.getTime());
        if (!lastAccess || s.to > lastAccess) lastAccess = s.to;
        for (let t = Math.max(s.from.getTime(), earliest.getTime()); t < end; ) {
          const next = Math.min(end, Math.floor(t / DAY_MS) * DAY_MS + DAY_MS);
          const key = dayKey(new Date(t));
          online.set(key, (online.get(key) ?? 0) + (next - t) / 1000);
          t = next;
        }
      }
      const days = new Map<string, { access: number; logins: number; operations: number }>();
      const entry = (key: string) => {
        let day = days.get(key);
        if (!day) days.set(key, (day = { access: 0, logins: 0, operations: 0 }));
        return day;
      };
      for (const r of logDays) Object.assign(entry(r.day), { access: Number(r.events), logins: Number(r.logins) });
      for (const r of auditDays) entry(r.day).operations = Number(r.n);
      for (const key of online.keys()) entry(key);

      const sum = (from: Date) => {
        const first = dayKey(from);
        let loginCount = 0,
          accessCount = 0,
          operationCount = 0,
          onlineTime = 0;
        for (const [key, d] of days) {
          if (key < first) continue;
          loginCount += d.logins;
          accessCount += d.access;
          operationCount += d.operations;
          onlineTime += online.get(key) ?? 0;
        }
        return { loginCount, accessCount, operationCount, onlineTime: Math.floor(onlineTime) };
      };
      const firstTrendDay = dayKey(since);
      const trend = [...days.entries()]
        .filter(([key]) => key >= firstTrendDay)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([date, d]) => ({
          date,
          accessCount: d.access,
          operationCount: d.operations,
          onlineMinutes: Math.floor((online.get(date) ?? 0) / 60),
        }));
      return {
        today: sum(starts.today),
        thisWeek: sum(starts.week),
        thisMonth: sum(starts.month),
        lastLoginTime: user?.lastLogin ?? null,
        lastAccessTime: lastAccess,
        lastOperationTime: lastOp?.at ?? null,
        trend,
      };
    },
  };
}
