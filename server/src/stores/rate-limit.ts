import type { EphemeralStore } from './store.js';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until a hit would be allowed again (for Retry-After); 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * "At most `limit` per `windowMs`" for a key, on the store's atomic throttle (GCRA), shared by
 * every node sharing the store and exact under concurrency: `limit` hits may come at once, then
 * one per windowMs / limit, so any span of windowMs admits at most 2 × limit − 1 (a fixed
 * window admits 2 × limit across a boundary), and whether two hits a second apart are both
 * allowed does not depend on the wall clock: one request a minute means a minute between two accepted requests. Refused hits
 * do not count, so a client that retries too early still gets in once it waits Retry-After.
 */
export async function hitRateLimit(
  store: EphemeralStore,
  key: string,
  limit: number,
  windowMs: number,
): Promise<RateLimitResult> {
  const { allowed, retryAfterMs } = await store.throttle(`ratelimit:${key}`, limit, windowMs);
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/**
 * "At most `limit` per fixed window of `windowMs`" (windows aligned to the epoch, the same on
 * every node), for the limits the spec defines that way (password-login throttling). Every hit
 * counts, refused ones included; the count starts again with the next window, which
 * Retry-After names.
 */
export async function hitFixedWindow(
  store: EphemeralStore,
  key: string,
  limit: number,
  windowMs: number,
): Promise<RateLimitResult> {
  const { count, resetInMs } = await store.increment(`ratelimit-window:${key}`, windowMs);
  return count <= limit
    ? { allowed: true, retryAfterSeconds: 0 }
    : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) };
}
