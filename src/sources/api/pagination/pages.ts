import type { DataRequestSpec } from '../../types.js';
import type { PaginatedResult, Pager } from './pager.js';
import { getQueryParam } from './query-params.js';
import { stepThrough } from './stepped.js';

/** `pages`: `offset` names the page-number parameter (starts at 1); page += 1 until an empty or repeated page. */
export function paginatePages(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const param = request.offset || 'page';
  return stepThrough(firstUrl, param, Number(getQueryParam(firstUrl, param)) || 1, () => 1, pager);
}
