import { createCipheriv, createDecipheriv, createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCredentials, users } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { bearer } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { sm2 } from 'sm-crypto';
import { referenceSign } from './reference-signer.js';
import { issueCredential, nowSeconds, signedCall, startSignedServer, type IssuedCredential } from './test-kit.js';

/**
 * Signed calls over real HTTP (SPEC "Signed interface (no token)", "Signed open endpoints",
 * Errors rule 8; the original service for each stage's code). Every request is signed by the
 * reference signer of the tests, which shares no code with the server.
 */

const BODY_LIMIT = 64 * 1024;
let server: TestServer;
let cred: IssuedCredential;

beforeAll(async () => {
  server = await startSignedServer({ OpenApiSecurity: { MaxRequestBodySize: BODY_LIMIT } });
  cred = await issueCredential(server, { credentialName: 'main' });
});
afterAll(() => server.close());

const ping = { method: 'GET', path: '/api/openapi/Ping' } as const;
const en = { 'X-Language': 'en-US' };

function expectFailure(res: { status: number; body: any }, status: number, text?: string | RegExp) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(status);
  expect(res.body.isSuccess).toBe(false);
  expect(typeof res.body.traceId).toBe('string');
  if (text instanceof RegExp) expect(res.body.data).toMatch(text);
  else if (text) expect(res.body.data).toBe(text);
}

