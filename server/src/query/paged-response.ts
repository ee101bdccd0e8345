import { z } from 'zod';

/** The `page` block of a paged response, for output schemas and the OpenAPI document. */
export const pageInfoSchema = z.object({
  pageIndex: z.number().int(),
  pageSize: z.number().int(),
  totalCount: z.number().int(),
  totalPages: z.number().int(),
  currentPageCount: z.number().int(),
  startRecord: z.number().int(),
  endRecord: z.number().int(),
  hasPrevious: z.boolean(),
  hasNext: z.boolean(),
  isFirstPage: z.boolean(),
  isLastPage: z.boolean(),
});

/**
 * Output schema of a paged list procedure: `.output(pagedResponse(UserListItem))`. extendDatas is
 * null unless the list provides some (the serializer then leaves it out).
 */
export function pagedResponse<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: pageInfoSchema,
    extendDatas: z.record(z.string(), z.unknown()).nullable(),
  });
}
