import type { DataRequestSpec } from '../../types.js';
import { getPath, isRecord, pageItems } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';

/**
 * `url`: `paginationField` is the path of the next page's URL in the response (relative URLs
 * resolve against the current page). The result is the last page with the collected items in place.
 */
export async function paginateUrl(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let last: unknown;
  let lastKey: string | undefined;
  let url = firstUrl;
  const path = (request.paginationField ?? '').replace(/^root(\[\])?\.?/, '');
  const visited = new Set<string>();
  for (;;) {
    visited.add(url);
    const json = await pager.fetchNext(url);
    if (json === undefined) break;
    last = json;
    const { items, key } = pageItems(json);
    if (key !== undefined) lastKey = key;
    if (items.length === 0 || !pager.fill(collected, items)) break;
    const next = path ? getPath(json, path) : undefined;
    if (typeof next !== 'string' || next === '') break;
    const resolved = new URL(next, url).toString();
    if (visited.has(resolved)) break;
    url = resolved;
  }
  const data = pager.kept(collected);
  if (isRecord(last) && lastKey !== undefined) return pager.answer({ ...last, [lastKey]: data }, data.length);
  return pager.answer(data, data.length);
}
