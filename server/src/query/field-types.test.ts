import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { coerceValue, type PagedFieldSpec } from './field-types.js';

describe('datetime filter values', () => {
  const spec: PagedFieldSpec = { type: 'datetime', column: sql`created_time` };
  const coerce = (raw: string) => coerceValue(spec, raw, ['conditions', 'filters', 0, 'value']).ok;

  it('takes instants of years 0001-9999, with or without an offset', () => {
    for (const ok of [
      '2026-05-01T10:00:00Z',
      '2026-05-01 10:00:00',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59+08:00',
    ])
      expect(coerce(ok), ok).toBe(true);
  });

  it('refuses dates JavaScript reads but PostgreSQL does not store (a 400, not a database error)', () => {
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '-000001-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2026-02-30T25:61:00Z',
    ])
      expect(coerce(bad), bad).toBe(false);
  });
});
