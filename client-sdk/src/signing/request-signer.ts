/**
 * Signs server-to-server calls for the signed open-API interface (SPEC "Signed interface (no
 * token)"), in Node 20+ and browsers alike: only WebCrypto (`crypto.subtle`) and TextEncoder.
 *
 *   X-Content-Sign = lowercase hex digest of the raw body ("" when none)
 *   string to sign = METHOD \n path \n canonical query \n X-Content-Sign \n X-Timestamp \n X-Nonce
 *   X-Signature    = HMAC of it keyed by the AppSecret's UTF-8 bytes (or RSA-SHA256 with a private key)
 *
 * ```ts
 * const signer = createRequestSigner({ accessKey: 'ak_…', secret: 'sk_…' });
 * const res = await signer.fetch('https://id.example.com/api/openapi/Echo', { method: 'POST', body: JSON.stringify({ hello: 1 }), headers: { 'content-type': 'application/json' } });
 * ```
 */

/** WebCrypto, typed from whichever environment compiles this (DOM or Node's). */
type CryptoLike = typeof globalThis.crypto;
type SigningKey = Awaited<ReturnType<CryptoLike['subtle']['importKey']>>;

export type SignatureAlgorithm = 'HMACSHA256' | 'HMACSHA512' | 'HMACSHA1' | 'RSASHA256' | 'SM2';
export type ContentSignAlgorithm = 'SHA256' | 'SHA512';
export type BodyInput = string | Uint8Array | ArrayBuffer | null | undefined;

export interface RequestSignerOptions {
  /** The AppKey (X-Access-Key). */
  accessKey: string;
  /** The AppSecret, for the HMAC algorithms. */
  secret?: string;
  /** For RSASHA256: a private CryptoKey (RSASSA-PKCS1-v1_5, SHA-256) or a PKCS#8 PEM text. */
  privateKey?: SigningKey | string;
  /**
   * For SM2: signs the string to sign with the partner's SM2 private key and answers the
   * signature (r||s or DER, hex or Base64). WebCrypto has no SM2, so the signer comes from the
   * partner's SM2 library (for example sm-crypto: `(text) => sm2.doSignature(text, key, { hash: true })`).
   */
  signText?: (text: string) => string | Promise<string>;
  /** Default HMACSHA256. */
  algorithm?: SignatureAlgorithm;
  /** Default SHA256. */
  contentAlgorithm?: ContentSignAlgorithm;
  /** X-Signature as lowercase hex (default) or Base64. */
  encoding?: 'hex' | 'base64';
  /** Send X-Sign-Algorithm and X-Content-Sign-Algorithm even for the defaults (when the server's defaults differ). */
  sendAlgorithmHeaders?: boolean;
  /** Milliseconds since the epoch; default Date.now (keep the clock synchronized: 300 s tolerance). */
  now?: () => number;
  /** A fresh random nonce per request; default 32 hex characters from crypto.randomUUID. */
  nonce?: () => string;
  /** A WebCrypto implementation; default globalThis.crypto. */
  crypto?: CryptoLike;
  /** The fetch used by `signer.fetch`; default globalThis.fetch. */
  fetch?: typeof fetch;
}

export interface SignInput {
  method: string;
  /** Absolute URL, or a path with its query. */
  url: string | URL;
  body?: BodyInput;
}

const HASH: Record<string, string> = {
  HMACSHA256: 'SHA-256',
  HMACSHA512: 'SHA-512',
  HMACSHA1: 'SHA-1',
  SHA256: 'SHA-256',
  SHA512: 'SHA-512',
};
const encoder = new TextEncoder();

