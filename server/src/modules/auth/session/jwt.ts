import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens on node:crypto. `jose` verifies through WebCrypto at about 200 µs a
 * token here, too slow for every authenticated request; this is the same algorithm with a
 * synchronous HMAC (a few microseconds). It accepts only the exact header this service writes
 * ({"alg":"HS256","typ":"JWT"}), so `alg: none` and algorithm confusion cannot get through, and
 * compares signatures in constant time. Interoperability with jose is tested both ways.
 */

export type JwtPayload = Record<string, unknown> & {
  exp?: number;
  nbf?: number;
  iat?: number;
  iss?: string;
  aud?: string | string[];
};

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signJwt(payload: JwtPayload, key: Buffer): string {
  return signJwtJson(JSON.stringify(payload), key);
}

/** The token of a payload already serialized: the same JSON text always gives the same token. */
export function signJwtJson(payloadJson: string, key: Buffer): string {
  const body = `${HEADER}.${Buffer.from(payloadJson).toString('base64url')}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

export type JwtFailure = 'malformed' | 'signature' | 'expired' | 'not-yet-valid' | 'issuer' | 'audience';

export type JwtResult = { ok: true; payload: JwtPayload } | { ok: false; reason: JwtFailure; payload?: JwtPayload };

export interface VerifyOptions {
  key: Buffer;
  nowSeconds: number;
  skewSeconds: number;
  issuer: string;
  audience: string;
  /** Accept a token past its expiry (refresh presents the old access token). */
  ignoreExpiry?: boolean;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

export function verifyJwt(token: string, options: VerifyOptions): JwtResult {
  if (typeof token !== 'string' || token.length > 8192) return { ok: false, reason: 'malformed' };
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first < 0 || second < 0 || token.indexOf('.', second + 1) >= 0) return { ok: false, reason: 'malformed' };
  // Only our own header is accepted; anything else (other alg, extra fields, kid) is refused.
  if (token.slice(0, first) !== HEADER) return { ok: false, reason: 'malformed' };
  const body = token.slice(first + 1, second);
  const signature = token.slice(second + 1);
  if (!B64URL.test(body) || !B64URL.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', options.key).update(token.slice(0, second)).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  let payload: JwtPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JwtPayload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return { ok: false, reason: 'malformed' };
  if (payload.iss !== options.issuer) return { ok: false, reason: 'issuer', payload };
  const aud = payload.aud;
  if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience))))
    return { ok: false, reason: 'audience', payload };
  const { nowSeconds, skewSeconds } = options;
  if (typeof payload.nbf === 'number' && payload.nbf > nowSeconds + skewSeconds)
    return { ok: false, reason: 'not-yet-valid', payload };
  if (typeof payload.exp !== 'number') return { ok: false, reason: 'malformed' };
  if (!options.ignoreExpiry && payload.exp + skewSeconds <= nowSeconds)
    return { ok: false, reason: 'expired', payload };
  return { ok: true, payload };
}
