import {
  HttpTransportType,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { TestServer } from '../../testing/harness.js';
import { startTwoNodes, type TwoNodes } from '../../testing/two-nodes.js';
import { MAX_CONNECTIONS_PER_USER } from './notification-hub.js';
import { bearer, claimsOf, createTestUser, grantRole, loginAs } from '../../testing/auth-fixtures.js';
import { ADMIN_CODES, member, USER_ADMIN } from '../user/admin-test-kit.js';
import { startAdminServer, tenantWithAdmin } from '../../testing/admin.js';
import { pollUntil } from '../../testing/poll.js';

/**
 * The notification hub with the client the admin front end uses (@microsoft/signalr), over real
 * WebSockets: a revoked session's connections are told ForceLogout and closed.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

interface ForceLogout {
  reason: string;
  targetSessionIds: string[] | null;
}

/** A connected hub client, collecting ForceLogout pushes and noticing when it is closed. */
async function connect(baseUrl: string, token: string) {
  const pushes: ForceLogout[] = [];
  const connection: HubConnection = new HubConnectionBuilder()
    .withUrl(`${baseUrl}/hubs/notification`, {
      accessTokenFactory: () => token,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  connection.on('ForceLogout', (payload: ForceLogout) => void pushes.push(payload));
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose((error) => resolve(error)));
  await connection.start();
  return { connection, pushes, closed };
}

const until = (check: () => boolean) => pollUntil(check, { intervalMs: 10 });

describe('notification hub', () => {
  it("pushes ForceLogout to the logged-out session's connections only (a logout signed out the user's other devices)", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(server.runtime.deps, tenantId);
    const phone = (await loginAs(server, bob)).accessToken;
    const laptop = (await loginAs(server, bob)).accessToken;
    const onPhone = await connect(server.url, phone);
    const onLaptop = await connect(server.url, laptop);
    const phoneSession = String(claimsOf(phone).SessionId);
    const laptopSession = String(claimsOf(laptop).SessionId);

    expect((await server.json('/api/Auth/Logout', { method: 'POST', headers: bearer(phone) })).status).toBe(200);
    await until(() => onPhone.pushes.length > 0);
    expect(onPhone.pushes).toEqual([{ reason: 'Logout', targetSessionIds: [phoneSession] }]);
    await onPhone.closed;
    expect(onLaptop.connection.state).toBe(HubConnectionState.Connected);

    // The next push the laptop gets is its own: pushes reach a connection in order, so had the
    // phone's reached it, it would be first.
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: laptopSession })).status).toBe(200);
    await until(() => onLaptop.pushes.length > 0);
    expect(onLaptop.pushes).toEqual([{ reason: expect.any(String), targetSessionIds: [laptopSession] }]);
    await onLaptop.closed;
  });

  it("pushes an administrator's revoke to the revoked session's connections only, and closes them", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(server.runtime.deps, tenantId);
    const phone = (await loginAs(server, bob)).accessToken;
    const laptop = (await loginAs(server, bob)).accessToken;
    const onPhone = await connect(server.url, phone);
    const onLaptop = await connect(server.url, laptop);
    expect(server.runtime.deps.notificationHub.connectionCount()).toBeGreaterThanOrEqual(2);

    const phoneSession = String(claimsOf(phone).SessionId);
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: phoneSession })).status).toBe(200);
    await until(() => onPhone.pushes.length > 0);
    expect(onPhone.pushes).toEqual([{ reason: expect.any(String), targetSessionIds: [phoneSession] }]);
    // The revoked session's connection is closed; the other stays.
    await onPhone.closed;
    expect(onPhone.connection.state).toBe(HubConnectionState.Disconnected);
    expect(onLaptop.connection.state).toBe(HubConnectionState.Connected);
    // And it cannot come back.
    await expect(connect(server.url, phone)).rejects.toThrow();

    // The laptop's first push is its own logout's.
    expect((await server.json('/api/Auth/Logout', { method: 'POST', headers: bearer(laptop) })).status).toBe(200);
    await until(() => onLaptop.pushes.length > 0);
    expect(onLaptop.pushes).toEqual([{ reason: 'Logout', targetSessionIds: [String(claimsOf(laptop).SessionId)] }]);
    await onLaptop.closed;
  });

  it('tells every connection on user deletion, with no session list (all of them)', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(server.runtime.deps, tenantId);
    const hubs = [
      await connect(server.url, (await loginAs(server, bob)).accessToken),
      await connect(server.url, (await loginAs(server, bob)).accessToken),
    ];
    expect((await api.del('/api/User/User', { id: bob.id })).status).toBe(200);
    await until(() => hubs.every((hub) => hub.pushes.length > 0));
    for (const hub of hubs) {
      expect(hub.pushes).toEqual([{ reason: expect.any(String), targetSessionIds: null }]);
      await hub.closed;
    }
  });

  it('refuses a missing, wrong or revoked token at negotiate and at the socket', async () => {
    const negotiate = await server.json('/hubs/notification/negotiate?negotiateVersion=1', { method: 'POST' });
    expect(negotiate.status).toBe(401);
    expect(negotiate.body).toMatchObject({ code: 401, isSuccess: false });
    await expect(connect(server.url, 'not-a-token')).rejects.toThrow();
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/hubs/notification?access_token=nope`);
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
    const elsewhere = new WebSocket(`${server.url.replace('http', 'ws')}/hubs/elsewhere`);
    expect(
      await new Promise<number>((resolve) =>
        elsewhere.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      ),
    ).toBe(404);
  });

  it('speaks the JSON protocol only, and has no client methods', async () => {
    const user = await createTestUser(server.runtime.deps, { tenantId: 0n });
    await grantRole(server.runtime.deps, user.id, 0n, ADMIN_CODES.slice(0, 1));
    const token = (await loginAs(server, user)).accessToken;
    const open = async () => {
      const socket = new WebSocket(
        `${server.url.replace('http', 'ws')}/hubs/notification?access_token=${encodeURIComponent(token)}`,
      );
      const frames: string[] = [];
      socket.on('message', (data) => frames.push(data.toString()));
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.on('open', resolve));
      return { socket, frames, closed };
    };
    const binary = await open();
    binary.socket.send('{"protocol":"messagepack","version":1}\u001e');
    expect(await binary.closed).toBe(1002);
    expect(binary.frames[0]).toMatch(/not supported/);

    const json = await open();
    json.socket.send('{"protocol":"json","version":1}\u001e');
    await until(() => json.frames.length > 0);
    expect(json.frames[0]).toBe('{}\u001e');
    json.socket.send('{"type":1,"invocationId":"7","target":"SendMessage","arguments":[]}\u001e{"type":6}\u001e');
    await until(() => json.frames.length > 1);
    expect(JSON.parse(json.frames[1]!.slice(0, -1))).toEqual({
      type: 3,
      invocationId: '7',
      error: "Method 'SendMessage' does not exist.",
    });
    json.socket.send('no separator');
    expect(await json.closed).toBe(1003);

    // Valid JSON that is not an object (null first: reading a field of it threw and ended the process).
    for (const payload of ['null', '42', '[]', '"x"']) {
      const odd = await open();
      odd.socket.send('{"protocol":"json","version":1}\u001e');
      await until(() => odd.frames.length > 0);
      odd.socket.send(`${payload}\u001e`);
      expect(await odd.closed, payload).toBe(1003);
    }
    expect((await server.json('/health')).status).toBe(200);
  });

  it('closes a socket of a session revoked before its handshake', async () => {
    const user = await createTestUser(server.runtime.deps, { tenantId: 0n });
    const token = (await loginAs(server, user)).accessToken;
    const socket = new WebSocket(
      `${server.url.replace('http', 'ws')}/hubs/notification?access_token=${encodeURIComponent(token)}`,
    );
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    await server.runtime.deps.sessions.revoke(
      user.id,
      [BigInt(String(claimsOf(token).SessionId))],
      'Revoked by administrator',
    );
    expect(await closed).toBe(1000);
  });
});

describe('notification hub across nodes', () => {
  let cluster: TwoNodes;
  beforeAll(async () => {
    cluster = await startTwoNodes({ Saas: { Auth: { CaptchaEnabled: false } } });
  });
  afterAll(() => cluster?.close());

  it('reaches a connection on node B when node A revokes the session', async () => {
    const [a, b] = cluster.nodes;
    const deps = a.runtime.deps;
    const user = await createTestUser(deps, { tenantId: 0n });
    const login = async (url: string) => {
      const res = await fetch(`${url}/api/Auth/Login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.email, password: user.password }),
      });
      return ((await res.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    };
    const token = await login(b.url);
    const hub = await connect(b.url, token);
    const sessionId = String(claimsOf(token).SessionId);
    // Revoked through node A's services: the push goes through the shared store to node B.
    await a.runtime.deps.sessions.revoke(user.id, [BigInt(sessionId)], 'Revoked by administrator');
    await until(() => hub.pushes.length > 0);
    expect(hub.pushes[0]).toEqual({ reason: 'Revoked by administrator', targetSessionIds: [sessionId] });
    await hub.closed;
  });
});

