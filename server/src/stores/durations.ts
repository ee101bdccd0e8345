/** Checks a TTL or window length: a finite number of milliseconds, at least 1. */
export function assertDuration(name: string, ms: number): void {
  // A zero, negative or NaN TTL would store a key that is already expired (memory) or be
  // refused by Redis with an obscure error; fail at the caller instead.
  if (!Number.isFinite(ms) || ms < 1) throw new RangeError(`${name} must be a finite number of milliseconds >= 1, got ${ms}`);
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
