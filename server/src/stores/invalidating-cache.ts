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
  /**
   * The cached value, or the loaded one. A hit answers synchronously (no promise is made): it
   * is on the path of every authenticated request. Callers `await` either way. A loaded value
   * is kept unless `keep` says no, and no longer than `expiresAt` says (ms; null: the TTL).
   */
  get(key: string, tags: readonly string[], load: () => Promise<V>, keep?: (value: V) => boolean, expiresAt?: (value: V) => number | null): V | Promise<V>;
  /** Drops entries with the tag on every node; `*` drops everything. */
  invalidate(tag: string): Promise<void>;
  /**
   * This node wrote the change and knows the new value: it keeps it (no reload), while every
   * other node drops its copy of the tag as for `invalidate`. The value is derived from
   * `previous` (the value the writer read): if the entry no longer holds that very value (it
   * was dropped or reloaded meanwhile, because something else changed), the new value is not
   * kept either, since it would bring back what that change replaced.
   */
  replace(key: string, tags: readonly string[], value: V, tag: string, previous: V): Promise<void>;
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
  // Messages carry the sender, so a node that replaced a value does not drop it on its own echo.
  const origin = Math.random().toString(36).slice(2);
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
    get(key, tags, load, keep, expiresAt) {
      const now = clock.nowMs();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      const startedAt = epoch;
      return load().then((value) => {
        if (epoch === startedAt && (!keep || keep(value))) {
          entries.delete(key);
          if (entries.size >= max) entries.delete(entries.keys().next().value!);
          entries.set(key, { value, tags, expires: Math.min(now + ttlMs, expiresAt?.(value) ?? Infinity) });
        }
        return value;
      });
    },
    async invalidate(tag) {
      drop(tag);
      await store.incrementCounter(`${options.name}:gen:${tag}`);
      await store.publish(channel, `${origin} ${tag}`);
    },
    async replace(key, tags, value, tag, previous) {
      // Same as an invalidation for everyone else; here the drop also voids loads in flight
      // (the epoch), then the known value is kept if nothing changed since it was read.
      const unchanged = entries.get(key)?.value === previous;
      drop(tag);
      if (unchanged) entries.set(key, { value, tags, expires: clock.nowMs() + ttlMs });
      await store.incrementCounter(`${options.name}:gen:${tag}`);
      await store.publish(channel, `${origin}:replace ${tag}`);
    },
    generation: (tag) => store.getCounter(`${options.name}:gen:${tag}`),
    async start() {
      unsubscribe = await store.subscribe(channel, (message) => {
        try {
          const space = message.indexOf(' ');
          const from = message.slice(0, space);
          // Our own replace already holds the new value; everything else is dropped.
          if (from === `${origin}:replace`) return;
          drop(message.slice(space + 1));
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
