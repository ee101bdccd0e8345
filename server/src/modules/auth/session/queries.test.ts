import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, refreshTokens, users, userSessions } from '../../../../../db/schema/index.js';
import { createTestUser } from '../../../testing/auth-fixtures.js';
import { bootTestRuntime } from '../../../testing/harness.js';
import { LOGIN_SUCCEEDED, requestColumns } from '../../login-log/write.js';
import type { RequestFacts } from '../events.js';
import { insertLoginSession, insertSessionIn } from './queries.js';
import { parseUserAgent } from './user-agent.js';

/**
 * A login's session is written in two forms: one SQL-text statement on the fast path and Drizzle
 * inside a transaction on the path with device policies. Both must leave the same rows.
 */

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
beforeAll(async () => {
  runtime = await bootTestRuntime();
});
afterAll(() => runtime.close());

const known: RequestFacts = {
  ip: '10.44.7.9',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  traceId: 'queries-test',
  deviceFingerprint: null,
};

/** One login written by the named form, at the same instant and with the same values otherwise. */
async function writeLogin(form: 'sql' | 'drizzle', userId: bigint, at: Date, request: RequestFacts = known) {
  const { ids, database, db } = runtime.deps;
  const ua = parseUserAgent(request.userAgent);
  const sessionId = ids.next();
  const expiration = new Date(at.getTime() + 3_600_000);
  const refreshExpires = new Date(at.getTime() + 1_800_000);
  const session = {
    id: sessionId,
    userId,
    tenantId: 0n,
    currentAccessTokenJti: `jti-${form}`,
    securityStamp: 'stamp',
    deviceType: ua.deviceType,
    deviceName: ua.deviceName.slice(0, 128),
    browser: ua.browser.slice(0, 64),
    operatingSystem: ua.os.slice(0, 64),
    ipAddress: request.ip,
    loginMethod: 'password',
    isLocked: false,
    lockReason: null,
  };
  const loginName = `login-${userId}`;
  if (form === 'sql') {
    const columns = requestColumns(request, ua);
    await insertLoginSession(
      database,
      {
        ...session,
        now: at.toISOString(),
        expirationTime: expiration.toISOString(),
        refreshId: ids.next(),
        refreshHash: `hash-${sessionId}`,
        refreshExpires: refreshExpires.toISOString(),
      },
      {
        logId: ids.next(),
        logUserName: loginName,
        loginLocation: columns.loginLocation,
        logDevice: columns.deviceFingerprint,
        traceId: request.traceId,
      },
    );
  } else {
    await db.transaction(async (tx) => {
      const row = {
        ...session,
        deviceFingerprint: request.deviceFingerprint,
        loginTime: at,
        lastActivityTime: at,
        expirationTime: expiration,
      };
      await insertSessionIn(tx, ids, row, {
        userId,
        userName: loginName,
        tenantId: 0n,
        sessionId,
        method: 'password',
        result: 'Success',
        message: LOGIN_SUCCEEDED,
        request,
        at,
      });
      await tx.insert(refreshTokens).values({
        id: ids.next(),
        sessionId,
        tokenHash: `hash-${sessionId}`,
        issuedTime: at,
        expiresTime: refreshExpires,
      });
    });
  }
  return sessionId;
}

/** The rows a login left, without the columns that differ by construction (ids, JTI, hash). */
async function rowsOf(sessionId: bigint, userId: bigint) {
  const { db } = runtime.deps;
  const [session] = await db.select().from(userSessions).where(eq(userSessions.id, sessionId));
  const tokens = await db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId));
  const logs = await db
    .select()
    .from(loginLogs)
    .where(inArray(loginLogs.sessionId, [sessionId]));
  const [user] = await db
    .select({ lastLoginTime: users.lastLoginTime, lastLoginIp: users.lastLoginIp })
    .from(users)
    .where(eq(users.id, userId));
  const { id: _s, currentAccessTokenJti: _j, ...sessionRest } = session!;
  return {
    session: sessionRest,
    tokens: tokens.map(({ id: _t, sessionId: _i, tokenHash: _h, ...rest }) => rest),
    logs: logs.map(({ id: _l, sessionId: _i, userName: _n, ...rest }) => rest),
    user,
  };
}

describe('the two forms of a login session write', () => {
  it('write the same session, refresh token, last login and login-log row', async () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    const viaSql = await createTestUser(runtime.deps);
    const viaDrizzle = await createTestUser(runtime.deps);
    const sqlRows = await rowsOf(await writeLogin('sql', viaSql.id, at), viaSql.id);
    const drizzleRows = await rowsOf(await writeLogin('drizzle', viaDrizzle.id, at), viaDrizzle.id);
    expect(sqlRows.logs).toHaveLength(1);
    expect(sqlRows.tokens).toHaveLength(1);
    const { userId: _a, ...sqlSession } = sqlRows.session;
    const { userId: _b, ...drizzleSession } = drizzleRows.session;
    expect(drizzleSession).toEqual(sqlSession);
    expect(drizzleRows.tokens).toEqual(sqlRows.tokens);
    expect(drizzleRows.logs.map(({ userId: _u, ...rest }) => rest)).toEqual(
      sqlRows.logs.map(({ userId: _u, ...rest }) => rest),
    );
    expect(drizzleRows.user).toEqual(sqlRows.user);
    expect(sqlRows.user).toEqual({ lastLoginTime: at, lastLoginIp: known.ip });
  });

  it('judge the risk of a later login alike: a known device and network are not risky, a new device is', async () => {
    const elsewhere: RequestFacts = {
      ...known,
      ip: '172.20.1.1',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    };
    const risk = async (form: 'sql' | 'drizzle', at: string, facts: RequestFacts = known) => {
      const user = await createTestUser(runtime.deps);
      await writeLogin('sql', user.id, new Date('2026-03-04T06:00:00.000Z'));
      return (await rowsOf(await writeLogin(form, user.id, new Date(at), facts), user.id)).logs[0]!.isRiskLogin;
    };
    expect(await risk('sql', '2026-03-04T07:00:00.000Z')).toBe(false);
    expect(await risk('drizzle', '2026-03-04T07:00:00.000Z')).toBe(false);
    expect(await risk('sql', '2026-03-04T07:00:00.000Z', elsewhere)).toBe(true);
    expect(await risk('drizzle', '2026-03-04T07:00:00.000Z', elsewhere)).toBe(true);
  });
});