describe('GET /api/openapi/Ping and POST /api/openapi/Echo', () => {
  it('answers who signed: ok, message, accessKey, ownerUserId, serverTimeUtc', async () => {
    const res = await signedCall(server, cred, ping);
    expect(res.status).toBe(200);
    expect(res.body.isSuccess).toBe(true);
    expect(res.body.data).toEqual({
      ok: true,
      message: 'OpenAPI 签名校验通过',
      accessKey: cred.appKey,
      ownerUserId: String(cred.user.id),
      serverTimeUtc: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    });
  });

  it('accepts the signature as lower-case hex, upper-case hex and Base64', async () => {
    for (const encoding of ['hex', 'HEX', 'base64'] as const) {
      const res = await signedCall(server, cred, { ...ping, encoding });
      expect(res.status, encoding).toBe(200);
    }
  });

  it('echoes the exact body bytes as data', async () => {
    const body = '{"Message":"hé 中",  "n":null,"big":12345678901234567890,"nested":{"B":[1,2.50,true]},"10":"x"}';
    const res = await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo', body });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"data":${body},`);
  });

  it('echoes a body that starts with a byte-order mark as valid JSON (the mark is signed, not echoed)', async () => {
    const res = await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo', body: '\uFEFF{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: 1 });
    expect(res.text).toContain('"data":{"a":1},');
  });

  it('signs an empty body as the digest of the empty string (and echoes nothing)', async () => {
    const res = await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo' });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.stringToSign.split('\n')[3]).toBe(createHash('sha256').update('').digest('hex'));
  });

  it("canonicalizes repeated keys and characters that need escaping (space, +, &, =, non-ASCII, !*'())", async () => {
    const query: Array<[string, string]> = [
      ['b', '2'],
      ['a', 'x y'],
      ['a', '1+1'],
      ['c', '&='],
      ['a', 'é中😀'],
      ['z', ''],
      ['A', "!*()'"],
      ['a', 'X'],
      ['k=&', 'v'],
    ];
    const res = await signedCall(server, cred, { ...ping, query });
    expect(res.status).toBe(200);
    // The reference signer's canonical form: sorted by key, then value, RFC 3986 escaped.
    expect(res.stringToSign.split('\n')[2]).toBe(
      'A=%21%2A%28%29%27&a=1%2B1&a=X&a=x%20y&a=%C3%A9%E4%B8%AD%F0%9F%98%80&b=2&c=%26%3D&k%3D%26=v&z=',
    );
  });

  it('reads + in the URL as a space, as the canonical query does', async () => {
    const signed = referenceSign(cred, {
      ...ping,
      query: [
        ['q', 'a b'],
        ['r', '+'],
      ],
    });
    expect(signed.url).toBe('/api/openapi/Ping?q=a%20b&r=%2B');
    // The same pairs written with '+' for the space: the same canonical query, the same signature.
    const res = await server.request('/api/openapi/Ping?q=a+b&r=%2b', { headers: signed.headers });
    expect(res.status).toBe(200);
  });

  it('matches protected prefixes case-insensitively and signs the path as sent', async () => {
    const res = await signedCall(server, cred, { method: 'GET', path: '/API/OpenApi/ping' });
    expect(res.status).toBe(200);
    expect(res.body.data.accessKey).toBe(cred.appKey);
    const unsigned = await server.json('/API/OPENAPI/PING');
    expectFailure(unsigned, 401);
  });

  it('takes HMACSHA512 and SHA512 content signs when asked', async () => {
    const res = await signedCall(server, cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: '{"a":1}',
      hash: 'sha512',
      contentHash: 'sha512',
      headers: { 'X-Sign-Algorithm': 'HMACSHA512', 'X-Content-Sign-Algorithm': 'SHA512' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: 1 });
  });

  it('refuses legacy HMACSHA1 and MD5, and SM2, unless allowed (400)', async () => {
    expectFailure(
      await signedCall(server, cred, { ...ping, hash: 'sha1', headers: { ...en, 'X-Sign-Algorithm': 'HMACSHA1' } }),
      400,
      'Unsupported signature algorithm: HMACSHA1.',
    );
    expectFailure(
      await signedCall(server, cred, {
        ...ping,
        contentHash: 'md5',
        headers: { ...en, 'X-Content-Sign-Algorithm': 'MD5' },
      }),
      400,
      'Unsupported content signature algorithm: MD5.',
    );
    expectFailure(
      await signedCall(server, cred, { ...ping, headers: { ...en, 'X-Sign-Algorithm': 'SM2' } }),
      400,
      /SM2/,
    );
  });

  it('verifies RSASHA256 with the public key registered on the credential, and only that', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsa = await issueCredential(server, {
      signatureAlgorithm: 'RSASHA256',
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
    });
    expect((await signedCall(server, rsa, { ...ping, rsaPrivateKey: privateKey })).status).toBe(200);
    expect(
      (
        await signedCall(server, rsa, {
          ...ping,
          rsaPrivateKey: privateKey,
          headers: { 'X-Sign-Algorithm': 'RSASHA256' },
        })
      ).status,
    ).toBe(200);
    // The HMAC of its secret does not stand in for the RSA signature.
    expectFailure(await signedCall(server, rsa, ping), 401);
    expectFailure(await signedCall(server, rsa, { ...ping, headers: { 'X-Sign-Algorithm': 'HMACSHA256' } }), 400);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expectFailure(await signedCall(server, rsa, { ...ping, rsaPrivateKey: other.privateKey }), 401);
  });

  it('verifies SM2 (signed by sm-crypto) with the SM2 public key registered on the credential', async () => {
    const keys = sm2.generateKeyPairHex();
    const cn = await issueCredential(server, { signatureAlgorithm: 'SM2', publicKey: keys.publicKey });
    const call = async (privateKey: string, extra: Record<string, string> = {}) => {
      const signed = referenceSign(cn, {
        method: 'POST',
        path: '/api/openapi/Echo',
        query: [['q', 'a b']],
        body: '{"n":1}',
      });
      const headers = {
        ...signed.headers,
        ...extra,
        'X-Signature': sm2.doSignature(signed.stringToSign, privateKey, { hash: true }),
        'content-type': 'application/json',
        ...en,
      };
      const res = await server.request(signed.url, { method: 'POST', headers, body: '{"n":1}' });
      return { status: res.status, body: (await res.json()) as any };
    };
    const ok = await call(keys.privateKey);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ n: 1 });
    expect((await call(keys.privateKey, { 'X-Sign-Algorithm': 'sm2' })).status).toBe(200);
    expectFailure(await call(sm2.generateKeyPairHex().privateKey), 401, 'The request signature is invalid.');
    // A key that is not on the SM2 curve is refused when the credential is made.
    const { accessToken } = cn;
    const bad = await server.json('/api/Profile/ApiCredential', {
      method: 'POST',
      headers: { ...bearer(accessToken), ...en },
      json: { signatureAlgorithm: 'SM2', publicKey: `04${'1'.repeat(128)}` },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatch(/SM2 curve/);
  });
});

