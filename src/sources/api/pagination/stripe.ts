import { getPath, isRecord, type Json } from './json.js';
import type { PaginatedResult, Pager } from './pager.js';
import { setQueryParam } from './query-params.js';

/** `stripe`: `limit=100`, `starting_after` = the last item's id, while `has_more`; the result is a Stripe list envelope. */
export async function paginateStripe(firstUrl: string, pager: Pager): Promise<PaginatedResult> {
  const collected: unknown[] = [];
  let last: unknown;
  let url = setQueryParam(firstUrl, 'limit', '100');
  for (;;) {
    const json = await pager.fetchNext(url);
    if (json === undefined) break;
    last = json;
    const items = isRecord(json) && Array.isArray(json['data']) ? (json['data'] as unknown[]) : [];
    if (items.length === 0 || !pager.fill(collected, items)) break;
    if (!(isRecord(json) && json['has_more'] === true)) break;
    const lastId = getPath(items.at(-1), 'id');
    if (typeof lastId !== 'string' && typeof lastId !== 'number') break;
    url = setQueryParam(url, 'starting_after', String(lastId));
  }
  const envelope: Json = isRecord(last) ? { ...last } : { object: 'list' };
  envelope['data'] = pager.kept(collected);
  return pager.answer(envelope, (envelope['data'] as unknown[]).length);
}
