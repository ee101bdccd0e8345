import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSuperAdmin, createTestTenant, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { departmentChain, member, tenantAdmin, USER_ADMIN } from '../user/admin-test-kit.js';
import { startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const failLogin = (username: string) =>
  server.json('/api/Auth/Login', { method: 'POST', json: { username, password: 'Wrong#Passw0rd1' } });

type Item = {
  userId?: string;
  userName: string;
  loginResult: string;
  loginTime: string;
  createdTime: string;
  os: string | null;
  traceId: string | null;
};

describe('LoginLogQuery/LoginLogPage', () => {
  it('pages the login log of the context with filters on user, result, time and keyword', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    await loginAs(server, bob);
    await failLogin(bob.email!);
    const other = await createTestTenant(deps());
    const stranger = await member(deps(), other);
    await loginAs(server, stranger);

    const all = (await api.post('/api/LoginLogQuery/LoginLogPage', {})).body.data;
    const users = new Set(all.items.map((i: Item) => i.userId));
    expect(users).toEqual(new Set([String(admin.id), String(bob.id)]));
    expect(all.items[0].loginTime >= all.items.at(-1).loginTime).toBe(true);

    const failed = (
      await api.post('/api/LoginLogQuery/LoginLogPage', { userId: String(bob.id), loginResult: 'InvalidCredentials' })
    ).body.data;
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      userId: String(bob.id),
      loginResult: 'InvalidCredentials',
      isRiskLogin: false,
    });
    const byNumber = (
      await api.post('/api/LoginLogQuery/LoginLogPage', {
        conditions: {
          filters: [
            { field: 'loginResult', operator: 'Equal', value: 0 },
            { field: 'userId', operator: 'Equal', value: String(bob.id) },
          ],
        },
      })
    ).body.data;
    expect(byNumber.items.map((i: Item) => i.loginResult)).toEqual(['Success']);
    const byKeyword = (await api.post('/api/LoginLogQuery/LoginLogPage', { keyword: bob.email!.slice(0, 12) })).body
      .data;
    expect(byKeyword.items.every((i: Item) => i.userId === String(bob.id))).toBe(true);
    expect(byKeyword.items.length).toBeGreaterThanOrEqual(2);
    const future = (
      await api.post('/api/LoginLogQuery/LoginLogPage', {
        loginTimeStart: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).body.data;
    expect(future.items).toEqual([]);
    expect((await api.post('/api/LoginLogQuery/LoginLogPage', { page: { pageSize: 1 } })).body.data.page).toMatchObject(
      { pageSize: 1, hasNext: true },
    );
  });

  it('needs saas:login-log:read, follows the data scope and hides super-administrators', async () => {
    const tenantId = await createTestTenant(deps());
    const d = await departmentChain(deps(), tenantId);
    const inSales = await member(deps(), tenantId, { departmentId: d.child });
    const inResearch = await member(deps(), tenantId, { departmentId: d.other });
    await loginAs(server, inSales);
    await loginAs(server, inResearch);
    const plain = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
    expect((await plain.api.post('/api/LoginLogQuery/LoginLogPage', {})).status).toBe(403);
    const scoped = await tenantAdmin(server, tenantId, {
      codes: ['saas:login-log:read'],
      dataScope: 'DepartmentOnly',
      departmentId: d.child,
    });
    const seen = new Set(
      (await scoped.api.post('/api/LoginLogQuery/LoginLogPage', {})).body.data.items.map((i: Item) => i.userId),
    );
    expect(seen).toEqual(new Set([String(inSales.id), String(scoped.user.id)]));

    // A super-administrator's rows in the tenant are not shown to the tenant's administrators.
    const root = await createSuperAdmin(deps());
    const token = (await loginAs(server, root)).accessToken;
    await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      json: { tenantId: String(tenantId) },
    });
    const all = await tenantAdmin(server, tenantId, { codes: ['saas:login-log:read'] });
    const rows = (await all.api.post('/api/LoginLogQuery/LoginLogPage', {})).body.data.items as Item[];
    expect(rows.some((i) => i.userId === String(root.id))).toBe(false);
    expect(rows.some((i) => i.userId === String(inResearch.id))).toBe(true);
  });
});
