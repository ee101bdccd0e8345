import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menus } from '../../../../db/schema/index.js';
import { createSuperAdmin, loginAs, type TestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { expectAuthors } from '../user/authors-test-kit.js';
import {
  adminApi,
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
let systemMenuId: string;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api, tenantId, user: creator } = await tenantWithAdmin(server, TENANT_ADMIN));
  const [system] = await server.runtime.deps.db
    .select({ id: menus.id })
    .from(menus)
    .where(and(eq(menus.tenantId, 0n), eq(menus.menuCode, 'system')));
  systemMenuId = String(system!.id);
});
afterAll(() => server.close());

const paths = (nodes: Array<{ path?: string; children?: unknown[] }>): string[] =>
  nodes.flatMap((n) => [n.path ?? '', ...paths((n.children ?? []) as never)]);

describe('menus', () => {
  it('lets every tenant read the global menus but change only its own', async () => {
    const list = await api.get('/api/MenuQuery/MenuList');
    const system = list.body.data.find((m: { basicId: string }) => m.basicId === systemMenuId);
    expect(system).toMatchObject({ menuCode: 'system', menuType: 'Directory', isGlobal: true });
    expect((await api.get('/api/MenuQuery/MenuDetail', { id: systemMenuId })).body.data.menuCode).toBe('system');

    for (const res of [
      await api.put('/api/Menu/Menu', { basicId: systemMenuId, menuName: 'Mine now' }),
      await api.put('/api/Menu/MenuStatus', { basicId: systemMenuId, status: 'Disabled' }),
      await api.del('/api/Menu/Menu', { id: systemMenuId }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.data).toMatch(/global menu/);
    }
  });

  it('creates tenant menus (under a global directory too), gated by a permission, shown only in that tenant', async () => {
    const created = await api.post('/api/Menu/Menu', {
      parentId: systemMenuId,
      menuType: 'Menu',
      menuCode: 'reports',
      menuName: 'Reports',
      path: '/system/reports',
      component: 'system/reports/index',
      permissionCode: 'saas:role:read',
      sort: 9,
    });
    expect(created.body.data).toMatchObject({
      isGlobal: false,
      parentId: systemMenuId,
      permissionCode: 'saas:role:read',
      menuType: 'Menu',
      status: 'Enabled',
    });
    const id = created.body.data.basicId;

    const tree = await api.get('/api/MenuQuery/MenuTree');
    const systemNode = tree.body.data.find((n: { basicId: string }) => n.basicId === systemMenuId);
    expect(systemNode.children.map((c: { basicId: string }) => c.basicId)).toContain(id);
    const page = await api.post('/api/MenuQuery/MenuPage', { keyword: 'reports' });
    expect(page.body.data.items.map((m: { basicId: string }) => m.basicId)).toEqual([id]);
    const own = await api.post('/api/MenuQuery/MenuPage', {
      conditions: { filters: [{ field: 'permissionCode', operator: 'Equal', value: 'saas:role:read' }] },
      menuType: 'Menu',
    });
    expect(own.body.data.items.map((m: { menuCode: string }) => m.menuCode).sort()).toEqual(['reports', 'role']);

    // The tenant's members holding the code see it in their menu routes; other tenants never do.
    const { api: reader } = await tenantUser(server, tenantId, ['saas:role:read']);
    expect(paths((await reader.get('/api/Auth/Permissions')).body.data.menus)).toContain('/system/reports');
    const { tenantId: otherTenant } = await tenantWithAdmin(server, TENANT_ADMIN);
    const { api: outsider } = await tenantUser(server, otherTenant, ['saas:role:read']);
    expect(paths((await outsider.get('/api/Auth/Permissions')).body.data.menus)).not.toContain('/system/reports');

    // Display-only after clearing the permission; stale versions answer 409.
    const cleared = await api.put('/api/Menu/Menu', { basicId: id, version: 0, permissionCode: null });
    expect(cleared.body.data).not.toHaveProperty('permissionCode');
    expect((await api.put('/api/Menu/Menu', { basicId: id, version: 0, menuName: 'Stale' })).status).toBe(409);
    expect((await api.post('/api/Menu/Menu', { menuType: 'Menu', menuCode: 'REPORTS', menuName: 'Twin' })).status).toBe(
      409,
    );
    expect(
      (
        await api.post('/api/Menu/Menu', {
          menuType: 'Menu',
          menuCode: 'x',
          menuName: 'x',
          permissionCode: 'saas:no:such',
        })
      ).status,
    ).toBe(422);
  });

  it('refuses cycles, deletes only leaves, switches status', async () => {
    const dir = (await api.post('/api/Menu/Menu', { menuType: 'Directory', menuCode: 'ops', menuName: 'Ops' })).body
      .data.basicId;
    const leaf = (
      await api.post('/api/Menu/Menu', { parentId: dir, menuType: 'Button', menuCode: 'ops:run', menuName: 'Run' })
    ).body.data.basicId;
    const cycle = await api.put('/api/Menu/Menu', { basicId: dir, parentId: leaf });
    expect(cycle.status).toBe(422);
    expect((await api.put('/api/Menu/Menu', { basicId: dir, parentId: dir })).status).toBe(422);
    expect(
      (await api.post('/api/Menu/Menu', { parentId: '123', menuType: 'Menu', menuCode: 'lost', menuName: 'Lost' }))
        .status,
    ).toBe(404);
    expect((await api.put('/api/Menu/MenuStatus', { basicId: leaf, status: 'Disabled' })).body.data.status).toBe(
      'Disabled',
    );
    expect((await api.del('/api/Menu/Menu', { id: dir })).status).toBe(422);
    expect((await api.del('/api/Menu/Menu', { id: leaf })).body.data).toBe(true);
    expect((await api.del('/api/Menu/Menu', { id: dir })).body.data).toBe(true);
    expect((await api.get('/api/MenuQuery/MenuDetail', { id: dir })).status).toBe(404);
  });

  it('lets the platform state manage the global menus, which then reach every tenant', async () => {
    const root = adminApi(server, (await loginAs(server, await createSuperAdmin(server.runtime.deps))).accessToken);
    const global = await root.post('/api/Menu/Menu', {
      parentId: systemMenuId,
      menuType: 'Menu',
      menuCode: 'announcements',
      menuName: 'Announcements',
      path: '/system/announcements',
    });
    expect(global.body.data.isGlobal).toBe(true);
    expect((await api.get('/api/MenuQuery/MenuDetail', { id: global.body.data.basicId })).body.data.menuCode).toBe(
      'announcements',
    );
    // Display-only (no permission): every member of every tenant sees it in the menu routes.
    const { api: member } = await tenantUser(server, tenantId);
    expect(paths((await member.get('/api/Auth/Permissions')).body.data.menus)).toContain('/system/announcements');
    expect((await root.del('/api/Menu/Menu', { id: global.body.data.basicId })).body.data).toBe(true);
  });
});

describe('menu audit', () => {
  const entry = (call: Call, action: AuditAction, id: string, detail: Record<string, unknown>) =>
    auditEntry(call, { action, actor: creator.id, tenantId, targetType: 'Menu', targetId: id, detail });

  it('records one entry per menu write; refused writes record none', async () => {
    const audit = await watchAudit(server);
    const created = await api.post('/api/Menu/Menu', {
      parentId: systemMenuId,
      menuType: 'Menu',
      menuCode: 'audit-log',
      menuName: 'Audit log',
      path: '/system/audit',
    });
    const id = created.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(created, 'MenuCreated', id, {
        menuCode: 'audit-log',
        menuType: 'Menu',
        parentId: systemMenuId,
        permissionId: null,
      }),
    ]);
    const updated = await api.put('/api/Menu/Menu', {
      basicId: id,
      menuName: 'Audit trail',
      permissionCode: 'saas:role:read',
    });
    expect(await audit()).toEqual([
      entry(updated, 'MenuUpdated', id, { menuCode: 'audit-log', fields: ['menuName', 'permissionId'] }),
    ]);
    const disabled = await api.put('/api/Menu/MenuStatus', { basicId: id, status: 'Disabled' });
    expect(await audit()).toEqual([entry(disabled, 'MenuStatusChanged', id, { from: 'Enabled', to: 'Disabled' })]);

    expect((await api.put('/api/Menu/MenuStatus', { basicId: systemMenuId, status: 'Disabled' })).status).toBe(403);
    expect(
      (await api.post('/api/Menu/Menu', { menuType: 'Menu', menuCode: 'AUDIT-LOG', menuName: 'Twin' })).status,
    ).toBe(409);
    expect((await api.put('/api/Menu/Menu', { basicId: id, parentId: id })).status).toBe(422);
    expect(await audit()).toEqual([]);

    const deleted = await api.del('/api/Menu/Menu', { id });
    expect(await audit()).toEqual([entry(deleted, 'MenuDeleted', id, { menuCode: 'audit-log' })]);
  });
});

