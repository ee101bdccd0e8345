/** The `page` block of a paged query response (SPEC: Paged query response). */
export interface PageInfo {
  pageIndex: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
  currentPageCount: number;
  /** 1-based number of the first record on this page; 0 when the page is empty. */
  startRecord: number;
  /** 1-based number of the last record on this page; 0 when the page is empty. */
  endRecord: number;
  hasPrevious: boolean;
  hasNext: boolean;
  isFirstPage: boolean;
  isLastPage: boolean;
}

/**
 * Page facts from the (clamped) request page, the total and the rows returned.
 *
 * - totalPages is 0 when there are no records: there is no page 1 to be on. Page 1 of an empty
 *   list is then both the first and the last page, with neither a previous nor a next one.
 * - A page index past the end is kept as asked (not moved to the last page): the answer is an
 *   empty page whose hasPrevious is true, so a client can step back.
 */
export function pageInfo(pageIndex: number, pageSize: number, totalCount: number, currentPageCount: number): PageInfo {
  const totalPages = totalCount === 0 ? 0 : Math.ceil(totalCount / pageSize);
  const startRecord = currentPageCount === 0 ? 0 : (pageIndex - 1) * pageSize + 1;
  return {
    pageIndex,
    pageSize,
    totalCount,
    totalPages,
    currentPageCount,
    startRecord,
    endRecord: currentPageCount === 0 ? 0 : startRecord + currentPageCount - 1,
    hasPrevious: pageIndex > 1,
    hasNext: pageIndex < totalPages,
    isFirstPage: pageIndex === 1,
    isLastPage: pageIndex >= totalPages,
  };
}
