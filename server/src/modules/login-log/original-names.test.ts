import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs } from '../../../../db/schema/index.js';
import { claimsOf } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { member, USER_ADMIN } from '../user/admin-test-kit.js';
import { startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

/*
 * The original's Vue login-log page reads `loginResult`, `os`, `traceId`, `createdTime` and sends
 * `loginResult`, `loginTimeStart`/`loginTimeEnd`, `sessionId`, `traceId` (LoginLogListItemDto,
 * LoginLogPageQueryDto). The earlier names of this service stay accepted as filters.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const PAGE = '/api/LoginLogQuery/LoginLogPage';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

type Item = Record<string, unknown> & { loginResult: string; loginTime: string };

/** Bob logs in from an iPhone with a trace id, then fails once; returns what the rows should show. */
async function bobWithTwoRows() {
  const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
  const bob = await member(deps(), tenantId);
  const traceId = `trace-${bob.id}`;
  const ok = await server.json('/api/Auth/Login', {
    method: 'POST',
    headers: { 'user-agent': IPHONE, 'x-trace-id': traceId },
    json: { username: bob.email, password: bob.password },
  });
  expect(ok.status).toBe(200);
  await server.json('/api/Auth/Login', { method: 'POST', json: { username: bob.email, password: 'Wrong#Passw0rd1' } });
  const sessionId = claimsOf(ok.body.data.token.accessToken).SessionId as string;
  const [row] = await deps()
    .db.select()
    .from(loginLogs)
    .where(and(eq(loginLogs.userId, bob.id), eq(loginLogs.result, 0)));
  return { api, bob, traceId, sessionId, loginTime: row!.loginTime };
}

describe("LoginLogQuery/LoginLogPage under the original's names", () => {
  it('writes loginResult, os, traceId and createdTime, and no longer result or operatingSystem', async () => {
    const { api, bob, traceId, sessionId } = await bobWithTwoRows();
    const res = await api.post(PAGE, { userId: String(bob.id) });
    expect(res.status).toBe(200);
    const items = res.body.data.items as Item[];
    expect(items.map((i) => i.loginResult).sort()).toEqual(['InvalidCredentials', 'Success']);
    const ok = items.find((i) => i.loginResult === 'Success')!;
    expect(ok).toMatchObject({
      userId: String(bob.id),
      sessionId,
      traceId,
      os: 'iOS 17.4',
      browser: 'Safari 17.4',
      loginIp: expect.any(String),
      loginLocation: expect.any(String),
      isRiskLogin: false,
    });
    expect(ok.createdTime).toBe(ok.loginTime);
    for (const item of items) {
      expect(item).not.toHaveProperty('result');
      expect(item).not.toHaveProperty('operatingSystem');
    }
  });

  it('filters by loginResult (name or number), sessionId, traceId and an inclusive loginTimeStart..loginTimeEnd', async () => {
    const { api, bob, traceId, sessionId, loginTime } = await bobWithTwoRows();
    const page = async (body: Record<string, unknown>) => {
      const res = await api.post(PAGE, { userId: String(bob.id), ...body });
      expect(res.status).toBe(200);
      return (res.body.data.items as Item[]).map((i) => i.loginResult);
    };
    expect(await page({ loginResult: 'InvalidCredentials' })).toEqual(['InvalidCredentials']);
    expect(await page({ loginResult: 0 })).toEqual(['Success']);
    expect(await page({ sessionId })).toEqual(['Success']);
    expect(await page({ traceId })).toEqual(['Success']);
    expect(await page({ keyword: traceId })).toEqual(['Success']);
    // Both ends inclusive, like the original: a window of exactly the login instant holds it.
    const at = loginTime.toISOString();
    expect(await page({ loginTimeStart: at, loginTimeEnd: at })).toEqual(['Success']);
    expect(await page({ loginTimeEnd: new Date(loginTime.getTime() - 1).toISOString() })).toEqual([]);
    // The same names in conditions (the generic paged query).
    const byCondition = await api.post(PAGE, {
      conditions: {
        filters: [
          { field: 'userId', operator: 'Equal', value: String(bob.id) },
          { field: 'os', operator: 'StartsWith', value: 'iOS' },
        ],
        sorts: [{ field: 'loginResult', direction: 'Ascending' }],
      },
    });
    expect(byCondition.body.data.items.map((i: Item) => i.loginResult)).toEqual(['Success']);
  });

  it('still honours the earlier filter names result, startTime, endTime (exclusive) and their condition fields', async () => {
    const { api, bob, loginTime } = await bobWithTwoRows();
    const page = async (body: Record<string, unknown>) =>
      ((await api.post(PAGE, { userId: String(bob.id), ...body })).body.data.items as Item[]).map((i) => i.loginResult);
    expect(await page({ result: 'InvalidCredentials' })).toEqual(['InvalidCredentials']);
    expect(await page({ startTime: new Date(Date.now() + 3_600_000).toISOString() })).toEqual([]);
    const at = loginTime.toISOString();
    expect(await page({ startTime: at, endTime: at })).toEqual([]);
    expect(await page({ loginResult: 'Success', startTime: at })).toEqual(['Success']);
    const old = await api.post(PAGE, {
      conditions: {
        filters: [
          { field: 'userId', operator: 'Equal', value: String(bob.id) },
          { field: 'result', operator: 'Equal', value: 'Success' },
          { field: 'operatingSystem', operator: 'Contains', value: 'ios' },
        ],
      },
    });
    expect(old.body.data.items.map((i: Item) => i.loginResult)).toEqual(['Success']);
  });

  it('answers 400 with a clear message for a start after the end and for a bad time or result', async () => {
    const { api } = await bobWithTwoRows();
    const reversed = await api.post(PAGE, {
      loginTimeStart: '2026-05-02T00:00:00Z',
      loginTimeEnd: '2026-05-01T00:00:00Z',
    });
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body)).toContain('The login time start cannot be later than its end.');
    expect((await api.post(PAGE, { loginTimeEnd: 'yesterday' })).status).toBe(400);
    const badResult = await api.post(PAGE, { loginResult: 'Maybe' });
    expect(badResult.status).toBe(400);
    expect(JSON.stringify(badResult.body)).toContain('InvalidCredentials');
  });
});