type Node = { basicId: string; children: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe('menu authors', () => {
  it('names who created and who last changed a menu (id and user name), in the detail, the page, the list and the tree; nobody for seeded ones', async () => {
    await expectAuthors({
      server,
      tenantId,
      creator: { user: creator, api },
      create: (as, n) =>
        as.post('/api/Menu/Menu', { menuType: 'Menu', menuCode: `authored-${n}`, menuName: `Authored ${n}` }),
      update: (as, id) => as.put('/api/Menu/Menu', { basicId: id, remark: 'edited' }),
      detail: (as, id) => as.get('/api/MenuQuery/MenuDetail', { id }),
      lists: [
        async (as) => (await as.post('/api/MenuQuery/MenuPage', { keyword: 'authored' })).body.data.items,
        async (as) => (await as.get('/api/MenuQuery/MenuList')).body.data,
        async (as) => flatten((await as.get('/api/MenuQuery/MenuTree')).body.data),
      ],
    });
    // The seeded global menus were written by the system: no author to name.
    const system = (await api.get('/api/MenuQuery/MenuDetail', { id: systemMenuId })).body.data;
    expect(system.menuCode).toBe('system');
    for (const key of ['createdId', 'createdBy', 'modifiedId', 'modifiedBy']) expect(system).not.toHaveProperty(key);
  });
});
