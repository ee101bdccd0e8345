import { z } from 'zod';
import { PlainDateTime } from '../http/serialize.js';

/**
 * Input and output types that follow the serialization conventions. Inputs accept both forms the
 * spec allows (64-bit ids as numbers or strings, enums as numbers or names, booleans and numbers
 * as text in a query string); outputs are written in the one canonical form.
 */

const MAX_INT64 = 9223372036854775807n;
const DIGITS = /^\d{1,19}$/;

/** Marks schemas whose JSON Schema the OpenAPI generator writes by hand. */
export const docOverrides = new WeakMap<z.ZodType, Record<string, unknown>>();
function documented<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  docOverrides.set(schema, json);
  return schema;
}

/**
 * A 64-bit id from a JSON number or a decimal string, or undefined: a number past 2^53 is not
 * the id it spells, and nothing beyond 64 bits names a row.
 */
export function parseId(v: string | number): bigint | undefined {
  const text = typeof v === 'number' ? (Number.isSafeInteger(v) ? String(v) : '') : v.trim();
  if (!DIGITS.test(text)) return undefined;
  const id = BigInt(text);
  return id <= MAX_INT64 ? id : undefined;
}

/** A 64-bit identifier in: a JSON number or a decimal string; out: bigint. */
export const zId = () =>
  documented(
    z.union([z.string(), z.number()]).transform((v, ctx) => {
      const id = parseId(v);
      if (id !== undefined) return id;
      ctx.addIssue({ code: 'custom', message: 'id', params: { i18n: 'invalidId' } });
      return z.NEVER;
    }),
    {
      anyOf: [
        { type: 'string', pattern: '^\\d{1,19}$' },
        { type: 'integer', minimum: 0 },
      ],
      description: '64-bit id; a string or a number',
    },
  );

/**
 * A scalar id bound from the query string. A missing one becomes 0, like the original's binding
 * (SPEC Errors rule 7: an id put in the body yields 0 and no 400); lookups then find nothing.
 */
export const zQueryId = () =>
  zId()
    .optional()
    .transform((v) => v ?? 0n);

/** A 64-bit id as written: a decimal string. */
export const zIdOut = () =>
  documented(z.string(), { type: 'string', pattern: '^\\d{1,19}$', description: '64-bit id as a string' });

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** A 32-bit integer (the columns' `integer`): larger values are a 400, not a database error. */
export const zInt32 = () => z.number().int().min(INT32_MIN).max(INT32_MAX);

/**
 * An integer that may arrive as text (query strings): 32-bit (what an `integer` column holds),
 * or any safe integer for values that are clamped rather than stored (page numbers, limits).
 */
export const zInt = (range: 'int32' | 'clamped' = 'int32') =>
  documented(
    z
      .union([
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[-+]?\d{1,16}$/)
          .transform(Number),
      ])
      .pipe(range === 'int32' ? zInt32() : z.number().int()),
    range === 'int32' ? { type: 'integer', minimum: INT32_MIN, maximum: INT32_MAX } : { type: 'integer' },
  );

/**
 * Whether a date falls in years 0001-9999: what PostgreSQL stores and ISO 8601 writes in four
 * digits. JavaScript also parses year 0, negative and six-digit years, which the database refuses.
 */
export function inStorableRange(d: Date): boolean {
  const year = d.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** A calendar date (`YYYY-MM-DD`) from year 0001 on. */
export const zDate = () =>
  z.iso.date().refine((v) => !v.startsWith('0000'), { message: 'date', params: { i18n: 'invalidDateTime' } });

/** A boolean that may arrive as text or as 0/1 (query strings, lenient clients). */
export const zBool = () =>
  documented(
    z
      .union([z.boolean(), z.enum(['true', 'false', 'True', 'False', '1', '0']), z.literal(1), z.literal(0)])
      .transform((v) => v === true || v === 'true' || v === 'True' || v === '1' || v === 1),
    { type: 'boolean' },
  );

/** A date-time in: ISO 8601 text (with or without offset; without one it is UTC). Out: Date. */
export const zDateTime = () =>
  documented(
    z.union([z.string(), z.date()]).transform((v, ctx) => {
      if (v instanceof Date) return v;
      const text = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`;
      const d = new Date(text);
      if (Number.isNaN(d.getTime()) || !inStorableRange(d)) {
        ctx.addIssue({ code: 'custom', message: 'datetime', params: { i18n: 'invalidDateTime' } });
        return z.NEVER;
      }
      return d;
    }),
    { type: 'string', format: 'date-time' },
  );

/** Output date-time: written in the request's zone as ISO 8601 with offset. */
export const zDateTimeOut = () => documented(z.date(), { type: 'string', format: 'date-time' });

/** Output date-time in the LoginToken form `YYYY-MM-DD HH:mm:ss` (request zone, no offset). */
export const zPlainDateTimeOut = () =>
  documented(z.instanceof(PlainDateTime), {
    type: 'string',
    pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    description: 'YYYY-MM-DD HH:mm:ss in the request zone (X-Timezone), without offset',
  });

export interface EnumDefinition<N extends string> {
  readonly name: string;
  readonly values: Readonly<Record<N, number>>;
  readonly names: readonly N[];
  nameOf(value: number): N | undefined;
  valueOf(name: N): number;
  /** Input: a member name (any case) or its number; output: the member name. */
  schema(): z.ZodType<N, string | number>;
  /** Output: the member name. */
  out(): z.ZodType<N, N>;
}

/** Declares an enum written by member name and read by name or number (SPEC conventions). */
export function defineEnum<const T extends Record<string, number>>(
  name: string,
  values: T,
): EnumDefinition<Extract<keyof T, string>> {
  type N = Extract<keyof T, string>;
  const names = Object.keys(values) as N[];
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const byValue = new Map(names.map((n) => [values[n] as number, n]));
  const json = {
    anyOf: [
      { type: 'string', enum: names },
      { type: 'integer', enum: names.map((n) => values[n]) },
    ],
    description: `${name}: ${names.map((n) => `${n} = ${values[n]}`).join(', ')}`,
  };
  return {
    name,
    values,
    names,
    nameOf: (v) => byValue.get(v),
    valueOf: (n) => values[n] as number,
    schema: () =>
      documented(
        z.union([z.string(), z.number()]).transform((v, ctx): N => {
          const hit =
            typeof v === 'number'
              ? byValue.get(v)
              : (byLower.get(v.trim().toLowerCase()) ?? (/^\d+$/.test(v.trim()) ? byValue.get(Number(v)) : undefined));
          if (hit) return hit;
          ctx.addIssue({ code: 'custom', message: 'enum', params: { i18n: 'invalidEnum', allowed: names.join(', ') } });
          return z.NEVER;
        }),
        json,
      ),
    out: () =>
      documented(z.enum(names as [N, ...N[]]) as unknown as z.ZodType<N, N>, {
        type: 'string',
        enum: names,
        description: json.description,
      }),
  };
}
