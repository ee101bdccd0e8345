/**
 * The paged-query engine: the SPEC's paged query request in, one parameterised data query and one
 * count query out, over any list a module declares with definePagedList.
 */
export { PAGED_LIMITS, clampPage, pagedRequest, pagedRequestSchema } from './paged-request.js';
export type { PagedRequest, QueryFilter, QueryKeyword, QueryScalar, QuerySort } from './paged-request.js';
export { definePagedList } from './paged-list.js';
export type {
  ExtendDatas,
  PagedList,
  PagedListDefinition,
  PagedPlan,
  PagedResult,
  PagedRunOptions,
  PagedScope,
} from './paged-list.js';
export type { PagedFieldFlags, PagedFieldSource, PagedFieldSpec, PagedFieldType } from './field-types.js';
export type { DefaultSortKey } from './sorting.js';
export { pageInfo, type PageInfo } from './page-info.js';
export { pageInfoSchema, pagedResponse } from './paged-response.js';
export { KeywordMatchMode, QueryOperator, sortDirectionSchema } from './operators.js';
export type { KeywordMatchModeName, QueryOperatorName, SortDirectionName } from './operators.js';
export { escapeLike } from './conditions.js';
