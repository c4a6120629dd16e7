/**
 * Paging through an API data request's responses: one file per pagination template, sharing the
 * caps and truncation bookkeeping of `pager.ts`.
 */
import type { DataRequestSpec } from '../../types.js';
import { paginateCursor } from './cursor.js';
import { paginateCustom } from './custom.js';
import { Pager, type PageFetcher, type PaginatedResult, type PaginationLimits } from './pager.js';
import { paginatePages } from './pages.js';
import { paginateStripe } from './stripe.js';
import { paginateUrl } from './url.js';

export { getPath, pageItems } from './json.js';
export type { PageFetcher, PaginatedResult, PaginationLimits } from './pager.js';
export { getQueryParam, setQueryParam } from './query-params.js';
export { shapeResponse } from './single-response.js';

/**
 * Follows a data request's pagination template (reference semantics):
 * - custom: `items` = page-size parameter, `offset` = offset parameter; offset += page size;
 * - pages: `offset` = page-number parameter (starts at 1); page += 1;
 * - cursor: `items` = path of the next cursor in the response, `offset` = parameter to send it in;
 * - url: `paginationField` = path of the next page's URL in the response;
 * - stripe: `limit=100`, `starting_after` = last item id, while `has_more`.
 * Stops when the source is done (an empty page, no next cursor, URL or `has_more`, a page or
 * cursor seen before), at `itemsLimit` items (0 = no limit), or at a limit: the row limit, the
 * page cap or the byte cap. Stopping at a limit while the source had more marks the result
 * truncated, with the limit that stopped it (`truncatedBy`). Under the row limit one item more
 * than the limit is read, so a limit that falls on the end of a page is still seen to cut.
 */
export async function paginate(firstUrl: string, request: DataRequestSpec, fetchPage: PageFetcher, limits: PaginationLimits): Promise<PaginatedResult> {
  const itemsLimit = request.itemsLimit && request.itemsLimit > 0 ? request.itemsLimit : Infinity;
  const pager = new Pager(fetchPage, limits, itemsLimit);
  switch (request.template ?? 'custom') {
    case 'pages':
      return paginatePages(firstUrl, request, pager);
    case 'cursor':
      return paginateCursor(firstUrl, request, pager);
    case 'url':
      return paginateUrl(firstUrl, request, pager);
    case 'stripe':
      return paginateStripe(firstUrl, pager);
    default:
      // custom (also any unknown template)
      return paginateCustom(firstUrl, request, pager);
  }
}
