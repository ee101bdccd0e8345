import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, tenantMemberships, users } from '../../../../db/schema/index.js';
import { createTestTenant, createTestUser, GOOD_PASSWORD, grantRole, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startTwoNodes, type TwoNodes } from '../../testing/two-nodes.js';
import { adminApi, startAdminServer } from '../../testing/admin.js';
import { member, tenantAdmin } from '../user/admin-test-kit.js';
import type { ReceiveNotification } from './payload.js';

/**
 * ReceiveNotification pushes, received by the client the admin front end uses
 * (@microsoft/signalr) over real WebSockets: security notices and announcements.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const SENDER_CODES = ['saas:message:publish', 'saas:message:read'];

async function connect(baseUrl: string, token: string) {
  const pushes: ReceiveNotification[] = [];
  const connection: HubConnection = new HubConnectionBuilder()
    .withUrl(`${baseUrl}/hubs/notification`, {
      accessTokenFactory: () => token,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  connection.on('ReceiveNotification', (payload: ReceiveNotification) => void pushes.push(payload));
  await connection.start();
  return { connection, pushes };
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Quiet for a moment: a push that was not meant to arrive has had its chance. */
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('ReceiveNotification', () => {
  it('pushes a security notice to the user at once, shaped as the inbox item', async () => {
    const tenantId = await createTestTenant(server.runtime.deps);
    const bob = await member(server.runtime.deps, tenantId);
    const token = (await loginAs(server, bob)).accessToken;
    const hub = await connect(server.url, token);
    const api = adminApi(server, token);
    expect(
      (await api.post('/api/Profile/ChangePassword', { oldPassword: GOOD_PASSWORD, newPassword: 'Other#Passw0rd!7' }))
        .status,
    ).toBe(200);
    await until(() => hub.pushes.length > 0);
    const [item] = (await api.get('/api/UserInbox/List')).body.data;
    expect(hub.pushes).toEqual([
      {
        type: 'Warning',
        title: 'Your password was changed',
        content: item.content,
        contentFormat: 'Text',
        basicId: item.basicId,
        notificationId: item.basicId,
        notificationType: 'Security',
        notificationStatus: 'Unread',
        sendTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    await hub.connection.stop();
  });

  it("pushes an announcement to every recipient's connections, and to no one else", async () => {
    const deps = server.runtime.deps;
    const tenantId = await createTestTenant(deps);
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await member(deps, tenantId);
    const carol = await member(deps, tenantId);
    const stranger = await member(deps, await createTestTenant(deps));
    const bobPhone = await connect(server.url, (await loginAs(server, bob)).accessToken);
    const bobLaptop = await connect(server.url, (await loginAs(server, bob)).accessToken);
    const onCarol = await connect(server.url, (await loginAs(server, carol)).accessToken);
    const onStranger = await connect(server.url, (await loginAs(server, stranger)).accessToken);

    const sent = (
      await admin.api.post('/api/Notification/Notification', {
        title: 'Release 2.0',
        content: 'Out now',
        notificationType: 'Business',
      })
    ).body.data;
    await until(() => bobPhone.pushes.length > 0 && bobLaptop.pushes.length > 0 && onCarol.pushes.length > 0);
    expect(bobPhone.pushes).toEqual([
      expect.objectContaining({
        type: 'Success',
        title: 'Release 2.0',
        content: 'Out now',
        notificationId: sent.basicId,
        notificationType: 'Business',
        notificationStatus: 'Unread',
      }),
    ]);
    expect(bobLaptop.pushes).toEqual(bobPhone.pushes);
    // Each recipient's push names its own inbox item.
    const bobsItem = (await adminApi(server, (await loginAs(server, bob)).accessToken).get('/api/UserInbox/List')).body
      .data[0];
    expect(bobPhone.pushes[0]!.basicId).toBe(bobsItem.basicId);
    expect(onCarol.pushes[0]!.basicId).not.toBe(bobsItem.basicId);

    // A role announcement reaches its holders only.
    const roleId = await grantRole(deps, carol.id, tenantId, ['saas:user:read']);
    await admin.api.post('/api/Notification/Notification', {
      title: 'Readers only',
      targetType: 'Role',
      targetRoleId: String(roleId),
    });
    await until(() => onCarol.pushes.length === 2);
    await settle();
    expect(onCarol.pushes[1]).toMatchObject({ title: 'Readers only', type: 'Info', notificationType: 'System' });
    expect(bobPhone.pushes).toHaveLength(1);
    expect(onStranger.pushes).toEqual([]);
    for (const hub of [bobPhone, bobLaptop, onCarol, onStranger]) await hub.connection.stop();
  });

  it('follows the notification switches: in-app or announcements off, nothing; mandatory notices regardless', async () => {
    const deps = server.runtime.deps;
    const tenantId = await createTestTenant(deps);
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const quiet = await member(deps, tenantId);
    const noNews = await member(deps, tenantId);
    const quietToken = (await loginAs(server, quiet)).accessToken;
    const quietApi = adminApi(server, quietToken);
    const noNewsApi = adminApi(server, (await loginAs(server, noNews)).accessToken);
    expect((await quietApi.put('/api/Profile/NotificationPreference', { channelInApp: false })).status).toBe(200);
    expect((await noNewsApi.put('/api/Profile/NotificationPreference', { typeAnnouncement: false })).status).toBe(200);
    const hub = await connect(server.url, quietToken);

    expect((await admin.api.post('/api/Notification/Notification', { title: 'News' })).body.data.recipientCount).toBe(
      1,
    );
    expect((await noNewsApi.get('/api/UserInbox/List')).body.data).toEqual([]);
    // A user-name change honours the switch; a password change always goes out.
    expect(
      (
        await quietApi.post('/api/Profile/ChangeUserName', {
          userName: `q_${quiet.id}`.slice(0, 30),
          password: GOOD_PASSWORD,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await quietApi.post('/api/Profile/ChangePassword', {
          oldPassword: GOOD_PASSWORD,
          newPassword: 'Other#Passw0rd!7',
        })
      ).status,
    ).toBe(200);
    await until(() => hub.pushes.length > 0);
    await settle();
    expect(hub.pushes.map((p) => p.title)).toEqual(['Your password was changed']);
    expect((await quietApi.get('/api/UserInbox/List')).body.data.map((i: { title: string }) => i.title)).toEqual([
      'Your password was changed',
    ]);
    await hub.connection.stop();
  });

  it('fans a large announcement out in a few store messages, reaching a connected member', async () => {
    const deps = server.runtime.deps;
    const tenantId = await createTestTenant(deps);
    const admin = await tenantAdmin(server, tenantId, { codes: SENDER_CODES });
    const bob = await member(deps, tenantId);
    const hub = await connect(server.url, (await loginAs(server, bob)).accessToken);
    // Members without credentials, written in bulk: they receive, they never sign in.
    const crowd = Array.from({ length: 1100 }, () => deps.ids.next());
    await deps.db.insert(users).values(crowd.map((id) => ({ id, tenantId, userName: `crowd_${id}` })));
    await deps.db.insert(tenantMemberships).values(crowd.map((userId) => ({ id: deps.ids.next(), tenantId, userId })));

    const published: string[] = [];
    const publish = deps.store.publish.bind(deps.store);
    deps.store.publish = async (channel, message) => {
      if (channel === 'hub:notification') published.push(message);
      return publish(channel, message);
    };
    let sent: { basicId: string; recipientCount: number };
    try {
      sent = (await admin.api.post('/api/Notification/Notification', { title: 'Everyone', content: 'x'.repeat(2000) }))
        .body.data;
      expect(sent.recipientCount).toBe(1102);
      await until(() => hub.pushes.length > 0);
      expect(hub.pushes[0]).toMatchObject({ title: 'Everyone', notificationId: sent.basicId });
    } finally {
      deps.store.publish = publish;
    }
    // 1,102 pushes of about 2 KB: bounded by size (1 MB) before count (500).
    const batches = published.map((m) => JSON.parse(m) as unknown[]);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches.reduce((n, b) => n + b.length, 0)).toBe(1102);
    expect(Math.max(...published.map((m) => m.length))).toBeLessThanOrEqual(1_000_002);
    const rows = await deps.db
      .select({ n: count() })
      .from(notifications)
      .where(eq(notifications.notificationId, BigInt(sent.basicId)));
    expect(rows[0]!.n).toBe(1102);
    await hub.connection.stop();
  });
});

describe('ReceiveNotification across nodes', () => {
  let cluster: TwoNodes;
  beforeAll(async () => {
    cluster = await startTwoNodes({ Saas: { Auth: { CaptchaEnabled: false } } });
  });
  afterAll(() => cluster?.close());

  const login = async (url: string, user: { email: string | null; password: string }) => {
    const res = await fetch(`${url}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.email, password: user.password }),
    });
    return ((await res.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
  };
  const post = (url: string, token: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  it('reaches a connection on node B when node A writes the inbox row', async () => {
    const [a, b] = cluster.nodes;
    const deps = a.runtime.deps;
    const tenantId = await createTestTenant(deps);
    const sender = await createTestUser(deps, { tenantId, memberOf: [tenantId] });
    await grantRole(deps, sender.id, tenantId, SENDER_CODES);
    const bob = await createTestUser(deps, { tenantId, memberOf: [tenantId] });
    const bobToken = await login(b.url, bob);
    const hub = await connect(b.url, bobToken);

    const sent = await post(a.url, await login(a.url, sender), '/api/Notification/Notification', {
      title: 'From node A',
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    await until(() => hub.pushes.length > 0);
    expect(hub.pushes[0]).toMatchObject({ title: 'From node A', notificationStatus: 'Unread' });

    // A security notice written through node A reaches the connection on node B too.
    const changed = await post(a.url, bobToken, '/api/Profile/ChangePassword', {
      oldPassword: GOOD_PASSWORD,
      newPassword: 'Other#Passw0rd!7',
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    await until(() => hub.pushes.length > 1);
    expect(hub.pushes[1]).toMatchObject({ type: 'Warning', notificationType: 'Security' });
    await hub.connection.stop();
  });
});
