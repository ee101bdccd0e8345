import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoNodes, type TestNode, type TwoNodes } from '../../testing/two-nodes.js';
import { createTestUser } from '../../testing/auth-fixtures.js';
import { referenceSign, type ReferenceCredential } from './reference-signer.js';
import { untilNextSecond } from './test-kit.js';

/**
 * Two app instances ("nodes") sharing one PostgreSQL and one Redis: a nonce recorded by one is
 * refused by the other, and a credential change on one applies on the other at once.
 */

let cluster: TwoNodes;
let nodes: TestNode[];

beforeAll(async () => {
  cluster = await startTwoNodes({
    Saas: { Auth: { CaptchaEnabled: false } },
    OpenApiSecurity: { IsEnabled: true, ProtectedPathPrefixes: ['/api/openapi'] },
    // Both nodes must open the secrets either one sealed.
    Security: { CredentialKeys: { k1: randomBytes(32).toString('base64') } },
  });
  nodes = cluster.nodes;
  await untilNextSecond(nodes[0]!.runtime.deps.clock);
});

afterAll(async () => {
  await cluster?.close();
});

async function credentialOnNodeA(): Promise<ReferenceCredential & { basicId: string; token: string }> {
  const [a] = nodes;
  const user = await createTestUser(a!.runtime.deps);
  const login = await fetch(`${a!.url}/api/Auth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.email, password: user.password }),
  });
  const token = ((await login.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
  const res = await fetch(`${a!.url}/api/Profile/ApiCredential`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const data = ((await res.json()) as { data: { basicId: string; appKey: string; appSecret: string } }).data;
  return { ...data, token };
}

describe('signed calls across two nodes sharing Redis', () => {
  it('20 parallel requests with one nonce, split over both nodes: exactly one is accepted', async () => {
    const cred = await credentialOnNodeA();
    const signed = referenceSign(cred, { method: 'GET', path: '/api/openapi/Ping', nonce: `race-${randomUUID()}` });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(nodes[i % 2]!.url + signed.url, { headers: signed.headers }).then((r) => r.status),
      ),
    );
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
    const off = await fetch(`${nodes[0]!.url}/api/Profile/ApiCredentialStatus`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${cred.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ basicId: cred.basicId, status: 'Disabled' }),
    });
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

describe('the credential limit across two nodes on PostgreSQL', () => {
  // PGlite runs one transaction at a time, so only here do creations really overlap: several
  // pool connections on each of two nodes.
  it('stays exact under 16 concurrent creations of one user split over both nodes', async () => {
    const { token } = await credentialOnNodeA();
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fetch(`${nodes[i % 2]!.url}/api/Profile/ApiCredential`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        }).then((r) => r.status),
      ),
    );
    // One was created before: four more fit.
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 400)).toHaveLength(12);
    const list = await fetch(`${nodes[1]!.url}/api/Profile/ApiCredentials`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(5);
  });
});
