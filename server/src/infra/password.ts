import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseOptions } from '@node-rs/argon2';
import { createHashWorkers, type HashWorkers } from './hash-workers.js';
import { parseLegacyHash, verifyPbkdf2 } from './password-legacy.js';
import { createWorkGate, type WorkGate } from './work-gate.js';

/** Algorithm.Argon2id of the binding (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;
/** Version.V0x13 of the binding (the current argon2 version, 19). */
const ARGON2_V13 = 1;

/**
 * Password hashing: argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane) as a
 * self-describing PHC string. The native binding runs on threads of our own (hash-workers.ts),
 * so hashing never blocks the event loop.
 */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Key derivations run one per core unless App:PasswordHashConcurrency says otherwise: argon2 on
 * that many threads of its own (started on first use), the original's PBKDF2 (rare: imported
 * accounts until their next login) through a gate of the same size on libuv's pool (see
 * work-gate.ts for why); so at most twice that many at once, of which argon2's hold 19 MiB each.
 * Process-wide, as the cores are.
 */
let concurrency = availableParallelism();
let workers: HashWorkers | undefined;
let gate: WorkGate = createWorkGate(concurrency);

const argon2 = (): HashWorkers => (workers ??= createHashWorkers(concurrency));

/** Sets how many key derivations run at once (0 = one per core); called once at start-up. */
export function setPasswordHashConcurrency(requested: number): void {
  const next = requested > 0 ? requested : availableParallelism();
  // Every boot calls this (tests boot many times): the same size keeps the threads running.
  if (next === concurrency) return;
  concurrency = next;
  gate = createWorkGate(concurrency);
  // Jobs already given to the old threads finish there; the threads end once idle.
  const old = workers;
  workers = undefined;
  void old?.drain();
}

/** argon2 jobs computing and waiting (PBKDF2's gate not included), for tests and diagnostics. */
export function passwordHashLoad(): { active: number; waiting: number; limit: number } {
  return workers?.load() ?? { active: 0, waiting: 0, limit: concurrency };
}

/** Hashes a password for storage (argon2id, PHC string). */
export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, ARGON2_OPTIONS);
}

/**
 * Verifies an argon2 PHC string; a malformed one is a mismatch, not an error. A hash thread
 * that fails rejects: the login then answers 500 rather than a wrong password counted against
 * the account.
 */
export function verifyArgon2(stored: string, password: string): Promise<boolean> {
  return argon2().verify(stored, password);
}

/** The outcome of checking a password; needsRehash is only meaningful when ok. */
export interface PasswordCheck {
  ok: boolean;
  /** The caller should store hashPassword(password) in place of the stored string. */
  needsRehash: boolean;
}

const MISMATCH: PasswordCheck = { ok: false, needsRehash: false };

/**
 * Whether an argon2 hash is weaker than ARGON2_OPTIONS. Other argon2 variants (i, d) and the old
 * version 0x10 are upgraded too; a larger memory or time cost than ours is kept as it is.
 */
function argon2NeedsRehash(stored: string): boolean {
  try {
    const p = parseOptions(stored);
    return (
      p.algorithm !== ARGON2ID ||
      p.version !== ARGON2_V13 ||
      p.memoryCost < ARGON2_OPTIONS.memoryCost ||
      p.timeCost < ARGON2_OPTIONS.timeCost ||
      p.outputLen < 32 ||
      p.saltLen < 16
    );
  } catch {
    return true;
  }
}

/**
 * Checks a password against any stored format we accept: argon2 PHC strings (ours), the original
 * service's PBKDF2 strings and ASP.NET Core Identity v2/v3 hashes (see password-legacy.ts; these
 * always need a rehash). An unknown format or an empty password is a mismatch. Every comparison is
 * constant time and all key derivation runs off the event loop.
 */
export async function verifyPassword(stored: string, password: string): Promise<PasswordCheck> {
  if (!stored || !password) return MISMATCH;
  if (stored.startsWith('$argon2')) {
    if (!(await verifyArgon2(stored, password))) return MISMATCH;
    return { ok: true, needsRehash: argon2NeedsRehash(stored) };
  }
  const legacy = parseLegacyHash(stored);
  if (!legacy) return MISMATCH;
  return (await gate.run(() => verifyPbkdf2(legacy, password))) ? { ok: true, needsRehash: true } : MISMATCH;
}

let dummyHash: Promise<string> | undefined;

function computeDummyHash(): Promise<string> {
  // A fresh random preimage per process that nobody ever sees: nothing can verify against it.
  // A failed attempt is not kept: the next unknown-account login tries again.
  dummyHash ??= hashPassword(randomBytes(32).toString('base64')).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/**
 * A valid argon2id hash (with ARGON2_OPTIONS) of a random value, computed on first use and then
 * kept: `await DUMMY_HASH`. It is a lazy thenable rather than a string so that importing this
 * module costs no hashing; await it at start-up to keep the first unknown-account login from
 * paying for the hash.
 */
export const DUMMY_HASH: PromiseLike<string> = {
  // biome-ignore lint/suspicious/noThenProperty: a lazy thenable is the point: awaiting it starts the hash.
  then: (onFulfilled, onRejected) => computeDummyHash().then(onFulfilled, onRejected),
};

/**
 * Spends the time of one argon2 verification and answers false, for logins naming no account
 * (or an account without a password): the answer time then does not tell whether it exists.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  if (!password) return false;
  await verifyArgon2(await DUMMY_HASH, password);
  return false;
}