describe('notification hub limits', () => {
  it('refuses a user more connections than the cap, counting those still in their handshake', async () => {
    const user = await createTestUser(server.runtime.deps, { tenantId: 0n });
    const token = (await loginAs(server, user)).accessToken;
    const url = `${server.url.replace('http', 'ws')}/hubs/notification?access_token=${encodeURIComponent(token)}`;
    const opened: WebSocket[] = [];
    // None of these sends its handshake.
    for (let i = 0; i < MAX_CONNECTIONS_PER_USER; i++) {
      const socket = new WebSocket(url);
      await new Promise((resolve, reject) => {
        socket.on('open', resolve);
        socket.on('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      });
      opened.push(socket);
    }
    const extra = new WebSocket(url);
    expect(
      await new Promise<number>((resolve) =>
        extra.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      ),
    ).toBe(429);
    // One leaves: there is room again.
    const leaving = opened.pop()!;
    await new Promise<void>((resolve) => {
      leaving.on('close', () => resolve());
      leaving.close();
    });
    // The server sees the close a moment later: retried until it does (at most 3 s).
    const tryOpen = () =>
      new Promise<WebSocket | undefined>((resolve) => {
        const socket = new WebSocket(url);
        socket.on('open', () => resolve(socket));
        socket.on('unexpected-response', () => resolve(undefined));
      });
    let again: WebSocket | undefined;
    for (const started = Date.now(); !again && Date.now() - started < 3000; ) again = await tryOpen();
    expect(again).toBeDefined();
    for (const socket of [...opened, again!]) socket.terminate();
  });
});
