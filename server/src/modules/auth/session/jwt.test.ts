import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from './jwt.js';

const key = randomBytes(48);
const now = 1_800_000_000;
const base = { key, nowSeconds: now, skewSeconds: 300, issuer: 'Portcullis', audience: 'Portcullis.Client' };
const claims = {
  sub: '42',
  jti: 'abc',
  iss: 'Portcullis',
  aud: 'Portcullis.Client',
  iat: now,
  nbf: now,
  exp: now + 3600,
};

describe('HS256 tokens', () => {
  it('round-trips and interoperates with jose both ways', async () => {
    const ours = signJwt(claims, key);
    expect(verifyJwt(ours, base)).toMatchObject({ ok: true, payload: { sub: '42' } });
    const checked = await jwtVerify(ours, key, {
      issuer: 'Portcullis',
      audience: 'Portcullis.Client',
      currentDate: new Date(now * 1000),
    });
    expect(checked.payload.jti).toBe('abc');
    const theirs = await new SignJWT({ jti: 'j2', role: ['a', 'b'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('7')
      .setIssuer('Portcullis')
      .setAudience('Portcullis.Client')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key);
    expect(verifyJwt(theirs, base)).toMatchObject({ ok: true, payload: { sub: '7', role: ['a', 'b'] } });
  });

  it('honours expiry with the skew tolerance, and can ignore it for refresh', () => {
    const token = signJwt({ ...claims, exp: now - 200 }, key);
    expect(verifyJwt(token, base).ok).toBe(true);
    const old = signJwt({ ...claims, exp: now - 301 }, key);
    expect(verifyJwt(old, base)).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifyJwt(old, { ...base, ignoreExpiry: true }).ok).toBe(true);
    expect(verifyJwt(signJwt({ ...claims, nbf: now + 301 }, key), base)).toMatchObject({
      ok: false,
      reason: 'not-yet-valid',
    });
  });

  it('refuses another key, issuer, audience, a missing exp, and tampering', () => {
    expect(verifyJwt(signJwt(claims, randomBytes(48)), base)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyJwt(signJwt({ ...claims, iss: 'x' }, key), base)).toMatchObject({ ok: false, reason: 'issuer' });
    expect(verifyJwt(signJwt({ ...claims, aud: 'x' }, key), base)).toMatchObject({ ok: false, reason: 'audience' });
    expect(verifyJwt(signJwt({ ...claims, exp: undefined }, key), base)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    const token = signJwt(claims, key);
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect(verifyJwt(`${h}.${forged}.${s}`, base)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyJwt(`${h}.${p}.${s.slice(0, -2)}`, base)).toMatchObject({ ok: false, reason: 'signature' });
  });

  it('refuses alg none, other algorithms and odd shapes', () => {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyJwt(`${none}.${payload}.`, base).ok).toBe(false);
    const hs512 = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url');
    expect(verifyJwt(`${hs512}.${payload}.abc`, base).ok).toBe(false);
    for (const bad of ['', 'a.b', 'a.b.c.d', '...', `x`.repeat(9000), `${signJwt(claims, key)}=`]) {
      expect(verifyJwt(bad, base).ok).toBe(false);
    }
    const array = signJwt([1, 2] as never, key);
    expect(verifyJwt(array, base).ok).toBe(false);
  });
});
