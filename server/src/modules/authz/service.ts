import type { Clock } from '../../infra/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';
import { createInvalidatingCache } from '../../stores/invalidating-cache.js';
import type { EphemeralStore } from '../../stores/store.js';
import { buildSnapshot, type AuthorizationSnapshot } from './snapshot.js';

/**
 * Authorization snapshots, cached at two levels:
 * - in process (an invalidating cache: a hit costs nothing on every authenticated request, and
 *   any node's invalidation reaches every node within milliseconds, with a 60 s backstop);
 * - in the shared store, keyed by the generations of the global, tenant and user tags, so a node
 *   that misses locally reuses what another built, and a bump makes older entries unreachable.
 * Neither level keeps a snapshot past `validUntil`, when one of the user's role windows opens or
 * closes: that changes the roles with no write to announce it.
 */

const L1_TTL_MS = 60_000;
const L2_TTL_MS = 10 * 60_000;

export interface AuthorizationService {
  /** Synchronous on a cache hit (every permission check asks). */
  get(userId: bigint, tenantId: bigint): AuthorizationSnapshot | Promise<AuthorizationSnapshot>;
  invalidateUser(userId: bigint): Promise<void>;
  invalidateTenant(tenantId: bigint): Promise<void>;
  invalidateAll(): Promise<void>;
  /** Subscribes to invalidations from other nodes. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createAuthorizationService(deps: {
  db: Database;
  store: EphemeralStore;
  clock: Clock;
  logger: Logger;
}): AuthorizationService {
  const { db, store, clock } = deps;
  const cache = createInvalidatingCache<AuthorizationSnapshot>({
    name: 'authz',
    store,
    clock,
    logger: deps.logger,
    ttlMs: L1_TTL_MS,
  });

  async function loadShared(userId: bigint, tenantId: bigint, tags: string[]): Promise<AuthorizationSnapshot> {
    const gens = await Promise.all(['*', ...tags].map((tag) => cache.generation(tag)));
    // The version changes with what a snapshot means (v2: data scopes took the original's names;
    // v3: a tenant's snapshot holds no platform code), so snapshots stored before are not read.
    const key = `authz:snap3:${tenantId}:${userId}:${gens.join('.')}`;
    const cached = await store.get(key);
    if (cached) {
      const snapshot = JSON.parse(cached) as AuthorizationSnapshot;
      // A role window opened or closed since it was built: nothing was written, so no generation moved.
      if (snapshot.validUntil === null || snapshot.validUntil === undefined || snapshot.validUntil > clock.nowMs())
        return snapshot;
    }
    const snapshot = await buildSnapshot(db, userId, tenantId, clock.now());
    const ttl = snapshot.validUntil === null ? L2_TTL_MS : Math.min(L2_TTL_MS, snapshot.validUntil - clock.nowMs());
    if (ttl > 0) await store.set(key, JSON.stringify(snapshot), ttl);
    return snapshot;
  }

  return {
    get(userId, tenantId) {
      const tags = [`tenant:${tenantId}`, `user:${userId}`];
      return cache.get(
        `${tenantId}:${userId}`,
        tags,
        () => loadShared(userId, tenantId, tags),
        undefined,
        (snapshot) => snapshot.validUntil,
      );
    },
    invalidateUser: (userId) => cache.invalidate(`user:${userId}`),
    invalidateTenant: (tenantId) => cache.invalidate(`tenant:${tenantId}`),
    invalidateAll: () => cache.invalidate('*'),
    start: () => cache.start(),
    stop: () => cache.stop(),
  };
}
