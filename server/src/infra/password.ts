import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseOptions } from '@node-rs/argon2';
import { createHashWorkers, type HashWorkers } from './hash-workers.js';
import { parseImportedHash, verifyBcrypt, verifyScrypt } from './password-imported.js';
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

/** Hashing and checking of passwords, built once at start-up and passed to the services that need it. */
export interface PasswordHasher {
  /** Hashes a password for storage (argon2id, PHC string). */
  hash(password: string): Promise<string>;
  /**
   * Checks a password against any stored format we accept: argon2 PHC strings (ours), the
   * original service's PBKDF2 strings and ASP.NET Core Identity v2/v3 hashes (password-legacy.ts),
   * and bcrypt, scrypt and PBKDF2 PHC strings other systems export (password-imported.ts); all but
   * ours always need a rehash. An unknown format or an empty password is a
   * mismatch. Every comparison is constant time and all key derivation runs off the event loop.
   */
  verify(stored: string, password: string): Promise<PasswordCheck>;
  /**
   * Verifies an argon2 PHC string; a malformed one is a mismatch, not an error. A hash thread
   * that fails rejects: the login then answers 500 rather than a wrong password counted against
   * the account.
   */
  verifyArgon2(stored: string, password: string): Promise<boolean>;
  /**
   * Spends the time of one argon2 verification and answers false, for logins naming no account
   * (or an account without a password): the answer time then does not tell whether it exists.
   */
  verifyAgainstDummy(password: string): Promise<false>;
  /**
   * A valid argon2id hash (with ARGON2_OPTIONS) of a random value, computed on first use and then
   * kept: `await hasher.dummyHash`. A lazy thenable, so building a hasher costs no hashing; await
   * it at start-up to keep the first unknown-account login from paying for the hash.
   */
  readonly dummyHash: PromiseLike<string>;
  /** argon2 jobs computing and waiting (PBKDF2's gate not included), for tests and diagnostics. */
  load(): { active: number; waiting: number; limit: number };
  /** Finishes the jobs it holds, then ends its threads; later calls reject. */
  close(): Promise<void>;
}

export interface PasswordHasherOptions {
  /** Key derivations at once (App:PasswordHashConcurrency); 0 or absent = one per core. */
  concurrency?: number;
}

/**
 * Key derivations run one per core unless the concurrency says otherwise: argon2 on that many
 * threads of its own (started on first use, idle ones never keep the process alive), the
 * original's PBKDF2 (rare: imported accounts until their next login) through a gate of the same
 * size on libuv's pool (see work-gate.ts for why); so at most twice that many at once, of which
 * argon2's hold 19 MiB each.
 */
export function createPasswordHasher(options: PasswordHasherOptions = {}): PasswordHasher {
  const requested = options.concurrency ?? 0;
  const concurrency = requested > 0 ? requested : availableParallelism();
  const gate: WorkGate = createWorkGate(concurrency);
  let workers: HashWorkers | undefined;
  const argon2 = (): HashWorkers => (workers ??= createHashWorkers(concurrency));

  const hash = (password: string): Promise<string> => argon2().hash(password, ARGON2_OPTIONS);
  const verifyArgon2 = (stored: string, password: string): Promise<boolean> => argon2().verify(stored, password);

  let dummy: Promise<string> | undefined;
  function computeDummyHash(): Promise<string> {
    // A fresh random preimage nobody ever sees: nothing can verify against it. A failed attempt
    // is not kept: the next unknown-account login tries again.
    dummy ??= hash(randomBytes(32).toString('base64')).catch((error: unknown) => {
      dummy = undefined;
      throw error;
    });
    return dummy;
  }
  const dummyHash: PromiseLike<string> = {
    // biome-ignore lint/suspicious/noThenProperty: a lazy thenable: awaiting it starts the hash.
    then: (onFulfilled, onRejected) => computeDummyHash().then(onFulfilled, onRejected),
  };

  return {
    hash,
    verifyArgon2,
    dummyHash,
    async verify(stored, password) {
      if (!stored || !password) return MISMATCH;
      if (stored.startsWith('$argon2')) {
        if (!(await verifyArgon2(stored, password))) return MISMATCH;
        return { ok: true, needsRehash: argon2NeedsRehash(stored) };
      }
      const legacy = parseLegacyHash(stored);
      if (legacy)
        return (await gate.run(() => verifyPbkdf2(legacy, password))) ? { ok: true, needsRehash: true } : MISMATCH;
      const imported = parseImportedHash(stored);
      if (!imported) return MISMATCH;
      const check =
        imported.kind === 'bcrypt'
          ? () => verifyBcrypt(imported.stored, password)
          : imported.kind === 'scrypt'
            ? () => verifyScrypt(imported, password)
            : () => verifyPbkdf2(imported, password);
      return (await gate.run(check)) ? { ok: true, needsRehash: true } : MISMATCH;
    },
    async verifyAgainstDummy(password) {
      if (!password) return false;
      await verifyArgon2(await dummyHash, password);
      return false;
    },
    load: () => workers?.load() ?? { active: 0, waiting: 0, limit: concurrency },
    close: async () => {
      const current = workers;
      workers = createClosedWorkers();
      await current?.drain();
    },
  };
}

/** Stands in for the threads once a hasher is closed: every job rejects. */
function createClosedWorkers(): HashWorkers {
  const closed = () => Promise.reject(new Error('hash threads closed'));
  return { verify: closed, hash: closed, load: () => ({ active: 0, waiting: 0, limit: 0 }), drain: async () => {} };
}
