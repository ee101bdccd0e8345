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
 *
 * Either record can lose its nonces as a whole: Redis restarted without persistence or flushed,
 * the process restarted. A request accepted before the loss would then pass again while its
 * timestamp is acceptable. So each record knows when it began (the store's epoch; the
 * registry's creation) and refuses requests signed before that: they may have been accepted by
 * the record it replaced. Signed requests arrive a moment after they are signed, so this
 * refuses what was in flight at the loss, once, and nothing after; the refusal ends by itself
 * when such timestamps leave the tolerance window, which a nonce's lifetime always covers.
 */
export interface NonceRegistry {
  /**
   * `claimed` when the request was signed after the record began and its key is not in use;
   * the key is then remembered for ttlMs.
   */
  claim(key: string, ttlMs: number, signedAtMs: number): NonceClaim | Promise<NonceClaim>;
}

/** `used`: a replay; `predates-record`: signed before the record began, so possibly a replay. */
export type NonceClaim = 'claimed' | 'used' | 'predates-record';

export function sharedNonces(store: EphemeralStore): NonceRegistry {
  // Begins the record now: a store that never held nonces (a new deployment, a new key prefix)
  // would otherwise begin it at the first claim, which was signed before, and refuse it. A
  // failure (Redis away at start) leaves the first claim to begin it.
  store.epochMs().catch(() => undefined);
  return {
    async claim(key, ttlMs, signedAtMs) {
      const { stored, epochMs } = await store.putIfAbsentInEpoch(`openapi:nonce:${key}`, '1', ttlMs);
      if (signedAtMs < epochMs) return 'predates-record';
      return stored ? 'claimed' : 'used';
    },
  };
}

const BUCKET_MS = 1000;

/** In-process: a map of expiry times, emptied by one-second buckets of keys as they expire. */
export function localNonces(clock: Clock): NonceRegistry {
  // The registry lives as long as the process: a restarted one knows nothing of the nonces
  // its predecessor accepted.
  const beganMs = clock.nowMs();
  const seen = new Map<string, number>();
  const buckets = new Map<number, string[]>();
  let cursor = Math.floor(beganMs / BUCKET_MS);

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
    claim(key, ttlMs, signedAtMs) {
      if (signedAtMs < beganMs) return 'predates-record';
      const now = clock.nowMs();
      if (Math.floor(now / BUCKET_MS) >= cursor) expire(now);
      const expiresAt = seen.get(key);
      if (expiresAt !== undefined && expiresAt > now) return 'used';
      const until = now + ttlMs;
      seen.set(key, until);
      const index = Math.ceil(until / BUCKET_MS);
      const keys = buckets.get(index);
      if (keys) keys.push(key);
      else buckets.set(index, [key]);
      return 'claimed';
    },
  };
}
