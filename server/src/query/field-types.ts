import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { inStorableRange, type EnumDefinition } from '../rpc/wire.js';
import { TEXT_OPERATORS, type QueryOperatorName } from './operators.js';
import type { QueryScalar } from './paged-request.js';
import type { QueryIssue } from './query-error.js';

/** What a field may do in a query. Filtering and sorting are on unless turned off. */
export interface PagedFieldFlags {
  /** May appear in `conditions.filters` (default true). */
  filterable?: boolean;
  /** May appear in `conditions.sorts` (default true). */
  sortable?: boolean;
  /** May be searched by the keyword (string fields only; default false). */
  keyword?: boolean;
  /** Permission code needed to read the field; without it the field takes part in nothing. */
  permission?: string;
  /** Never usable in filters, sorts or the keyword, whatever the other flags say. */
  masked?: boolean;
}

/** A column of a table (or an alias of it) or any SQL expression. */
export type PagedFieldSource = AnyColumn | SQLWrapper;

/** One field of a list: where its value comes from, its type and its flags. */
export type PagedFieldSpec = PagedFieldFlags & { column: PagedFieldSource } & (
    | {
        type: 'string';
        /**
         * Text matching compares `lower(column)` with the lowered pattern (default), the form the
         * `lower(col) gin_trgm_ops` indexes serve. False compares the column as is, for columns
         * without letters whose index is on the bare column (users.phone).
         */
        foldCase?: boolean;
      }
    /** integer: 64-bit-safe whole numbers; number: any finite decimal; id: a 64-bit identifier. */
    | { type: 'integer' | 'number' | 'id' | 'boolean' | 'datetime' }
    | {
        type: 'enum';
        enum: EnumDefinition<string>;
        /** How the column stores the member: its name (default) or its number. */
        stored?: 'name' | 'number';
      }
  );

/** The type names of fields. */
export type PagedFieldType = PagedFieldSpec['type'];

const ORDERED: ReadonlySet<QueryOperatorName> = new Set([
  'GreaterThan',
  'GreaterThanOrEqual',
  'LessThan',
  'LessThanOrEqual',
  'Between',
]);

/**
 * Whether an operator means something for a field type. Text matching is for strings only;
 * ordering is for strings, numbers, ids and date-times (not booleans, and not enums, whose stored
 * names or numbers have no order a client could rely on). A filter whose operator does not apply
 * is dropped like a filter on an unusable field.
 */
export function operatorApplies(type: PagedFieldType, operator: QueryOperatorName): boolean {
  if (TEXT_OPERATORS.has(operator)) return type === 'string';
  if (ORDERED.has(operator)) return type !== 'boolean' && type !== 'enum';
  return true;
}

/** A request value turned into a bound parameter of the field's type, or the issue it raises. */
export type Coerced = { ok: true; param: SQL; text?: string } | { ok: false; issue: QueryIssue };

const INTEGER = /^[-+]?\d{1,16}$/;
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d{1,3})?$/;
const ID = /^\d{1,19}$/;
const MAX_INT64 = 9223372036854775807n;
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

// One parser per enum definition: defineEnum builds a new schema on each call.
const enumParsers = new WeakMap<EnumDefinition<string>, ReturnType<EnumDefinition<string>['schema']>>();
function enumParser(def: EnumDefinition<string>): ReturnType<EnumDefinition<string>['schema']> {
  let parser = enumParsers.get(def);
  if (!parser) enumParsers.set(def, (parser = def.schema()));
  return parser;
}

function fail(path: QueryIssue['path'], i18n: QueryIssue['i18n'], params?: Record<string, string>): Coerced {
  return { ok: false, issue: params ? { path, i18n, params } : { path, i18n } };
}

function parseDateTime(raw: string): Date | undefined {
  // As zDateTime: with an offset it is that instant, without one it is UTC.
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw.replace(' ', 'T')}Z`;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) || !inStorableRange(d) ? undefined : d;
}

/**
 * Types one request value for a field. Parameters are sent as text with an explicit cast, so the
 * database never guesses a type from the column (a smallint column would otherwise refuse
 * 40000 with an error instead of matching nothing) and no driver has to know bigint or Date.
 * The user's text only ever travels as a bound parameter.
 */
export function coerceValue(spec: PagedFieldSpec, raw: QueryScalar, path: QueryIssue['path']): Coerced {
  switch (spec.type) {
    case 'string': {
      if (typeof raw === 'string') return { ok: true, param: sql`${raw}`, text: raw };
      if (typeof raw === 'number' && Number.isFinite(raw))
        return { ok: true, param: sql`${String(raw)}`, text: String(raw) };
      return fail(path, 'queryInvalidText');
    }
    case 'integer': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && INTEGER.test(raw.trim()) ? Number(raw.trim()) : NaN;
      return Number.isSafeInteger(n)
        ? { ok: true, param: sql`${String(n)}::bigint` }
        : fail(path, 'queryInvalidInteger');
    }
    case 'number': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw.trim()) : NaN;
      return Number.isFinite(n) ? { ok: true, param: sql`${String(n)}::numeric` } : fail(path, 'queryInvalidNumber');
    }
    case 'id': {
      const text =
        typeof raw === 'number'
          ? Number.isSafeInteger(raw) && raw >= 0
            ? String(raw)
            : ''
          : typeof raw === 'string'
            ? raw.trim()
            : '';
      return ID.test(text) && BigInt(text) <= MAX_INT64
        ? { ok: true, param: sql`${text}::bigint` }
        : fail(path, 'invalidId');
    }
    case 'boolean': {
      const b = typeof raw === 'boolean' ? raw : BOOLEANS.get(String(raw).trim().toLowerCase());
      return b === undefined ? fail(path, 'queryInvalidBoolean') : { ok: true, param: sql`${String(b)}::boolean` };
    }
    case 'datetime': {
      const d = typeof raw === 'string' ? parseDateTime(raw.trim()) : undefined;
      return d ? { ok: true, param: sql`${d.toISOString()}::timestamptz` } : fail(path, 'invalidDateTime');
    }
    case 'enum': {
      const def = spec.enum;
      const parsed = raw === null || typeof raw === 'boolean' ? undefined : enumParser(def).safeParse(raw);
      if (!parsed?.success) return fail(path, 'invalidEnum', { allowed: def.names.join(', ') });
      return spec.stored === 'number'
        ? { ok: true, param: sql`${String(def.valueOf(parsed.data))}::bigint` }
        : { ok: true, param: sql`${parsed.data}` };
    }
  }
}
