import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { referenceSign } from './reference-signer.js';
import {
  issueCredential,
  nowSeconds,
  seedCredential,
  signedCall,
  startSignedServer,
  type IssuedCredential,
} from './test-kit.js';

/** Every OpenApiSecurity option of the spec's table, each against a server configured for it. */

const ping = { method: 'GET', path: '/api/openapi/Ping' } as const;

describe('IsEnabled = false (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startSignedServer({ OpenApiSecurity: { IsEnabled: false } });
  });
  afterAll(() => server.close());

  it('lets Ping and Echo answer anonymously, without an access key', async () => {
    const res = await server.json('/api/openapi/Ping');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ok: true, message: 'OpenAPI 签名校验通过', serverTimeUtc: expect.any(String) });
    const echo = await server.json('/api/openapi/Echo', { method: 'POST', json: { message: 'hi', number: 3 } });
    expect(echo.body.data).toEqual({ message: 'hi', number: 3 });
    // The body unchanged, unsigned too: names keep their case, nulls and big numbers stay.
    const verbatim = await server.request('/api/openapi/Echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"Message":"x","n":null,"big":12345678901234567890}',
    });
    expect(await verbatim.text()).toContain('"data":{"Message":"x","n":null,"big":12345678901234567890}');
    // Security headers mean nothing then: no identity is taken from them.
    const cred = await issueCredential(server);
    expect((await signedCall(server, cred, ping)).body.data.accessKey).toBeUndefined();
  });
});

describe('lenient options', () => {
  let server: TestServer;
  let cred: IssuedCredential;
  beforeAll(async () => {
    server = await startSignedServer({
      OpenApiSecurity: {
        AllowUnsignedRequests: true,
        RequireContentSignature: false,
        EnableReplayProtection: false,
        AllowLegacySignatureAlgorithms: true,
        DefaultSignatureAlgorithm: 'HMACSHA512',
        DefaultContentSignatureAlgorithm: 'SHA512',
        TimestampToleranceSeconds: 10,
        EncryptResponseByDefaultWhenRequestEncrypted: true,
      },
    });
    cred = await issueCredential(server);
  });
  afterAll(() => server.close());

  it('AllowUnsignedRequests: a request with no security header passes without identity; a partial one does not', async () => {
    const res = await server.json('/api/openapi/Ping');
    expect(res.status).toBe(200);
    expect(res.body.data.accessKey).toBeUndefined();
    expect((await server.json('/api/openapi/Echo', { method: 'POST', json: { a: 1 } })).body.data).toEqual({ a: 1 });
    expect((await server.json('/api/openapi/Ping', { headers: { 'X-Access-Key': cred.appKey } })).status).toBe(401);
    const signed = await signedCall(server, cred, { ...ping, hash: 'sha512', contentHash: 'sha512' });
    expect(signed.body.data.accessKey).toBe(cred.appKey);
  });

  it('DefaultSignatureAlgorithm / DefaultContentSignatureAlgorithm apply without the override headers', async () => {
    expect((await signedCall(server, cred, { ...ping, hash: 'sha512', contentHash: 'sha512' })).status).toBe(200);
    expect((await signedCall(server, cred, { ...ping, hash: 'sha256', contentHash: 'sha512' })).status).toBe(401);
  });

  it('RequireContentSignature = false: no X-Content-Sign needed; the string to sign then carries the digest', async () => {
    const res = await signedCall(server, cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: '{"a":1}',
      hash: 'sha512',
      contentHash: 'sha512',
      override: { 'X-Content-Sign': undefined },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: 1 });
    // Without the header the digest of the body as received is signed: another body fails.
    const signedForOther = referenceSign(cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: '{"amount":1}',
      hash: 'sha512',
      contentHash: 'sha512',
    });
    const { 'X-Content-Sign': _dropped, ...withoutSign } = signedForOther.headers;
    const noHeader = await server.request(signedForOther.url, {
      method: 'POST',
      headers: { ...withoutSign, 'content-type': 'application/json' },
      body: '{"amount":1000000}',
    });
    expect(noHeader.status).toBe(401);
    // A header that is sent is still compared with the body, or the body could be swapped under a valid signature.
    const withHeader = await server.request(signedForOther.url, {
      method: 'POST',
      headers: { ...signedForOther.headers, 'content-type': 'application/json' },
      body: '{"amount":1000000}',
    });
    expect(withHeader.status).toBe(401);
    expect(((await withHeader.json()) as { data: string }).data).toMatch(/content sign|内容签名/i);
  });

  it('EnableReplayProtection = false: the same request twice passes', async () => {
    const first = await signedCall(server, cred, { ...ping, hash: 'sha512', contentHash: 'sha512' });
    const again = await signedCall(server, cred, {
      ...ping,
      hash: 'sha512',
      contentHash: 'sha512',
      nonce: first.nonce,
      timestamp: first.stringToSign.split('\n')[4],
    });
    expect([first.status, again.status]).toEqual([200, 200]);
  });

  it('AllowLegacySignatureAlgorithms: HMACSHA1 and MD5 are accepted', async () => {
    const res = await signedCall(server, cred, {
      ...ping,
      hash: 'sha1',
      contentHash: 'md5',
      headers: { 'X-Sign-Algorithm': 'HMAC-SHA1', 'X-Content-Sign-Algorithm': 'md5' },
    });
    expect(res.status).toBe(200);
  });

  it('TimestampToleranceSeconds: 11 seconds off is refused', async () => {
    const now = Number(nowSeconds(server.runtime.deps));
    expect(
      (await signedCall(server, cred, { ...ping, hash: 'sha512', contentHash: 'sha512', timestamp: String(now - 11) }))
        .status,
    ).toBe(401);
    expect(
      (await signedCall(server, cred, { ...ping, hash: 'sha512', contentHash: 'sha512', timestamp: String(now - 5) }))
        .status,
    ).toBe(200);
  });

  it('EncryptResponseByDefaultWhenRequestEncrypted: an encrypted request gets an encrypted answer', async () => {
    const key = createHash('sha256').update(cred.appSecret).digest();
    const iv = randomBytes(16);
    const plain = '{"n":1}';
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    const wire = Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
    const signed = referenceSign(cred, {
      method: 'POST',
      path: '/api/openapi/Echo',
      body: plain,
      hash: 'sha512',
      contentHash: 'sha512',
    });
    const res = await server.request(signed.url, {
      method: 'POST',
      headers: {
        ...signed.headers,
        'X-Encrypt-Algorithm': 'AES-CBC',
        'X-Encrypt-Iv': iv.toString('base64'),
        'content-type': 'application/json',
      },
      body: wire,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-secure-response')).toBe('1');
    const body = (await res.json()) as { data: string; iv: string; contentSign: string };
    const decipher = createDecipheriv('aes-256-cbc', key, Buffer.from(body.iv, 'base64'));
    const envelope = Buffer.concat([decipher.update(Buffer.from(body.data, 'base64')), decipher.final()]);
    expect(body.contentSign).toBe(createHash('sha512').update(envelope).digest('hex'));
    expect(JSON.parse(envelope.toString()).data).toEqual({ n: 1 });
  });
});

