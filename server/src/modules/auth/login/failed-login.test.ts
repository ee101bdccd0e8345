import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, userSecurity } from '../../../../../db/schema/index.js';
import { createTestUser } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { ACCOUNT_BY_EMAIL } from './account-lookup.js';
import type { RequestFacts } from '../events.js';
import { FAILED_LOGIN_STATEMENT, recordFailedLogin } from './failed-login.js';
import { LoginResult, writeLoginLog } from '../../login-log/write.js';

/**
 * A known account's wrong password and an unknown name must run the same statements: counting
 * the failure in a statement of its own costs a known account about 2 ms more, which tells the
 * accounts apart. These tests keep the two paths on the same statements (the times are measured
 * by `npm run bench -- enumeration`, not here).
 */

let server: TestServer;
const deps = () => server.runtime.deps;
beforeAll(async () => {
  server = await startTestServer({
    config: { App: { TrustForwardedHeaders: true }, Saas: { Auth: { CaptchaEnabled: false } } },
  });
});
afterAll(() => server.close());

let ipCounter = 0;
const fromIp = () => ({ 'x-forwarded-for': `10.31.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

/** Logs in and returns the answer with the statements the database handle prepared meanwhile. */
async function loginTracing(username: string, password: string) {
  const database = deps().database;
  const original = database.prepared;
  const statements: string[] = [];
  database.prepared = <T extends Record<string, unknown>>(text: string, params: unknown[]) => {
    statements.push(text);
    return original.call<typeof database, [string, unknown[]], Promise<T[]>>(database, text, params);
  };
  try {
    const res = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username, password },
      headers: { ...fromIp(), 'x-language': 'en-US' },
    });
    return { res, statements };
  } finally {
    database.prepared = original;
  }
}

const facts: RequestFacts = {
  ip: '10.31.200.1',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  traceId: 'failed-login-test',
  deviceFingerprint: null,
};

describe('a failed password login (a known account answered 2 ms later than an unknown name)', () => {
  it('runs the same statements for an unknown name as for a wrong password', async () => {
    const user = await createTestUser(deps());
    const wrong = await loginTracing(user.email!, 'Wrong#Password1');
    // The same shape of name, so the same lookup.
    const unknownName = user.email!.replace(/^user_/, 'none_');
    const unknown = await loginTracing(unknownName, 'Wrong#Password1');
    for (const attempt of [wrong, unknown]) {
      expect(attempt.res.status).toBe(400);
      expect(attempt.res.body.data).toBe('Wrong user name or password.');
    }
    expect(wrong.statements).toEqual([ACCOUNT_BY_EMAIL, FAILED_LOGIN_STATEMENT]);
    expect(unknown.statements).toEqual(wrong.statements);

    // The known account's failure is counted; each attempt has exactly one login-log row.
    const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(security!.failedLoginAttempts).toBe(1);
    expect(security!.lastFailedLoginTime).not.toBeNull();
    const rowOf = async (traceId: string) => deps().db.select().from(loginLogs).where(eq(loginLogs.traceId, traceId));
    const [known] = await rowOf(wrong.res.body.traceId);
    expect(known).toMatchObject({
      userId: user.id,
      userName: user.email,
      tenantId: 0n,
      result: LoginResult.InvalidCredentials,
      loginMethod: 'password',
    });
    const unknownRows = await rowOf(unknown.res.body.traceId);
    expect(unknownRows).toHaveLength(1);
    expect(unknownRows[0]).toMatchObject({
      userId: null,
      userName: unknownName,
      tenantId: 0n,
      result: LoginResult.InvalidCredentials,
      loginMethod: 'password',
      message: 'Wrong user name or password',
    });
  });

  it('writes the row writeLoginLog writes, for a known account and for none', async () => {
    const user = await createTestUser(deps());
    const at = new Date('2026-05-04T03:02:01.234Z');
    const lockout = { threshold: 5, minutes: 30 };
    for (const userId of [user.id, null]) {
      const entry = {
        userId,
        tenantId: 0n,
        userName: 'Someone@Example.test',
        method: 'password',
        result: 'InvalidCredentials' as const,
        message: 'Wrong user name or password',
        at,
      };
      await recordFailedLogin(deps().database, deps().ids, lockout, {
        ...entry,
        request: { ...facts, traceId: `sql-${userId}` },
      });
      await writeLoginLog(deps().db, deps().ids, { ...entry, request: { ...facts, traceId: `drizzle-${userId}` } });
      const [bySql] = await deps()
        .db.select()
        .from(loginLogs)
        .where(eq(loginLogs.traceId, `sql-${userId}`));
      const [byDrizzle] = await deps()
        .db.select()
        .from(loginLogs)
        .where(eq(loginLogs.traceId, `drizzle-${userId}`));
      const comparable = (row: typeof bySql) => ({ ...row!, id: undefined, traceId: undefined });
      expect(comparable(bySql)).toEqual(comparable(byDrizzle));
    }
  });

  it('counts toward the lockout: a run-out lockout starts again at 1, a running one changes nothing', async () => {
    const lockout = { threshold: 3, minutes: 30 };
    const at = new Date();
    const user = await createTestUser(deps());
    const fail = () =>
      recordFailedLogin(deps().database, deps().ids, lockout, {
        userId: user.id,
        tenantId: 0n,
        userName: user.email!,
        method: 'password',
        result: 'InvalidCredentials',
        message: 'Wrong user name or password',
        request: facts,
        at,
      });
    const security = async () =>
      (await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id)))[0]!;

    for (let i = 0; i < 3; i++) await fail();
    expect((await security()).failedLoginAttempts).toBe(3);
    expect((await security()).lockoutEndTime).toEqual(new Date(at.getTime() + 30 * 60_000));
    // While it runs (an administrator's longer lock too), failures change nothing.
    const adminLock = new Date(at.getTime() + 86_400_000);
    await deps()
      .db.update(userSecurity)
      .set({ lockoutEndTime: adminLock, failedLoginAttempts: 0 })
      .where(eq(userSecurity.userId, user.id));
    await fail();
    expect(await security()).toMatchObject({ failedLoginAttempts: 0, lockoutEndTime: adminLock });
    // Once it has run out, the count starts again and the end is cleared.
    await deps()
      .db.update(userSecurity)
      .set({ lockoutEndTime: new Date(at.getTime() - 1000), failedLoginAttempts: 3 })
      .where(eq(userSecurity.userId, user.id));
    await fail();
    expect(await security()).toMatchObject({ failedLoginAttempts: 1, lockoutEndTime: null });
  });
});
