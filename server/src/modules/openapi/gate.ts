import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { CredentialDirectory } from '../credentials/directory.js';
import { appError, isAppError } from '../../errors/app-error.js';
import { isJsonContentType, readBodyLimited, type NodeBodySource } from '../../http/body.js';
import type { HonoEnv } from '../../http/request-context.js';
import { respondError } from '../../http/respond.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { addressAllowed, type CredentialEntry } from '../credentials/directory.js';
import { aesKey, decryptBody, encryptBody, parseEncryptAlgorithm } from './body-crypto.js';
import { openApiErrors } from './errors.js';
import { localNonces, sharedNonces } from './nonces.js';
import {
  canonicalQuery,
  contentSign,
  escapeUriComponent,
  hmac,
  matchesDigest,
  normalizeAlgorithm,
  sameText,
  stringToSign,
  verifyRsa,
  type ContentAlgorithm,
  type SignAlgorithm,
} from './signature.js';
import { verifySm2 } from './sm2.js';
import type { SignedRequest } from './types.js';

type ApiHandler = (c: Context<HonoEnv>, signed?: SignedRequest) => Promise<Response>;

/** The signature check of OpenApiSecurity (SPEC "Signed interface (no token)"). */
export interface OpenApiGate {
  /** Under a protected prefix and under no ignored one (case-insensitive, whole path segments). */
  protects(path: string): boolean;
  /** Runs every stage of the check; throws the failing stage's error. */
  verify(c: Context<HonoEnv>): Promise<SignedRequest>;
  /** Encrypts a JSON answer when the request asked for it. */
  seal(signed: SignedRequest, response: Response): Promise<Response>;
  /** The REST facade behind the check: unprotected paths go straight through. */
  wrap(handler: ApiHandler): (c: Context<HonoEnv>) => Promise<Response>;
  /** The same check for protected paths outside /api (such as /trpc when listed). */
  middleware: MiddlewareHandler<HonoEnv>;
  /** Whether any protected prefix reaches beyond /api (only then is the middleware needed). */
  outsideApi: boolean;
}

const NONCE = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP = /^\d{1,15}$/;
const SIGN_ALGORITHMS = new Set<string>(['HMACSHA256', 'HMACSHA512', 'HMACSHA1', 'RSASHA256', 'SM2']);
const CONTENT_ALGORITHMS = new Set<string>(['SHA256', 'SHA512', 'MD5']);
const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const EMPTY = new Uint8Array(0);
/** Database lookups of uncached access keys a client address may cause per minute. */
const KEY_LOOKUPS_PER_MINUTE = 60;

/** Signed requests of protected paths outside /api, for the handlers behind the middleware (/trpc). */
const signedRequests = new WeakMap<Request, SignedRequest>();

export function signedRequestOf(request: Request): SignedRequest | undefined {
  return signedRequests.get(request);
}

/** Prefixes as lower-case paths without a trailing slash ('' covers every path). */
function prefixes(list: readonly string[]): string[] {
  return list
    .map((p) => p.trim().toLowerCase().replace(/\/+$/, ''))
    .map((p) => (p === '' || p.startsWith('/') ? p : `/${p}`));
}

function under(path: string, list: readonly string[]): boolean {
  for (const p of list) {
    if (path.length === p.length ? path === p : path.startsWith(p) && path.charCodeAt(p.length) === 47 /* / */)
      return true;
  }
  return false;
}

