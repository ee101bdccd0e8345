import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../testing/auth-fixtures.js';
import { testBackends, type TestBackends, type TestServer } from '../../testing/harness.js';
import { startTwoNodes, type TwoNodes } from '../../testing/two-nodes.js';
import { startRestartableRedis, type RestartableRedis } from '../../stores/testing-redis.js';
import { referenceSign, type ReferenceCredential } from './reference-signer.js';
import { issueCredential, startSignedServer, untilNextSecond } from './test-kit.js';
import { pollUntil } from '../../testing/poll.js';

/**
 * A signed request is accepted once: its nonce is remembered while its timestamp is acceptable.
 * When that record is lost as a whole (Redis restarted without persistence or flushed; the
 * process holding the in-process record restarted), the request must not be accepted again:
 * whatever was signed before the new record began is refused (409), what is signed after it
 * passes.
 */

const en = { 'X-Language': 'en-US' };
const PREDATES =
  'The request was signed before the record of used nonces began (it was reset), so it cannot be told from a replay; sign it again with the current time and a new X-Nonce.';
const REPLAYED = 'Replayed request: this X-Nonce was already used.';
const ping = { method: 'GET', path: '/api/openapi/Ping' } as const;
// Both servers of a restart must open the secrets either one sealed.
const CREDENTIAL_KEYS = { Security: { CredentialKeys: { k1: randomBytes(32).toString('base64') } } };

type Signed = ReturnType<typeof referenceSign>;

async function send(baseUrl: string, signed: Signed): Promise<{ status: number; code: unknown; data: unknown }> {
  const res = await fetch(baseUrl + signed.url, { headers: { ...signed.headers, ...en } });
  const body = (await res.json()) as { code: unknown; data: unknown };
  return { status: res.status, code: body.code, data: body.data };
}

const accepted = { status: 200, code: 200, data: expect.objectContaining({ ok: true }) };
const predates = { status: 409, code: 409, data: PREDATES };
const replayed = { status: 409, code: 409, data: REPLAYED };

const until = (check: () => Promise<boolean>, what: string) =>
  pollUntil(check, { what, timeoutMs: 15_000, intervalMs: 50 });

describe('a single node restarted (the in-process record of nonces)', () => {
  let backends: TestBackends;
  let dumpDir: string | undefined;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    backends = await testBackends();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await backends.release();
    if (dumpDir) await rm(dumpDir, { recursive: true, force: true });
  });

  /** A server without Redis (so the record is the process's), on the database of this test. */
  const start = async (database: Record<string, unknown>) => {
    const server = await startSignedServer({ ...CREDENTIAL_KEYS, Database: database, Redis: { Url: undefined } });
    servers.push(server);
    return server;
  };

  it('refuses a request the previous process accepted, and accepts requests signed after the start', async () => {
    const first = await start(backends.config.Database);
    const cred = await issueCredential(first);
    const before = referenceSign(cred, ping);
    expect(await send(first.url, before)).toEqual(accepted);
    expect(await send(first.url, before)).toEqual(replayed);

    // The restart: the same database (PostgreSQL, or the embedded one's files), a new process.
    let database = backends.config.Database;
    const dump = first.runtime.deps.database.dump;
    if (dump) {
      dumpDir = await mkdtemp(path.join(tmpdir(), 'portcullis-restart-'));
      const file = path.join(dumpDir, 'pgdata.tar');
      await writeFile(file, Buffer.from(await (await dump()).arrayBuffer()));
      database = { InMemory: true, SnapshotFile: file };
    }
    await servers.shift()!.close();
    const second = await start(database);

    expect(await send(second.url, before)).toEqual(predates);
    const after = referenceSign(cred, ping);
    expect(await send(second.url, after)).toEqual(accepted);
    expect(await send(second.url, after)).toEqual(replayed);
  }, 120_000);
});

describe('Redis restarted without persistence, or flushed (the shared record of nonces)', () => {
  let redis: RestartableRedis;
  let raw: Redis;
  let server: TestServer;
  let cred: ReferenceCredential;
  const prefix = `test:${randomUUID()}:`;

  beforeAll(async () => {
    // A Redis of this test's own: restarting the shared one would take other work's data.
    redis = await startRestartableRedis();
    raw = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    raw.on('error', () => {});
    server = await startSignedServer({ ...CREDENTIAL_KEYS, Redis: { Url: redis.url, KeyPrefix: prefix } });
    cred = await issueCredential(server);
  });
  afterAll(async () => {
    await server?.close();
    raw?.disconnect();
    await redis?.release();
  });

  const epochRecorded = async () => (await raw.get(`${prefix}store:epoch`).catch(() => null)) !== null;

  it('refuses a request accepted before the restart; a request signed once the node reconnected passes, even as the first after it', async () => {
    const before = referenceSign(cred, ping);
    expect(await send(server.url, before)).toEqual(accepted);

    await redis.restart();
    // The node notices the empty server when its connection comes back, before any request.
    await until(epochRecorded, 'the node records a new epoch on reconnecting');
    await untilNextSecond(server.runtime.deps.clock);
    const after = referenceSign(cred, ping);
    expect(await send(server.url, after)).toEqual(accepted);

    expect(await send(server.url, before)).toEqual(predates);
    expect(await send(server.url, after)).toEqual(replayed);
  });

  it('refuses a request accepted before a FLUSHALL (the connection stays: the nonce write notices)', async () => {
    await untilNextSecond(server.runtime.deps.clock);
    const before = referenceSign(cred, ping);
    expect(await send(server.url, before)).toEqual(accepted);
    await raw.flushall();

    expect(await send(server.url, before)).toEqual(predates);
    await untilNextSecond(server.runtime.deps.clock);
    const after = referenceSign(cred, ping);
    expect(await send(server.url, after)).toEqual(accepted);
    expect(await send(server.url, after)).toEqual(replayed);
  });
});

describe('two nodes sharing a Redis that restarts', () => {
  let redis: RestartableRedis;
  let cluster: TwoNodes;

  beforeAll(async () => {
    redis = await startRestartableRedis();
    cluster = await startTwoNodes(
      {
        Saas: { Auth: { CaptchaEnabled: false } },
        OpenApiSecurity: { IsEnabled: true, ProtectedPathPrefixes: ['/api/openapi'] },
        ...CREDENTIAL_KEYS,
      },
      { redisUrl: redis.url },
    );
    await untilNextSecond(cluster.nodes[0].runtime.deps.clock);
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.release();
  });

  it('a request accepted by node A before the restart is refused by both nodes after it', async () => {
    const [a, b] = cluster.nodes;
    const user = await createTestUser(a.runtime.deps);
    const login = await fetch(`${a.url}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.email, password: user.password }),
    });
    const token = ((await login.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    const created = await fetch(`${a.url}/api/Profile/ApiCredential`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const cred = ((await created.json()) as { data: ReferenceCredential }).data;

    const before = referenceSign(cred, ping);
    expect(await send(a.url, before)).toEqual(accepted);
    await redis.restart();
    await until(async () => {
      const ready = await Promise.all([a, b].map((node) => fetch(`${node.url}/health/ready`).then((r) => r.status)));
      return ready.every((status) => status === 200);
    }, 'both nodes reconnect');

    expect(await send(b.url, before)).toEqual(predates);
    expect(await send(a.url, before)).toEqual(predates);
    await untilNextSecond(a.runtime.deps.clock);
    const after = referenceSign(cred, ping);
    expect(await send(b.url, after)).toEqual(accepted);
    expect(await send(a.url, after)).toEqual(replayed);
  });
});
