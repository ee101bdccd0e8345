import type { Clock } from '../../infra/clock.js';
import type { EphemeralStore } from '../../stores/store.js';

/**
 * Where used nonces are remembered. A nonce must stay remembered for its whole lifetime, or a
 * replay within the timestamp window would pass:
 *
 * - with Redis (several nodes), in the shared store: `SET NX PX`, atomic across nodes;
 * - in process (one node), in a registry of its own rather than the in-process store, whose
 *   capacity bound (100,000 entries) evicts the oldest writes first: a few hundred signed calls
 *   a second would push nonces out before they expire, and would push out captchas, codes and
 *   throttle windows with them. The registry holds every nonce until it expires; only requests
 *   whose signature held reach it, so its size is bounded by the partners' own rate.
 */
export interface NonceRegistry {
  /** True when this call is the first to use the key within ttlMs. */
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
}

export function sharedNonces(store: EphemeralStore): NonceRegistry {
  return { claim: (key, ttlMs) => store.putIfAbsent(`openapi:nonce:${key}`, '1', ttlMs) };
}

const BUCKET_MS = 1000;

/** In-process: a map of expiry times, emptied by one-second buckets of keys as they expire. */
export function localNonces(clock: Clock): NonceRegistry {
  const seen = new Map<string, number>();
  const buckets = new Map<number, string[]>();
  let cursor = Math.floor(clock.nowMs() / BUCKET_MS);

  const dropBucket = (index: number, now: number) => {
    const keys = buckets.get(index);
    if (!keys) return;
    for (const key of keys) {
      const expiresAt = seen.get(key);
      // A key claimed again after it expired sits in a later bucket with a later expiry.
      if (expiresAt !== undefined && expiresAt <= now) seen.delete(key);
    }
    buckets.delete(index);
  };

  const expire = (now: number) => {
    const current = Math.floor(now / BUCKET_MS);
    if (current - cursor > buckets.size) {
      // A long quiet spell: visit the buckets that exist rather than every second in between.
      for (const index of [...buckets.keys()]) if (index <= current) dropBucket(index, now);
    } else {
      for (; cursor <= current; cursor++) dropBucket(cursor, now);
    }
    cursor = current + 1;
  };

  return {
    claim(key, ttlMs) {
      const now = clock.nowMs();
      if (Math.floor(now / BUCKET_MS) >= cursor) expire(now);
      const expiresAt = seen.get(key);
      if (expiresAt !== undefined && expiresAt > now) return false;
      const until = now + ttlMs;
      seen.set(key, until);
      const index = Math.ceil(until / BUCKET_MS);
      const keys = buckets.get(index);
      if (keys) keys.push(key);
      else buckets.set(index, [key]);
      return true;
    },
  };
}
