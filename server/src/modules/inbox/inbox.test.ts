import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  GOOD_PASSWORD,
  grantRole,
  loginAs,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { adminApi, startAdminServer, type AdminApi } from '../../testing/admin.js';
import { member, tenantAdmin } from '../user/admin-test-kit.js';

/** The message center over HTTP: the caller's inbox, announcements, isolation and bad input. */
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const SENDER_CODES = ['saas:message:publish', 'saas:message:read'];

type Item = {
  basicId: string;
  notificationId: string;
  title: string;
  notificationType: string;
  notificationStatus: string;
  readTime: string | null;
  isGlobal: boolean;
};

async function memberApi(tenantId: bigint) {
  const user = await member(deps(), tenantId);
  return { user, api: adminApi(server, (await loginAs(server, user)).accessToken) };
}

async function send(api: AdminApi, body: Record<string, unknown>) {
  const res = await api.post('/api/Notification/Notification', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { basicId: string; recipientCount: number; sendTime: string };
}

const list = async (api: AdminApi, unreadOnly?: boolean) =>
  (await api.get('/api/UserInbox/List', unreadOnly === undefined ? {} : { unreadOnly })).body.data as Item[];
const unread = async (api: AdminApi) => (await api.get('/api/UserInbox/UnreadCount')).body.data.unreadCount as number;

describe('UserInbox', () => {
  it('holds a security notice: ChangePassword writes one, readable in the list and the count', async () => {
    const tenantId = await createTestTenant(deps());
    const { api } = await memberApi(tenantId);
    expect(await list(api)).toEqual([]);
    expect(await unread(api)).toBe(0);
    expect(
      (await api.post('/api/Profile/ChangePassword', { oldPassword: GOOD_PASSWORD, newPassword: 'Other#Passw0rd!7' }))
        .status,
    ).toBe(200);
    const items = await list(api);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      notificationType: 'Security',
      notificationStatus: 'Unread',
      title: 'Your password was changed',
      isGlobal: false,
      priority: 'Normal',
      contentFormat: 'Text',
    });
    // Nulls are left out of the envelope.
    expect(items[0]).not.toHaveProperty('readTime');
    expect(items[0]!.notificationId).toBe(items[0]!.basicId);
    expect(await unread(api)).toBe(1);
  });

  it('delivers an announcement to every admitted member of the tenant, and no one else', async () => {
    const tenantId = await createTestTenant(deps());
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await memberApi(tenantId);
    const stranger = await memberApi(await createTestTenant(deps()));
    const sent = await send(admin.api, {
      title: 'Maintenance tonight',
      content: '**22:00**',
      contentFormat: 'Markdown',
      notificationType: 'Emergency',
    });
    expect(sent.recipientCount).toBe(2);
    const items = await list(bob.api);
    expect(items).toEqual([
      expect.objectContaining({
        notificationId: sent.basicId,
        title: 'Maintenance tonight',
        content: '**22:00**',
        contentFormat: 'Markdown',
        notificationType: 'Emergency',
        notificationStatus: 'Unread',
        isGlobal: true,
      }),
    ]);
    expect(await list(admin.api)).toHaveLength(1);
    expect(await list(stranger.api)).toEqual([]);
  });

  it("marks read, marks all read, deletes, and answers 404 for an item that is not the caller's", async () => {
    const tenantId = await createTestTenant(deps());
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await memberApi(tenantId);
    const carol = await memberApi(tenantId);
    for (const title of ['one', 'two', 'three']) await send(admin.api, { title });
    const [three, two, one] = await list(bob.api);
    expect([three!.title, two!.title, one!.title]).toEqual(['three', 'two', 'one']);

    expect((await bob.api.post('/api/UserInbox/MarkRead', { basicId: two!.basicId })).status).toBe(200);
    const read = (await list(bob.api)).find((i) => i.basicId === two!.basicId)!;
    expect(read).toMatchObject({ notificationStatus: 'Read', readTime: expect.any(String) });
    // Again: still read, the first read time kept.
    expect((await bob.api.post('/api/UserInbox/MarkRead', { basicId: two!.basicId })).status).toBe(200);
    expect((await list(bob.api)).find((i) => i.basicId === two!.basicId)!.readTime).toBe(read.readTime);
    expect(await unread(bob.api)).toBe(2);
    expect((await list(bob.api, true)).map((i) => i.title)).toEqual(['three', 'one']);

    // Carol's copy of the same announcement is hers alone.
    const carolsOne = (await list(carol.api)).find((i) => i.title === 'one')!;
    for (const attempt of [
      () => bob.api.post('/api/UserInbox/MarkRead', { basicId: carolsOne.basicId }),
      () => bob.api.del('/api/UserInbox/InboxItem', { basicId: carolsOne.basicId }),
      () => bob.api.post('/api/UserInbox/MarkRead', { basicId: '999999999999' }),
      () => bob.api.del('/api/UserInbox/InboxItem', { basicId: '999999999999' }),
    ]) {
      const res = await attempt();
      expect(res.status).toBe(404);
      expect(res.body.data).toMatch(/does not exist/);
    }
    expect((await list(carol.api)).every((i) => i.notificationStatus === 'Unread')).toBe(true);

    expect((await bob.api.post('/api/UserInbox/MarkAllRead')).body.data).toEqual({ markedCount: 2 });
    expect(await unread(bob.api)).toBe(0);
    expect((await bob.api.post('/api/UserInbox/MarkAllRead')).body.data).toEqual({ markedCount: 0 });
    expect(await unread(carol.api)).toBe(3);

    expect((await bob.api.del('/api/UserInbox/InboxItem', { basicId: one!.basicId })).status).toBe(200);
    expect((await list(bob.api)).map((i) => i.title)).toEqual(['three', 'two']);
    expect((await bob.api.del('/api/UserInbox/InboxItem', { basicId: one!.basicId })).status).toBe(404);
    expect(await list(carol.api)).toHaveLength(3);
  });

  it('pages the inbox with the paged-query protocol and its filters', async () => {
    const tenantId = await createTestTenant(deps());
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await memberApi(tenantId);
    for (let i = 1; i <= 5; i++)
      await send(admin.api, { title: `note ${i}`, notificationType: i === 5 ? 'Business' : 'System' });
    const first = (await bob.api.post('/api/UserInbox/InboxPage', { page: { pageIndex: 1, pageSize: 2 } })).body.data;
    expect(first.items.map((i: Item) => i.title)).toEqual(['note 5', 'note 4']);
    expect(first.page).toMatchObject({ pageIndex: 1, pageSize: 2, totalCount: 5, hasNext: true });
    const last = (await bob.api.post('/api/UserInbox/InboxPage', { page: { pageIndex: 3, pageSize: 2 } })).body.data;
    expect(last.items.map((i: Item) => i.title)).toEqual(['note 1']);
    expect(last.page.hasNext).toBe(false);

    await bob.api.post('/api/UserInbox/MarkRead', { basicId: first.items[0].basicId });
    const readOnes = (await bob.api.post('/api/UserInbox/InboxPage', { notificationStatus: 'Read' })).body.data;
    expect(readOnes.items.map((i: Item) => i.title)).toEqual(['note 5']);
    expect((await bob.api.post('/api/UserInbox/InboxPage', { unreadOnly: true })).body.data.page.totalCount).toBe(4);
    expect(
      (await bob.api.post('/api/UserInbox/InboxPage', { notificationType: 'Business' })).body.data.items.map(
        (i: Item) => i.title,
      ),
    ).toEqual(['note 5']);
    expect(
      (await bob.api.post('/api/UserInbox/InboxPage', { keyword: 'note 3' })).body.data.items.map((i: Item) => i.title),
    ).toEqual(['note 3']);
    const sorted = (
      await bob.api.post('/api/UserInbox/InboxPage', {
        conditions: { sorts: [{ field: 'title', direction: 'Ascending' }] },
        page: { pageSize: 1 },
      })
    ).body.data;
    expect(sorted.items.map((i: Item) => i.title)).toEqual(['note 1']);
    const filtered = (
      await bob.api.post('/api/UserInbox/InboxPage', {
        conditions: { filters: [{ field: 'isRead', operator: 'Equal', value: false }] },
      })
    ).body.data;
    expect(filtered.page.totalCount).toBe(4);
  });

  it('shows items of the current tenant only, and security notices in every tenant', async () => {
    const home = await createTestTenant(deps());
    const other = await createTestTenant(deps());
    const adminHome = await tenantAdmin(server, home, { codes: SENDER_CODES });
    const adminOther = await tenantAdmin(server, other, { codes: SENDER_CODES });
    const ann = await createTestUser(deps(), { tenantId: home, memberOf: [home, other] });
    // A user of two tenants signs in to the platform state and chooses one.
    const platform = adminApi(server, (await loginAs(server, ann)).accessToken);
    await send(adminHome.api, { title: 'home news' });
    await send(adminOther.api, { title: 'other news' });
    // An announcement its sender typed Security is still the tenant's.
    await send(adminOther.api, { title: 'other alert', notificationType: 'Security' });
    expect(
      (
        await platform.post('/api/Profile/ChangePassword', {
          oldPassword: GOOD_PASSWORD,
          newPassword: 'Other#Passw0rd!7',
        })
      ).status,
    ).toBe(200);
    expect((await list(platform)).map((i) => i.title)).toEqual(['Your password was changed']);
    const inHome = adminApi(
      server,
      (await platform.post('/api/Auth/SwitchTenant', { tenantId: String(home) })).body.data.accessToken,
    );

    expect((await list(inHome)).map((i) => i.title).sort()).toEqual(['Your password was changed', 'home news']);
    const switched = await inHome.post('/api/Auth/SwitchTenant', { tenantId: String(other) });
    expect(switched.status).toBe(200);
    const inOther = adminApi(server, switched.body.data.accessToken);
    const there = await list(inOther);
    expect(there.map((i) => i.title).sort()).toEqual(['Your password was changed', 'other alert', 'other news']);
    expect(await unread(inOther)).toBe(3);

    // The other tenant's item, addressed from the home context: as if it did not exist.
    const otherNews = there.find((i) => i.title === 'other news')!;
    const back = await inOther.post('/api/Auth/SwitchTenant', { tenantId: String(home) });
    const homeAgain = adminApi(server, back.body.data.accessToken);
    expect((await homeAgain.post('/api/UserInbox/MarkRead', { basicId: otherNews.basicId })).status).toBe(404);
    expect((await homeAgain.del('/api/UserInbox/InboxItem', { basicId: otherNews.basicId })).status).toBe(404);
    expect((await homeAgain.post('/api/UserInbox/MarkAllRead')).body.data).toEqual({ markedCount: 2 });
    const otherAgain = adminApi(
      server,
      (await homeAgain.post('/api/Auth/SwitchTenant', { tenantId: String(other) })).body.data.accessToken,
    );
    expect(await unread(otherAgain)).toBe(2);
  });

  it('refuses bad input with an envelope error', async () => {
    const { api } = await memberApi(await createTestTenant(deps()));
    for (const body of [{}, { basicId: 'abc' }, { basicId: -1 }, { basicId: '1'.repeat(30) }, { basicId: null }]) {
      const res = await api.post('/api/UserInbox/MarkRead', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ isSuccess: false });
    }
    expect((await api.del('/api/UserInbox/InboxItem', { basicId: 'x' })).status).toBe(400);
    expect((await api.del('/api/UserInbox/InboxItem')).status).toBe(400);
    expect((await api.get('/api/UserInbox/List', { unreadOnly: 'perhaps' })).status).toBe(400);
    for (const body of [
      { notificationStatus: 'Deleted' },
      { notificationType: 'Gossip' },
      { page: { pageSize: 'ten' } },
      { keyword: 'k'.repeat(201) },
    ]) {
      const res = await api.post('/api/UserInbox/InboxPage', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await server.json('/api/UserInbox/List')).status).toBe(401);
  });
});

