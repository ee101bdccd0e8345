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
 * - A value loaded while one of its tags was invalidated is returned but not kept: it may have
 *   been read before the change committed.
 * - Entries also expire after `ttlMs`, which bounds staleness should a message be lost.
 */
export interface InvalidatingCache<V> {
  /**
   * The cached value, or the loaded one. A hit answers synchronously (no promise is made): it
   * is on the path of every authenticated request. Callers `await` either way. A loaded value
   * is kept unless `keep` says no, and no longer than `expiresAt` says (ms; null: the TTL).
   */
  get(
    key: string,
    tags: readonly string[],
    load: () => Promise<V>,
    keep?: (value: V) => boolean,
    expiresAt?: (value: V) => number | null,
  ): V | Promise<V>;
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
  /*
   * What changed since a value was read is told per tag, not by one counter for the whole cache:
   * under load some tag is dropped at every moment (each refresh replaces its session), and a
   * single counter would then void every load and every replace, so nothing would stay cached.
   * `epoch` counts drops; `dropped` remembers the epoch of each tag's last drop (bounded: a tag
   * forgotten counts as dropped at `floor`, which is merely conservative); `readAt` is the
   * epoch at which a value was read.
   */
  let epoch = 0;
  let floor = 0;
  const dropped = new Map<string, number>();
  const maxDropped = Math.max(4 * max, 1000);
  const readAt = new WeakMap<object, number>();
  let unsubscribe: (() => Promise<void>) | undefined;

  const drop = (tag: string) => {
    epoch++;
    if (tag === '*') {
      floor = epoch;
      dropped.clear();
      return entries.clear();
    }
    dropped.delete(tag);
    dropped.set(tag, epoch);
    if (dropped.size > maxDropped) {
      const [oldest, at] = dropped.entries().next().value!;
      dropped.delete(oldest);
      floor = Math.max(floor, at);
    }
    for (const [key, entry] of entries) if (entry.tags.includes(tag)) entries.delete(key);
  };

  /** Whether none of the tags was dropped after `since`. */
  const untouchedSince = (tags: readonly string[], since: number) =>
    floor <= since && tags.every((t) => (dropped.get(t) ?? 0) <= since);
  const markRead = (value: V, at: number) => {
    if (typeof value === 'object' && value !== null) readAt.set(value, at);
  };

  return {
    get(key, tags, load, keep, expiresAt) {
      const now = clock.nowMs();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      const startedAt = epoch;
      return load().then((value) => {
        markRead(value, startedAt);
        // The tags are complete only now (a loader may add some): none may have been dropped since the load began.
        if (untouchedSince(tags, startedAt) && (!keep || keep(value))) {
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
      // Same as an invalidation for everyone else; here the drop also voids loads in flight of
      // the tag, then the known value is kept if nothing changed since `previous` was read: it
      // is still the entry, or none of its tags was dropped since (an entry evicted for room,
      // or a load that was not kept, is not a change).
      const at = typeof previous === 'object' && previous !== null ? readAt.get(previous) : undefined;
      const unchanged = entries.get(key)?.value === previous || (at !== undefined && untouchedSince(tags, at));
      drop(tag);
      if (unchanged) {
        entries.set(key, { value, tags, expires: clock.nowMs() + ttlMs });
        markRead(value, epoch);
      }
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
