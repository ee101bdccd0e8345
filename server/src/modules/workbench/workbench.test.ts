import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSessions } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { adminApi, startAdminServer, tenantWithAdmin } from '../../testing/admin.js';
import { ADMIN_CODES, member, USER_ADMIN } from '../user/admin-test-kit.js';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const clock = new ManualClock(today + 10 * 3_600_000);
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer({ clock });
});
afterAll(() => server.close());

const PATH = '/api/WorkbenchQuery/DashboardSummary';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');

describe('WorkbenchQuery/DashboardSummary', () => {
  it("counts the caller's logins, time online and operations of the day in its context", async () => {
    clock.set(today + 10 * 3_600_000);
    const { tenantId, user, api } = await tenantWithAdmin(server, {
      ...USER_ADMIN,
      codes: [...ADMIN_CODES, 'saas:position:create'],
    });
    clock.advance(45 * 60_000);
    await server.runtime.deps.db
      .update(userSessions)
      .set({ lastActivityTime: clock.now() })
      .where(and(eq(userSessions.userId, user.id), eq(userSessions.tenantId, tenantId)));

    const first = await api.get(PATH);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data).sort()).toEqual(['generatedTime', 'statistics']);
    const s = first.body.data.statistics;
    expect(s).toMatchObject({
      statisticsDate: new Date(today).toISOString().slice(0, 10),
      period: 'Today',
      loginCount: 1,
      accessCount: 0,
      onlineTime: 45 * 60,
      operationCount: 0,
      apiCallCount: 0,
      errorOperationCount: 0,
    });
    expect(String(s.lastLoginTime)).toContain(iso(today + 10 * 3_600_000).slice(0, 16));
    expect(String(s.lastAccessTime)).toContain(iso(today + 10.75 * 3_600_000).slice(0, 16));
    expect(s.lastOperationTime ?? null).toBeNull();
    expect(String(first.body.data.generatedTime)).toContain(iso(clock.nowMs()).slice(0, 16));

    // A second login and an audited change count; so do only the caller's own rows.
    await loginAs(server, user);
    expect((await api.post('/api/Position/Position', { positionCode: 'ops', positionName: 'Operator' })).status).toBe(
      200,
    );
    const colleague = await member(server.runtime.deps, tenantId);
    await loginAs(server, colleague);
    const second = (await api.get(PATH)).body.data.statistics;
    expect(second).toMatchObject({ loginCount: 2, operationCount: 1 });
    expect(second.lastOperationTime).toBeTruthy();

    const other = await tenantWithAdmin(server, USER_ADMIN);
    expect((await other.api.get(PATH)).body.data.statistics).toMatchObject({ loginCount: 1, operationCount: 0 });

    // The next UTC day starts from zero.
    clock.set(today + DAY + 3_600_000);
    const next = adminApi(server, (await loginAs(server, user)).accessToken);
    const tomorrow = (await next.get(PATH)).body.data.statistics;
    expect(tomorrow).toMatchObject({
      statisticsDate: new Date(today + DAY).toISOString().slice(0, 10),
      loginCount: 1,
      operationCount: 0,
      onlineTime: 0,
    });
  });

  it('needs a login and answers other methods with an envelope error', async () => {
    clock.set(today + 10 * 3_600_000);
    const anonymous = await server.json(PATH);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.isSuccess).toBe(false);
    const bad = await server.json(PATH, { headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
    const { api } = await tenantWithAdmin(server, USER_ADMIN);
    const post = await api.post(PATH, { statistics: 'x' });
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.status).toBeLessThan(500);
    expect(post.body.isSuccess).toBe(false);
  });
});