describe('Notification (announcements)', () => {
  it("sends to a role's holders only, and lists what was sent in the context", async () => {
    const tenantId = await createTestTenant(deps());
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await memberApi(tenantId);
    const carol = await memberApi(tenantId);
    const roleId = await grantRole(deps(), bob.user.id, tenantId, ['saas:user:read']);
    const sent = await send(admin.api, { title: 'For readers', targetType: 'Role', targetRoleId: String(roleId) });
    expect(sent.recipientCount).toBe(1);
    expect((await list(bob.api)).map((i) => [i.title, i.isGlobal])).toEqual([['For readers', false]]);
    expect(await list(carol.api)).toEqual([]);
    await send(admin.api, { title: 'For all' });

    const page = (await admin.api.post('/api/NotificationQuery/NotificationPage', { page: { pageSize: 1 } })).body.data;
    expect(page.items).toEqual([
      expect.objectContaining({
        title: 'For all',
        targetType: 'All',
        recipientCount: 3,
        sendUserId: String(admin.user.id),
        isPublished: true,
      }),
    ]);
    expect(page.page).toMatchObject({ totalCount: 2, hasNext: true });
    const byRole = (await admin.api.post('/api/NotificationQuery/NotificationPage', { targetType: 'Role' })).body.data
      .items;
    expect(byRole).toEqual([
      expect.objectContaining({ basicId: sent.basicId, targetRoleId: String(roleId), recipientCount: 1 }),
    ]);
    expect(
      (await admin.api.post('/api/NotificationQuery/NotificationPage', { keyword: 'readers' })).body.data.items,
    ).toHaveLength(1);

    // Another tenant's administrator sees none of these.
    const otherAdmin = await tenantAdmin(server, await createTestTenant(deps()), { codes: SENDER_CODES });
    expect((await otherAdmin.api.post('/api/NotificationQuery/NotificationPage', {})).body.data.items).toEqual([]);
    // Nor can it target this tenant's role.
    const foreignRole = await otherAdmin.api.post('/api/Notification/Notification', {
      title: 'x',
      targetType: 'Role',
      targetRoleId: String(roleId),
    });
    expect(foreignRole.status).toBe(404);
    expect(foreignRole.body.data).toMatch(/Role .* does not exist/);
  });

  it('needs its permission codes, a tenant context and valid input', async () => {
    const tenantId = await createTestTenant(deps());
    const plain = await memberApi(tenantId);
    expect((await plain.api.post('/api/Notification/Notification', { title: 'x' })).status).toBe(403);
    expect((await plain.api.post('/api/NotificationQuery/NotificationPage', {})).status).toBe(403);
    const readOnly = await tenantAdmin(server, tenantId, { codes: ['saas:message:read'] });
    expect((await readOnly.api.post('/api/Notification/Notification', { title: 'x' })).status).toBe(403);
    expect((await readOnly.api.post('/api/NotificationQuery/NotificationPage', {})).status).toBe(200);

    const root = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
    const platform = await root.post('/api/Notification/Notification', { title: 'to whom?' });
    expect(platform.status).toBe(422);
    expect(platform.body.data).toMatch(/switch to one/);

    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    for (const body of [
      {},
      { title: '' },
      { title: '   ' },
      { title: 't'.repeat(256) },
      { title: 'x', content: 'c'.repeat(20_001) },
      { title: 'x', targetType: 'Department' },
      { title: 'x', targetType: 'Role' },
      { title: 'x', targetType: 'Role', targetRoleId: 'abc' },
      { title: 'x', notificationType: 'Gossip' },
      { title: 'x', contentFormat: 'Pdf' },
      { title: 42 },
    ]) {
      const res = await admin.api.post('/api/Notification/Notification', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    expect(
      (
        await admin.api.post('/api/Notification/Notification', {
          title: 'x',
          targetType: 'Role',
          targetRoleId: '999999999999',
        })
      ).status,
    ).toBe(404);
    expect((await admin.api.post('/api/NotificationQuery/NotificationPage', { targetType: 'Everyone' })).status).toBe(
      400,
    );
  });
});