describe('ProtectedPathPrefixes = [/api] (the default) plus /trpc, IgnoredPathPrefixes', () => {
  let server: TestServer;
  let key: { appKey: string; appSecret: string };
  let user: Awaited<ReturnType<typeof createTestUser>>;
  beforeAll(async () => {
    server = await startSignedServer({
      App: { MaxRequestBodyBytes: 2048 },
      OpenApiSecurity: {
        ProtectedPathPrefixes: ['/API/', '/trpc'],
        IgnoredPathPrefixes: ['/openapi', '/swagger', '/health', '/api/system'],
      },
    });
    user = await createTestUser(server.runtime.deps);
    key = await seedCredential(server.runtime.deps, user.id);
  });
  afterAll(() => server.close());

  it('requires a signature on every /api endpoint, login included; ignored prefixes stay open', async () => {
    expect((await server.json('/api/Auth/LoginConfig')).status).toBe(401);
    expect(
      (
        await server.json('/api/Auth/Login', {
          method: 'POST',
          json: { username: user.email, password: user.password },
        })
      ).status,
    ).toBe(401);
    expect((await server.json('/api/nothing/here')).status).toBe(401);
    expect((await server.json('/health')).status).toBe(200);
    expect((await server.request('/openapi/v1.json')).status).toBe(200);
    expect((await server.json('/api/System/ServerTime')).status).toBe(200);
    expect((await server.json('/api/SYSTEM/ServerTime')).status).toBe(200);
    // Whole segments: /apis is not under /api.
    expect((await server.json('/apis')).status).toBe(404);
  });

  it('a signed login, then a signed call that also carries the bearer token', async () => {
    const body = JSON.stringify({ username: user.email, password: user.password });
    const login = await signedCall(server, key, { method: 'POST', path: '/api/Auth/Login', body });
    expect(login.status).toBe(200);
    const token = login.body.data.token.accessToken as string;
    const list = await signedCall(server, key, {
      method: 'GET',
      path: '/api/Profile/ApiCredentials',
      headers: bearer(token),
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    // The signature does not stand in for the bearer token, nor the token for the signature.
    expect((await signedCall(server, key, { method: 'GET', path: '/api/Profile/ApiCredentials' })).status).toBe(401);
    expect((await server.json('/api/Profile/ApiCredentials', { headers: bearer(token) })).body.data).toBe(
      '缺少安全请求头。',
    );
  });

  it('a signed body is held to the signed limit (2 MiB), not the facade limit (App__MaxRequestBodyBytes 2048 here)', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(4096) });
    const res = await signedCall(server, key, { method: 'POST', path: '/api/openapi/Echo', body });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: 'x'.repeat(4096) });
    const viaTrpc = await signedCall(server, key, { method: 'POST', path: '/trpc/OpenApiAppService.EchoAsync', body });
    expect(viaTrpc.status).toBe(200);
  });

  it('protects /trpc too, handing the read body and the signer to the procedure', async () => {
    expect((await server.json('/trpc/OpenApiAppService.PingAsync')).status).toBe(401);
    const query = await signedCall(server, key, { method: 'GET', path: '/trpc/OpenApiAppService.PingAsync' });
    expect(query.status).toBe(200);
    expect(query.body.result.data.accessKey).toBe(key.appKey);
    const mutation = await signedCall(server, key, {
      method: 'POST',
      path: '/trpc/OpenApiAppService.EchoAsync',
      body: '{"x":[1,2]}',
    });
    expect(mutation.status).toBe(200);
    expect(mutation.body.result.data).toEqual({ x: [1, 2] });
    const replay = await server.request('/trpc/OpenApiAppService.PingAsync', {
      headers: referenceSign(key, { method: 'GET', path: '/trpc/OpenApiAppService.PingAsync', nonce: query.nonce })
        .headers,
    });
    expect(replay.status).toBe(409);
    expect(
      ((await replay.json()) as { error: { data: { envelope: { code: number } } } }).error.data.envelope.code,
    ).toBe(409);
  });
});
