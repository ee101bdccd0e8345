import { pbkdf2, timingSafeEqual } from 'node:crypto';

/**
 * Password hashes imported from earlier systems, all PBKDF2 underneath:
 *
 * - the original service: `<version>:<iterations>:<algorithm>:<base64 salt>:<base64 hash>`
 *   (the original service). Like the original, the version is any integer and the algorithm name is
 *   case-insensitive; unlike it, an unknown algorithm is refused instead of read as SHA256.
 * - ASP.NET Core Identity v3: base64 of [0x01][prf u32 BE][iterations u32 BE][salt length u32 BE]
 *   [salt][subkey], with the minimums of its own verifier (16-byte salt, 16-byte subkey).
 * - ASP.NET Identity v2: base64 of [0x00][16-byte salt][32-byte subkey], HMAC-SHA1, 1000 iterations.
 *
 * These hashes are only ever verified, never written: a good login replaces them with argon2id.
 */

/** The digests PBKDF2 is accepted with, as node:crypto names them. */
export type Pbkdf2Digest = 'sha1' | 'sha256' | 'sha384' | 'sha512' | 'md5';

/** One PBKDF2 derivation to redo and the key it must give. */
export interface Pbkdf2Params {
  digest: Pbkdf2Digest;
  iterations: number;
  salt: Buffer;
  /** The stored key; the derivation produces as many bytes. */
  hash: Buffer;
}

/**
 * Above this a stored hash is refused rather than verified: a corrupt or planted count must not
 * keep a thread-pool worker busy for minutes (10 million SHA-256 rounds already take seconds).
 */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

/** Longer strings are no hash we know; refusing them early bounds the parsing work. */
const MAX_STORED_LENGTH = 1024;
/** Keys shorter than this are too easy to collide with; longer ones only cost time. */
const MIN_KEY_BYTES = 16;
const MAX_KEY_BYTES = 128;

const ORIGINAL_DIGESTS: Record<string, Pbkdf2Digest> = {
  SHA1: 'sha1',
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
  MD5: 'md5',
};

/** KeyDerivationPrf of ASP.NET Core, by its numeric value. */
const IDENTITY_PRFS: readonly Pbkdf2Digest[] = ['sha1', 'sha256', 'sha512'];

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Strict canonical base64 (as .NET's Convert.ToBase64String writes it). Buffer.from silently
 * skips bad characters, which would let a mangled hash decode to something else.
 */
export function decodeStrictBase64(text: string): Buffer | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

function validIterations(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_PBKDF2_ITERATIONS;
}

function validKey(hash: Buffer): boolean {
  return hash.length >= MIN_KEY_BYTES && hash.length <= MAX_KEY_BYTES;
}

/** Parses the original service's five-part PBKDF2 string; null when it is not one we accept. */
export function parseOriginalHash(stored: string): Pbkdf2Params | null {
  if (stored.length > MAX_STORED_LENGTH) return null;
  const parts = stored.split(':');
  if (parts.length !== 5) return null;
  const [version, iterationText, algorithm, saltText, hashText] = parts as [string, string, string, string, string];
  if (!/^\d{1,9}$/.test(version) || !/^\d{1,9}$/.test(iterationText)) return null;
  const iterations = Number(iterationText);
  const digest = ORIGINAL_DIGESTS[algorithm.toUpperCase()];
  const salt = decodeStrictBase64(saltText);
  const hash = decodeStrictBase64(hashText);
  if (!digest || !salt || !hash || !validIterations(iterations) || !validKey(hash)) return null;
  return { digest, iterations, salt, hash };
}

/** Parses an ASP.NET Core Identity v2 or v3 hash; null when it is neither or is malformed. */
export function parseIdentityHash(stored: string): Pbkdf2Params | null {
  if (stored.length > MAX_STORED_LENGTH) return null;
  const bytes = decodeStrictBase64(stored);
  if (!bytes || bytes.length === 0) return null;
  if (bytes[0] === 0x00) {
    if (bytes.length !== 1 + 16 + 32) return null;
    return { digest: 'sha1', iterations: 1000, salt: bytes.subarray(1, 17), hash: bytes.subarray(17) };
  }
  if (bytes[0] !== 0x01 || bytes.length < 13) return null;
  const digest = IDENTITY_PRFS[bytes.readUInt32BE(1)];
  const iterations = bytes.readUInt32BE(5);
  const saltLength = bytes.readUInt32BE(9);
  if (!digest || !validIterations(iterations) || saltLength < 16 || saltLength > bytes.length - 13) return null;
  const salt = bytes.subarray(13, 13 + saltLength);
  const hash = bytes.subarray(13 + saltLength);
  if (!validKey(hash)) return null;
  return { digest, iterations, salt, hash };
}

/** The first legacy layout the stored string matches, or null. */
export function parseLegacyHash(stored: string): Pbkdf2Params | null {
  // A ':' never occurs in base64, so the two parsers cannot both accept one string.
  return stored.includes(':') ? parseOriginalHash(stored) : parseIdentityHash(stored);
}

/**
 * Redoes the derivation with the password (UTF-8, as .NET encodes it) on libuv's thread pool,
 * so a 600,000-round hash does not stall the event loop, and compares in constant time.
 */
export function verifyPbkdf2(params: Pbkdf2Params, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    pbkdf2(password, params.salt, params.iterations, params.hash.length, params.digest, (error, derived) => {
      if (error || derived.length !== params.hash.length) resolve(false);
      else resolve(timingSafeEqual(derived, params.hash));
    });
  });
}
