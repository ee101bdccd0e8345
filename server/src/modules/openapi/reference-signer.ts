import { createHash, createHmac, createSign, randomUUID, type KeyObject } from 'node:crypto';

/**
 * A second signer for the tests, written from SPEC "Signed interface (no token)" alone: it shares
 * no code with the server (signature.ts) or the SDK (client-sdk/src/signing), so a test where it
 * and the server agree checks the server against the text, not against itself.
 *
 *   1. contentSign = lowercase hex SHA-256 of the raw body ("" when none)
 *   2. canonical query: sorted by key (ordinal), then value; each escaped as a URI component
 *      (RFC 3986: only ALPHA DIGIT - . _ ~ unescaped); `key=value` joined by `&`
 *   3. stringToSign = METHOD, path, canonical query, contentSign, X-Timestamp, X-Nonce, joined by LF
 *   4. X-Signature = HMAC-SHA256(stringToSign) keyed by the AppSecret, hex or Base64
 */

/** Percent-encodes every UTF-8 byte outside the RFC 3986 unreserved set, with upper-case hex. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const unreserved =
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      (byte >= 0x30 && byte <= 0x39) ||
      byte === 0x2d ||
      byte === 0x2e ||
      byte === 0x5f ||
      byte === 0x7e;
    out += unreserved ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Ordinal comparison, one UTF-16 code unit at a time. */
function ordinal(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function referenceCanonicalQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  return [...pairs]
    .sort((x, y) => ordinal(x[0], y[0]) || ordinal(x[1], y[1]))
    .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
    .join('&');
}

export type Encoding = 'hex' | 'HEX' | 'base64';

export interface ReferenceCredential {
  appKey: string;
  appSecret: string;
}

export interface ReferenceRequest {
  method: string;
  path: string;
  /** Decoded parameters, in the order they go on the URL. */
  query?: ReadonlyArray<readonly [string, string]>;
  body?: string | Buffer;
  timestamp?: string;
  nonce?: string;
  encoding?: Encoding;
  /** HMAC hash (sha256 by default) or an RSA private key for RSASHA256. */
  hash?: 'sha256' | 'sha512' | 'sha1';
  rsaPrivateKey?: KeyObject;
  contentHash?: 'sha256' | 'sha512' | 'md5';
}

/** The URL (path + query, each value percent-encoded) and the headers of a signed request. */
export function referenceSign(
  credential: ReferenceCredential,
  request: ReferenceRequest,
): { url: string; headers: Record<string, string>; stringToSign: string } {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const contentSign = createHash(request.contentHash ?? 'sha256')
    .update(body)
    .digest('hex');
  const timestamp = request.timestamp ?? String(Math.floor(Date.now() / 1000));
  const nonce = request.nonce ?? randomUUID().replaceAll('-', '');
  const query = request.query ?? [];
  const text = [
    request.method.toUpperCase(),
    request.path,
    referenceCanonicalQuery(query),
    contentSign,
    timestamp,
    nonce,
  ].join('\n');
  let signature: string;
  if (request.rsaPrivateKey) {
    signature = createSign('RSA-SHA256').update(text, 'utf8').sign(request.rsaPrivateKey, 'base64');
  } else {
    const digest = createHmac(request.hash ?? 'sha256', Buffer.from(credential.appSecret, 'utf8'))
      .update(text, 'utf8')
      .digest();
    const encoding = request.encoding ?? 'hex';
    signature =
      encoding === 'base64'
        ? digest.toString('base64')
        : encoding === 'HEX'
          ? digest.toString('hex').toUpperCase()
          : digest.toString('hex');
  }
  const search = query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  return {
    url: search ? `${request.path}?${search}` : request.path,
    headers: {
      'X-Access-Key': credential.appKey,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Content-Sign': contentSign,
      'X-Signature': signature,
      'X-Encrypt-Algorithm': 'NONE',
    },
    stringToSign: text,
  };
}
