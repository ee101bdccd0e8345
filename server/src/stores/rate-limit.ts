import type { EphemeralStore } from './store.js';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * A fixed-window limit on the store's atomic counter: every hit counts, shared by all nodes
 * that share the store, exact under concurrency (50 parallel hits count 1..50).
 */
export async function hitRateLimit(store: EphemeralStore, key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
  const { count, resetInMs } = await store.increment(`ratelimit:${key}`, windowMs);
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) };
}
