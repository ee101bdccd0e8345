import { describe, expect, it } from 'vitest';
import { formatIsoInZone, formatPlainInZone, resolveTimeZone } from './datetime.js';
import { PlainDateTime, toWire, toWireJson } from './serialize.js';

const utc = { timeZone: 'UTC' };

describe('toWire', () => {
  it('lowers only the first character of property names, dictionary keys included', () => {
    expect(toWire({ OAuthProviders: [], IsSuccess: true, userName: 'a', Map: new Map([['Key', 1]]) }, utc)).toEqual({
      oAuthProviders: [],
      isSuccess: true,
      userName: 'a',
      map: { key: 1 },
    });
  });

  it('omits nulls and undefined from objects but keeps array positions', () => {
    expect(toWire({ a: null, b: undefined, c: [1, null, 2] }, utc)).toEqual({ c: [1, null, 2] });
  });

  it('writes 64-bit integers as strings without losing precision', () => {
    expect(toWire({ id: 9223372036854775807n, size: 12n }, utc)).toEqual({ id: '9223372036854775807', size: '12' });
  });

  it('ignores circular references', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    a.list = [a, { back: a, ok: 1 }];
    expect(toWire(a, utc)).toEqual({ name: 'a', list: [null, { ok: 1 }] });
  });

  it('keeps a shared (non-circular) object in every place it appears', () => {
    const shared = { v: 1 };
    expect(toWire({ x: shared, y: shared }, utc)).toEqual({ x: { v: 1 }, y: { v: 1 } });
  });

  it('converts date-times to the zone with its offset, and the plain form without one', () => {
    const d = new Date('2026-01-15T08:30:05.123Z');
    expect(toWire({ at: d, issuedAt: new PlainDateTime(d) }, { timeZone: 'Asia/Shanghai' })).toEqual({
      at: '2026-01-15T16:30:05+08:00',
      issuedAt: '2026-01-15 16:30:05',
    });
  });
});

describe('time zones', () => {
  it('handles daylight saving and negative and fractional offsets', () => {
    expect(formatIsoInZone(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(formatIsoInZone(new Date('2026-01-01T12:00:00Z'), 'America/New_York')).toBe('2026-01-01T07:00:00-05:00');
    expect(formatIsoInZone(new Date('2026-01-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T17:30:00+05:30');
    expect(formatIsoInZone(new Date('2026-01-01T12:00:00Z'), 'Asia/Kathmandu')).toBe('2026-01-01T17:45:00+05:45');
    expect(formatPlainInZone(new Date('2025-12-31T23:59:59.999Z'), 'Asia/Tokyo')).toBe('2026-01-01 08:59:59');
  });

  it('is exact on both sides of a transition inside a cached quarter hour', () => {
    // Europe/Berlin left summer time at 2026-10-25T01:00:00Z.
    expect(formatIsoInZone(new Date('2026-10-25T00:59:59Z'), 'Europe/Berlin')).toBe('2026-10-25T02:59:59+02:00');
    expect(formatIsoInZone(new Date('2026-10-25T01:00:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:00:00+01:00');
    expect(formatIsoInZone(new Date('2026-10-25T00:50:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:50:00+02:00');
  });

  it('handles dates before 1970', () => {
    expect(formatIsoInZone(new Date('1960-03-01T00:00:00.500Z'), 'Europe/Berlin')).toBe('1960-03-01T01:00:00+01:00');
  });

  it('falls back to the default for unknown or absurd zones', () => {
    expect(resolveTimeZone('Mars/Olympus', 'UTC')).toBe('UTC');
    expect(resolveTimeZone('', 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('x'.repeat(500), 'UTC')).toBe('UTC');
    expect(resolveTimeZone('asia/shanghai', 'UTC')).toBe('Asia/Shanghai');
  });
});

describe('toWireJson', () => {
  const zones = ['UTC', 'Asia/Shanghai', 'America/New_York'];
  /** A small random value generator (seeded, so failures reproduce). */
  function generate(seed: number) {
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const leaf = (): unknown => {
      const k = Math.floor(rnd() * 12);
      return [
        null,
        undefined,
        true,
        false,
        rnd() * 1e6 - 5e5,
        Math.floor(rnd() * 100),
        `t"e\\x\n${rnd()}`,
        'ünï',
        BigInt(Math.floor(rnd() * 1e12)) * 1000003n,
        new Date(Date.UTC(2026, 0, 1) + Math.floor(rnd() * 1e10)),
        new PlainDateTime(new Date(1e12 + rnd() * 1e10)),
        NaN,
      ][k];
    };
    const node = (depth: number): unknown => {
      if (depth > 3 || rnd() < 0.3) return leaf();
      if (rnd() < 0.4) return Array.from({ length: Math.floor(rnd() * 4) }, () => node(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(rnd() * 5); i++)
        o[['a', 'B', 'ID', 'userName', 'OAuthProviders', 'x y'][Math.floor(rnd() * 6)]! + i] = node(depth + 1);
      return o;
    };
    return node(0);
  }

  it('agrees with JSON.stringify(toWire(value)) on random values', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const value = generate(seed);
      const zone = zones[seed % zones.length]!;
      const expected = JSON.stringify(toWire(value, { timeZone: zone }));
      expect(toWireJson(value, { timeZone: zone }), `seed ${seed}`).toBe(expected);
    }
  });

  it('agrees on cycles, maps, sets, bytes and keys that collide after camel-casing', () => {
    const a: Record<string, unknown> = {
      Name: 'x',
      name: 'y',
      list: new Set([1, 2]),
      bytes: new Uint8Array([1, 2, 3]),
      map: new Map([['K', 1]]),
    };
    a.self = a;
    expect(toWireJson(a, utc)).toBe(JSON.stringify(toWire(a, utc)));
  });
});
