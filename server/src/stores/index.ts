import type { Clock } from '../infra/clock.js';
import type { Logger } from '../infra/logger.js';
import { createMemoryStore } from './memory.js';
import { createRedisStore } from './redis.js';
import type { ReadyStore } from './store.js';

export type { EphemeralStore, ReadyStore } from './store.js';

/** The part of the configuration the store needs (structural, so it does not pull in the full schema). */
export interface StoreConfig {
  Redis: { Url?: string; KeyPrefix: string };
}

/** Redis when a URL is configured (shared across nodes), otherwise the in-process store (single node). */
export function createStore(config: StoreConfig, clock: Clock, logger?: Logger): ReadyStore {
  const url = config.Redis.Url;
  if (url) return createRedisStore({ url, keyPrefix: config.Redis.KeyPrefix, clock, logger });
  return createMemoryStore({ clock, logger });
}