/** Request headers from Node's parsed object when serving over node:http, else the Fetch headers. */
function headerReader(c: Context<HonoEnv>): (name: string) => string | undefined {
  const raw = c.env?.incoming?.headers;
  if (!raw) return (name) => c.req.header(name);
  return (name) => {
    const v = raw[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
}

function rawQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return '';
  const hash = url.indexOf('#', q);
  return url.slice(q + 1, hash < 0 ? undefined : hash);
}

export function createOpenApiGate(deps: AppDeps, services: { credentials: CredentialDirectory }): OpenApiGate {
  const { credentials } = services;
  const options = deps.config.OpenApiSecurity;
  const protectedPrefixes = prefixes(options.ProtectedPathPrefixes);
  const ignoredPrefixes = prefixes(options.IgnoredPathPrefixes);
  const toleranceSeconds = options.TimestampToleranceSeconds;
  const legacy = options.AllowLegacySignatureAlgorithms;
  const defaultSign = normalizeAlgorithm(options.DefaultSignatureAlgorithm);
  const defaultContent = normalizeAlgorithm(options.DefaultContentSignatureAlgorithm);
  // Shared by every node when the store is (Redis); otherwise a registry of this process.
  const nonces = deps.config.Redis.Url ? sharedNonces(deps.store) : localNonces(deps.clock);

  const protects = (path: string) => {
    const lower = path.toLowerCase();
    return under(lower, protectedPrefixes) && !under(lower, ignoredPrefixes);
  };

  function signAlgorithm(requested: string | undefined, entry: CredentialEntry): SignAlgorithm {
    const asked = requested?.trim() ? normalizeAlgorithm(requested) : undefined;
    // A credential pinned to an algorithm (RSASHA256 with its public key) is used with that one only.
    if (entry.signatureAlgorithm && asked && asked !== entry.signatureAlgorithm) {
      throw appError(openApiErrors.UNSUPPORTED_SIGN_ALGORITHM, { params: { algorithm: requested } });
    }
    const algorithm = entry.signatureAlgorithm ?? asked ?? defaultSign;
    const usable =
      SIGN_ALGORITHMS.has(algorithm) &&
      (algorithm !== 'HMACSHA1' || legacy) &&
      (algorithm !== 'RSASHA256' || entry.publicKey) &&
      (algorithm !== 'SM2' || entry.sm2Key);
    if (!usable)
      throw appError(openApiErrors.UNSUPPORTED_SIGN_ALGORITHM, { params: { algorithm: requested ?? algorithm } });
    return algorithm as SignAlgorithm;
  }

  function contentAlgorithm(requested: string | undefined): ContentAlgorithm {
    const algorithm = requested?.trim() ? normalizeAlgorithm(requested) : defaultContent;
    if (!CONTENT_ALGORITHMS.has(algorithm) || (algorithm === 'MD5' && !legacy)) {
      throw appError(openApiErrors.UNSUPPORTED_CONTENT_SIGN_ALGORITHM, {
        params: { algorithm: requested ?? algorithm },
      });
    }
    return algorithm as ContentAlgorithm;
  }

  function signatureMatches(
    algorithm: SignAlgorithm,
    entry: CredentialEntry,
    text: string,
    presented: string,
  ): boolean {
    if (algorithm === 'RSASHA256') return verifyRsa(entry.publicKey!, text, presented);
    if (algorithm === 'SM2') return verifySm2(entry.sm2Key!, text, presented);
    return matchesDigest(presented, hmac(algorithm, entry.secret!, text));
  }

  /**
   * Lookups of access keys this node has not cached go to the database; a client sending made-up
   * keys would otherwise turn each request into a query. A partner's own key is looked up at
   * most once a minute per node, far below the limit.
   */
  async function throttleLookup(ip: string): Promise<void> {
    const { allowed, retryAfterSeconds } = await hitRateLimit(
      deps.store,
      `openapi:key-lookup:${ip}`,
      KEY_LOOKUPS_PER_MINUTE,
      60_000,
    );
    if (!allowed)
      throw appError(openApiErrors.TOO_MANY_KEY_LOOKUPS, {
        params: { seconds: retryAfterSeconds },
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
  }

  async function readBody(c: Context<HonoEnv>, header: (name: string) => string | undefined): Promise<Uint8Array> {
    const length = header('content-length');
    if ((length === undefined || length === '0') && header('transfer-encoding') === undefined) return EMPTY;
    try {
      return await readBodyLimited(
        c.req.raw,
        options.MaxRequestBodySize,
        c.env?.incoming as NodeBodySource | undefined,
      );
    } catch (error) {
      if (isAppError(error)) throw error;
      throw appError(openApiErrors.BODY_UNREADABLE, { cause: error });
    }
  }

  async function verify(c: Context<HonoEnv>): Promise<SignedRequest> {
    const header = headerReader(c);
    const accessKey = header('x-access-key');
    const timestamp = header('x-timestamp');
    const nonce = header('x-nonce');
    const signature = header('x-signature');
    if (!accessKey && !timestamp && !nonce && !signature) {
      if (options.AllowUnsignedRequests) return {};
      throw appError(openApiErrors.MISSING_SECURITY_HEADERS);
    }
    if (!accessKey || !timestamp || !nonce || !signature) {
      const missing = [
        !accessKey && 'X-Access-Key',
        !timestamp && 'X-Timestamp',
        !nonce && 'X-Nonce',
        !signature && 'X-Signature',
      ].filter(Boolean);
      throw appError(openApiErrors.INCOMPLETE_SECURITY_HEADERS, { params: { headers: missing.join(', ') } });
    }
    if (!TIMESTAMP.test(timestamp)) throw appError(openApiErrors.TIMESTAMP_FORMAT);
    const nowMs = deps.clock.nowMs();
    const seconds = Number(timestamp);
    if (Math.abs(nowMs / 1000 - seconds) > toleranceSeconds)
      throw appError(openApiErrors.TIMESTAMP_EXPIRED, { params: { seconds: toleranceSeconds } });
    if (!NONCE.test(nonce)) throw appError(openApiErrors.NONCE_INVALID, { params: { max: 128 } });

    const ip = c.get('info').ip;
    const found = credentials.find(accessKey, () => throttleLookup(ip));
    const entry = found instanceof Promise ? await found : found;
    if (!entry?.usable || (entry.expiresMs !== null && entry.expiresMs <= nowMs))
      throw appError(openApiErrors.ACCESS_KEY_INVALID);
    if (!addressAllowed(entry.allowList, ip)) throw appError(openApiErrors.IP_NOT_ALLOWED);

    const algorithm = signAlgorithm(header('x-sign-algorithm'), entry);
    const contentAlg = contentAlgorithm(header('x-content-sign-algorithm'));
    const encryptHeader = header('x-encrypt-algorithm');
    // Without the header the body is taken as encrypted (the original's default, AES-CBC).
    const encryption = encryptHeader ? parseEncryptAlgorithm(encryptHeader) : 'AES-CBC';
    if (!encryption)
      throw appError(openApiErrors.UNSUPPORTED_ENCRYPT_ALGORITHM, { params: { algorithm: encryptHeader } });

    const received = await readBody(c, header);
    const encrypted = encryption === 'AES-CBC' && received.byteLength > 0;
    const presentedContent = header('x-content-sign');
    if (options.RequireContentSignature && !presentedContent) throw appError(openApiErrors.CONTENT_SIGN_MISSING);

    const method = c.req.method;
    const path = c.req.path;
    const query = rawQuery(c.req.url);
    const canonical = canonicalQuery(query);
    const signatureHolds = (content: string) => {
      if (
        signatureMatches(
          algorithm,
          entry,
          stringToSign(method, path, canonical, content, timestamp, nonce),
          signature.trim(),
        )
      )
        return true;
      // A JavaScript signer may have used encodeURIComponent, which leaves !'()* unescaped.
      if (!/%(?:21|27|28|29|2A)/.test(canonical)) return false;
      const loose = canonicalQuery(query, escapeUriComponent);
      return (
        loose !== canonical &&
        signatureMatches(
          algorithm,
          entry,
          stringToSign(method, path, loose, content, timestamp, nonce),
          signature.trim(),
        )
      );
    };
    const decrypt = () => decryptBody(received, aesKey(entry.secret!), header('x-encrypt-iv'), nonce);

    // The signature is checked before the body is decrypted. Answering a padding failure (400)
    // differently from a bad signature (401) to someone who does not hold the secret would be a
    // padding oracle: it decrypts any captured body, a byte at a time. So whoever reaches the
    // decryption has signed the request.
    let body = received;
    if (presentedContent) {
      // The string to sign carries the header as sent (the original's rule); the header must
      // then match the body, also when RequireContentSignature is off, or the body could be
      // swapped under a valid signature.
      if (!signatureHolds(presentedContent)) throw appError(openApiErrors.SIGNATURE_INVALID);
      if (encrypted) {
        try {
          body = decrypt();
        } catch (error) {
          throw appError(openApiErrors.DECRYPT_FAILED, { cause: error });
        }
      }
      if (!sameText(presentedContent.toLowerCase(), contentSign(body, contentAlg)))
        throw appError(openApiErrors.CONTENT_SIGN_INVALID);
    } else {
      // No content sign (allowed when RequireContentSignature is off): the string to sign
      // carries the body's digest, which needs the plain body first; a body that does not
      // decrypt then answers exactly like a bad signature.
      if (encrypted) {
        try {
          body = decrypt();
        } catch {
          throw appError(openApiErrors.SIGNATURE_INVALID);
        }
      }
      if (!signatureHolds(contentSign(body, contentAlg))) throw appError(openApiErrors.SIGNATURE_INVALID);
    }

    if (options.EnableReplayProtection) {
      // Remembered while the timestamp is acceptable, so a replay cannot outlive its nonce.
      const ttlMs = Math.max(options.NonceExpireSeconds * 1000, (seconds + toleranceSeconds) * 1000 - nowMs + 1000);
      const pending = nonces.claim(`${entry.appKey}:${nonce}`, ttlMs, seconds * 1000);
      const claim = pending instanceof Promise ? await pending : pending;
      if (claim !== 'claimed')
        throw appError(claim === 'used' ? openApiErrors.REPLAYED : openApiErrors.PREDATES_NONCE_RECORD);
    }
    credentials.touch(entry);

    // Either asks for an encrypted answer: the header, or the default for encrypted requests.
    const askedResponse = header('x-encrypt-response')?.trim().toLowerCase();
    const encryptResponse =
      (askedResponse !== undefined && TRUTHY.has(askedResponse)) ||
      (encrypted && options.EncryptResponseByDefaultWhenRequestEncrypted);
    return {
      caller: { credentialId: entry.id, accessKey: entry.appKey, ownerUserId: entry.ownerUserId },
      body,
      encryptResponse: encryptResponse ? { key: aesKey(entry.secret!), contentAlgorithm: contentAlg } : undefined,
    };
  }

  async function seal(signed: SignedRequest, response: Response): Promise<Response> {
    const encrypt = signed.encryptResponse;
    if (!encrypt || !isJsonContentType(response.headers.get('content-type'))) return response;
    const plain = new Uint8Array(await response.arrayBuffer());
    const { data, iv } = encryptBody(plain, encrypt.key);
    const sign = contentSign(plain, encrypt.contentAlgorithm);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.set('x-secure-response', '1');
    headers.set('x-content-sign', sign);
    headers.set('x-encrypt-algorithm', 'AES-CBC');
    headers.set('x-encrypt-iv', iv);
    return new Response(JSON.stringify({ alg: 'AES-CBC', data, iv, contentSign: sign }), {
      status: response.status,
      headers,
    });
  }

  return {
    protects,
    outsideApi: protectedPrefixes.some((p) => !(p === '/api' || p.startsWith('/api/'))),
    verify,
    seal,
    wrap(handler) {
      return async (c) => {
        if (!protects(c.req.path)) return handler(c);
        let signed: SignedRequest;
        try {
          signed = await verify(c);
        } catch (error) {
          return respondError(c, deps, error);
        }
        const response = await handler(c, signed);
        return signed.encryptResponse ? seal(signed, response) : response;
      };
    },
    async middleware(c, next) {
      if (!protects(c.req.path)) return next();
      let signed: SignedRequest;
      try {
        signed = await verify(c);
      } catch (error) {
        return respondError(c, deps, error);
      }
      signedRequests.set(c.req.raw, signed);
      await next();
      if (signed.encryptResponse) c.res = await seal(signed, c.res);
    },
  };
}
