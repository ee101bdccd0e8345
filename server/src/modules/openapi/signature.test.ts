import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../infra/clock.js';
import { aesKey, decryptBody, encryptBody, nonceIv, parseEncryptAlgorithm } from './body-crypto.js';
import { localNonces } from './nonces.js';
import { percentEncode, referenceCanonicalQuery, referenceSign } from './reference-signer.js';
import {
  canonicalQuery,
  contentSign,
  escapeDataString,
  matchesDigest,
  normalizeAlgorithm,
  stringToSign,
} from './signature.js';

/** The signature rules as pure functions, checked against the reference signer and fixed vectors. */

describe('canonical query', () => {
  it('escapes like .NET Uri.EscapeDataString (RFC 3986 unreserved only)', () => {
    expect(escapeDataString("a-_.~ !*'()+&=/?#%é中😀")).toBe(
      'a-_.~%20%21%2A%27%28%29%2B%26%3D%2F%3F%23%25%C3%A9%E4%B8%AD%F0%9F%98%80',
    );
  });

  it('sorts by key then value, ordinally (upper case before lower case), keeping repeated keys', () => {
    expect(canonicalQuery('b=2&a=z&a=10&a=9&B=1&a=')).toBe('B=1&a=&a=10&a=9&a=z&b=2');
    expect(canonicalQuery('')).toBe('');
    expect(canonicalQuery('flag')).toBe('flag=');
    expect(canonicalQuery('q=a+b&r=%2B&s=%zz')).toBe('q=a%20b&r=%2B&s=%25zz');
  });

  it('agrees with the reference signer on random parameters', () => {
    const alphabet = ['a', 'B', 'z', '0', ' ', '+', '&', '=', '%', '~', '*', "'", 'é', '中', '😀', '-', '.', '/'];
    for (let run = 0; run < 300; run++) {
      const pairs: Array<[string, string]> = [];
      const n = 1 + (randomBytes(1)[0]! % 6);
      const word = () =>
        Array.from({ length: randomBytes(1)[0]! % 5 }, () => alphabet[randomBytes(1)[0]! % alphabet.length]).join('');
      for (let i = 0; i < n; i++) pairs.push([word() || 'k', word()]);
      const raw = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
      expect(canonicalQuery(raw), raw).toBe(referenceCanonicalQuery(pairs));
    }
  });
});

