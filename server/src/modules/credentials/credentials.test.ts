import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCredentials, auditEntries, notifications, userSessions } from '../../../../db/schema/index.js';
import { bearer, claimsOf, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { issueCredential, signedCall, startSignedServer } from '../openapi/test-kit.js';
import { createSecretBox } from './secret-box.js';

/**
 * API credentials under /api/Profile (SPEC ApiCredential and the Profile rows; the original service):
 * list without secrets, create and rotate showing the secret once, status, delete, at most five
 * per user under concurrency, secrets sealed at rest, impersonation refused.
 */

let server: TestServer;
// Two keys: secrets sealed under the retired one still open; new ones use the current one.
const RETIRED_KEY = randomBytes(32).toString('base64');
const CURRENT_KEY = randomBytes(32).toString('base64');

beforeAll(async () => {
  server = await startSignedServer({
    Security: { CredentialKeys: { k2025: RETIRED_KEY, k2026: CURRENT_KEY }, CredentialKeyId: 'k2026' },
  });
});
afterAll(() => server.close());

const ping = { method: 'GET', path: '/api/openapi/Ping' } as const;

async function signedIn() {
  const user = await createTestUser(server.runtime.deps);
  const token = await loginAs(server, user);
  const auth = bearer(token.accessToken);
  const api = {
    list: () => server.json('/api/Profile/ApiCredentials', { headers: auth }),
    create: (json: unknown = {}) =>
      server.json('/api/Profile/ApiCredential', { method: 'POST', headers: { ...auth, 'X-Language': 'en-US' }, json }),
    rotate: (basicId: unknown) =>
      server.json('/api/Profile/RotateApiCredentialSecret', {
        method: 'POST',
        headers: { ...auth, 'X-Language': 'en-US' },
        json: { basicId },
      }),
    status: (basicId: unknown, status: unknown) =>
      server.json('/api/Profile/ApiCredentialStatus', {
        method: 'PUT',
        headers: { ...auth, 'X-Language': 'en-US' },
        json: { basicId, status },
      }),
    remove: (query: string) =>
      server.json(`/api/Profile/ApiCredential${query}`, {
        method: 'DELETE',
        headers: { ...auth, 'X-Language': 'en-US' },
      }),
  };
  return { user, token, auth, api };
}

describe('create, list, rotate, status, delete', () => {
  it('creates ak_/sk_ credentials, shows the secret once and never lists it', async () => {
    const { api, user } = await signedIn();
    const res = await api.create({ credentialName: 'billing sync' });
    expect(res.status).toBe(200);
    const { basicId, appKey, appSecret } = res.body.data;
    expect(basicId).toMatch(/^\d+$/);
    expect(appKey).toMatch(/^ak_[A-Za-z0-9]{24}$/);
    expect(appSecret).toMatch(/^sk_[A-Za-z0-9]{43}$/);
    expect(Object.keys(res.body.data).sort()).toEqual(['appKey', 'appSecret', 'basicId']);

    const list = await api.list();
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { basicId, credentialName: 'billing sync', appKey, status: 'Enabled', createdTime: expect.any(String) },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(appSecret);
    expect(JSON.stringify(list.body)).not.toMatch(/secret|ciphertext/i);

    // Audited, and the owner is told.
    const audit = await server.runtime.deps.db.select().from(auditEntries).where(eq(auditEntries.targetId, basicId));
    expect(audit.map((a) => a.action)).toEqual(['ApiCredentialCreated']);
    const notices = await server.runtime.deps.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notices.some((n) => n.content?.includes(appKey))).toBe(true);
  });

  it('takes no body at all (every field is optional)', async () => {
    const { auth } = await signedIn();
    const res = await server.json('/api/Profile/ApiCredential', { method: 'POST', headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.appKey).toMatch(/^ak_/);
    // Nulls, as the original's form sends for fields it leaves empty, count as absent.
    const nulls = await server.json('/api/Profile/ApiCredential', {
      method: 'POST',
      headers: auth,
      json: {
        credentialName: null,
        signatureAlgorithm: null,
        publicKey: null,
        ipWhitelist: null,
        expirationTime: null,
      },
    });
    expect(nulls.status).toBe(200);
    expect(nulls.body.data.appKey).toMatch(/^ak_/);
  });

  it('stores the secret sealed (AES-256-GCM under the configured key, key id kept), never in plain text', async () => {
    const { api } = await signedIn();
    const { appKey, appSecret } = (await api.create()).body.data;
    const [row] = await server.runtime.deps.db.select().from(apiCredentials).where(eq(apiCredentials.appKey, appKey));
    expect(row!.secretCiphertext).not.toContain(appSecret);
    expect(row!.secretCiphertext).not.toContain(appSecret.slice(3, 20));
    expect(row!.secretCiphertext).toMatch(/^v1\./);
    expect(row!.secretKeyId).toBe('k2026');
    // The configured key opens it, for this AppKey only; another key does not.
    const box = createSecretBox({ k2026: CURRENT_KEY }, 'k2026');
    expect(box.open(row!.secretCiphertext, 'k2026', appKey)?.toString()).toBe(appSecret);
    expect(box.open(row!.secretCiphertext, 'k2026', 'ak_other')).toBeUndefined();
    const other = createSecretBox({ other: randomBytes(32).toString('base64') }, 'other');
    expect(other.open(row!.secretCiphertext, 'other', appKey)).toBeUndefined();
    // Nothing the server logged carries the secret.
    expect(server.logs.join('\n')).not.toContain(appSecret);
  });

  it('keeps secrets sealed under a retired key usable while that key stays configured', async () => {
    const { deps } = server.runtime;
    const user = await createTestUser(deps);
    const appKey = `ak_${'R'.repeat(24)}`;
    const appSecret = `sk_${'s'.repeat(43)}`;
    const sealed = createSecretBox({ k2025: RETIRED_KEY }, 'k2025').seal(appSecret, appKey);
    await deps.db.insert(apiCredentials).values({
      id: deps.ids.next(),
      userId: user.id,
      appKey,
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
    });
    expect((await signedCall(server, { appKey, appSecret }, ping)).status).toBe(200);
    // A key id no longer configured (or altered data): the credential is refused, never a 500.
    await deps.db.update(apiCredentials).set({ secretKeyId: 'gone' }).where(eq(apiCredentials.appKey, appKey));
    await deps.credentials.changed(appKey);
    expect((await signedCall(server, { appKey, appSecret }, ping)).status).toBe(401);
  });

  it('re-seals secrets of a retired key under the current one, so the old key can go (credentials:reseal)', async () => {
    const { deps } = server.runtime;
    const user = await createTestUser(deps);
    const appKey = `ak_${'Q'.repeat(24)}`;
    const appSecret = `sk_${'q'.repeat(43)}`;
    const sealed = createSecretBox({ k2025: RETIRED_KEY }, 'k2025').seal(appSecret, appKey);
    await deps.db.insert(apiCredentials).values({
      id: deps.ids.next(),
      userId: user.id,
      appKey,
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
    });
    const lostKey = `ak_${'L'.repeat(24)}`;
    await deps.db.insert(apiCredentials).values({
      id: deps.ids.next(),
      userId: user.id,
      appKey: lostKey,
      secretCiphertext: sealed.ciphertext,
      secretKeyId: 'lost',
    });
    const result = await deps.credentials.reseal();
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    expect(result.unreadable).toBeGreaterThanOrEqual(1);
    const [row] = await deps.db.select().from(apiCredentials).where(eq(apiCredentials.appKey, appKey));
    expect(row!.secretKeyId).toBe('k2026');
    // The current key alone opens it, to the same secret: the partner changes nothing.
    expect(
      createSecretBox({ k2026: CURRENT_KEY }, 'k2026')
        .open(row!.secretCiphertext, row!.secretKeyId, appKey)
        ?.toString(),
    ).toBe(appSecret);
    await deps.credentials.changed(appKey);
    expect((await signedCall(server, { appKey, appSecret }, ping)).status).toBe(200);
    // A secret that does not open is left as it was, and nothing is re-sealed twice.
    const [lost] = await deps.db.select().from(apiCredentials).where(eq(apiCredentials.appKey, lostKey));
    expect(lost!.secretKeyId).toBe('lost');
    expect((await deps.credentials.reseal()).resealed).toBe(0);
  });

  it('rotates the secret: the new one signs, the old one stops at once', async () => {
    const cred = await issueCredential(server);
    expect((await signedCall(server, cred, ping)).status).toBe(200);
    const res = await server.json('/api/Profile/RotateApiCredentialSecret', {
      method: 'POST',
      headers: bearer(cred.accessToken),
      json: { basicId: cred.basicId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      basicId: cred.basicId,
      appKey: cred.appKey,
      appSecret: expect.stringMatching(/^sk_[A-Za-z0-9]{43}$/),
    });
    expect(res.body.data.appSecret).not.toBe(cred.appSecret);
    expect((await signedCall(server, cred, ping)).status).toBe(401);
    expect((await signedCall(server, { appKey: cred.appKey, appSecret: res.body.data.appSecret }, ping)).status).toBe(
      200,
    );
    expect(server.logs.join('\n')).not.toContain(res.body.data.appSecret);
  });

  it('of two rotations racing, one wins and the other answers 409', async () => {
    const cred = await issueCredential(server);
    const rotate = () =>
      server.json('/api/Profile/RotateApiCredentialSecret', {
        method: 'POST',
        headers: bearer(cred.accessToken),
        json: { basicId: cred.basicId },
      });
    const results = await Promise.all([rotate(), rotate(), rotate()]);
    const won = results.filter((r) => r.status === 200);
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    // The secret that works is the one the last winner was given.
    const valid = await Promise.all(
      won.map((r) => signedCall(server, { appKey: cred.appKey, appSecret: r.body.data.appSecret }, ping)),
    );
    expect(valid.filter((v) => v.status === 200)).toHaveLength(1);
  });

  it('updates the status by name or number and answers the item', async () => {
    const { api, auth } = await signedIn();
    const { basicId, appKey } = (await api.create()).body.data;
    const off = await api.status(basicId, 'disabled');
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ basicId, appKey, status: 'Disabled' });
    expect((await api.status(basicId, 1)).body.data.status).toBe('Enabled');
    // The 64-bit id as a JSON number literal is kept exact.
    const asNumber = await server.json('/api/Profile/ApiCredentialStatus', {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: `{"basicId":${basicId},"status":0}`,
    });
    expect(asNumber.body.data.status).toBe('Disabled');
    expect((await api.list()).body.data[0].status).toBe('Disabled');
    const bad = await api.status(basicId, 'Paused');
    expect(bad.status).toBe(400);
    expect(bad.body.data[0].field).toBe('status');
    // Each change of status is audited; setting the status it already has changes nothing.
    const entries = await server.runtime.deps.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'ApiCredentialStatusChanged'), eq(auditEntries.targetId, basicId)));
    expect(entries.map((e) => (e.detail as { status: string }).status).sort()).toEqual([
      'Disabled',
      'Disabled',
      'Enabled',
    ]);
  });

  it('deletes with ?id= (the key stops working); a missing id is refused', async () => {
    const cred = await issueCredential(server);
    const del = await server.json(`/api/Profile/ApiCredential?id=${cred.basicId}`, {
      method: 'DELETE',
      headers: bearer(cred.accessToken),
    });
    expect(del.status).toBe(200);
    expect(del.body.data).toBeUndefined();
    expect((await signedCall(server, cred, ping)).status).toBe(401);
    const again = await server.json(`/api/Profile/ApiCredential?ID=${cred.basicId}`, {
      method: 'DELETE',
      headers: { ...bearer(cred.accessToken), 'X-Language': 'en-US' },
    });
    expect(again.status).toBe(400);
    expect(again.body.data).toBe('The credential does not exist or is not yours.');
    const missing = await server.json('/api/Profile/ApiCredential', {
      method: 'DELETE',
      headers: { ...bearer(cred.accessToken), 'X-Language': 'en-US' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toBe('The credential id is invalid.');
    const audit = await server.runtime.deps.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.targetId, cred.basicId));
    expect(audit.map((a) => a.action).sort()).toEqual(['ApiCredentialCreated', 'ApiCredentialDeleted']);
  });

  it("refuses another user's credential with the same answer as an unknown one", async () => {
    const owner = await issueCredential(server);
    const { api } = await signedIn();
    for (const res of [
      await api.rotate(owner.basicId),
      await api.status(owner.basicId, 'Disabled'),
      await api.remove(`?id=${owner.basicId}`),
      await api.rotate('999'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.data).toBe('The credential does not exist or is not yours.');
    }
    expect((await signedCall(server, owner, ping)).status).toBe(200);
  });

  it('answers bad input with a validation envelope, never a 500', async () => {
    const { api } = await signedIn();
    const cases: Array<[() => Promise<{ status: number; body: any }>, string]> = [
      [() => api.create({ credentialName: 'x'.repeat(101) }), 'credentialName'],
      [() => api.create({ expirationTime: 'soon' }), 'expirationTime'],
      [() => api.create({ credentialName: 5 }), 'credentialName'],
      [() => api.rotate('abc'), 'basicId'],
      [() => api.rotate(undefined), 'basicId'],
      [() => api.status('1', undefined), 'status'],
    ];
    for (const [call, field] of cases) {
      const res = await call();
      expect(res.status, field).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.data.map((d: { field: string }) => d.field)).toContain(field);
    }
    const texts: Array<[Record<string, unknown>, RegExp]> = [
      [
        { signatureAlgorithm: 'HMACSHA1' },
        /Unsupported signature algorithm HMACSHA1; allowed: HMACSHA256, HMACSHA512, RSASHA256/,
      ],
      [{ signatureAlgorithm: 'RSASHA256' }, /RSA public key/],
      [
        { signatureAlgorithm: 'RSASHA256', publicKey: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----' },
        /RSA public key/,
      ],
      [{ signatureAlgorithm: 'HMACSHA256', publicKey: 'x' }, /RSA public key/],
      [{ ipWhitelist: '10.0.0.1, evil.example.com' }, /evil\.example\.com/],
      [{ expirationTime: '2000-01-01T00:00:00Z' }, /future/],
    ];
    for (const [json, text] of texts) {
      const res = await api.create(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.data).toMatch(text);
    }
    const notJson = await server.json('/api/Profile/ApiCredential', {
      method: 'POST',
      headers: { ...(await signedIn()).auth, 'content-type': 'application/json' },
      body: '{"credentialName":',
    });
    expect(notJson.status).toBe(400);
    expect((await api.list()).body.data).toEqual([]);
  });

  it('needs a login', async () => {
    expect((await server.json('/api/Profile/ApiCredentials')).status).toBe(401);
    expect((await server.json('/api/Profile/ApiCredential', { method: 'POST', json: {} })).status).toBe(401);
  });
});

