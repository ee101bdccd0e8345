import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, createTestUser, type TestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { expectAuthors } from '../user/authors-test-kit.js';
import {
  auditEntry,
  startAdminServer,
  tenantUser,
  tenantWithAdmin,
  watchAudit,
  type AdminApi,
  type Call,
} from '../../testing/admin.js';
import { TENANT_ADMIN } from '../permission/admin-test-kit.js';

let server: TestServer;
let api: AdminApi;
let tenantId: bigint;
let creator: TestUser;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api, tenantId, user: creator } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const create = async (body: Record<string, unknown>) => {
  const res = await api.post('/api/Department/Department', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { basicId: string; departmentName: string; path: string; pathName: string; version: number };
};
const ids = (items: Array<{ basicId: string }>) => items.map((i) => i.basicId);

describe('departments over HTTP', () => {
  it('builds a tree with paths, reads it back as detail, tree, page and enabled list', async () => {
    const leader = await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    const hq = await create({ departmentName: 'HQ', departmentCode: 'hq', leaderId: String(leader.id), sort: 1 });
    const sales = await create({ parentId: hq.basicId, departmentName: 'Sales', email: 'sales@example.test' });
    const east = await create({ parentId: sales.basicId, departmentName: 'East', status: 'Disabled' });
    expect(east).toMatchObject({
      path: `${hq.basicId}/${sales.basicId}/${east.basicId}`,
      pathName: 'HQ/Sales/East',
      status: 'Disabled',
      parentId: sales.basicId,
    });

    const detail = await api.get('/api/DepartmentQuery/DepartmentDetail', { id: hq.basicId });
    expect(detail.body.data).toMatchObject({ departmentCode: 'hq', leaderId: String(leader.id), pathName: 'HQ' });
    const tree = await api.get('/api/DepartmentQuery/DepartmentTree');
    const root = tree.body.data.find((n: { basicId: string }) => n.basicId === hq.basicId);
    expect(root.children[0]).toMatchObject({
      basicId: sales.basicId,
      children: [{ basicId: east.basicId, children: [] }],
    });
    expect(ids((await api.post('/api/DepartmentQuery/DepartmentPage', { keyword: 'sal' })).body.data.items)).toEqual([
      sales.basicId,
    ]);
    expect(
      ids((await api.post('/api/DepartmentQuery/DepartmentPage', { parentId: hq.basicId })).body.data.items),
    ).toEqual([sales.basicId]);
    const enabled = ids((await api.get('/api/DepartmentQuery/EnabledDepartments')).body.data);
    expect(enabled).toEqual(expect.arrayContaining([hq.basicId, sales.basicId]));
    expect(enabled).not.toContain(east.basicId);
  });

  it('moves subtrees (the closure follows), refuses a move under a descendant, and roots with parentId 0', async () => {
    const a = await create({ departmentName: 'A' });
    const b = await create({ parentId: a.basicId, departmentName: 'B' });
    const c = await create({ parentId: b.basicId, departmentName: 'C' });
    const cycle = await api.put('/api/Department/Department', { basicId: a.basicId, parentId: c.basicId });
    expect(cycle.status).toBe(422);
    expect(cycle.body.data).toMatch(/sub-departments/);
    const moved = await api.put('/api/Department/Department', {
      basicId: b.basicId,
      parentId: 0,
      departmentName: 'B2',
    });
    expect(moved.body.data).toMatchObject({ pathName: 'B2', version: 1 });
    expect(moved.body.data).not.toHaveProperty('parentId');
    expect((await api.get('/api/DepartmentQuery/DepartmentDetail', { id: c.basicId })).body.data.pathName).toBe('B2/C');
    expect(
      (await api.put('/api/Department/Department', { basicId: b.basicId, version: 0, departmentName: 'Stale' })).status,
    ).toBe(409);
  });

  it('switches status, deletes leaves only, and validates names and leaders', async () => {
    const parent = await create({ departmentName: 'Parent' });
    const child = await create({ parentId: parent.basicId, departmentName: 'Child' });
    expect(
      (await api.put('/api/Department/DepartmentStatus', { basicId: child.basicId, status: 'Disabled' })).body.data
        .status,
    ).toBe('Disabled');
    const refused = await api.del('/api/Department/Department', { id: parent.basicId });
    expect(refused.status).toBe(422);
    expect((await api.del('/api/Department/Department', { id: child.basicId })).body.data).toBe(true);
    expect((await api.del('/api/Department/Department', { id: parent.basicId })).body.data).toBe(true);
    expect((await api.get('/api/DepartmentQuery/DepartmentDetail', { id: parent.basicId })).status).toBe(404);

    expect((await api.post('/api/Department/Department', { departmentName: '   ' })).status).toBe(422);
    expect((await api.post('/api/Department/Department', { departmentName: 'Orphan', parentId: '999' })).status).toBe(
      404,
    );
    const stranger = await createTestUser(deps(), { tenantId: await createTestTenant(deps()) });
    const leader = await api.post('/api/Department/Department', {
      departmentName: 'Led',
      leaderId: String(stranger.id),
    });
    expect(leader.status).toBe(404);
    expect(leader.body.data).toMatch(/not a member/);
  });
});

describe('department audit', () => {
  const entry = (call: Call, action: AuditAction, id: string, detail: Record<string, unknown>) =>
    auditEntry(call, { action, actor: creator.id, tenantId, targetType: 'Department', targetId: id, detail });

  it('records one entry per department write, naming what changed', async () => {
    const audit = await watchAudit(server);
    const root = await api.post('/api/Department/Department', { departmentName: 'Audit root' });
    const rootId = root.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(root, 'DepartmentCreated', rootId, { departmentName: 'Audit root', parentId: null }),
    ]);
    const child = await api.post('/api/Department/Department', { parentId: rootId, departmentName: 'Audit child' });
    const id = child.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(child, 'DepartmentCreated', id, { departmentName: 'Audit child', parentId: rootId }),
    ]);

    const moved = await api.put('/api/Department/Department', {
      basicId: id,
      parentId: 0,
      departmentName: 'Audit moved',
      remark: 'r',
    });
    expect(await audit()).toEqual([
      entry(moved, 'DepartmentUpdated', id, {
        departmentName: 'Audit child',
        fields: ['departmentName', 'parentId', 'remark'],
        parentId: { from: rootId, to: null },
      }),
    ]);
    const disabled = await api.put('/api/Department/DepartmentStatus', { basicId: id, status: 'Disabled' });
    expect(await audit()).toEqual([
      entry(disabled, 'DepartmentStatusChanged', id, { from: 'Enabled', to: 'Disabled' }),
    ]);
    const deleted = await api.del('/api/Department/Department', { id });
    expect(await audit()).toEqual([entry(deleted, 'DepartmentDeleted', id, { departmentName: 'Audit moved' })]);
  });

  it('records nothing for refused department writes', async () => {
    const parent = await create({ departmentName: 'Refusing parent' });
    const child = await create({ parentId: parent.basicId, departmentName: 'Refusing child' });
    const { api: reader } = await tenantUser(server, tenantId, ['saas:department:read']);
    const audit = await watchAudit(server);
    expect((await api.del('/api/Department/Department', { id: parent.basicId })).status).toBe(422);
    expect(
      (await api.put('/api/Department/Department', { basicId: parent.basicId, parentId: child.basicId })).status,
    ).toBe(422);
    expect(
      (await api.put('/api/Department/DepartmentStatus', { basicId: child.basicId, status: 'Disabled', version: 9 }))
        .status,
    ).toBe(409);
    expect((await api.post('/api/Department/Department', { departmentName: '  ' })).status).toBe(422);
    expect((await reader.post('/api/Department/Department', { departmentName: 'Not allowed' })).status).toBe(403);
    expect(await audit()).toEqual([]);
  });
});

type Node = { basicId: string; children: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe('department authors', () => {
  it('names who created and who last changed a department (id and user name), in the detail, the page and the tree', () =>
    expectAuthors({
      server,
      tenantId,
      creator: { user: creator, api },
      create: (as, n) =>
        as.post('/api/Department/Department', { departmentName: `Authored ${n}`, departmentCode: `authored-${n}` }),
      update: (as, id) => as.put('/api/Department/Department', { basicId: id, remark: 'edited' }),
      detail: (as, id) => as.get('/api/DepartmentQuery/DepartmentDetail', { id }),
      lists: [
        async (as) => (await as.post('/api/DepartmentQuery/DepartmentPage', { keyword: 'authored' })).body.data.items,
        async (as) => flatten((await as.get('/api/DepartmentQuery/DepartmentTree')).body.data),
      ],
    }));
});
