import type { Clock } from '../infra/clock.js';
import type { Logger } from '../infra/logger.js';
import type { EphemeralStore } from './store.js';

/**
 * A per-node cache whose entries carry tags (`user:42`, `tenant:7`, `session:9`) and that every
 * node drops by tag when any node says the data changed:
 *
 * - `invalidate(tag)` drops matching local entries at once, bumps the tag's generation counter
 *   in the shared store (loaders that keep a second level there include it in their keys),
 *   and publishes the tag; every node drops its matching entries on receipt (milliseconds).
 * - A value loaded while an invalidation happened is returned but not kept: it may have been
 *   read before the change committed.
 * - Entries also expire after `ttlMs`, which bounds staleness should a message be lost.
 */
export interface InvalidatingCache<V> {
  get(key: string, tags: readonly string[], load: () => Promise<V>): Promise<V>;
  /** Drops entries with the tag on every node; `*` drops everything. */
  invalidate(tag: string): Promise<void>;
  /** The shared generation of a tag (0 until first invalidated). */
  generation(tag: string): Promise<number>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface InvalidatingCacheOptions {
  name: string;
  store: EphemeralStore;
  clock: Clock;
  logger: Logger;
  ttlMs: number;
  maxEntries?: number;
}

export function createInvalidatingCache<V>(options: InvalidatingCacheOptions): InvalidatingCache<V> {
  const { store, clock, logger, ttlMs } = options;
  const channel = `${options.name}:invalidate`;
  const max = options.maxEntries ?? 10_000;
  const entries = new Map<string, { value: V; tags: readonly string[]; expires: number }>();
  let epoch = 0;
  let unsubscribe: (() => Promise<void>) | undefined;

  const drop = (tag: string) => {
    epoch++;
    if (tag === '*') return entries.clear();
    for (const [key, entry] of entries) if (entry.tags.includes(tag)) entries.delete(key);
  };

  return {
    async get(key, tags, load) {
      const now = clock.nowMs();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      const startedAt = epoch;
      const value = await load();
      if (epoch === startedAt) {
        entries.delete(key);
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, tags, expires: now + ttlMs });
      }
      return value;
    },
    async invalidate(tag) {
      drop(tag);
      await store.incrementCounter(`${options.name}:gen:${tag}`);
      await store.publish(channel, tag);
    },
    generation: (tag) => store.getCounter(`${options.name}:gen:${tag}`),
    async start() {
      unsubscribe = await store.subscribe(channel, (tag) => {
        try {
          drop(tag);
        } catch (error) {
          logger.warn('cache invalidation failed', { cache: options.name, error });
        }
      });
    },
    async stop() {
      await unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
