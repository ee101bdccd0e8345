import { describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { createMemoryStore } from './memory.js';
import { hitRateLimit } from './rate-limit.js';

const MINUTE = 60_000;
const BOUNDARY = Date.UTC(2026, 0, 1); // a multiple of a minute since the epoch

async function hits(clock: ManualClock, n: number, key: string, limit: number, stepMs = 0) {
  const store = createMemoryStore({ clock });
  const results = [];
  for (let i = 0; i < n; i++) {
    results.push(await hitRateLimit(store, key, limit, MINUTE));
    clock.advance(stepMs);
  }
  return { store, results };
}

describe('hitRateLimit', () => {
  it('allows the limit at once and refuses the next, with the wait until one more fits', async () => {
    const clock = new ManualClock(BOUNDARY + 1_000);
    const { store, results } = await hits(clock, 31, 'burst', 30);
    expect(results.slice(0, 30).every((r) => r.allowed)).toBe(true);
    expect(results[30]).toEqual({ allowed: false, retryAfterSeconds: 2 }); // one per 60 s / 30
    clock.advance(2_000);
    expect((await hitRateLimit(store, 'burst', 30, MINUTE)).allowed).toBe(true);
    expect((await hitRateLimit(store, 'burst', 30, MINUTE)).allowed).toBe(false);
    await store.close();
  });

  it('does not let twice the limit through around a minute boundary', async () => {
    const clock = new ManualClock(BOUNDARY - 500);
    const { store } = await hits(clock, 30, 'edge', 30);
    clock.advance(1_000); // half a second past the boundary
    const results = [];
    for (let i = 0; i < 30; i++) results.push((await hitRateLimit(store, 'edge', 30, MINUTE)).allowed);
    expect(results.filter(Boolean)).toHaveLength(0);
    await store.close();
  });

  it('one a minute means a minute between accepted hits, wherever the boundary falls', async () => {
    for (const offset of [-500, 10_000, 59_999]) {
      const clock = new ManualClock(BOUNDARY + offset);
      const { store, results } = await hits(clock, 2, 'one', 1, 1_000);
      expect(results.map((r) => r.allowed)).toEqual([true, false]);
      expect(results[1]!.retryAfterSeconds).toBe(59);
      clock.advance(57_999);
      expect((await hitRateLimit(store, 'one', 1, MINUTE)).allowed).toBe(false);
      clock.advance(1);
      expect((await hitRateLimit(store, 'one', 1, MINUTE)).allowed).toBe(true);
      await store.close();
    }
  });

  it('does not count refused hits: waiting Retry-After is enough however often one tried', async () => {
    const clock = new ManualClock(BOUNDARY);
    const { store } = await hits(clock, 1, 'retry', 1);
    let last = { allowed: true, retryAfterSeconds: 0 };
    for (let i = 0; i < 20; i++) {
      clock.advance(1_000);
      last = await hitRateLimit(store, 'retry', 1, MINUTE);
      expect(last.allowed).toBe(false);
    }
    clock.advance(last.retryAfterSeconds * 1000);
    expect((await hitRateLimit(store, 'retry', 1, MINUTE)).allowed).toBe(true);
    await store.close();
  });
});
