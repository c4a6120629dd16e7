import { pageItems } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';
import { setQueryParam } from './query-params.js';

/**
 * The paging of `custom` and `pages`: `param` is set to `start`, then moved by `step` (given the
 * items just read), until a page is empty, repeats the previous one, or the pager is full.
 */
export async function stepThrough(firstUrl: string, param: string, start: number, step: (items: unknown[]) => number, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let value = start;
  let previous = '';
  for (;;) {
    const json = await pager.fetchNext(setQueryParam(firstUrl, param, String(value)));
    if (json === undefined) break;
    const { items } = pageItems(json);
    const text = JSON.stringify(items);
    if (items.length === 0 || text === previous) break;
    previous = text;
    if (!pager.fill(collected, items)) break;
    value += step(items);
  }
  const data = pager.kept(collected);
  return pager.answer(data, data.length);
}
