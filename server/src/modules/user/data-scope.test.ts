import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { createTestTenant } from '../../testing/auth-fixtures.js';
import { departmentChain, member, tenantAdmin } from './admin-test-kit.js';
import { startAdminServer, type AdminApi } from '../../testing/admin.js';

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;

/** A tenant with a department chain and one member in each department (plus one in none). */
async function company() {
  const tenantId = await createTestTenant(deps());
  const d = await departmentChain(deps(), tenantId);
  const inRoot = await member(deps(), tenantId, { departmentId: d.root });
  const inChild = await member(deps(), tenantId, { departmentId: d.child });
  const inGrandchild = await member(deps(), tenantId, { departmentId: d.grandchild });
  const inOther = await member(deps(), tenantId, { departmentId: d.other });
  const nowhere = await member(deps(), tenantId);
  return { tenantId, d, users: { inRoot, inChild, inGrandchild, inOther, nowhere } };
}

const ids = async (api: AdminApi, body: unknown = {}) =>
  ((await api.post('/api/UserQuery/UserPage', body)).body.data.items as Array<{ basicId: string }>)
    .map((i) => i.basicId)
    .sort();

describe('data scope', () => {
  it("All sees every member; DepartmentAndChildren its departments and below; DepartmentOnly its own; SelfOnly itself; Custom the roles' departments", async () => {
    const { tenantId, d, users: u } = await company();
    const everyone = [u.inRoot, u.inChild, u.inGrandchild, u.inOther, u.nowhere];

    const all = await tenantAdmin(server, tenantId, { dataScope: 'All' });
    expect(await ids(all.api)).toEqual([...everyone, all.user].map((x) => String(x.id)).sort());

    const below = await tenantAdmin(server, tenantId, { dataScope: 'DepartmentAndChildren', departmentId: d.child });
    expect(await ids(below.api)).toEqual([u.inChild, u.inGrandchild, below.user].map((x) => String(x.id)).sort());

    const dept = await tenantAdmin(server, tenantId, { dataScope: 'DepartmentOnly', departmentId: d.child });
    expect(await ids(dept.api)).toEqual([u.inChild, below.user, dept.user].map((x) => String(x.id)).sort());

    const self = await tenantAdmin(server, tenantId, { dataScope: 'SelfOnly', departmentId: d.root });
    expect(await ids(self.api)).toEqual([String(self.user.id)]);

    const custom = await tenantAdmin(server, tenantId, {
      dataScope: 'Custom',
      customDepartments: [d.other, d.grandchild],
    });
    expect(await ids(custom.api)).toEqual([u.inOther, u.inGrandchild, custom.user].map((x) => String(x.id)).sort());
  });

  it('applies to details, writes and the department filter', async () => {
    const { tenantId, d, users: u } = await company();
    const below = await tenantAdmin(server, tenantId, { dataScope: 'DepartmentAndChildren', departmentId: d.child });
    expect((await below.api.get('/api/UserQuery/UserDetail', { id: u.inGrandchild.id })).body.data.basicId).toBe(
      String(u.inGrandchild.id),
    );
    expect((await below.api.get('/api/UserQuery/UserDetail', { id: u.inOther.id })).body.data).toBeUndefined();
    expect((await below.api.put('/api/User/User', { basicId: String(u.inOther.id), nickName: 'nope' })).status).toBe(
      404,
    );
    expect(
      (await below.api.put('/api/User/UserStatus', { basicId: String(u.inRoot.id), status: 'Disabled' })).status,
    ).toBe(404);
    expect(
      (await below.api.put('/api/User/User', { basicId: String(u.inGrandchild.id), nickName: 'fine' })).status,
    ).toBe(200);

    // The department filter takes the department and everything below it, within the scope.
    const all = await tenantAdmin(server, tenantId);
    expect(await ids(all.api, { departmentId: String(d.child) })).toEqual(
      [u.inChild, u.inGrandchild, below.user].map((x) => String(x.id)).sort(),
    );
    expect(await ids(below.api, { departmentId: String(d.root) })).toEqual(
      [u.inChild, u.inGrandchild, below.user].map((x) => String(x.id)).sort(),
    );

    // A scoped administrator places new users only in departments of its scope.
    expect(
      (
        await below.api.post('/api/User/User', {
          userName: `new_${tenantId}`,
          initialPassword: GOOD_PASSWORD,
          departmentId: String(d.other),
        })
      ).status,
    ).toBe(404);
    const created = await below.api.post('/api/User/User', {
      userName: `new_${tenantId}`,
      initialPassword: GOOD_PASSWORD,
      departmentId: String(d.grandchild),
    });
    expect(created.status).toBe(200);
    expect(await ids(below.api, { keyword: `new_${tenantId}` })).toEqual([created.body.data.basicId]);
  });
});
