import type { DataRequestSpec } from '../../types.js';
import type { PaginatedResult, Pager } from './pager.js';
import { getQueryParam } from './query-params.js';
import { stepThrough } from './stepped.js';

/**
 * `custom`: `items` names the page-size parameter, `offset` the offset parameter; offset += the
 * page size (as declared in the URL, else the items received) until an empty or repeated page.
 */
export function paginateCustom(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const offsetParam = request.offset || 'offset';
  const declared = Number(getQueryParam(firstUrl, request.items || 'items'));
  const pageSize = Number.isFinite(declared) && declared > 0 ? declared : undefined;
  const start = Number(getQueryParam(firstUrl, offsetParam)) || 0;
  return stepThrough(firstUrl, offsetParam, start, (items) => pageSize ?? items.length, pager);
}
