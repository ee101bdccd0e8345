import { z } from 'zod';
import { zInt } from '../rpc/wire.js';
// Registers the texts the custom issues below name.
import './messages.js';
import {
  KeywordMatchMode,
  LIST_OPERATORS,
  QueryOperator,
  SINGLE_VALUE_OPERATORS,
  sortDirectionSchema,
  type KeywordMatchModeName,
  type QueryOperatorName,
  type SortDirectionName,
} from './operators.js';

/**
 * Bounds of a paged query request. The page rules are the SPEC's (Limits); the others keep a
 * request from turning into huge SQL: over them the request is refused with a 400 naming the
 * field, never cut silently.
 */
export const PAGED_LIMITS = Object.freeze({
  defaultPageSize: 20,
  maxPageSize: 500,
  /** The largest 32-bit integer, like the original's int: higher page indexes are lowered to it. */
  maxPageIndex: 2_147_483_647,
  maxFilters: 50,
  maxSorts: 10,
  maxValues: 1000,
  maxTextLength: 200,
  maxFieldNameLength: 100,
  maxKeywordFields: 50,
});

/** A filter value as it may arrive: text, a number, a boolean or null. Typed later by the field. */
export type QueryScalar = string | number | boolean | null;

/** One parsed filter. */
export interface QueryFilter {
  field: string;
  operator: QueryOperatorName;
  value?: QueryScalar;
  values?: QueryScalar[];
}

/** One parsed sort; `priority` lower wins, absent sorts after those that have one. */
export interface QuerySort {
  field: string;
  direction: SortDirectionName;
  priority?: number;
}

/** The parsed keyword; absent (null) when no non-blank value was sent. */
export interface QueryKeyword {
  value: string;
  fields: string[];
  matchMode: KeywordMatchModeName;
}

/** A paged query request after parsing: defaults applied, page clamped. */
export interface PagedRequest {
  conditions: { keyword: QueryKeyword | null; filters: QueryFilter[]; sorts: QuerySort[] };
  page: { pageIndex: number; pageSize: number };
}

const text = () => z.string().max(PAGED_LIMITS.maxTextLength);
const fieldName = () => z.string().max(PAGED_LIMITS.maxFieldNameLength);
const scalar = () => z.union([text(), z.number(), z.boolean(), z.null()]);

function customIssue(ctx: z.RefinementCtx, path: string, i18n: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message: i18n, params: { i18n } });
}

const filterSchema = z
  .object({
    field: fieldName(),
    operator: QueryOperator.schema(),
    value: scalar().optional(),
    values: z.array(scalar()).max(PAGED_LIMITS.maxValues).nullish(),
  })
  .superRefine((f, ctx) => {
    // Which value an operator reads does not depend on the field: checked here, at the boundary.
    if (SINGLE_VALUE_OPERATORS.has(f.operator) && (f.value === undefined || f.value === null))
      customIssue(ctx, 'value', 'queryValueRequired');
    if (f.operator === 'Between' && (f.values?.length !== 2 || f.values.some((v) => v === null)))
      customIssue(ctx, 'values', 'queryBetweenValues');
    else if (LIST_OPERATORS.has(f.operator) && !f.values) customIssue(ctx, 'values', 'queryValuesRequired');
  })
  .transform((f): QueryFilter => {
    const out: QueryFilter = { field: f.field, operator: f.operator };
    if (SINGLE_VALUE_OPERATORS.has(f.operator)) out.value = f.value;
    if (LIST_OPERATORS.has(f.operator)) out.values = f.values ?? [];
    return out;
  });

const sortSchema = z
  .object({
    field: fieldName(),
    direction: sortDirectionSchema().nullish(),
    priority: zInt('clamped').nullish(),
  })
  .transform(
    (s): QuerySort => ({
      field: s.field,
      direction: s.direction ?? 'Ascending',
      ...(s.priority == null ? {} : { priority: s.priority }),
    }),
  );

const keywordSchema = z
  .object({
    value: text().nullish(),
    fields: z.array(fieldName()).max(PAGED_LIMITS.maxKeywordFields).nullish(),
    matchMode: KeywordMatchMode.schema().nullish(),
  })
  .nullish()
  .transform((k): QueryKeyword | null => {
    const value = k?.value?.trim();
    if (!k || !value) return null;
    return { value, fields: k.fields ?? [], matchMode: k.matchMode ?? 'Contains' };
  });

const conditionsSchema = z
  .object({
    keyword: keywordSchema,
    filters: z.array(filterSchema).max(PAGED_LIMITS.maxFilters).nullish(),
    sorts: z.array(sortSchema).max(PAGED_LIMITS.maxSorts).nullish(),
  })
  .nullish()
  .transform((c): PagedRequest['conditions'] => ({
    keyword: c?.keyword ?? null,
    filters: c?.filters ?? [],
    sorts: c?.sorts ?? [],
  }));

/** SPEC page rules: index below 1 becomes 1; size below 1 becomes 20, above 500 becomes 500. */
export function clampPage(
  pageIndex: number | null | undefined,
  pageSize: number | null | undefined,
): PagedRequest['page'] {
  const index = pageIndex == null || pageIndex < 1 ? 1 : Math.min(pageIndex, PAGED_LIMITS.maxPageIndex);
  const size =
    pageSize == null || pageSize < 1 ? PAGED_LIMITS.defaultPageSize : Math.min(pageSize, PAGED_LIMITS.maxPageSize);
  return { pageIndex: index, pageSize: size };
}

const pageSchema = z
  .object({ pageIndex: zInt('clamped').nullish(), pageSize: zInt('clamped').nullish() })
  .nullish()
  .transform((p) => clampPage(p?.pageIndex, p?.pageSize));

const shape = { conditions: conditionsSchema, page: pageSchema };

/**
 * The SPEC paged query request. Every part is optional (`{}` is a valid body); unknown keys are
 * stripped, so what a client adds (the original's `behavior.ignoreTenant`, say) cannot reach the
 * query.
 */
export const pagedRequestSchema = z.object(shape);

/**
 * A business list request: the SPEC object plus the list's own top-level fields.
 *
 * ```ts
 * const UserListRequest = pagedRequest({ status: UserStatus.schema().optional(), departmentId: zId().optional() });
 * ```
 */
export function pagedRequest<T extends z.ZodRawShape>(extra: T) {
  for (const key of Object.keys(extra)) {
    if (key in shape)
      throw new Error(`pagedRequest: "${key}" is part of the paged query request and cannot be redefined`);
  }
  return pagedRequestSchema.extend(extra);
}
