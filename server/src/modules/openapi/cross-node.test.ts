import { serve, type ServerType } from '@hono/node-server';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, type Runtime } from '../../bootstrap.js';
import { loadConfig } from '../../config/load.js';
import { createLogger } from '../../infra/logger.js';
import { acquireTestRedis, type TestRedis } from '../../stores/testing-redis.js';
import { createTestUser } from '../../testing/auth-fixtures.js';
import { acquireTestPostgres, type TestPostgres } from '../../testing/postgres.js';
import { referenceSign, type ReferenceCredential } from './reference-signer.js';

/**
 * Two app instances ("nodes") sharing one PostgreSQL and one Redis: a nonce recorded by one is
 * refused by the other, and a credential change on one applies on the other at once.
 */

let pg: TestPostgres;
let redis: TestRedis;
let nodes: Array<{ runtime: Runtime; server: ServerType; url: string }>;

beforeAll(async () => {
  pg = await acquireTestPostgres();
  redis = await acquireTestRedis();
  const config = loadConfig({}, {
    App: { Env: 'test', LogLevel: 'silent' },
    Database: { Url: pg.url, MaxConnections: 4 },
    Redis: { Url: redis.url, KeyPrefix: `test:${randomUUID()}:` },
    Saas: { Auth: { CaptchaEnabled: false } },
    OpenApiSecurity: { IsEnabled: true, ProtectedPathPrefixes: ['/api/openapi'] },
    // Both nodes must open the secrets either one sealed.
    Security: { CredentialKeys: { k1: randomBytes(32).toString('base64') } },
  });
  const runtimes = await Promise.all([boot(config, { logger: createLogger({ level: 'silent' }) }), boot(config, { logger: createLogger({ level: 'silent' }) })]);
  await Promise.all(runtimes.map((r) => r.ready));
  nodes = await Promise.all(
    runtimes.map(
      (runtime) =>
        new Promise<{ runtime: Runtime; server: ServerType; url: string }>((resolve) => {
          const server = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve({ runtime, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
        }),
    ),
  );
});

afterAll(async () => {
  for (const node of nodes ?? []) {
    await new Promise<void>((resolve) => node.server.close(() => resolve()));
    (node.server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
  }
  await Promise.all((nodes ?? []).map((n) => n.runtime.close()));
  await redis?.release();
  await pg?.release();
});

async function credentialOnNodeA(): Promise<ReferenceCredential & { basicId: string; token: string }> {
  const [a] = nodes;
  const user = await createTestUser(a!.runtime.deps);
  const login = await fetch(`${a!.url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user.email, password: user.password }) });
  const token = ((await login.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
  const res = await fetch(`${a!.url}/api/Profile/ApiCredential`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  const data = ((await res.json()) as { data: { basicId: string; appKey: string; appSecret: string } }).data;
  return { ...data, token };
}

describe('signed calls across two nodes sharing Redis', () => {
  it('20 parallel requests with one nonce, split over both nodes: exactly one is accepted', async () => {
    const cred = await credentialOnNodeA();
    const signed = referenceSign(cred, { method: 'GET', path: '/api/openapi/Ping', nonce: `race-${randomUUID()}` });
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(nodes[i % 2]!.url + signed.url, { headers: signed.headers }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it('a nonce used on node A is refused on node B', async () => {
    const cred = await credentialOnNodeA();
    const signed = referenceSign(cred, { method: 'GET', path: '/api/openapi/Ping' });
    expect((await fetch(nodes[0]!.url + signed.url, { headers: signed.headers })).status).toBe(200);
    expect((await fetch(nodes[1]!.url + signed.url, { headers: signed.headers })).status).toBe(409);
  });

  it('a credential disabled on node A is refused by node B (which had it cached) within a second', async () => {
    const cred = await credentialOnNodeA();
    const ping = () => {
      const signed = referenceSign(cred, { method: 'GET', path: '/api/openapi/Ping' });
      return fetch(nodes[1]!.url + signed.url, { headers: signed.headers }).then((r) => r.status);
    };
    expect(await ping()).toBe(200);
    const off = await fetch(`${nodes[0]!.url}/api/Profile/ApiCredentialStatus`, { method: 'PUT', headers: { authorization: `Bearer ${cred.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ basicId: cred.basicId, status: 'Disabled' }) });
    expect(off.status).toBe(200);
    const started = Date.now();
    let status = await ping();
    while (status === 200 && Date.now() - started < 1000) {
      await new Promise((r) => setTimeout(r, 20));
      status = await ping();
    }
    expect(status).toBe(401);
  });
});
