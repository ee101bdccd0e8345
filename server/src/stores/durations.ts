/** Checks a TTL or window length: a finite number of milliseconds, at least 1. */
export function assertDuration(name: string, ms: number): void {
  // A zero, negative or NaN TTL would store a key that is already expired (memory) or be
  // refused by Redis with an obscure error; fail at the caller instead.
  if (!Number.isFinite(ms) || ms < 1)
    throw new RangeError(`${name} must be a finite number of milliseconds >= 1, got ${ms}`);
}

/** The fixed window containing `nowMs`: windows are aligned to multiples of windowMs since the epoch. */
export function fixedWindow(nowMs: number, windowMs: number): { index: number; resetInMs: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetInMs: (index + 1) * windowMs - nowMs };
}

/** The key of one window's counter; the same on every node so they share the count. */
export function windowKey(key: string, index: number): string {
  return `${key}:${index}`;
}

/**
 * The generic cell rate algorithm (a token bucket kept as one number): `limit` hits may come at
 * once, then one per `periodMs / limit`. The state is the theoretical arrival time (TAT) of the
 * next hit, in clock milliseconds. Whole milliseconds throughout, so that the Redis script,
 * which computes the same, agrees to the millisecond.
 */
export function gcraParams(limit: number, periodMs: number): { interval: number; tolerance: number } {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  assertDuration('periodMs', periodMs);
  const interval = Math.max(1, Math.ceil(periodMs / limit));
  return { interval, tolerance: Math.max(0, Math.ceil(periodMs) - interval) };
}

/** One hit against a stored TAT (undefined: never hit, or long enough ago). */
export function gcraHit(
  storedTat: number | undefined,
  nowMs: number,
  limit: number,
  periodMs: number,
): { allowed: boolean; tat: number; retryAfterMs: number } {
  const { interval, tolerance } = gcraParams(limit, periodMs);
  const start = Math.max(storedTat ?? nowMs, nowMs);
  if (start - nowMs > tolerance) return { allowed: false, tat: start, retryAfterMs: start - nowMs - tolerance };
  return { allowed: true, tat: start + interval, retryAfterMs: 0 };
}
