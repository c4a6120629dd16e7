import type { DataRequestSpec } from '../../types.js';
import { pageItems } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';
import { getQueryParam, setQueryParam } from './query-params.js';

/**
 * `custom`: `items` names the page-size parameter, `offset` the offset parameter; offset += the
 * page size (as declared in the URL, else the items received) until an empty or repeated page.
 */
export async function paginateCustom(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let url = firstUrl;
  const sizeParam = request.items || 'items';
  const offsetParam = request.offset || 'offset';
  const declared = Number(getQueryParam(url, sizeParam));
  const pageSize = Number.isFinite(declared) && declared > 0 ? declared : undefined;
  let offset = Number(getQueryParam(url, offsetParam)) || 0;
  let previous = '';
  for (;;) {
    url = setQueryParam(url, offsetParam, String(offset));
    const json = await pager.fetchNext(url);
    if (json === undefined) break;
    const { items } = pageItems(json);
    const text = JSON.stringify(items);
    if (items.length === 0 || text === previous) break;
    previous = text;
    if (!pager.fill(collected, items)) break;
    offset += pageSize ?? items.length;
  }
  const data = pager.kept(collected);
  return pager.answer(data, data.length);
}
