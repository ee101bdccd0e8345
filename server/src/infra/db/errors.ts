/**
 * PostgreSQL error codes surfaced by either driver (postgres.js PostgresError, PGlite's error,
 * or Drizzle's wrapper around them): found by walking the cause chain.
 */
export function postgresErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; i < 6 && current && typeof current === 'object'; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const SERIALIZATION_FAILURE = '40001';
export const DEADLOCK_DETECTED = '40P01';
/** Text PostgreSQL cannot hold: U+0000 in a parameter ("invalid byte sequence for encoding UTF8: 0x00"). */
export const CHARACTER_NOT_IN_REPERTOIRE = '22021';
export const UNTRANSLATABLE_CHARACTER = '22P05';
