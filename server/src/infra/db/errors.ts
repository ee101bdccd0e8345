/**
 * PostgreSQL error codes surfaced by either driver (postgres.js PostgresError, PGlite's error,
 * or Drizzle's wrapper around them): found by walking the cause chain. Codes of socket errors
 * (which carry `errno`: Node's, and postgres.js's own connection errors) are not SQLSTATEs,
 * though EPIPE has the shape of one.
 */
export function postgresErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; i < 6 && current && typeof current === 'object'; i++) {
    const { code, errno } = current as { code?: unknown; errno?: unknown };
    if (typeof code === 'string' && errno === undefined && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Failures of reaching the database rather than of a statement: the socket's (server down or
 * restarting, connection cut, network away) and postgres.js's own (a connection closed under a
 * query, the connect timing out; CONNECTION_ENDED and CONNECTION_DESTROYED when the pool was
 * ended). Outbound HTTP and mail never reach the envelope with these raw codes: their callers
 * wrap them (THIRD_PARTY, the OAuth providers' errors), and ioredis rejects with errors of its own.
 */
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, in
 * recovery), 53300 too many connections.
 */
function unavailableState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * Whether the error (or what it wraps: Drizzle's query error, tRPC's, an AggregateError of the
 * addresses a connect tried) says the database could not be reached or cannot serve now, as
 * opposed to a statement that failed. Such a failure is worth retrying in a moment.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  // Bounded: a cause chain may loop.
  for (let visited = 0; visited < 16 && pending.length > 0; visited++) {
    const current = pending.shift();
    if (!current || typeof current !== 'object') continue;
    const { code, errno, cause, errors } = current as {
      code?: unknown;
      errno?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (
      typeof code === 'string' &&
      (CONNECTION_CODES.has(code) || (errno === undefined && /^[0-9A-Z]{5}$/.test(code) && unavailableState(code)))
    )
      return true;
    if (cause !== undefined) pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}

export const UNIQUE_VIOLATION = '23505';
export const SERIALIZATION_FAILURE = '40001';
export const DEADLOCK_DETECTED = '40P01';
/** Text PostgreSQL cannot hold: U+0000 in a parameter ("invalid byte sequence for encoding UTF8: 0x00"). */
export const CHARACTER_NOT_IN_REPERTOIRE = '22021';
export const UNTRANSLATABLE_CHARACTER = '22P05';
