import { z } from 'zod';
import { defineEnum, docOverrides } from '../rpc/wire.js';

/** QueryOperator of the SPEC: a number or a member name in any case on input. */
export const QueryOperator = defineEnum('QueryOperator', {
  Equal: 1000,
  NotEqual: 1001,
  GreaterThan: 1002,
  GreaterThanOrEqual: 1003,
  LessThan: 1004,
  LessThanOrEqual: 1005,
  Contains: 2000,
  StartsWith: 2001,
  EndsWith: 2002,
  In: 3000,
  NotIn: 3001,
  Between: 4000,
  IsNull: 5000,
  IsNotNull: 5001,
});

/** A QueryOperator member name. */
export type QueryOperatorName = (typeof QueryOperator.names)[number];

/**
 * The operators a keyword may use as its matchMode. Same numbers as QueryOperator, declared apart
 * so that any other operator is refused with the list of the four allowed.
 */
export const KeywordMatchMode = defineEnum('KeywordMatchMode', {
  Equal: 1000,
  Contains: 2000,
  StartsWith: 2001,
  EndsWith: 2002,
});

/** A keyword match mode name. */
export type KeywordMatchModeName = (typeof KeywordMatchMode.names)[number];

/** Case-insensitive text operators: `lower(column) LIKE pattern`. */
export const TEXT_OPERATORS: ReadonlySet<QueryOperatorName> = new Set(['Contains', 'StartsWith', 'EndsWith']);

/** Operators that compare with one `value`. */
export const SINGLE_VALUE_OPERATORS: ReadonlySet<QueryOperatorName> = new Set([
  'Equal',
  'NotEqual',
  'GreaterThan',
  'GreaterThanOrEqual',
  'LessThan',
  'LessThanOrEqual',
  'Contains',
  'StartsWith',
  'EndsWith',
]);

/** Operators that read `values`. */
export const LIST_OPERATORS: ReadonlySet<QueryOperatorName> = new Set(['In', 'NotIn', 'Between']);

/** Sort direction as the engine uses it. */
export type SortDirectionName = 'Ascending' | 'Descending';

const DIRECTIONS: ReadonlyMap<string, SortDirectionName> = new Map([
  ['ascending', 'Ascending'],
  ['asc', 'Ascending'],
  ['1000', 'Ascending'],
  ['descending', 'Descending'],
  ['desc', 'Descending'],
  ['1001', 'Descending'],
]);

/**
 * SortDirection in: 1000 or 1001, or Ascending / Descending / Asc / Desc in any case. Written by
 * hand rather than with defineEnum because two names share each number.
 */
export function sortDirectionSchema(): z.ZodType<SortDirectionName, string | number> {
  const schema = z.union([z.string(), z.number()]).transform((v, ctx): SortDirectionName => {
    const hit = DIRECTIONS.get(String(v).trim().toLowerCase());
    if (hit) return hit;
    ctx.addIssue({
      code: 'custom',
      message: 'enum',
      params: { i18n: 'invalidEnum', allowed: 'Ascending, Descending' },
    });
    return z.NEVER;
  });
  docOverrides.set(schema, {
    anyOf: [
      { type: 'string', enum: ['Ascending', 'Descending', 'Asc', 'Desc'] },
      { type: 'integer', enum: [1000, 1001] },
    ],
    description: 'SortDirection: Ascending = 1000, Descending = 1001',
  });
  return schema;
}
