import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import type { EphemeralStore } from './store.js';
import { pollUntil } from '../testing/poll.js';

/** How the shared suite gets stores of one implementation. */
export interface StoreContractOptions {
  /**
   * Whether two stores made by `makeStore` share state (two nodes on one Redis). When they do not
   * (memory), "two nodes" are one instance used twice, the only way such a store is shared.
   */
  shared: boolean;
  /** Lets `ms` pass for TTLs: advances the clock and, for a store whose TTLs run on real time, waits. */
  passTime(clock: ManualClock, ms: number): Promise<void>;
}

/** Start of a 60 s window: ManualClock's default start is midnight, a multiple of every window used here. */
const WINDOW_START = Date.UTC(2026, 0, 1);

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
const until = (check: () => boolean, timeoutMs = 1_000) => pollUntil(check, { timeoutMs, intervalMs: 5 });

/**
 * The behaviour every EphemeralStore must have, run once per implementation. TTLs are short
 * (150 ms) so a store on real time (Redis) keeps the suite fast.
 */
export function runStoreContract(
  name: string,
  makeStore: (clock: ManualClock) => Promise<EphemeralStore> | EphemeralStore,
  options: StoreContractOptions,
): void {
  describe(name, () => {
    const opened: EphemeralStore[] = [];
    const open = async (clock: ManualClock): Promise<EphemeralStore> => {
      const store = await makeStore(clock);
      opened.push(store);
      return store;
    };
    /** Two nodes of one cluster sharing a clock. */
    const twoNodes = async (clock = new ManualClock()): Promise<[EphemeralStore, EphemeralStore]> => {
      const a = await open(clock);
      return [a, options.shared ? await open(clock) : a];
    };
    const key = (label: string) => `${label}:${randomUUID()}`;

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    describe('values', () => {
      it('gets what was set, undefined when absent; a set replaces the value', async () => {
        const store = await open(new ManualClock());
        const k = key('v');
        expect(await store.get(k)).toBeUndefined();
        await store.set(k, 'one', 60_000);
        expect(await store.get(k)).toBe('one');
        await store.set(k, 'two', 60_000);
        expect(await store.get(k)).toBe('two');
        await store.set(k, '', 60_000);
        expect(await store.get(k)).toBe('');
      });

      it('expires a value after its TTL', async () => {
        const clock = new ManualClock();
        const store = await open(clock);
        const k = key('ttl');
        await store.set(k, 'x', 150);
        await options.passTime(clock, 50);
        expect(await store.get(k)).toBe('x');
        await options.passTime(clock, 150);
        expect(await store.get(k)).toBeUndefined();
        expect(await store.delete(k)).toBe(false);
      });

      it('a new set restarts the TTL', async () => {
        const clock = new ManualClock();
        const store = await open(clock);
        const k = key('ttl');
        await store.set(k, 'x', 150);
        await store.set(k, 'y', 60_000);
        await options.passTime(clock, 200);
        expect(await store.get(k)).toBe('y');
      });

      it('deletes, telling whether the key existed', async () => {
        const store = await open(new ManualClock());
        const k = key('d');
        await store.set(k, 'x', 60_000);
        expect(await store.delete(k)).toBe(true);
        expect(await store.get(k)).toBeUndefined();
        expect(await store.delete(k)).toBe(false);
      });

      it('refuses a TTL or window below 1 ms', async () => {
        const store = await open(new ManualClock());
        for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
          await expect(store.set(key('bad'), 'x', bad)).rejects.toThrow(RangeError);
          await expect(store.putIfAbsent(key('bad'), 'x', bad)).rejects.toThrow(RangeError);
          await expect(store.increment(key('bad'), bad)).rejects.toThrow(RangeError);
        }
      });
    });

    describe('take and putIfAbsent', () => {
      it('take returns the value once', async () => {
        const store = await open(new ManualClock());
        const k = key('t');
        await store.set(k, 'code', 60_000);
        expect(await store.take(k)).toBe('code');
        expect(await store.take(k)).toBeUndefined();
        expect(await store.get(k)).toBeUndefined();
        expect(await store.take(key('never'))).toBeUndefined();
      });

      it('take of an expired value gives nothing', async () => {
        const clock = new ManualClock();
        const store = await open(clock);
        const k = key('t');
        await store.set(k, 'code', 150);
        await options.passTime(clock, 200);
        expect(await store.take(k)).toBeUndefined();
      });

      it('putIfAbsent sets only when absent, and again once expired or deleted', async () => {
        const clock = new ManualClock();
        const store = await open(clock);
        const k = key('p');
        expect(await store.putIfAbsent(k, 'first', 150)).toBe(true);
        expect(await store.putIfAbsent(k, 'second', 150)).toBe(false);
        expect(await store.get(k)).toBe('first');
        await options.passTime(clock, 200);
        expect(await store.putIfAbsent(k, 'third', 60_000)).toBe(true);
        expect(await store.get(k)).toBe('third');
        await store.delete(k);
        expect(await store.putIfAbsent(k, 'fourth', 60_000)).toBe(true);
      });

      it('has an epoch no later than its first use, kept while it keeps its data, answered with every putIfAbsentInEpoch', async () => {
        const clock = new ManualClock();
        const [a, b] = await twoNodes(clock);
        const epoch = await a.epochMs();
        expect(epoch).toBeLessThanOrEqual(clock.nowMs());
        clock.advance(60_000);
        expect(await a.epochMs()).toBe(epoch);
        expect(await b.epochMs()).toBe(epoch);
        const k = key('e');
        expect(await a.putIfAbsentInEpoch(k, 'first', 60_000)).toEqual({ stored: true, epochMs: epoch });
        expect(await b.putIfAbsentInEpoch(k, 'second', 60_000)).toEqual({ stored: false, epochMs: epoch });
        expect(await a.get(k)).toBe('first');
        await expect(a.putIfAbsentInEpoch(key('bad'), 'x', 0)).rejects.toThrow(RangeError);
      });
    });

    describe('counters', () => {
      it('counts within a fixed window aligned to the epoch and starts again in the next', async () => {
        const clock = new ManualClock(WINDOW_START + 10_000);
        const store = await open(clock);
        const k = key('w');
        expect(await store.increment(k, 60_000)).toEqual({ count: 1, resetInMs: 50_000 });
        clock.advance(30_000);
        expect(await store.increment(k, 60_000)).toEqual({ count: 2, resetInMs: 20_000 });
        clock.advance(19_999);
        expect(await store.increment(k, 60_000)).toEqual({ count: 3, resetInMs: 1 });
        clock.advance(1);
        expect(await store.increment(k, 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
        // Another key, or the same key with another window length, counts on its own.
        expect(await store.increment(key('w'), 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
        expect((await store.increment(k, 1_000)).count).toBe(1);
      });

      it('throttles: the limit at once, then one per period / limit; refused hits change nothing', async () => {
        const clock = new ManualClock(WINDOW_START - 100);
        const store = await open(clock);
        const k = key('t');
        const first = await Promise.all(Array.from({ length: 4 }, () => store.throttle(k, 3, 60_000)));
        expect(first.map((r) => r.allowed).sort()).toEqual([false, true, true, true]);
        expect(first.find((r) => !r.allowed)!.retryAfterMs).toBe(20_000);
        clock.advance(19_999); // across a minute boundary: nothing resets there
        expect(await store.throttle(k, 3, 60_000)).toEqual({ allowed: false, retryAfterMs: 1 });
        clock.advance(1);
        expect(await store.throttle(k, 3, 60_000)).toEqual({ allowed: true, retryAfterMs: 0 });
        expect((await store.throttle(k, 3, 60_000)).allowed).toBe(false);
        // A quiet period gives the whole burst back.
        clock.advance(60_000);
        const again = await Promise.all(Array.from({ length: 3 }, () => store.throttle(k, 3, 60_000)));
        expect(again.every((r) => r.allowed)).toBe(true);
        await expect(store.throttle(k, 0, 60_000)).rejects.toThrow(RangeError);
      });

      it('keeps generation counters, 0 before the first increment', async () => {
        const store = await open(new ManualClock());
        const k = key('g');
        expect(await store.getCounter(k)).toBe(0);
        expect(await store.incrementCounter(k)).toBe(1);
        expect(await store.incrementCounter(k)).toBe(2);
        expect(await store.getCounter(k)).toBe(2);
        expect(await store.getCounter(key('g'))).toBe(0);
      });
    });

    describe('races between two nodes', () => {
      it('100 concurrent takes of one key: exactly one gets the value', async () => {
        const [a, b] = await twoNodes();
        const k = key('race-take');
        await a.set(k, 'ticket', 60_000);
        const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? b : a).take(k)));
        expect(results.filter((r) => r !== undefined)).toEqual(['ticket']);
      });

      it('50 concurrent throttled hits with a limit of 5: exactly 5 pass', async () => {
        const [a, b] = await twoNodes();
        const k = key('race-throttle');
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? b : a).throttle(k, 5, 60_000)));
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
      });

      it('100 concurrent putIfAbsent: exactly one wins and its value stays', async () => {
        const [a, b] = await twoNodes();
        const k = key('race-put');
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) => (i % 2 ? b : a).putIfAbsent(k, `v${i}`, 60_000)),
        );
        const winners = results.flatMap((won, i) => (won ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(await b.get(k)).toBe(`v${winners[0]}`);
      });

      it('50 concurrent increments count exactly 1..50', async () => {
        const [a, b] = await twoNodes(new ManualClock(WINDOW_START));
        const k = key('race-inc');
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? b : a).increment(k, 60_000)));
        expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      });

      it('50 concurrent generation increments count exactly 1..50', async () => {
        const [a, b] = await twoNodes();
        const k = key('race-gen');
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? b : a).incrementCounter(k)));
        expect(results.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(await a.getCounter(k)).toBe(50);
      });
    });

    describe('publish and subscribe', () => {
      it('delivers a message published by another node, in order, to every handler', async () => {
        const [publisher, subscriber] = await twoNodes();
        const channel = key('ch');
        const first: string[] = [];
        const second: string[] = [];
        await subscriber.subscribe(channel, (m) => first.push(m));
        await subscriber.subscribe(channel, (m) => second.push(m));
        await publisher.publish(channel, 'one');
        await publisher.publish(channel, 'two');
        await publisher.publish(channel, 'three');
        await until(() => first.length === 3 && second.length === 3, 1_000);
        expect(first).toEqual(['one', 'two', 'three']);
        expect(second).toEqual(['one', 'two', 'three']);
      });

      it('delivers only to the channel published to', async () => {
        const [publisher, subscriber] = await twoNodes();
        const [quiet, loud] = [key('quiet'), key('loud')];
        const heard: string[] = [];
        await subscriber.subscribe(quiet, (m) => heard.push(`quiet:${m}`));
        await subscriber.subscribe(loud, (m) => heard.push(`loud:${m}`));
        await publisher.publish(loud, 'x');
        await until(() => heard.length > 0);
        expect(heard).toEqual(['loud:x']);
      });

      it('unsubscribing stops delivery, for one handler and for the whole channel', async () => {
        const [publisher, subscriber] = await twoNodes();
        const [channel, sentinel] = [key('ch'), key('sentinel')];
        const gone: string[] = [];
        const staying: string[] = [];
        const marks: string[] = [];
        const unsubscribeGone = await subscriber.subscribe(channel, (m) => gone.push(m));
        const unsubscribeStaying = await subscriber.subscribe(channel, (m) => staying.push(m));
        await subscriber.subscribe(sentinel, (m) => marks.push(m));

        await unsubscribeGone();
        await unsubscribeGone(); // twice is harmless
        await publisher.publish(channel, 'after-one');
        await until(() => staying.length === 1);
        expect(gone).toEqual([]);

        await unsubscribeStaying();
        await publisher.publish(channel, 'after-all');
        await publisher.publish(sentinel, 'mark');
        await until(() => marks.length === 1);
        expect(staying).toEqual(['after-one']);
        expect(gone).toEqual([]);

        // And a channel can be subscribed again.
        const again: string[] = [];
        await subscriber.subscribe(channel, (m) => again.push(m));
        await publisher.publish(channel, 'back');
        await until(() => again.length === 1);
        expect(again).toEqual(['back']);
      });

      it('a handler that throws does not keep the message from the others', async () => {
        const [publisher, subscriber] = await twoNodes();
        const channel = key('ch');
        const heard: string[] = [];
        await subscriber.subscribe(channel, () => {
          throw new Error('handler bug');
        });
        await subscriber.subscribe(channel, (m) => heard.push(m));
        await publisher.publish(channel, 'still');
        await until(() => heard.length === 1);
        expect(heard).toEqual(['still']);
      });
    });

    describe('close', () => {
      it('resolves (twice too), after which operations reject', async () => {
        const store = await makeStore(new ManualClock());
        await store.subscribe(key('ch'), () => {});
        await store.close();
        await store.close();
        await expect(store.get(key('x'))).rejects.toThrow();
      });
    });
  });
}
