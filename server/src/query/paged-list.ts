import { and, count, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Executor } from '../infra/db/client.js';
import { keywordCondition, filterCondition, type StringFieldSpec } from './conditions.js';
import { buildFieldMap, isUsable, memoizeCan, usableField } from './field-map.js';
import { operatorApplies, type PagedFieldSource, type PagedFieldSpec } from './field-types.js';
import { pageInfo, type PageInfo } from './page-info.js';
import type { PagedRequest } from './paged-request.js';
import { queryValidationError, type QueryIssue } from './query-error.js';
import { orderByOf, type DefaultSortKey } from './sorting.js';

/** What a list declares once: its fields, its default sort and its unique tie-breaker. */
export interface PagedListDefinition<M extends Record<string, PagedFieldSpec>> {
  /** Public field name (what clients send) to its source, type and flags. */
  fields: M;
  /** Used when the request has no usable sort. */
  defaultSort: readonly [DefaultSortKey<FieldName<M>>, ...Array<DefaultSortKey<FieldName<M>>>];
  /** A unique column (usually the primary key), the last sort key, so pages are stable. */
  tieBreaker: PagedFieldSource;
  /** Searched by a keyword without usable `fields`; default: every field flagged `keyword`. */
  defaultKeywordFields?: ReadonlyArray<FieldName<M>>;
}

/** The public field names of a field map. */
export type FieldName<M> = NoInfer<Extract<keyof M, string>>;

/** Extension data of a response: null unless the caller provides some. */
export type ExtendDatas = Record<string, unknown> | null;

/** The data of a paged query response (SPEC: Paged query response). */
export interface PagedResult<T> {
  items: T[];
  page: PageInfo;
  extendDatas: ExtendDatas;
}

/** The pieces of one request's query, for callers that run it their own way. */
export interface PagedPlan {
  /** Base condition AND filters AND keyword; the base is never widened. */
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  pageIndex: number;
  pageSize: number;
}

/** Who asks and within what: the part of a run that is not the request. */
export interface PagedScope {
  /** Tenant, data scope, soft delete, business fields: always ANDed in. Undefined only on purpose. */
  base: SQL | undefined;
  /** Whether the caller holds a permission code. Absent: no permission is held. */
  can?: (permission: string) => boolean;
}

/** Options of a run. */
export interface PagedRunOptions<S extends PgSelect> extends PagedScope {
  request: PagedRequest;
  /**
   * Builds the select (columns, joins) without where, order, limit or offset: `(q) =>
   * q.select({...}).from(users).$dynamic()`. It is called twice: once for the page and once
   * wrapped in `select count(*) from (...)`, so both queries see the same rows.
   */
  select: (executor: Executor) => S;
  /** Extension data for the response, or a function of the page's items that makes it. */
  extendDatas?: ExtendDatas | ((items: Array<Awaited<S>[number]>) => ExtendDatas | Promise<ExtendDatas>);
}

/** A defined list: plan or run paged queries over it. */
export interface PagedList<F extends string> {
  /** The public field names, as declared. */
  readonly fieldNames: readonly F[];
  /** Where, order and page of a request, without running anything (throws the 400 on bad values). */
  plan(request: PagedRequest, scope: PagedScope): PagedPlan;
  /** One data query and one count query; the result is the SPEC's response data. */
  run<S extends PgSelect>(executor: Executor, options: PagedRunOptions<S>): Promise<PagedResult<Awaited<S>[number]>>;
}

const DENY = () => false;

/**
 * Refuses a select that already has a where, order, limit or offset: Drizzle would silently
 * replace them (a where given there would vanish), so the base condition must come as `base`.
 * Reads Drizzle's builder state; if that ever moves, the check does nothing rather than fail.
 */
function assertBare(select: PgSelect): void {
  const config = (select as unknown as { config?: Record<string, unknown> }).config;
  if (!config) return;
  for (const part of ['where', 'orderBy', 'limit', 'offset'] as const) {
    const value = config[part];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      throw new Error(`pagedList.run: the select must not set ${part}; pass conditions as base`);
    }
  }
}