describe('string to sign and digests', () => {
  it('joins the six segments with a line feed, method upper-cased', () => {
    expect(stringToSign('get', '/api/openapi/Ping', 'a=1', 'cs', '1700000000', 'n1')).toBe(
      'GET\n/api/openapi/Ping\na=1\ncs\n1700000000\nn1',
    );
  });

  it('hashes "" for an absent body', () => {
    expect(contentSign(undefined, 'SHA256')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentSign(new TextEncoder().encode('abc'), 'SHA256')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('reproduces the reference signer byte for byte', () => {
    const credential = { appKey: 'ak_x', appSecret: 'sk_secret' };
    const signed = referenceSign(credential, {
      method: 'POST',
      path: '/api/openapi/Echo',
      query: [
        ['b', '1'],
        ['a', 'x y'],
      ],
      body: '{"a":1}',
      timestamp: '1700000000',
      nonce: 'abc',
    });
    const ours = stringToSign(
      'POST',
      '/api/openapi/Echo',
      canonicalQuery('b=1&a=x%20y'),
      contentSign(new TextEncoder().encode('{"a":1}'), 'SHA256'),
      '1700000000',
      'abc',
    );
    expect(ours).toBe(signed.stringToSign);
    const digest = createHmac('sha256', 'sk_secret').update(ours).digest();
    expect(signed.headers['X-Signature']).toBe(digest.toString('hex'));
  });

  it('matches hex in any case and exact Base64, nothing else', () => {
    const digest = createHmac('sha256', 'k').update('t').digest();
    expect(matchesDigest(digest.toString('hex'), digest)).toBe(true);
    expect(matchesDigest(digest.toString('hex').toUpperCase(), digest)).toBe(true);
    expect(matchesDigest(digest.toString('base64'), digest)).toBe(true);
    expect(matchesDigest(digest.toString('base64url'), digest)).toBe(false);
    expect(matchesDigest(digest.toString('hex').slice(2), digest)).toBe(false);
    expect(matchesDigest('', digest)).toBe(false);
    expect(matchesDigest('é'.repeat(44), digest)).toBe(false);
  });

  it('reads algorithm names without case, dashes or underscores', () => {
    expect(normalizeAlgorithm('hmac-sha256')).toBe('HMACSHA256');
    expect(normalizeAlgorithm('RSA_SHA256')).toBe('RSASHA256');
    expect(parseEncryptAlgorithm('none')).toBe('NONE');
    expect(parseEncryptAlgorithm('aes-cbc')).toBe('AES-CBC');
    expect(parseEncryptAlgorithm('SM4')).toBeUndefined();
  });
});

describe('AES body encryption', () => {
  it('keys: 16/24/32 bytes as is, anything else its SHA-256; IV from the nonce', () => {
    expect(aesKey(Buffer.from('0123456789abcdef'))).toEqual(Buffer.from('0123456789abcdef'));
    expect(aesKey(Buffer.from('sk_short')).length).toBe(32);
    expect(nonceIv('n').length).toBe(16);
  });

  it('round-trips, and refuses malformed input', () => {
    const key = aesKey(Buffer.from('sk_abc'));
    const { data, iv } = encryptBody(Buffer.from('{"a":1}'), key);
    expect(decryptBody(Buffer.from(JSON.stringify({ alg: 'AES-CBC', data, iv })), key, undefined, 'n').toString()).toBe(
      '{"a":1}',
    );
    expect(decryptBody(Buffer.from(data), key, iv, 'n').toString()).toBe('{"a":1}');
    expect(() => decryptBody(Buffer.from('{"a":1}'), key, undefined, 'n')).toThrow();
    expect(() => decryptBody(Buffer.from('not base64!'), key, undefined, 'n')).toThrow();
    expect(() => decryptBody(Buffer.from(data), key, 'AAAA', 'n')).toThrow();
  });
});

describe('the in-process nonce registry', () => {
  it('refuses a key until it expires, then accepts it again, and forgets expired keys', () => {
    const clock = new ManualClock(1_700_000_000_500);
    const nonces = localNonces(clock);
    expect(nonces.claim('ak:n1', 300_000, clock.nowMs())).toBe('claimed');
    expect(nonces.claim('ak:n1', 300_000, clock.nowMs())).toBe('used');
    expect(nonces.claim('ak:n2', 10_000, clock.nowMs())).toBe('claimed');
    clock.advance(299_999);
    expect(nonces.claim('ak:n1', 300_000, clock.nowMs())).toBe('used');
    expect(nonces.claim('ak:n2', 10_000, clock.nowMs())).toBe('claimed');
    clock.advance(2);
    expect(nonces.claim('ak:n1', 300_000, clock.nowMs())).toBe('claimed');
    // After a long quiet spell everything has gone.
    clock.advance(86_400_000);
    expect(nonces.claim('ak:n1', 1000, clock.nowMs())).toBe('claimed');
    expect(nonces.claim('ak:n2', 1000, clock.nowMs())).toBe('claimed');
    expect(nonces.claim('ak:n2', 1000, clock.nowMs())).toBe('used');
  });

  it('keeps every nonce of its lifetime, however many (no capacity eviction)', () => {
    const clock = new ManualClock(1_700_000_000_000);
    const nonces = localNonces(clock);
    // One expectation over all claims: 250,000 expect() calls cost seconds on their own.
    const refused: number[] = [];
    for (let i = 0; i < 250_000; i++) {
      if (nonces.claim(`ak:${i}`, 300_000, clock.nowMs()) !== 'claimed') refused.push(i);
      if (i % 1000 === 0) clock.advance(1000);
    }
    expect(refused).toEqual([]);
    expect(nonces.claim('ak:0', 300_000, clock.nowMs())).toBe('used');
    expect(nonces.claim('ak:249999', 300_000, clock.nowMs())).toBe('used');
  });

  it('refuses requests signed before it began (a restarted process may have accepted them before), and only those', () => {
    const clock = new ManualClock(1_700_000_000_400);
    const nonces = localNonces(clock);
    clock.advance(5_000);
    // Signed in the second the registry began, but before it: X-Timestamp 1700000000.
    expect(nonces.claim('ak:before', 300_000, 1_700_000_000_000)).toBe('predates-record');
    expect(nonces.claim('ak:began', 300_000, 1_700_000_000_400)).toBe('claimed');
    expect(nonces.claim('ak:after', 300_000, 1_700_000_001_000)).toBe('claimed');
    expect(nonces.claim('ak:after', 300_000, 1_700_000_001_000)).toBe('used');
  });
});
