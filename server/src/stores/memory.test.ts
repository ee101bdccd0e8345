import { describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { createMemoryStore } from './memory.js';
import { runStoreContract } from './store.contract.js';

runStoreContract('memory store', (clock) => createMemoryStore({ clock }), {
  shared: false,
  passTime: async (clock, ms) => clock.advance(ms),
});

describe('memory store only', () => {
  it('when full, evicts expired entries first, then the oldest write', async () => {
    const clock = new ManualClock();
    const store = createMemoryStore({ clock, maxEntries: 3 });
    await store.set('a', 'a', 60_000);
    await store.set('short', 's', 100);
    await store.set('c', 'c', 60_000);
    clock.advance(200);
    await store.set('d', 'd', 60_000);
    expect(await store.get('a')).toBe('a');
    expect(await store.get('c')).toBe('c');
    expect(await store.get('d')).toBe('d');
    // Nothing expired now: the oldest write goes; rewriting 'a' made it the newest.
    await store.set('a', 'a2', 60_000);
    await store.set('e', 'e', 60_000);
    expect(await store.get('c')).toBeUndefined();
    expect(await store.get('a')).toBe('a2');
    expect(await store.get('d')).toBe('d');
    expect(await store.get('e')).toBe('e');
    await store.close();
  });

  it('stays bounded under a flood of new keys', async () => {
    const clock = new ManualClock();
    const store = createMemoryStore({ clock, maxEntries: 100 });
    for (let i = 0; i < 5_000; i++) {
      if (i % 2) await store.set(`k${i}`, 'x', 60_000);
      else await store.putIfAbsent(`k${i}`, 'x', 60_000);
    }
    const present = await Promise.all(Array.from({ length: 5_000 }, (_, i) => store.get(`k${i}`)));
    const kept = present.flatMap((v, i) => (v === undefined ? [] : [i]));
    expect(kept).toEqual(Array.from({ length: 100 }, (_, i) => 4_900 + i));
    await store.close();
  });

  it('never expires or evicts generation counters', async () => {
    const clock = new ManualClock();
    const store = createMemoryStore({ clock, maxEntries: 10 });
    await store.incrementCounter('generation');
    for (let i = 0; i < 100; i++) await store.set(`k${i}`, 'x', 1_000);
    clock.advance(10 * 365 * 24 * 3_600_000);
    expect(await store.getCounter('generation')).toBe(1);
    await store.close();
  });

  it('delivers asynchronously, never inside publish', async () => {
    const store = createMemoryStore({ clock: new ManualClock() });
    const heard: string[] = [];
    await store.subscribe('ch', (m) => heard.push(m));
    const published = store.publish('ch', 'm');
    expect(heard).toEqual([]);
    await published;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(['m']);
    await store.close();
  });

  it('a second memory store is another cluster: it shares neither values nor messages', async () => {
    const clock = new ManualClock();
    const [a, b] = [createMemoryStore({ clock }), createMemoryStore({ clock })];
    const heard: string[] = [];
    await b.subscribe('ch', (m) => heard.push(m));
    await a.set('k', 'v', 60_000);
    await a.publish('ch', 'm');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await b.get('k')).toBeUndefined();
    expect(heard).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('answers ping, and refuses a bad bound', async () => {
    const store = createMemoryStore({ clock: new ManualClock() });
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    expect(() => createMemoryStore({ clock: new ManualClock(), maxEntries: 0 })).toThrow(RangeError);
  });
});
