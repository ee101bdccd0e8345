import type { Clock } from '../infra/clock.js';
import type { Logger } from '../infra/logger.js';
import { assertDuration, fixedWindow, gcraHit, windowKey } from './durations.js';
import type { MessageHandler, ReadyStore } from './store.js';
import { SubscriptionRegistry } from './subscriptions.js';

/** Options of the in-process store. */
export interface MemoryStoreOptions {
  /** Judges expiry, so tests with a ManualClock can expire entries. */
  clock: Clock;
  /** Upper bound of live entries (default 100,000), so requests cannot grow memory without limit. */
  maxEntries?: number;
  /** How often expired entries are swept in the background (default 30 s). */
  sweepIntervalMs?: number;
  /** Receives failures of subscription handlers. */
  logger?: Logger;
}

interface Entry {
  value: string;
  expiresAt: number;
}

const DEFAULT_MAX_ENTRIES = 100_000;
const DEFAULT_SWEEP_INTERVAL_MS = 30_000;

/**
 * The single-node store. Every operation runs synchronously inside its async wrapper, so each is
 * atomic within the process. Pub/sub reaches the handlers of this instance only: a second memory
 * store is a different cluster.
 */
export function createMemoryStore(options: MemoryStoreOptions): ReadyStore {
  const { clock } = options;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  // Map order is write order (a rewrite moves the key to the end), so the first key is the oldest.
  const entries = new Map<string, Entry>();
  // Generation counters never expire and are never evicted: losing one would reset it to 0 and
  // could revive whatever it had invalidated. Their keys come from server logic (one per user,
  // session...), not from arbitrary request input, so they stay bounded by real records.
  const counters = new Map<string, number>();
  const subscriptions = new SubscriptionRegistry(options.logger);
  // A full sweep costs O(size); when the map is full, allow one only every tenth of the capacity
  // of inserts, so a flood of new keys costs amortized O(1) per insert.
  const sweepEvery = Math.max(1, Math.floor(maxEntries / 10));
  let insertsSinceSweep = 0;
  let closed = false;
  // The data lives exactly as long as this object: its epoch is its creation.
  const epochMs = clock.nowMs();

  const sweep = (now: number): void => {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    insertsSinceSweep = 0;
  };
  const timer = setInterval(() => sweep(clock.nowMs()), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  timer.unref();

  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const insert = (key: string, entry: Entry, now: number): void => {
    entries.delete(key);
    if (entries.size >= maxEntries) {
      if (insertsSinceSweep >= sweepEvery) sweep(now);
      // Still full: evict the oldest writes.
      for (const oldest of entries.keys()) {
        if (entries.size < maxEntries) break;
        entries.delete(oldest);
      }
    }
    insertsSinceSweep++;
    entries.set(key, entry);
  };

  const open = (): void => {
    if (closed) throw new Error('Store is closed');
  };

  const putIfAbsent = (key: string, value: string, ttlMs: number): boolean => {
    open();
    assertDuration('ttlMs', ttlMs);
    const now = clock.nowMs();
    if (live(key, now)) return false;
    insert(key, { value, expiresAt: now + ttlMs }, now);
    return true;
  };

  return {
    async get(key) {
      open();
      return live(key, clock.nowMs())?.value;
    },
    async set(key, value, ttlMs) {
      open();
      assertDuration('ttlMs', ttlMs);
      const now = clock.nowMs();
      insert(key, { value, expiresAt: now + ttlMs }, now);
    },
    async delete(key) {
      open();
      const existed = live(key, clock.nowMs()) !== undefined;
      entries.delete(key);
      return existed;
    },
    async take(key) {
      open();
      const entry = live(key, clock.nowMs());
      entries.delete(key);
      return entry?.value;
    },
    async putIfAbsent(key, value, ttlMs) {
      return putIfAbsent(key, value, ttlMs);
    },
    async epochMs() {
      open();
      return epochMs;
    },
    async putIfAbsentInEpoch(key, value, ttlMs) {
      return { stored: putIfAbsent(key, value, ttlMs), epochMs };
    },
    async increment(key, windowMs) {
      open();
      assertDuration('windowMs', windowMs);
      const now = clock.nowMs();
      const window = fixedWindow(now, windowMs);
      const slot = windowKey(key, window.index);
      const entry = live(slot, now);
      const count = (entry ? Number(entry.value) : 0) + 1;
      if (entry) entry.value = String(count);
      else insert(slot, { value: String(count), expiresAt: now + window.resetInMs }, now);
      return { count, resetInMs: window.resetInMs };
    },
    async throttle(key, limit, periodMs) {
      open();
      const now = clock.nowMs();
      const stored = live(key, now);
      const hit = gcraHit(stored ? Number(stored.value) : undefined, now, limit, periodMs);
      // The state means nothing once its arrival time has passed: it expires then.
      if (hit.allowed) insert(key, { value: String(hit.tat), expiresAt: hit.tat }, now);
      return { allowed: hit.allowed, retryAfterMs: hit.retryAfterMs };
    },
    async incrementCounter(key) {
      open();
      const next = (counters.get(key) ?? 0) + 1;
      counters.set(key, next);
      return next;
    },
    async getCounter(key) {
      open();
      return counters.get(key) ?? 0;
    },
    async publish(channel, message) {
      open();
      const targets = subscriptions.snapshot(channel);
      if (targets.length === 0) return;
      // Asynchronous, so a handler never runs inside the publisher's call stack (no re-entrancy).
      queueMicrotask(() => subscriptions.deliver(channel, targets, message));
    },
    async subscribe(channel: string, handler: MessageHandler) {
      open();
      const { subscription } = subscriptions.add(channel, handler);
      return async () => {
        subscriptions.remove(channel, subscription);
      };
    },
    async ping() {
      open();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      entries.clear();
      counters.clear();
      subscriptions.clear();
    },
  };
}