describe('at most five per user', () => {
  it('refuses the sixth, and a deletion frees a place', async () => {
    const { api } = await signedIn();
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await api.create({ credentialName: `k${i}` })).body.data);
    const sixth = await api.create();
    expect(sixth.status).toBe(400);
    expect(sixth.body.data).toBe('You can have at most 5 API credentials; delete one you no longer use first.');
    expect((await api.remove(`?id=${created[0].basicId}`)).status).toBe(200);
    expect((await api.create()).status).toBe(200);
    expect((await api.list()).body.data).toHaveLength(5);
  });

  it('stays exact under 12 concurrent creations (two sessions of one user)', async () => {
    const { api, user } = await signedIn();
    const second = bearer((await loginAs(server, user)).accessToken);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 ? api.create() : server.json('/api/Profile/ApiCredential', { method: 'POST', headers: second, json: {} }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 400)).toHaveLength(7);
    const rows = await server.runtime.deps.db.select().from(apiCredentials).where(eq(apiCredentials.userId, user.id));
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.appKey)).size).toBe(5);
  });
});

describe('impersonation', () => {
  it('may list, disable and delete, but not create or rotate', async () => {
    const { api, token, user } = await signedIn();
    const { basicId } = (await api.create()).body.data;
    // Mark the session as an impersonation (what the impersonation endpoint writes).
    const admin = await createTestUser(server.runtime.deps);
    const sessionId = BigInt(claimsOf(token.accessToken).SessionId as string);
    await server.runtime.deps.db
      .update(userSessions)
      .set({ impersonatorUserId: admin.id })
      .where(eq(userSessions.id, sessionId));
    await server.runtime.deps.sessionState.invalidateSession(sessionId);

    const create = await api.create();
    expect(create.status).toBe(403);
    expect(create.body.data).toBe('API keys cannot be generated or rotated while impersonating another user.');
    expect((await api.rotate(basicId)).status).toBe(403);
    expect((await api.list()).status).toBe(200);
    expect((await api.status(basicId, 'Disabled')).status).toBe(200);
    const audit = await server.runtime.deps.db.select().from(auditEntries).where(eq(auditEntries.targetId, basicId));
    expect(audit.every((a) => a.userId === user.id)).toBe(true);
  });
});
