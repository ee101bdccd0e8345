import { asc, desc, type SQL } from 'drizzle-orm';
import { operand, usableField, type NamedField } from './field-map.js';
import type { PagedFieldSource } from './field-types.js';
import type { SortDirectionName } from './operators.js';
import type { QuerySort } from './paged-request.js';

/** One key of a list's default sort. */
export interface DefaultSortKey<F extends string = string> {
  field: F;
  /** Default Ascending. */
  direction?: SortDirectionName;
}

function key(source: PagedFieldSource, direction: SortDirectionName): SQL {
  return direction === 'Descending' ? desc(source) : asc(source);
}

/**
 * ORDER BY of a request: its usable sorts by priority (lower first; sorts without one after, in
 * the order sent), each field once; the list's default sort when none is usable; and always the
 * unique tie-breaker last, so that equal keys cannot make rows swap pages between requests.
 * The default sort is the list author's choice and is not subject to the caller's permissions.
 */
export function orderByOf(
  map: ReadonlyMap<string, NamedField>,
  sorts: readonly QuerySort[],
  can: (permission: string) => boolean,
  defaultSort: readonly DefaultSortKey[],
  tieBreaker: PagedFieldSource,
): SQL[] {
  const ranked = sorts
    .map((sort, index) => ({ sort, index, rank: sort.priority ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  const used = new Set<string>();
  const chosen: Array<{ field: NamedField; direction: SortDirectionName }> = [];
  for (const { sort } of ranked) {
    const field = usableField(map, sort.field, 'sort', can);
    if (!field || used.has(field.name)) continue;
    used.add(field.name);
    chosen.push({ field, direction: sort.direction });
  }
  if (chosen.length === 0) {
    for (const d of defaultSort)
      chosen.push({ field: map.get(d.field.toLowerCase())!, direction: d.direction ?? 'Ascending' });
  }
  const keys = chosen.map((c) => key(c.field.spec.column, c.direction));
  if (!chosen.some((c) => c.field.source === tieBreaker)) keys.push(asc(operand(tieBreaker)));
  return keys;
}
