import type { DataRequestSpec } from '../../types.js';
import { arrayKeys, getPath, isRecord, type Json } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';
import { setQueryParam } from './query-params.js';

/**
 * `cursor`: `items` is the path of the next cursor in the response, `offset` the parameter to send
 * it in. Every top-level array of an object response is collected, each up to the limits; the
 * result is the last page with those arrays in place.
 */
export async function paginateCursor(firstUrl: string, request: DataRequestSpec, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let last: unknown;
  let url = firstUrl;
  const cursorPath = request.items || 'next_cursor';
  const param = request.offset || 'cursor';
  const arrays = new Map<string, unknown[]>();
  const seen = new Set<string>();
  for (;;) {
    const json = await pager.fetchNext(url);
    if (json === undefined) break;
    last = json;
    let more = true;
    if (Array.isArray(json)) more = pager.fill(collected, json);
    else if (isRecord(json)) {
      const keys = arrayKeys(json);
      for (const key of keys) {
        const list = arrays.get(key) ?? [];
        if (!pager.fill(list, json[key] as unknown[])) more = false;
        arrays.set(key, list);
      }
      if (keys.every((key) => (json[key] as unknown[]).length === 0)) more = false;
    }
    const cursor = getPath(json, cursorPath);
    if (!more || cursor === null || cursor === undefined || cursor === '' || cursor === false) break;
    const text = String(cursor);
    if (seen.has(text)) break;
    seen.add(text);
    url = setQueryParam(url, param, text);
  }
  if (isRecord(last)) {
    const out: Json = { ...last };
    let rowCount = 0;
    for (const [key, list] of arrays) {
      out[key] = pager.kept(list);
      rowCount = Math.max(rowCount, (out[key] as unknown[]).length);
    }
    return pager.answer(out, rowCount);
  }
  const data = pager.kept(collected);
  return pager.answer(data, data.length);
}
