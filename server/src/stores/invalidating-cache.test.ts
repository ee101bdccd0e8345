import { describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { createLogger } from '../infra/logger.js';
import { createInvalidatingCache } from './invalidating-cache.js';
import { createMemoryStore } from './memory.js';

const logger = createLogger({ level: 'silent' });

function setup() {
  const clock = new ManualClock();
  const store = createMemoryStore({ clock });
  const make = () => createInvalidatingCache<number>({ name: 'test', store, clock, logger, ttlMs: 1000 });
  return { clock, store, make };
}

describe('invalidating cache', () => {
  it('keeps a loaded value until a tag it carries is invalidated', async () => {
    const { make, store } = setup();
    const cache = make();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', ['user:1', 'tenant:9'], load)).toBe(1);
    expect(await cache.get('a', ['user:1', 'tenant:9'], load)).toBe(1);
    await cache.invalidate('user:2');
    expect(await cache.get('a', ['user:1', 'tenant:9'], load)).toBe(1);
    await cache.invalidate('tenant:9');
    expect(await cache.get('a', ['user:1', 'tenant:9'], load)).toBe(2);
    await cache.invalidate('*');
    expect(await cache.get('a', ['user:1'], load)).toBe(3);
    expect(await cache.generation('tenant:9')).toBe(1);
    await store.close();
  });

  it('does not keep a value loaded while an invalidation happened', async () => {
    const { make, store } = setup();
    const cache = make();
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const pending = cache.get('k', ['user:1'], async () => {
      await slow;
      return 1;
    });
    await cache.invalidate('user:1');
    release();
    expect(await pending).toBe(1);
    expect(await cache.get('k', ['user:1'], async () => 2)).toBe(2);
    await store.close();
  });

  it('expires entries after the TTL', async () => {
    const { make, clock, store } = setup();
    const cache = make();
    let n = 0;
    await cache.get('k', [], async () => ++n);
    clock.advance(999);
    expect(await cache.get('k', [], async () => ++n)).toBe(1);
    clock.advance(2);
    expect(await cache.get('k', [], async () => ++n)).toBe(2);
    await store.close();
  });

  it('keeps a replaced value on the writing node while other nodes drop theirs', async () => {
    const { make, store } = setup();
    const a = make();
    const b = make();
    await a.start();
    await b.start();
    await a.get('k', ['session:1'], async () => 1);
    await b.get('k', ['session:1'], async () => 1);
    await a.replace('k', ['session:1'], 2, 'session:1', 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await a.get('k', ['session:1'], async () => 99)).toBe(2);
    expect(await b.get('k', ['session:1'], async () => 3)).toBe(3);
    await a.stop();
    await b.stop();
    await store.close();
  });

  it('does not keep a replaced value when the entry it was derived from changed meanwhile', async () => {
    const { make, store } = setup();
    const cache = make();
    const read = await cache.get('k', ['session:1', 'user:1'], async () => 1);
    // Something else changed (a revocation, say) between the writer's read and its replace.
    await cache.invalidate('user:1');
    await cache.replace('k', ['session:1', 'user:1'], 2, 'session:1', read);
    expect(await cache.get('k', ['session:1'], async () => 3)).toBe(3);
    // ... and also when the entry was reloaded meanwhile (a different value than the one read).
    await cache.replace('k', ['session:1', 'user:1'], 4, 'session:1', read);
    expect(await cache.get('k', ['session:1'], async () => 5)).toBe(5);
    await store.close();
  });

  it('keeps loads and replaces while only other tags change (under load some tag always does)', async () => {
    const { clock, store } = setup();
    const cache = createInvalidatingCache<{ n: number }>({
      name: 'objects',
      store,
      clock,
      logger,
      ttlMs: 1000,
      maxEntries: 1,
    });
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const pending = cache.get('k', ['session:1', 'user:1'], async () => {
      await slow;
      return { n: 1 };
    });
    // Other sessions change while k loads: k's value is still good.
    await cache.invalidate('session:2');
    await cache.replace('j', ['session:3'], { n: 9 }, 'session:3', { n: 8 });
    release();
    const read = await pending;
    expect(await cache.get('k', ['session:1', 'user:1'], async () => ({ n: 100 }))).toBe(read);
    // Evicted for room (not changed): a replace derived from it is still kept.
    await cache.get('other', ['session:4'], async () => ({ n: 4 }));
    await cache.invalidate('session:5');
    const next = { n: 2 };
    await cache.replace('k', ['session:1', 'user:1'], next, 'session:1', read);
    expect(await cache.get('k', ['session:1', 'user:1'], async () => ({ n: 200 }))).toBe(next);
    // A change of one of its own tags since the read still voids a replace derived from it.
    await cache.invalidate('user:1');
    await cache.replace('k', ['session:1', 'user:1'], { n: 3 }, 'session:1', next);
    expect((await cache.get('k', ['session:1', 'user:1'], async () => ({ n: 300 }))).n).toBe(300);
    await store.close();
  });

  it('drops entries on other instances sharing the store', async () => {
    const { make, store } = setup();
    const a = make();
    const b = make();
    await a.start();
    await b.start();
    let n = 0;
    await a.get('k', ['user:5'], async () => ++n);
    await b.invalidate('user:5');
    await new Promise((r) => setTimeout(r, 5));
    expect(await a.get('k', ['user:5'], async () => ++n)).toBe(2);
    await a.stop();
    await b.stop();
    await store.close();
  });
});