describe('every failure stage answers its code', () => {
  it('no security header: 401', async () => {
    expectFailure(await server.json('/api/openapi/Ping'), 401, '缺少安全请求头。');
    expectFailure(
      await server.json('/api/openapi/Ping', { headers: en }),
      401,
      'The security headers of a signed request are missing.',
    );
  });

  it('an incomplete set: 401 naming what is missing', async () => {
    for (const header of ['X-Access-Key', 'X-Timestamp', 'X-Nonce', 'X-Signature']) {
      const res = await signedCall(server, cred, { ...ping, headers: en, override: { [header]: undefined } });
      expectFailure(res, 401, `The security headers are incomplete; missing: ${header}.`);
    }
  });

  it('a timestamp that is not Unix seconds: 400; outside the window: 401', async () => {
    for (const timestamp of ['abc', '12.5', '-5', '1e9', '0x10', '9'.repeat(16)]) {
      expectFailure(
        await signedCall(server, cred, { ...ping, timestamp, headers: en }),
        400,
        'X-Timestamp must be Unix time in seconds.',
      );
    }
    const now = Number(nowSeconds(server.runtime.deps));
    for (const timestamp of [now - 301, now + 301, now * 1000]) {
      expectFailure(
        await signedCall(server, cred, { ...ping, timestamp: String(timestamp), headers: en }),
        401,
        /outside the allowed window of 300 seconds/,
      );
    }
    expect((await signedCall(server, cred, { ...ping, timestamp: String(now + 290) })).status).toBe(200);
  });

  it('a timestamp up to the tolerance in the past passes once the record of used nonces is older than that (409 before)', async () => {
    const clock = new ManualClock(Math.ceil(Date.now() / 1000) * 1000);
    const own = await startSignedServer({}, { clock });
    try {
      const c = await issueCredential(own);
      const now = () => Number(nowSeconds(own.runtime.deps));
      // Signed before this process began to record nonces: the one before it may have accepted it.
      expectFailure(
        await signedCall(own, c, { ...ping, timestamp: String(now() - 290), headers: en }),
        409,
        /signed before the record of used nonces began/,
      );
      clock.advance(600_000);
      expect((await signedCall(own, c, { ...ping, timestamp: String(now() - 290) })).status).toBe(200);
      expect((await signedCall(own, c, { ...ping, timestamp: String(now() + 290) })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('an unknown access key: 401', async () => {
    for (const appKey of ['ak_doesnotexist000000000000', 'nope', 'ak_']) {
      expectFailure(
        await signedCall(server, { appKey, appSecret: cred.appSecret }, { ...ping, headers: en }),
        401,
        'The access key is invalid or disabled.',
      );
    }
  });

  it('a disabled credential: 401 at once; enabled again it works', async () => {
    const c = await issueCredential(server);
    expect((await signedCall(server, c, ping)).status).toBe(200);
    const off = await server.json('/api/Profile/ApiCredentialStatus', {
      method: 'PUT',
      headers: bearer(c.accessToken),
      json: { basicId: c.basicId, status: 'Disabled' },
    });
    expect(off.status).toBe(200);
    expectFailure(await signedCall(server, c, ping), 401);
    await server.json('/api/Profile/ApiCredentialStatus', {
      method: 'PUT',
      headers: bearer(c.accessToken),
      json: { basicId: c.basicId, status: 1 },
    });
    expect((await signedCall(server, c, ping)).status).toBe(200);
  });

  it('an expired credential or an owner who may no longer log in: 401', async () => {
    const { deps } = server.runtime;
    const expired = await issueCredential(server);
    await deps.db
      .update(apiCredentials)
      .set({ expirationTime: new Date(deps.clock.nowMs() - 1000) })
      .where(eq(apiCredentials.appKey, expired.appKey));
    await deps.credentials.changed(expired.appKey);
    expectFailure(await signedCall(server, expired, ping), 401);

    for (const change of [{ status: 'Disabled' }, { isActive: false }, { isDeleted: true }] as const) {
      const c = await issueCredential(server);
      expect((await signedCall(server, c, ping)).status).toBe(200);
      await deps.db.update(users).set(change).where(eq(users.id, c.user.id));
      // What every user change announces (administration, deactivation, deletion).
      await deps.sessionState.invalidateUser(c.user.id);
      expectFailure(await signedCall(server, c, ping), 401);
    }
  });

  it('an address off the allow-list: 403', async () => {
    const elsewhere = await issueCredential(server, { ipWhitelist: '10.9.*, 192.168.1.10' });
    expectFailure(
      await signedCall(server, elsewhere, { ...ping, headers: en }),
      403,
      "The client address is not on the credential's allow-list.",
    );
    const local = await issueCredential(server, { ipWhitelist: '10.9.*;127.0.0.*' });
    expect((await signedCall(server, local, ping)).status).toBe(200);
  });

  it('a replayed nonce: 409, also with a fresh signature over another body', async () => {
    const first = await signedCall(server, cred, ping);
    expect(first.status).toBe(200);
    expectFailure(
      await signedCall(server, cred, { ...ping, nonce: first.nonce, headers: en }),
      409,
      'Replayed request: this X-Nonce was already used.',
    );
    expectFailure(
      await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo', body: '{}', nonce: first.nonce }),
      409,
    );
    // Nonces are per credential.
    const other = await issueCredential(server);
    expect((await signedCall(server, other, { ...ping, nonce: first.nonce })).status).toBe(200);
  });

  it('a nonce that is not 1-128 visible characters: 400', async () => {
    expectFailure(await signedCall(server, cred, { ...ping, nonce: 'n'.repeat(129) }), 400);
    expectFailure(await signedCall(server, cred, { ...ping, nonce: 'a b' }), 400);
  });

  it('a missing or wrong content sign: 401', async () => {
    const call = { method: 'POST', path: '/api/openapi/Echo', body: '{"a":1}', headers: en } as const;
    expectFailure(
      await signedCall(server, cred, { ...call, override: { 'X-Content-Sign': undefined } }),
      401,
      'The content signature (X-Content-Sign) is missing.',
    );
    // Signed for another body, sent with this one (a body swapped under a valid signature).
    const forOther = referenceSign(cred, { method: 'POST', path: '/api/openapi/Echo', body: '{"a":2}' });
    const swapped = await server.request(forOther.url, {
      method: 'POST',
      headers: { ...forOther.headers, ...en, 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expectFailure(
      { status: swapped.status, body: await swapped.json() },
      401,
      'The content signature does not match the body.',
    );
    // A content sign changed after signing breaks the signature, which is checked first.
    expectFailure(
      await signedCall(server, cred, {
        ...call,
        override: { 'X-Content-Sign': createHash('sha256').update('{"a":2}').digest('hex') },
      }),
      401,
      'The request signature is invalid.',
    );
    // Upper-case hex is the same digest.
    const upper = await signedCall(server, cred, {
      ...call,
      override: { 'X-Content-Sign': createHash('sha256').update('{"a":1}').digest('hex').toUpperCase() },
    });
    expectFailure(upper, 401, 'The request signature is invalid.');
  });

  it('a wrong signature: 401 (wrong secret, another path, query, method or timestamp)', async () => {
    const text = 'The request signature is invalid.';
    expectFailure(
      await signedCall(server, { appKey: cred.appKey, appSecret: 'sk_wrong' }, { ...ping, headers: en }),
      401,
      text,
    );
    // Signed for another path, or another method.
    const forEcho = referenceSign(cred, { method: 'GET', path: '/api/openapi/Echo' });
    expectFailure(await server.json('/api/openapi/Ping', { headers: { ...forEcho.headers, ...en } }), 401, text);
    const forPost = referenceSign(cred, { method: 'POST', path: '/api/openapi/Ping' });
    expectFailure(await server.json('/api/openapi/Ping', { headers: { ...forPost.headers, ...en } }), 401, text);
    const good = await signedCall(server, cred, { ...ping, query: [['a', '1']], headers: en });
    expect(good.status).toBe(200);
    const res = await server.json('/api/openapi/Ping?a=2', {
      headers: {
        ...en,
        'X-Access-Key': cred.appKey,
        'X-Timestamp': nowSeconds(server.runtime.deps),
        'X-Nonce': 'n-1',
        'X-Signature': 'ab'.repeat(32),
        'X-Content-Sign': createHash('sha256').digest('hex'),
        'X-Encrypt-Algorithm': 'NONE',
      },
    });
    expectFailure(res, 401, text);
    expectFailure(
      await signedCall(server, cred, { ...ping, headers: en, override: { 'X-Signature': 'not base64 or hex' } }),
      401,
      text,
    );
  });

  it('a body over MaxRequestBodySize: 413, refused on the declared length without reading the rest', async () => {
    const url = new URL(server.url);
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/openapi/Echo',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(10 * 1024 * 1024),
            'x-access-key': cred.appKey,
            'x-timestamp': nowSeconds(server.runtime.deps),
            'x-nonce': 'big-1',
            'x-signature': 'x',
            'x-content-sign': 'x',
            'x-encrypt-algorithm': 'NONE',
          },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      req.on('error', reject);
      // Only the first kilobyte of the declared ten megabytes is ever sent.
      req.write(`{"a":"${'x'.repeat(1024)}`);
    });
    expectFailure(res, 413);
  });

  it('a body that grows past the limit: 413, whether declared or streamed in chunks', async () => {
    const body = `{"a":"${'x'.repeat(BODY_LIMIT)}"}`;
    expectFailure(await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo', body }), 413);
    const signed = referenceSign(cred, { method: 'POST', path: '/api/openapi/Echo', body });
    const url = new URL(server.url);
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: signed.url,
          method: 'POST',
          headers: { ...signed.headers, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < body.length; i += 4096) req.write(body.slice(i, i + 4096));
      req.end();
    });
    expectFailure(res, 413);
    // Just under the limit passes.
    const fits = `{"a":"${'x'.repeat(BODY_LIMIT - 10)}"}`;
    expect((await signedCall(server, cred, { method: 'POST', path: '/api/openapi/Echo', body: fits })).status).toBe(
      200,
    );
  });

  it('a plain body without X-Encrypt-Algorithm: 400 (decryption is attempted and fails)', async () => {
    const res = await signedCall(server, cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: '{"a":1}',
      headers: en,
      override: { 'X-Encrypt-Algorithm': undefined },
    });
    expectFailure(res, 400, /X-Encrypt-Algorithm: NONE/);
    // No body: nothing to decrypt, the header may be left out.
    expect((await signedCall(server, cred, { ...ping, override: { 'X-Encrypt-Algorithm': undefined } })).status).toBe(
      200,
    );
    expectFailure(
      await signedCall(server, cred, { ...ping, headers: { ...en, 'X-Encrypt-Algorithm': 'SM4' } }),
      400,
      'Unsupported encryption algorithm: SM4.',
    );
  });

  it('never answers 500 to garbage headers', async () => {
    const garbage = ['\u0001', '%', `ak_${'x'.repeat(200)}`, '9'.repeat(40)];
    for (const value of garbage) {
      const res = await server.request('/api/openapi/Ping?%zz=%&a', {
        headers: {
          'X-Access-Key': value.replace(/[^\x20-\x7e]/g, '?'),
          'X-Timestamp': nowSeconds(server.runtime.deps),
          'X-Nonce': 'g',
          'X-Signature': value.replace(/[^\x20-\x7e]/g, '?'),
          'X-Content-Sign': value.replace(/[^\x20-\x7e]/g, '?'),
        },
      });
      expect(res.status, value).toBeLessThan(500);
    }
  });
});

describe('AES body encryption (the original service)', () => {
  const key = () => createHash('sha256').update(cred.appSecret, 'utf8').digest();
  const encrypt = (plain: string, iv: Buffer) => {
    const cipher = createCipheriv('aes-256-cbc', key(), iv);
    return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
  };

  it('decrypts {alg, data, iv} and a bare Base64 body (IV from X-Encrypt-Iv or the nonce); signs the plaintext', async () => {
    const plain = '{"Secret":"value","n":42}';
    const iv = randomBytes(16);
    const wrapped = JSON.stringify({ alg: 'AES-CBC', data: encrypt(plain, iv), iv: iv.toString('base64') });
    // The content sign covers the plaintext: the reference signer signs it, the wire carries ciphertext.
    const a = await signedCall(server, cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: plain,
      headers: { 'X-Encrypt-Algorithm': 'AES-CBC' },
    });
    expect(a.status).toBe(400);
    const signedA = await sendEncrypted(plain, wrapped, { 'X-Encrypt-Algorithm': 'AES-CBC' });
    expect(signedA.status).toBe(200);
    expect(signedA.text).toContain(`"data":${plain},`);

    const nonce = `nonce-${Date.now()}`;
    const nonceIv = createHash('sha256').update(nonce).digest().subarray(0, 16);
    const bare = await sendEncrypted(plain, encrypt(plain, nonceIv), { 'X-Encrypt-Algorithm': 'AES' }, nonce);
    expect(bare.status).toBe(200);
    const headerIv = randomBytes(16);
    const viaHeader = await sendEncrypted(plain, encrypt(plain, headerIv), {
      'X-Encrypt-Algorithm': 'aes-cbc',
      'X-Encrypt-Iv': headerIv.toString('base64'),
    });
    expect(viaHeader.status).toBe(200);
    const truncated = await sendEncrypted(plain, encrypt(plain, headerIv).slice(0, 20), {
      'X-Encrypt-Algorithm': 'AES-CBC',
      'X-Encrypt-Iv': headerIv.toString('base64'),
      'X-Language': 'en-US',
    });
    expectFailure(truncated, 400, /could not be decrypted/);
    const notBase64 = await sendEncrypted(plain, '{"data":"%%%"}', {
      'X-Encrypt-Algorithm': 'AES-CBC',
      'X-Language': 'en-US',
    });
    expectFailure(notBase64, 400, /could not be decrypted/);
    // CBC under a wrong IV garbles the first block only: the content sign catches it.
    const wrongIv = await sendEncrypted(plain, encrypt(plain, randomBytes(16)), {
      'X-Encrypt-Algorithm': 'AES-CBC',
      'X-Language': 'en-US',
    });
    expectFailure(wrongIv, 401, 'The content signature does not match the body.');
  });

  it('is no padding oracle: without the secret, good and bad padding answer the same 401', async () => {
    // An attacker who knows the access key but not the secret: any ciphertext, any IV, a made-up signature.
    const attempt = async (wire: Buffer) => {
      const headers = {
        'X-Access-Key': cred.appKey,
        'X-Timestamp': nowSeconds(server.runtime.deps),
        'X-Nonce': randomBytes(8).toString('hex'),
        'X-Signature': 'ab'.repeat(32),
        'X-Content-Sign': createHash('sha256').update('x').digest('hex'),
        'X-Encrypt-Algorithm': 'AES-CBC',
        'X-Encrypt-Iv': randomBytes(16).toString('base64'),
        'content-type': 'application/json',
        ...en,
      };
      const res = await server.request('/api/openapi/Echo', {
        method: 'POST',
        headers,
        body: JSON.stringify({ data: wire.toString('base64') }),
      });
      return { status: res.status, body: await res.json() };
    };
    const goodPadding = await attempt(Buffer.from(encrypt('{"x":1}', randomBytes(16)), 'base64'));
    const badPadding = await attempt(randomBytes(32));
    expectFailure(goodPadding, 401, 'The request signature is invalid.');
    expectFailure(badPadding, 401, 'The request signature is invalid.');
  });

  it('encrypts the answer when X-Encrypt-Response asks', async () => {
    const res = await signedCall(server, cred, { ...ping, headers: { 'X-Encrypt-Response': 'true' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-secure-response')).toBe('1');
    expect(res.body.alg).toBe('AES-CBC');
    const decipher = createDecipheriv('aes-256-cbc', key(), Buffer.from(res.body.iv, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(res.body.data, 'base64')), decipher.final()]);
    expect(res.body.contentSign).toBe(createHash('sha256').update(plain).digest('hex'));
    expect(res.headers.get('x-content-sign')).toBe(res.body.contentSign);
    expect(res.headers.get('x-encrypt-iv')).toBe(res.body.iv);
    const envelope = JSON.parse(plain.toString('utf8'));
    expect(envelope).toMatchObject({ code: 200, isSuccess: true, data: { ok: true, accessKey: cred.appKey } });
    // Not asked: plain.
    expect((await signedCall(server, cred, { ...ping, headers: { 'X-Encrypt-Response': 'no' } })).body.data.ok).toBe(
      true,
    );
  });

  async function sendEncrypted(plain: string, wire: string, headers: Record<string, string>, nonce?: string) {
    // Sign as for the plaintext, then put the ciphertext on the wire.
    const signed = referenceSign(cred, { method: 'POST', path: '/api/openapi/Echo', body: plain, nonce });
    const all = { ...signed.headers, ...headers, 'content-type': 'application/json' };
    const res = await server.request(signed.url, { method: 'POST', headers: all, body: wire });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  }
});

describe('/trpc serves the same procedures', () => {
  it('asks for the signature of a procedure whose REST path is protected, though /trpc is not listed', async () => {
    // ProtectedPathPrefixes is [/api/openapi] here: Ping is protected, ServerTime is not.
    // /trpc answers errors in its own shape, with the envelope inside.
    const unsigned = await server.json('/trpc/OpenApiAppService.PingAsync', { headers: en });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error.data.envelope.data).toBe('The security headers of a signed request are missing.');
    const batch = await server.json(
      `/trpc/${encodeURIComponent('SystemAppService.GetServerTimeAsync,OpenApiAppService.PingAsync')}?batch=1&input={}`,
      { headers: en },
    );
    expect(batch.status).toBe(401);
    expect((await server.json('/trpc/SystemAppService.GetServerTimeAsync')).status).toBe(200);
    const signed = await signedCall(server, cred, { method: 'GET', path: '/trpc/OpenApiAppService.PingAsync' });
    expect(signed.status).toBe(200);
    expect(signed.body.result.data.accessKey).toBe(cred.appKey);
  });

  it('reads the procedure from the path as tRPC does: a trailing slash or an escape does not skip the signature', async () => {
    for (const path of [
      '/trpc/OpenApiAppService.PingAsync/',
      '/trpc/OpenApiAppService%2EPingAsync',
      '/trpc/OpenApiAppService.PingAsync%2F',
      '/trpc/x/../OpenApiAppService.PingAsync/',
    ]) {
      expect({ path, status: (await server.json(path, { headers: en })).status }).toEqual({ path, status: 401 });
    }
    const echo = await server.json('/trpc/OpenApiAppService.EchoAsync/', {
      method: 'POST',
      json: { x: 1 },
      headers: en,
    });
    expect(echo.status).toBe(401);
    // An unprotected procedure still answers unsigned, with or without the slash.
    expect((await server.json('/trpc/SystemAppService.GetServerTimeAsync/')).status).toBe(200);
  });

  it('asks for the signature first when tRPC refuses a request before reading its calls', async () => {
    const wrongType = await server.json('/trpc/OpenApiAppService.EchoAsync', {
      method: 'POST',
      body: 'x',
      headers: { ...en, 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(401);
    expect(wrongType.body.error.data.envelope.data).toBe('The security headers of a signed request are missing.');
    expect((await server.json('/trpc/OpenApiAppService.PingAsync%E0', { headers: en })).status).toBe(401);
    // Signed, the refusal is tRPC's own.
    const signed = await signedCall(server, cred, { method: 'GET', path: '/trpc/OpenApiAppService.PingAsync%E0' });
    expect(signed.status).toBe(400);
    expect(signed.body.error.data.envelope.code).toBe(400);
  });
});

describe('replay races', () => {
  it('20 parallel requests with one nonce: exactly one is accepted', async () => {
    const signed = referenceSign(cred, { ...ping, nonce: `race-${Date.now()}` });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => server.request(signed.url, { headers: signed.headers }).then((r) => r.status)),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(19);
  });
});

describe('made-up access keys', () => {
  let own: TestServer;
  let known: IssuedCredential;
  beforeAll(async () => {
    // A clock that stands still: the limit lets one more lookup through per second, and 61
    // parallel calls can take longer than that on a loaded machine. On the whole second just
    // past, never ahead of the real time the requests are signed with: the record of used nonces
    // begins by this clock, and a request signed before it would be refused.
    own = await startSignedServer({}, { clock: new ManualClock(Math.floor(Date.now() / 1000) * 1000) });
    known = await issueCredential(own);
    // Cached by a first call: a known key is answered without asking the database again.
    expect((await signedCall(own, known, ping)).status).toBe(200);
  });
  afterAll(() => own.close());

  it('lets a client address look up 60 uncached keys a minute, then answers 429; cached keys go on', async () => {
    // The known key's first lookup (above) was one of the 60. All at once: the limit then lets
    // one more through per second, which a slow sequence of calls would reach.
    const results = await Promise.all(
      Array.from({ length: 61 }, (_, i) =>
        signedCall(own, { appKey: `ak_madeup${i}x${Date.now()}`, appSecret: 'sk_x' }, { ...ping, headers: en }),
      ),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(59);
    const refusedAll = results.filter((r) => r.status !== 401);
    expect(refusedAll).toHaveLength(2);
    for (const refused of refusedAll) {
      expectFailure(refused, 429, /unknown access keys/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await signedCall(own, known, ping)).status).toBe(200);
  });
});
