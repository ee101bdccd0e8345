import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { createRedisStore } from './redis.js';
import { runStoreContract } from './store.contract.js';
import { acquireTestRedis, deleteKeysWithPrefix, testRedisUnavailableReason, type TestRedis } from './testing-redis.js';

const unavailable = testRedisUnavailableReason();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(unavailable !== undefined)(`redis store${unavailable ? ` (${unavailable})` : ''}`, () => {
  // One prefix per run: runs sharing a server (CI's REDIS_URL) never see each other's keys.
  const prefix = `test:${randomUUID()}:`;
  let redis: TestRedis | undefined;
  let raw: Redis | undefined;
  const url = () => {
    if (!redis) throw new Error('Redis not acquired');
    return redis.url;
  };
  const rawClient = () => {
    raw ??= new Redis(url());
    return raw;
  };

  beforeAll(async () => {
    redis = await acquireTestRedis();
  });

  afterAll(async () => {
    if (raw) await raw.quit();
    if (!redis) return;
    try {
      await deleteKeysWithPrefix(redis.url, prefix);
    } finally {
      await redis.release();
    }
  });

  // Each store is its own pair of connections, so two stores are two nodes.
  runStoreContract('contract', (clock) => createRedisStore({ url: url(), keyPrefix: prefix, clock }), {
    shared: true,
    passTime: async (clock, ms) => {
      clock.advance(ms);
      await sleep(ms);
    },
  });

  describe('redis only', () => {
    it('prefixes keys, and gives window keys a TTL a little past the window and counters none', async () => {
      const store = createRedisStore({
        url: url(),
        keyPrefix: prefix,
        clock: new ManualClock(Date.UTC(2026, 0, 1) + 10_000),
      });
      try {
        await store.set('plain', 'v', 60_000);
        expect(await rawClient().get(`${prefix}plain`)).toBe('v');
        await store.increment('throttle', 60_000);
        const windowIndex = Math.floor((Date.UTC(2026, 0, 1) + 10_000) / 60_000);
        const ttl = await rawClient().pttl(`${prefix}throttle:${windowIndex}`);
        expect(ttl).toBeGreaterThan(60_000);
        expect(ttl).toBeLessThanOrEqual(61_000);
        await store.incrementCounter('generation');
        expect(await rawClient().pttl(`${prefix}generation`)).toBe(-1);
        await store.ping();
      } finally {
        await store.close();
      }
    });

    it('starts a new epoch at the first put after its data was lost (FLUSHALL keeps the connection: the put notices)', async () => {
      const own = `test:${randomUUID()}:`;
      const clock = new ManualClock();
      const store = createRedisStore({ url: url(), keyPrefix: own, clock });
      try {
        const epoch = await store.epochMs();
        expect(epoch).toBe(clock.nowMs());
        expect(await rawClient().pttl(`${own}store:epoch`)).toBe(-1);
        expect(await store.putIfAbsentInEpoch('nonce', '1', 60_000)).toEqual({ stored: true, epochMs: epoch });
        clock.advance(30_000);
        // What a FLUSHALL does to this prefix, without emptying a server others may share.
        await deleteKeysWithPrefix(url(), own);
        expect(await store.putIfAbsentInEpoch('nonce', '1', 60_000)).toEqual({ stored: true, epochMs: epoch + 30_000 });
        clock.advance(1_000);
        expect(await store.putIfAbsentInEpoch('nonce', '1', 60_000)).toEqual({
          stored: false,
          epochMs: epoch + 30_000,
        });
        expect(await store.epochMs()).toBe(epoch + 30_000);
      } finally {
        await store.close();
        await deleteKeysWithPrefix(url(), own);
      }
    });

    it('cleans up: every key of the run is under its prefix', async () => {
      const other = `test:${randomUUID()}:`;
      const store = createRedisStore({ url: url(), keyPrefix: other, clock: new ManualClock() });
      try {
        await store.set('a', '1', 60_000);
        await store.incrementCounter('b');
        expect(await deleteKeysWithPrefix(url(), other)).toBe(2);
        expect(await store.get('a')).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });
});

describe('redis store when Redis is unreachable', () => {
  it('rejects within seconds on a refused connection, and close still resolves', async () => {
    const store = createRedisStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'test:', clock: new ManualClock() });
    const started = Date.now();
    await expect(store.get('k')).rejects.toThrow();
    await expect(store.ping()).rejects.toThrow();
    await expect(store.subscribe('ch', () => {})).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    await store.close();
  }, 10_000);

  it('rejects within seconds when the server accepts but never answers, and close still resolves', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'test:', clock: new ManualClock() });
    try {
      const started = Date.now();
      await expect(store.get('k')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(8_000);
      await store.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 15_000);
});
