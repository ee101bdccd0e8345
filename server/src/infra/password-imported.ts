import { scrypt, timingSafeEqual } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import { MAX_PBKDF2_ITERATIONS, type Pbkdf2Digest, type Pbkdf2Params } from './password-legacy.js';

/**
 * Password hashes other identity systems export, accepted on import so users keep their
 * passwords (verified at their next login, then replaced by our argon2id):
 *
 * - bcrypt: `$2a$`, `$2b$`, `$2y$` (the Modular Crypt Format every bcrypt library writes).
 * - scrypt in PHC form: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>` (passlib, Ory Kratos).
 * - PBKDF2 in PHC form: `$pbkdf2-<sha1|sha256|sha512>$i=<iterations>,l=<length>$<salt>$<hash>`
 *   (Ory Kratos, standard base64 without padding) and passlib's
 *   `$pbkdf2-<digest>$<iterations>$<salt>$<hash>` (its "adapted" base64: `.` for `+`).
 *
 * argon2i and argon2id PHC strings are ours already (password.ts verifies them).
 */
export type ImportedHash =
  | { kind: 'bcrypt'; stored: string }
  | { kind: 'scrypt'; n: number; r: number; p: number; salt: Buffer; hash: Buffer }
  | ({ kind: 'pbkdf2' } & Pbkdf2Params);

const MAX_STORED_LENGTH = 1024;
/** scrypt's memory is 128 * N * r bytes: refuse a planted N or r that would take gigabytes. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
const MAX_BCRYPT_COST = 16;

const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
const PHC = /^\$([a-z0-9-]{1,32})\$([^$]*)\$([^$]+)\$([^$]+)$/;
const PHC_BASE64 = /^[A-Za-z0-9+/.]+={0,2}$/;

/** PHC's base64 (no padding) and passlib's adapted form, strictly: a mangled string is no hash. */
function phcBase64(text: string): Buffer | null {
  if (!PHC_BASE64.test(text)) return null;
  const standard = text.replaceAll('.', '+').replace(/=+$/, '');
  const bytes = Buffer.from(standard, 'base64');
  return bytes.toString('base64').replace(/=+$/, '') === standard ? bytes : null;
}

function parameters(text: string): Map<string, string> {
  return new Map(text.split(',').map((pair) => pair.split('=') as [string, string]));
}

const PBKDF2_DIGESTS: Record<string, Pbkdf2Digest> = {
  pbkdf2: 'sha1',
  'pbkdf2-sha1': 'sha1',
  'pbkdf2-sha256': 'sha256',
  'pbkdf2-sha512': 'sha512',
};

/** The imported format the stored string is in, or null when it is none of them (or malformed). */
export function parseImportedHash(stored: string): ImportedHash | null {
  if (stored.length > MAX_STORED_LENGTH) return null;
  const bcrypt = BCRYPT.exec(stored);
  if (bcrypt) return Number(bcrypt[1]) >= 4 && Number(bcrypt[1]) <= MAX_BCRYPT_COST ? { kind: 'bcrypt', stored } : null;
  const phc = PHC.exec(stored);
  if (!phc) return null;
  const [, id, params, saltText, hashText] = phc as unknown as [string, string, string, string, string];
  const salt = phcBase64(saltText);
  const hash = phcBase64(hashText);
  if (!salt || !hash || salt.length < 8 || hash.length < 16 || hash.length > 128) return null;
  if (id === 'scrypt') {
    const p = parameters(params);
    const ln = Number(p.get('ln'));
    const r = Number(p.get('r') ?? 8);
    const parallel = Number(p.get('p') ?? 1);
    if (
      !Number.isInteger(ln) ||
      ln < 1 ||
      ln > 24 ||
      !Number.isInteger(r) ||
      r < 1 ||
      !Number.isInteger(parallel) ||
      parallel < 1 ||
      parallel > 16
    )
      return null;
    const n = 2 ** ln;
    if (128 * n * r > MAX_SCRYPT_MEMORY) return null;
    return { kind: 'scrypt', n, r, p: parallel, salt, hash };
  }
  const digest = PBKDF2_DIGESTS[id];
  if (digest) {
    const iterations = /^\d+$/.test(params) ? Number(params) : Number(parameters(params).get('i'));
    const length = /^\d+$/.test(params) ? hash.length : Number(parameters(params).get('l') ?? hash.length);
    if (
      !Number.isSafeInteger(iterations) ||
      iterations < 1 ||
      iterations > MAX_PBKDF2_ITERATIONS ||
      length !== hash.length
    )
      return null;
    return { kind: 'pbkdf2', digest, iterations, salt, hash };
  }
  return null;
}

/**
 * scrypt runs on libuv's pool; bcrypt (bcryptjs, pure JavaScript: the native binding's platform
 * packages are not all published, which breaks a locked install) yields to the event loop between
 * rounds. Only imported accounts pay it, once: their next login rehashes to argon2id.
 */
export function verifyScrypt(params: Extract<ImportedHash, { kind: 'scrypt' }>, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    scrypt(
      password,
      params.salt,
      params.hash.length,
      { N: params.n, r: params.r, p: params.p, maxmem: MAX_SCRYPT_MEMORY + 1024 * 1024 },
      (error, derived) => {
        resolve(!error && derived.length === params.hash.length && timingSafeEqual(derived, params.hash));
      },
    );
  });
}

export async function verifyBcrypt(stored: string, password: string): Promise<boolean> {
  try {
    return await bcryptjs.compare(password, stored);
  } catch {
    return false;
  }
}
