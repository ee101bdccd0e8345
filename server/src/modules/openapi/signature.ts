import { createHash, createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/**
 * The signature of SPEC "Signed interface (no token)", as pure functions:
 *
 *   contentSign  = lowercase hex digest of the raw body (of "" when there is none)
 *   query        = parameters sorted by key then value (ordinal), each escaped, `k=v` joined by `&`
 *   stringToSign = METHOD \n path \n query \n contentSign \n X-Timestamp \n X-Nonce
 *   X-Signature  = HMAC of stringToSign keyed by the secret's UTF-8 bytes, hex (any case) or Base64
 */

export type SignAlgorithm = 'HMACSHA256' | 'HMACSHA512' | 'HMACSHA1' | 'RSASHA256' | 'SM2';
export type ContentAlgorithm = 'SHA256' | 'SHA512' | 'MD5';

const HMAC_HASH: Record<Exclude<SignAlgorithm, 'RSASHA256' | 'SM2'>, string> = {
  HMACSHA256: 'sha256',
  HMACSHA512: 'sha512',
  HMACSHA1: 'sha1',
};
const CONTENT_HASH: Record<ContentAlgorithm, string> = { SHA256: 'sha256', SHA512: 'sha512', MD5: 'md5' };

/** Algorithm names compare without case, dashes, underscores or spaces (`HMAC-SHA256` = `hmacsha256`). */
export function normalizeAlgorithm(name: string): string {
  return name.replace(/[-_\s]/g, '').toUpperCase();
}

/**
 * RFC 3986 escaping, as .NET's Uri.EscapeDataString (the original's): only `A-Z a-z 0-9 - _ . ~`
 * stay, so `!'()*` are escaped too, unlike encodeURIComponent.
 */
export function escapeDataString(text: string): string {
  return encodeComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** encodeURIComponent, which leaves `!'()*` as they are (what a JavaScript signer may use). */
export function escapeUriComponent(text: string): string {
  return encodeComponent(text);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent, with lone surrogates (which it refuses) written as U+FFFD like UTF-8 encoders do. */
function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
  }
}

/** The decoded query parameters (`+` is a space), sorted ordinally by key, then by value. */
export function sortedQuery(rawQuery: string): Array<[string, string]> {
  if (!rawQuery) return [];
  const pairs = [...new URLSearchParams(rawQuery)];
  // `<` on strings compares UTF-16 code units: .NET's ordinal comparison.
  return pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
}

/** The canonical query of a raw query string (without `?`). */
export function canonicalQuery(rawQuery: string, escapeText: (text: string) => string = escapeDataString): string {
  return sortedQuery(rawQuery)
    .map(([k, v]) => `${escapeText(k)}=${escapeText(v)}`)
    .join('&');
}

export function stringToSign(
  method: string,
  path: string,
  query: string,
  contentSign: string,
  timestamp: string,
  nonce: string,
): string {
  return `${method.toUpperCase()}\n${path}\n${query}\n${contentSign}\n${timestamp}\n${nonce}`;
}

const EMPTY: Record<ContentAlgorithm, string> = {
  SHA256: createHash('sha256').digest('hex'),
  SHA512: createHash('sha512').digest('hex'),
  MD5: createHash('md5').digest('hex'),
};

/** Lowercase hex digest of the body; of the empty string when there is none. */
export function contentSign(body: Uint8Array | undefined, algorithm: ContentAlgorithm): string {
  if (!body || body.byteLength === 0) return EMPTY[algorithm];
  return createHash(CONTENT_HASH[algorithm]).update(body).digest('hex');
}

/** Constant-time comparison of two texts (their lengths are not secret). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function hmac(algorithm: Exclude<SignAlgorithm, 'RSASHA256' | 'SM2'>, secret: Uint8Array, text: string): Buffer {
  return createHmac(HMAC_HASH[algorithm], secret).update(text, 'utf8').digest();
}

const HEX = /^[0-9a-fA-F]+$/;

/** Whether a presented HMAC (hex in any case, or exact Base64) equals the expected digest, in constant time. */
export function matchesDigest(presented: string, expected: Buffer): boolean {
  if (presented.length === expected.length * 2 && HEX.test(presented))
    return timingSafeEqual(Buffer.from(presented, 'hex'), expected);
  return sameText(presented, expected.toString('base64'));
}

/** RSASSA-PKCS1-v1_5 with SHA-256 over the string to sign; the signature in Base64 or hex. */
export function verifyRsa(publicKey: KeyObject, text: string, presented: string): boolean {
  const signature =
    HEX.test(presented) && presented.length % 2 === 0
      ? Buffer.from(presented, 'hex')
      : Buffer.from(presented, 'base64');
  try {
    return verify('sha256', Buffer.from(text, 'utf8'), publicKey, signature);
  } catch {
    return false;
  }
}
