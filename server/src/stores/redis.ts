import type { Clock } from '../infra/clock.js';
import type { Logger } from '../infra/logger.js';
import { assertDuration, fixedWindow, gcraParams, windowKey } from './durations.js';
import { closeRedis, openRedis } from './redis-connection.js';
import { createRedisSubscriber } from './redis-subscriber.js';
import type { ReadyStore } from './store.js';

/** Options of the Redis store. */
export interface RedisStoreOptions {
  url: string;
  /** Put before every key and channel, so several deployments (or test runs) can share a server. */
  keyPrefix: string;
  /** Chooses the window of `increment`, so every node agrees on window boundaries in tests too. */
  clock: Clock;
  /** Receives connection errors and failures of subscription handlers. */
  logger?: Logger;
}

/** Keeps a window's key a little past its end, for clock skew between nodes, then lets Redis drop it. */
const WINDOW_TTL_MARGIN_MS = 1_000;

// INCR then set the TTL only on the first increment, atomically, so a crash between the two
// cannot leave a counter that never expires. The PTTL test also repairs a key left without TTL.
const INCREMENT_WINDOW_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count`;

// GCRA (durations.ts gcraHit), atomically. ARGV: now, interval, tolerance (whole milliseconds,
// from the injected clock, so that every node and every test agrees on the time).
const THROTTLE_LUA = `
local now = tonumber(ARGV[1])
local start = math.max(tonumber(redis.call('GET', KEYS[1]) or ARGV[1]), now)
if start - now > tonumber(ARGV[3]) then
  return {0, start - now - tonumber(ARGV[3])}
end
local tat = start + tonumber(ARGV[2])
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', tat - now)
return {1, 0}`;

/**
 * Where the epoch is recorded (EphemeralStore.epochMs): a key without expiry holding the instant
 * it was written. Whatever empties the server (a restart without persistence, FLUSHALL, FLUSHDB)
 * takes it too, so its absence is how a loss of data shows; so does its eviction under a
 * maxmemory policy, which may have taken other keys as well.
 */
const EPOCH_KEY = 'store:epoch';

// Reads the epoch, starting one at ARGV[1] (now) when none is recorded.
const EPOCH_LUA = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[1]
  redis.call('SET', KEYS[1], epoch)
end
return epoch`;

// SET NX PX and the epoch in one script: no put lands in a store whose loss of data it has not
// noticed, and the check costs no round trip of its own. ARGV: value, ttl, now.
const PUT_IF_ABSENT_IN_EPOCH_LUA = `
local epoch = redis.call('GET', KEYS[2])
if not epoch then
  epoch = ARGV[3]
  redis.call('SET', KEYS[2], epoch)
end
local stored = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
return {stored and 1 or 0, epoch}`;

/** Scripts sent by digest (EVALSHA; ioredis loads them again after a restart of the server). */
interface EpochScripts {
  storeEpoch(epochKey: string, now: number): Promise<string>;
  storePutIfAbsentInEpoch(
    key: string,
    epochKey: string,
    value: string,
    ttlMs: number,
    now: number,
  ): Promise<[number, string]>;
}

/** The multi-node store on Redis. Every operation is a single atomic Redis command or script. */
export function createRedisStore(options: RedisStoreOptions): ReadyStore {
  const { keyPrefix, clock, logger } = options;
  const client = openRedis(options.url, logger, 'commands');
  const subscriber = createRedisSubscriber(() => openRedis(options.url, logger, 'subscriber'), logger);
  const k = (key: string): string => keyPrefix + key;
  // Redis wants whole milliseconds; rounding up never shortens a TTL.
  const px = (ms: number): number => Math.ceil(ms);
  client.defineCommand('storeEpoch', { numberOfKeys: 1, lua: EPOCH_LUA });
  client.defineCommand('storePutIfAbsentInEpoch', { numberOfKeys: 2, lua: PUT_IF_ABSENT_IN_EPOCH_LUA });
  const scripts = client as unknown as EpochScripts;
  const epochKey = k(EPOCH_KEY);
  const readEpoch = async (): Promise<number> => Number(await scripts.storeEpoch(epochKey, Math.floor(clock.nowMs())));
  // Once someone relies on the epoch, every (re)connection checks it: a restarted server is
  // noticed when the connection comes back rather than at the next put, so the new epoch starts
  // as close to the loss as this node can see it. FLUSHALL keeps the connection; the put notices.
  let epochTracked = false;
  client.on('ready', () => {
    if (epochTracked) readEpoch().catch((error: unknown) => logger?.warn('Redis store epoch check failed', { error }));
  });

  return {
    async get(key) {
      return (await client.get(k(key))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      assertDuration('ttlMs', ttlMs);
      await client.set(k(key), value, 'PX', px(ttlMs));
    },
    async delete(key) {
      return (await client.del(k(key))) > 0;
    },
    async take(key) {
      return (await client.getdel(k(key))) ?? undefined;
    },
    async putIfAbsent(key, value, ttlMs) {
      assertDuration('ttlMs', ttlMs);
      return (await client.set(k(key), value, 'PX', px(ttlMs), 'NX')) === 'OK';
    },
    async epochMs() {
      epochTracked = true;
      return readEpoch();
    },
    async putIfAbsentInEpoch(key, value, ttlMs) {
      assertDuration('ttlMs', ttlMs);
      epochTracked = true;
      const [stored, epoch] = await scripts.storePutIfAbsentInEpoch(
        k(key),
        epochKey,
        value,
        px(ttlMs),
        Math.floor(clock.nowMs()),
      );
      return { stored: stored === 1, epochMs: Number(epoch) };
    },
    async increment(key, windowMs) {
      assertDuration('windowMs', windowMs);
      const window = fixedWindow(clock.nowMs(), windowMs);
      const count = await client.eval(
        INCREMENT_WINDOW_LUA,
        1,
        k(windowKey(key, window.index)),
        px(windowMs) + WINDOW_TTL_MARGIN_MS,
      );
      return { count: Number(count), resetInMs: window.resetInMs };
    },
    async throttle(key, limit, periodMs) {
      const { interval, tolerance } = gcraParams(limit, periodMs);
      const now = Math.floor(clock.nowMs());
      const [allowed, retryAfterMs] = (await client.eval(THROTTLE_LUA, 1, k(key), now, interval, tolerance)) as [
        number,
        number,
      ];
      return { allowed: allowed === 1, retryAfterMs: Number(retryAfterMs) };
    },
    async incrementCounter(key) {
      return client.incr(k(key));
    },
    async getCounter(key) {
      const value = await client.get(k(key));
      return value === null ? 0 : Number.parseInt(value, 10);
    },
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    subscribe(channel, handler) {
      return subscriber.subscribe(k(channel), handler);
    },
    async ping() {
      await client.ping();
    },
    async close() {
      await Promise.all([closeRedis(client), subscriber.close()]);
    },
  };
}
