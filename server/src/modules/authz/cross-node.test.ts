import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, rolePermissions, roles, tenants, userRoles, users } from '../../../../db/schema/index.js';
import { boot, type Runtime } from '../../bootstrap.js';
import { loadConfig } from '../../config/load.js';
import { createLogger } from '../../infra/logger.js';
import { acquireTestRedis, type TestRedis } from '../../stores/testing-redis.js';
import { acquireTestPostgres, type TestPostgres } from '../../testing/postgres.js';

/** Two app instances ("nodes") sharing one PostgreSQL and one Redis, as in production. */
let pg: TestPostgres;
let redis: TestRedis;
let nodes: Runtime[];

beforeAll(async () => {
  pg = await acquireTestPostgres();
  redis = await acquireTestRedis();
  const config = loadConfig(
    {},
    {
      App: { Env: 'test', LogLevel: 'silent' },
      Database: { Url: pg.url, MaxConnections: 4 },
      Redis: { Url: redis.url, KeyPrefix: `test:${randomUUID()}:` },
    },
  );
  nodes = await Promise.all([
    boot(config, { logger: createLogger({ level: 'silent' }) }),
    boot(config, { logger: createLogger({ level: 'silent' }) }),
  ]);
  await Promise.all(nodes.map((n) => n.ready));
});

afterAll(async () => {
  await Promise.all((nodes ?? []).map((n) => n.close()));
  await redis?.release();
  await pg?.release();
});

describe('authorization across nodes', () => {
  it('lets a grant written on one node apply on the other within a second', async () => {
    const [a, b] = nodes as [Runtime, Runtime];
    const { db, ids } = a.deps;
    const tenantId = ids.next();
    await db.insert(tenants).values({ id: tenantId, code: `x${tenantId}`, name: 'X' });
    const userId = ids.next();
    await db.insert(users).values({ id: userId, tenantId, userName: `u${userId}` });
    const roleId = ids.next();
    await db.insert(roles).values({ id: roleId, tenantId, roleCode: `r${roleId}`, roleName: 'R' });
    await db.insert(userRoles).values({ id: ids.next(), tenantId, userId, roleId });
    expect((await a.deps.authz.get(userId, tenantId)).permissions).toEqual([]);

    // Node B grants and says so; node A must notice without a restart or a new login.
    const [perm] = await b.deps.db
      .select({ id: permissions.id })
      .from(permissions)
      .where(eq(permissions.code, 'saas:user:read'));
    await b.deps.db.insert(rolePermissions).values({ roleId, permissionId: perm!.id });
    const started = Date.now();
    await b.deps.authz.invalidateTenant(tenantId);
    let seen: string[] = [];
    while (Date.now() - started < 1000) {
      seen = (await a.deps.authz.get(userId, tenantId)).permissions;
      if (seen.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toEqual(['saas:user:read']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('minted ids never collide between the two nodes', () => {
    const [a, b] = nodes as [Runtime, Runtime];
    expect(a.deps.ids.nodeId).not.toBe(b.deps.ids.nodeId);
    const all = new Set<bigint>();
    for (let i = 0; i < 5000; i++) {
      all.add(a.deps.ids.next());
      all.add(b.deps.ids.next());
    }
    expect(all.size).toBe(10_000);
  });
});
