import { or, sql, type SQL } from 'drizzle-orm';
import { coerceValue, type Coerced, type PagedFieldSpec } from './field-types.js';
import type { KeywordMatchModeName } from './operators.js';
import type { QueryFilter } from './paged-request.js';
import type { QueryIssue } from './query-error.js';

/** A string field, the only kind text matching applies to. */
export type StringFieldSpec = Extract<PagedFieldSpec, { type: 'string' }>;

/**
 * Makes user text match itself literally inside a LIKE pattern: `\` (PostgreSQL's default LIKE
 * escape), `%` and `_` are escaped, so `50%_off` finds exactly that text.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Case-insensitive text matching in the form `lower(column) LIKE lower($pattern)`, which the
 * `lower(col) gin_trgm_ops` indexes serve (ILIKE would not use them). Equal is a LIKE without
 * wildcards: an exact match, ignoring case, through the same index.
 */
export function textMatch(spec: StringFieldSpec, mode: KeywordMatchModeName, text: string): SQL {
  const escaped = escapeLike(text);
  const pattern =
    mode === 'Contains'
      ? `%${escaped}%`
      : mode === 'StartsWith'
        ? `${escaped}%`
        : mode === 'EndsWith'
          ? `%${escaped}`
          : escaped;
  // Lowering in SQL as well keeps both sides under the database's own case rules.
  return spec.foldCase === false
    ? sql`${spec.column} like ${pattern}`
    : sql`lower(${spec.column}) like lower(${pattern})`;
}

/** The keyword: any of the fields matches. No field to search means no row can match. */
export function keywordCondition(fields: readonly StringFieldSpec[], mode: KeywordMatchModeName, text: string): SQL {
  if (fields.length === 0) return sql`false`;
  return or(...fields.map((f) => textMatch(f, mode, text))) ?? sql`false`;
}

type Valid = Extract<Coerced, { ok: true }>;

/**
 * The condition of one filter on a usable field, or undefined when it restricts nothing (an
 * empty Contains text, NotIn of nothing). Values that do not fit the field are added to `issues`
 * with their path in the request body.
 */
export function filterCondition(
  spec: PagedFieldSpec,
  filter: QueryFilter,
  index: number,
  issues: QueryIssue[],
): SQL | undefined {
  const col = spec.column;
  const at = ['conditions', 'filters', index];
  const one = (): Valid | undefined => {
    const c = coerceValue(spec, filter.value ?? null, [...at, 'value']);
    if (c.ok) return c;
    issues.push(c.issue);
    return undefined;
  };
  const many = (): Valid[] | undefined => {
    const out: Valid[] = [];
    (filter.values ?? []).forEach((raw, i) => {
      const c = coerceValue(spec, raw, [...at, 'values', i]);
      if (c.ok) out.push(c);
      else issues.push(c.issue);
    });
    return out.length === (filter.values ?? []).length ? out : undefined;
  };
  const list = (items: Valid[]) =>
    sql.join(
      items.map((c) => c.param),
      sql`, `,
    );

  switch (filter.operator) {
    case 'IsNull':
      return sql`${col} is null`;
    case 'IsNotNull':
      return sql`${col} is not null`;
    case 'Contains':
    case 'StartsWith':
    case 'EndsWith': {
      const c = one();
      // An empty search text is a text box left empty: it restricts nothing.
      if (!c || spec.type !== 'string' || !c.text) return undefined;
      return textMatch(spec, filter.operator, c.text);
    }
    case 'In': {
      const items = many();
      if (!items) return undefined;
      return items.length ? sql`${col} in (${list(items)})` : sql`false`;
    }
    case 'NotIn': {
      const items = many();
      if (!items?.length) return undefined;
      // "Not one of these" includes rows without a value, as NotEqual does.
      return sql`(${col} not in (${list(items)}) or ${col} is null)`;
    }
    case 'Between': {
      const items = many();
      if (items?.length !== 2) return undefined;
      return sql`${col} between ${items[0]!.param} and ${items[1]!.param}`;
    }
    default: {
      const c = one();
      if (!c) return undefined;
      const p = c.param;
      switch (filter.operator) {
        case 'Equal':
          return sql`${col} = ${p}`;
        case 'NotEqual':
          // SQL's <> drops NULLs; a client asking for "not x" expects the rows without a value too.
          return sql`${col} is distinct from ${p}`;
        case 'GreaterThan':
          return sql`${col} > ${p}`;
        case 'GreaterThanOrEqual':
          return sql`${col} >= ${p}`;
        case 'LessThan':
          return sql`${col} < ${p}`;
        default:
          return sql`${col} <= ${p}`;
      }
    }
  }
}