/** RFC 3986 escaping (only `A-Z a-z 0-9 - _ . ~` stay), as the server's canonical query uses. */
export function escapeDataString(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonical query of a search string (with or without `?`): decoded, sorted by key then value, escaped. */
export function canonicalQuery(search: string): string {
  const pairs = [...new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)];
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${escapeDataString(k)}=${escapeDataString(v)}`).join('&');
}

export function stringToSign(
  method: string,
  path: string,
  query: string,
  contentSign: string,
  timestamp: string,
  nonce: string,
): string {
  return [method.toUpperCase(), path, query, contentSign, timestamp, nonce].join('\n');
}

/** The path as the server reads it: percent-escapes decoded, except those of reserved characters and `%`. */
function signedPath(pathname: string): string {
  try {
    return decodeURI(pathname.replace(/%25/g, '%2525'));
  } catch {
    return pathname;
  }
}

function bytesOf(body: BodyInput): Uint8Array {
  if (body === null || body === undefined) return new Uint8Array(0);
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

function base64(buffer: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(buffer)) binary += String.fromCharCode(b);
  return btoa(binary);
}

function pemToDer(pem: string): ArrayBuffer {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out.buffer;
}

export interface RequestSigner {
  /** The security headers for one request. */
  sign(input: SignInput): Promise<Record<string, string>>;
  /** fetch with the headers added; the body must be a string, bytes or absent (it is hashed as sent). */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

export function createRequestSigner(options: RequestSignerOptions): RequestSigner {
  const subtle = (options.crypto ?? globalThis.crypto).subtle;
  const algorithm = options.algorithm ?? 'HMACSHA256';
  const contentAlgorithm = options.contentAlgorithm ?? 'SHA256';
  const now = options.now ?? Date.now;
  const nonce = options.nonce ?? (() => (options.crypto ?? globalThis.crypto).randomUUID().replaceAll('-', ''));
  const needs = algorithm === 'RSASHA256' ? 'privateKey' : algorithm === 'SM2' ? 'signText' : 'secret';
  if (!options[needs]) throw new TypeError(`${algorithm} needs ${needs}`);

  let key: Promise<SigningKey> | undefined;
  const signingKey = () =>
    (key ??=
      algorithm === 'RSASHA256'
        ? typeof options.privateKey === 'string'
          ? subtle.importKey(
              'pkcs8',
              pemToDer(options.privateKey),
              { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
              false,
              ['sign'],
            )
          : Promise.resolve(options.privateKey as SigningKey)
        : subtle.importKey('raw', encoder.encode(options.secret!), { name: 'HMAC', hash: HASH[algorithm]! }, false, [
            'sign',
          ]));

  async function sign(input: SignInput): Promise<Record<string, string>> {
    const url = new URL(input.url, 'http://signing.invalid');
    const contentSign = hex(await subtle.digest(HASH[contentAlgorithm]!, bytesOf(input.body)));
    const timestamp = String(Math.floor(now() / 1000));
    const n = nonce();
    const text = stringToSign(
      input.method,
      signedPath(url.pathname),
      canonicalQuery(url.search),
      contentSign,
      timestamp,
      n,
    );
    const signature =
      algorithm === 'SM2'
        ? await options.signText!(text)
        : await subtle
            .sign(algorithm === 'RSASHA256' ? 'RSASSA-PKCS1-v1_5' : 'HMAC', await signingKey(), encoder.encode(text))
            .then((mac) => (algorithm === 'RSASHA256' || options.encoding === 'base64' ? base64(mac) : hex(mac)));
    const headers: Record<string, string> = {
      'X-Access-Key': options.accessKey,
      'X-Timestamp': timestamp,
      'X-Nonce': n,
      'X-Content-Sign': contentSign,
      'X-Signature': signature,
      'X-Encrypt-Algorithm': 'NONE',
    };
    if (options.sendAlgorithmHeaders || algorithm !== 'HMACSHA256') headers['X-Sign-Algorithm'] = algorithm;
    if (options.sendAlgorithmHeaders || contentAlgorithm !== 'SHA256')
      headers['X-Content-Sign-Algorithm'] = contentAlgorithm;
    return headers;
  }

  return {
    sign,
    async fetch(input, init = {}) {
      const doFetch = options.fetch ?? globalThis.fetch;
      if (typeof input !== 'string' && !(input instanceof URL)) {
        // A Request: its bytes are read once here and sent as they were hashed.
        const method = input.method.toUpperCase();
        const bytes =
          method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await input.clone().arrayBuffer());
        const headers = new Headers(input.headers);
        for (const [name, value] of Object.entries(await sign({ method, url: input.url, body: bytes })))
          headers.set(name, value);
        return doFetch(input.url, { method, headers, body: bytes, signal: input.signal });
      }
      const body = init.body;
      if (
        body !== undefined &&
        body !== null &&
        typeof body !== 'string' &&
        !(body instanceof Uint8Array) &&
        !(body instanceof ArrayBuffer)
      ) {
        throw new TypeError('signed requests need a string or byte body (the signature covers its exact bytes)');
      }
      const method = (init.method ?? 'GET').toUpperCase();
      const security = await sign({ method, url: input, body });
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(security)) headers.set(name, value);
      return doFetch(input, { ...init, method, headers });
    },
  };
}
