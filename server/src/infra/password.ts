import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id of the binding (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/**
 * Password hashing: argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane) as a
 * self-describing PHC string. The native binding runs on libuv's thread pool, so hashing never
 * blocks the event loop.
 */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyArgon2(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
