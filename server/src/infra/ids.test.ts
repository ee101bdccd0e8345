import { describe, expect, it } from 'vitest';
import { createIdGenerator, generateIdKey, MAX_NODE_ID, permute, unpermute } from './ids.js';

describe('id permutation', () => {
  it('is a bijection on the 63-bit range', () => {
    const key = generateIdKey();
    const samples = [0n, 1n, 2n, 4095n, 1n << 40n, (1n << 63n) - 1n, 123456789012345678n];
    for (let i = 0; i < 2000; i++) samples.push(BigInt(i) * 7919n + (BigInt(i) << 30n));
    for (const v of samples) {
      const p = permute(v, key);
      expect(p >= 0n && p < 1n << 63n).toBe(true);
      expect(unpermute(p, key)).toBe(v);
    }
  });

  it('depends on the key', () => {
    expect(permute(42n, '00'.repeat(16))).not.toBe(permute(42n, '11'.repeat(16)));
  });
});

describe('id generator', () => {
  it('never repeats within a node, even past 4096 ids per millisecond and when the clock steps back', () => {
    const key = generateIdKey();
    let t = Date.UTC(2026, 0, 1);
    const gen = createIdGenerator({ nodeId: 5, key, nowMs: () => t });
    const seen = new Set<bigint>();
    for (let i = 0; i < 20_000; i++) seen.add(gen.next());
    t -= 10_000;
    for (let i = 0; i < 5_000; i++) seen.add(gen.next());
    expect(seen.size).toBe(25_000);
  });

  it('never collides between nodes minting in the same millisecond', () => {
    const key = generateIdKey();
    const t = Date.UTC(2026, 0, 1);
    const seen = new Set<bigint>();
    for (const nodeId of [0, 1, 2, MAX_NODE_ID]) {
      const gen = createIdGenerator({ nodeId, key, nowMs: () => t });
      for (let i = 0; i < 3000; i++) seen.add(gen.next());
    }
    expect(seen.size).toBe(12_000);
  });

  it('reveals neither order nor counts: consecutive ids are far apart and unordered', () => {
    const gen = createIdGenerator({ nodeId: 1, key: generateIdKey() });
    const ids = Array.from({ length: 1000 }, () => gen.next());
    const ascending = ids.filter((id, i) => i > 0 && id > ids[i - 1]!).length;
    expect(ascending).toBeGreaterThan(350);
    expect(ascending).toBeLessThan(650);
    const smallGaps = ids.filter((id, i) => i > 0 && id - ids[i - 1]! < 1000n && ids[i - 1]! - id < 1000n).length;
    expect(smallGaps).toBe(0);
    expect(ids.every((id) => id > 0n)).toBe(true);
  });

  it('refuses bad node numbers and keys', () => {
    expect(() => createIdGenerator({ nodeId: MAX_NODE_ID + 1, key: generateIdKey() })).toThrow();
    expect(() => createIdGenerator({ nodeId: 1, key: 'nothex' })).toThrow();
  });
});