/**
 * Declares a list for paged queries. Fields are the only names a request can use; everything
 * else it names is ignored. Bad declarations throw here.
 *
 * ```ts
 * const userList = definePagedList({
 *   fields: {
 *     id: { column: users.id, type: 'id' },
 *     userName: { column: users.userName, type: 'string', keyword: true },
 *     email: { column: users.email, type: 'string', keyword: true, permission: 'saas:user:email' },
 *     status: { column: users.status, type: 'enum', enum: UserStatus },
 *     createdTime: { column: users.createdTime, type: 'datetime' },
 *   },
 *   defaultSort: [{ field: 'createdTime', direction: 'Descending' }],
 *   tieBreaker: users.id,
 * });
 * ```
 */
export function definePagedList<const M extends Record<string, PagedFieldSpec>>(
  definition: PagedListDefinition<M>,
): PagedList<FieldName<M>> {
  const map = buildFieldMap(definition.fields);
  for (const d of definition.defaultSort) {
    if (!map.has(d.field.toLowerCase()))
      throw new Error(`definePagedList: default sort field "${d.field}" is not declared`);
  }
  const keywordNames =
    definition.defaultKeywordFields ?? [...map.values()].filter((f) => f.spec.keyword).map((f) => f.name);
  const defaultKeyword = keywordNames.map((name) => {
    const field = map.get(name.toLowerCase());
    if (!field?.spec.keyword)
      throw new Error(`definePagedList: default keyword field "${name}" must be a declared keyword field`);
    return field;
  });

  function plan(request: PagedRequest, scope: PagedScope): PagedPlan {
    const can = memoizeCan(scope.can ?? DENY);
    const issues: QueryIssue[] = [];
    const conditions: Array<SQL | undefined> = [];

    // Unusable fields and operators that mean nothing for the type are dropped before their
    // values are looked at, so an error never reveals a field the caller cannot use.
    request.conditions.filters.forEach((filter, index) => {
      const field = usableField(map, filter.field, 'filter', can);
      if (!field || !operatorApplies(field.spec.type, filter.operator)) return;
      conditions.push(filterCondition(field.spec, filter, index, issues));
    });
    if (issues.length) throw queryValidationError(issues);

    const keyword = request.conditions.keyword;
    if (keyword) {
      const asked = new Set(
        keyword.fields.map((name) => usableField(map, name, 'keyword', can)).filter((f) => f !== undefined),
      );
      const fields = asked.size ? [...asked] : defaultKeyword.filter((f) => isUsable(f.spec, 'keyword', can));
      conditions.push(
        keywordCondition(
          fields.map((f) => f.spec as StringFieldSpec),
          keyword.matchMode,
          keyword.value,
        ),
      );
    }

    // Every part in its own parentheses: Drizzle's and() pastes raw SQL parts in as written, so
    // a base of `a or b` would otherwise bind only its `b` to the filters and widen the list.
    const where = and(...[scope.base, ...conditions].filter((c) => c !== undefined).map((c) => sql`(${c})`));
    const { pageIndex, pageSize } = request.page;
    const orderBy = orderByOf(map, request.conditions.sorts, can, definition.defaultSort, definition.tieBreaker);
    return { where, orderBy, limit: pageSize, offset: (pageIndex - 1) * pageSize, pageIndex, pageSize };
  }

  async function run<S extends PgSelect>(
    executor: Executor,
    options: PagedRunOptions<S>,
  ): Promise<PagedResult<Awaited<S>[number]>> {
    const p = plan(options.request, options);
    const pageQuery = options.select(executor);
    const countSource = options.select(executor);
    assertBare(pageQuery);
    assertBare(countSource);
    const [rows, totals] = await Promise.all([
      pageQuery
        .where(p.where)
        .orderBy(...p.orderBy)
        .limit(p.limit)
        .offset(p.offset),
      // Drizzle parenthesises an embedded select itself.
      executor.select({ total: count() }).from(sql`${countSource.where(p.where)} as paged_rows`),
    ]);
    const items = rows as Array<Awaited<S>[number]>;
    const extend = typeof options.extendDatas === 'function' ? await options.extendDatas(items) : options.extendDatas;
    return {
      items,
      page: pageInfo(p.pageIndex, p.pageSize, totals[0]?.total ?? 0, items.length),
      extendDatas: extend ?? null,
    };
  }

  return { fieldNames: [...map.values()].map((f) => f.name as FieldName<M>), plan, run };
}
