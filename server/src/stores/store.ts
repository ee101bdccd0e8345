/**
 * The ephemeral store: short-lived shared state (one-use codes, tickets, captchas, nonces,
 * throttle counters, caches) and cross-node notifications. In-process on a single node,
 * Redis when several nodes share it; both pass the same contract (`store.contract.ts`).
 */
export interface EphemeralStore {
  /** Value of a key, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets a value that expires after ttlMs (ttlMs >= 1). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes a key; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** Atomically reads and deletes: of any number of concurrent takes of one key, exactly one gets the value. */
  take(key: string): Promise<string | undefined>;
  /** Sets only when absent (atomic); true when this call set it. */
  putIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * The store's epoch: the instant (injected clock, ms) since which it has kept its data (keys
   * still expire, and in process may be evicted at capacity). A store that lost its data (a Redis restarted without persistence, a FLUSHALL)
   * cannot remember what it held before, only notice the loss: it then starts a new epoch at
   * that instant. This call starts the first one when none is recorded, and from then on the
   * store records a new one as soon as it notices a loss (on Redis: on every reconnection and
   * on every `putIfAbsentInEpoch`).
   */
  epochMs(): Promise<number>;
  /**
   * putIfAbsent that also answers the epoch the put landed in, atomically with the put. A key
   * found absent because the store lost its data then comes with an epoch later than the loss,
   * so the caller can tell it from a key that was never set before that epoch.
   */
  putIfAbsentInEpoch(key: string, value: string, ttlMs: number): Promise<{ stored: boolean; epochMs: number }>;
  /**
   * Fixed-window counter: atomically increments the counter of the current window of `windowMs`
   * for `key` (windows aligned to multiples of windowMs since the epoch, by the injected clock)
   * and returns the count after incrementing and the milliseconds until that window ends.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /**
   * Rate limit, atomically (GCRA, durations.ts): up to `limit` hits at once, then one per
   * `periodMs / limit`; so never more than `limit` in a burst and `limit` per period in the
   * long run, with no window boundaries. A refused hit changes nothing. `retryAfterMs` says
   * when the next hit would be allowed (0 when this one was).
   */
  throttle(key: string, limit: number, periodMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
  /** Atomic counter without a window (generation numbers): adds 1 and returns the new value; never expires. */
  incrementCounter(key: string): Promise<number>;
  /** Current value of such a counter (0 when never incremented). */
  getCounter(key: string): Promise<number>;
  /** Publishes a message to every subscriber of the channel, on every node sharing the store. */
  publish(channel: string, message: string): Promise<void>;
  /** Subscribes; resolves once the subscription is active; the returned function unsubscribes. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** A store that can also answer a readiness probe: resolves when the backing service answers. */
export type ReadyStore = EphemeralStore & {
  /** Resolves when the store can serve requests; rejects otherwise. */
  ping(): Promise<void>;
};

/** Handler of a subscription, as given to `EphemeralStore.subscribe`. */
export type MessageHandler = (message: string) => void;
