import type { webcrypto } from 'node:crypto';
import { sm2 } from 'sm-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceSign } from '../../../server/src/modules/openapi/reference-signer.js';
import {
  issueCredential,
  startSignedServer,
  type IssuedCredential,
} from '../../../server/src/modules/openapi/test-kit.js';
import type { TestServer } from '../../../server/src/testing/harness.js';
import { createRestClient } from '../rest-client.js';
import { canonicalQuery, createRequestSigner } from './request-signer.js';

/**
 * The SDK signer against the real server, and against the tests' reference signer (written from
 * the documented contract alone, sharing no code with the SDK): same inputs, same headers.
 */

let server: TestServer;
let cred: IssuedCredential;
beforeAll(async () => {
  server = await startSignedServer();
  cred = await issueCredential(server);
});
afterAll(() => server.close());

describe('createRequestSigner', () => {
  it('produces the same headers as the reference signer for the same time and nonce', async () => {
    const cases = [
      { method: 'GET', path: '/api/openapi/Ping', query: [] as Array<[string, string]>, body: undefined },
      {
        method: 'POST',
        path: '/api/openapi/Echo',
        query: [
          ['b', '1'],
          ['a', 'x y'],
          ['a', '+&=é😀'],
          ['c', "!'()*"],
        ] as Array<[string, string]>,
        body: '{"k":"v"}',
      },
    ];
    for (const c of cases) {
      const signer = createRequestSigner({
        accessKey: cred.appKey,
        secret: cred.appSecret,
        now: () => 1_700_000_000_000,
        nonce: () => 'fixed-nonce',
      });
      const reference = referenceSign(cred, { ...c, timestamp: '1700000000', nonce: 'fixed-nonce' });
      expect(
        await signer.sign({ method: c.method, url: `https://id.example.com${reference.url}`, body: c.body }),
      ).toEqual(reference.headers);
    }
  });

  it('signs calls the server accepts: query, body, Base64, HMACSHA512', async () => {
    const signer = createRequestSigner({ accessKey: cred.appKey, secret: cred.appSecret });
    const ping = await signer.fetch(`${server.url}/api/openapi/Ping?z=1&a=${encodeURIComponent("é +&='!")}&a=0`);
    expect(ping.status).toBe(200);
    expect(((await ping.json()) as { data: { accessKey: string } }).data.accessKey).toBe(cred.appKey);

    const body = '{"Nested":{"list":[1,null,"x"]}}';
    const echo = await signer.fetch(`${server.url}/api/openapi/Echo`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(echo.status).toBe(200);
    expect(await echo.text()).toContain(`"data":${body},`);

    const b64 = createRequestSigner({
      accessKey: cred.appKey,
      secret: cred.appSecret,
      encoding: 'base64',
      algorithm: 'HMACSHA512',
      contentAlgorithm: 'SHA512',
    });
    expect(
      (
        await b64.fetch(`${server.url}/api/openapi/Echo`, {
          method: 'POST',
          body: new TextEncoder().encode('[1]'),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    await expect(
      b64.fetch(`${server.url}/api/openapi/Echo`, { method: 'POST', body: new Blob(['x']) }),
    ).rejects.toThrow(TypeError);
    // A Request is read once and sent as signed.
    const request = new Request(`${server.url}/api/openapi/Echo?x=1`, {
      method: 'POST',
      body: '{"r":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await (await b64.fetch(request)).text()).toContain('"data":{"r":1}');
  });

  it('signs RSASHA256 with a WebCrypto private key whose public half is registered', async () => {
    const pair = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    )) as webcrypto.CryptoKeyPair;
    const spki = Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey)).toString('base64');
    const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
    const rsa = await issueCredential(server, { signatureAlgorithm: 'RSASHA256', publicKey: pem }, {}, cred.user);
    const signer = createRequestSigner({ accessKey: rsa.appKey, algorithm: 'RSASHA256', privateKey: pair.privateKey });
    expect((await signer.fetch(`${server.url}/api/openapi/Ping`)).status).toBe(200);
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).toString('base64');
    const fromPem = createRequestSigner({
      accessKey: rsa.appKey,
      algorithm: 'RSASHA256',
      privateKey: `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----`,
    });
    expect((await fromPem.fetch(`${server.url}/api/openapi/Ping`)).status).toBe(200);
  });

  it("signs SM2 through the partner's own SM2 signer (sm-crypto here)", async () => {
    const keys = sm2.generateKeyPairHex();
    const cn = await issueCredential(server, { signatureAlgorithm: 'SM2', publicKey: keys.publicKey }, {}, cred.user);
    const signer = createRequestSigner({
      accessKey: cn.appKey,
      algorithm: 'SM2',
      signText: (text) => sm2.doSignature(text, keys.privateKey, { hash: true }),
    });
    const res = await signer.fetch(`${server.url}/api/openapi/Echo?q=a%20b`, {
      method: 'POST',
      body: '{"n":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ n: 1 });
    expect(() => createRequestSigner({ accessKey: cn.appKey, algorithm: 'SM2' })).toThrow(/SM2 needs signText/);
  });

  it('plugs into the REST client as its fetch', async () => {
    const signer = createRequestSigner({ accessKey: cred.appKey, secret: cred.appSecret });
    const rest = createRestClient({ baseUrl: server.url, fetch: signer.fetch, language: 'en-US' });
    const data = await rest.call('OpenApiAppService.PingAsync');
    expect(data).toMatchObject({ ok: true, accessKey: cred.appKey, ownerUserId: String(cred.user.id) });
  });

  it('canonicalizes like the server', () => {
    expect(canonicalQuery('?b=2&a=z&a=10&B=1&q=a+b')).toBe('B=1&a=10&a=z&b=2&q=a%20b');
  });
});
