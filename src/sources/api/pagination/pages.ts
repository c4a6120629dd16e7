import type { DataRequestSpec } from '../../types.js';
import { pageItems } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';
import { getQueryParam, setQueryParam } from './query-params.js';

/** `pages`: `offset` names the page-number parameter (starts at 1); page += 1 until an empty or repeated page. */
export async function paginatePages(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let url = firstUrl;
  const param = request.offset || 'page';
  let page = Number(getQueryParam(url, param)) || 1;
  let previous = '';
  for (;;) {
    url = setQueryParam(url, param, String(page));
    const json = await pager.fetchNext(url);
    if (json === undefined) break;
    const { items } = pageItems(json);
    const text = JSON.stringify(items);
    if (items.length === 0 || text === previous) break;
    previous = text;
    if (!pager.fill(collected, items)) break;
    page++;
  }
  const data = pager.kept(collected);
  return pager.answer(data, data.length);
}
