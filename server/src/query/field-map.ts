import { Column, is, sql } from 'drizzle-orm';
import type { PagedFieldSource, PagedFieldSpec } from './field-types.js';

/** What a request wants to do with a field. */
export type FieldUse = 'filter' | 'sort' | 'keyword';

/** A declared field under its public name. */
export interface NamedField {
  readonly name: string;
  /** The declaration, its column made safe to embed (see operand). */
  readonly spec: PagedFieldSpec;
  /** The column or expression as declared, to recognise the tie-breaker. */
  readonly source: PagedFieldSource;
}

/**
 * A source ready to sit next to an operator. Drizzle pastes SQL expressions in as written, so
 * `a or b` compared with `= $1` would bind to `b` alone; an expression is parenthesised, a column
 * needs nothing.
 */
export function operand(source: PagedFieldSource): PagedFieldSource {
  return is(source, Column) ? source : sql`(${source})`;
}

/** Public names: what a client can type, and nothing that reads like SQL. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * Indexes the declared fields by lower-cased name, so a client may write `UserName` or
 * `username`. A Map, not an object: a request naming `constructor` or `__proto__` must find
 * nothing rather than an inherited property. Bad declarations fail here, when the list is
 * defined, not on the first request.
 */
export function buildFieldMap(fields: Readonly<Record<string, PagedFieldSpec>>): ReadonlyMap<string, NamedField> {
  const map = new Map<string, NamedField>();
  for (const [name, spec] of Object.entries(fields)) {
    if (!NAME.test(name)) throw new Error(`definePagedList: field name "${name}" must be letters, digits and _`);
    const key = name.toLowerCase();
    if (map.has(key))
      throw new Error(`definePagedList: fields "${map.get(key)!.name}" and "${name}" differ only by case`);
    if (spec.keyword && spec.type !== 'string')
      throw new Error(`definePagedList: keyword field "${name}" must be a string field`);
    map.set(key, Object.freeze({ name, spec: { ...spec, column: operand(spec.column) }, source: spec.column }));
  }
  if (map.size === 0) throw new Error('definePagedList: a list needs at least one field');
  return map;
}

/**
 * Whether the caller may use a field: readable (its permission granted), not masked, and
 * flagged for that use. Anything else is silently unusable, as the SPEC's field-security rule
 * says, so a client learns nothing about fields it cannot see.
 */
export function isUsable(spec: PagedFieldSpec, use: FieldUse, can: (permission: string) => boolean): boolean {
  if (spec.masked) return false;
  if (spec.permission !== undefined && !can(spec.permission)) return false;
  if (use === 'filter') return spec.filterable !== false;
  if (use === 'sort') return spec.sortable !== false;
  return spec.keyword === true && spec.type === 'string';
}

/** Looks a request's field name up; unknown or unusable names give undefined. */
export function usableField(
  map: ReadonlyMap<string, NamedField>,
  name: string,
  use: FieldUse,
  can: (permission: string) => boolean,
): NamedField | undefined {
  const field = map.get(name.toLowerCase());
  return field && isUsable(field.spec, use, can) ? field : undefined;
}

/** `can` asked at most once per permission code during one run. */
export function memoizeCan(can: (permission: string) => boolean): (permission: string) => boolean {
  const seen = new Map<string, boolean>();
  return (permission) => {
    let ok = seen.get(permission);
    if (ok === undefined) seen.set(permission, (ok = can(permission) === true));
    return ok;
  };
}
