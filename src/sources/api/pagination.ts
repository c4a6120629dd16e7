import type { DataRequestSpec, ResultData, TruncationReason } from '../types.js';

/** Fetches one page and returns its parsed JSON. */
export type PageFetcher = (url: string) => Promise<unknown>;

export interface PaginationLimits {
  /** Server-side cap on items kept (the run's row limit). */
  rowLimit: number;
  /** Hard cap on requests, whatever `itemsLimit` says. */
  maxPages: number;
  /** Pause between pages (rate-limited APIs). */
  pageDelayMs: number;
  /** Stops paging once this many response bytes were read in total. */
  maxTotalBytes: number;
  bytesRead: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface PaginatedResult {
  data: ResultData;
  rowCount: number;
  /** True when the row limit, the page cap or the byte cap stopped the paging while the source had more. */
  truncated: boolean;
  /** Which of them, when truncated. */
  truncatedBy?: TruncationReason;
  pages: number;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `a.b[0].c` (lodash-style) lookup. */
export function getPath(value: unknown, path: string): unknown {
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  let current = value;
  for (const part of parts) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Json)[part];
  }
  return current;
}

/** Sets one query parameter, leaving the rest of the query string exactly as written. */
export function setQueryParam(url: string, name: string, value: string): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const pairs = queryAt === -1 ? [] : withoutHash.slice(queryAt + 1).split('&').filter(Boolean);
  const encoded = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  let replaced = false;
  const out = pairs.map((pair) => {
    const key = pair.split('=')[0] ?? '';
    if (safeDecode(key) !== name) return pair;
    replaced = true;
    return encoded;
  });
  if (!replaced) out.push(encoded);
  return `${base}?${out.join('&')}`;
}

export function getQueryParam(url: string, name: string): string | undefined {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return undefined;
  for (const pair of url.slice(queryAt + 1).replace(/#.*$/, '').split('&')) {
    const eq = pair.indexOf('=');
    if (safeDecode(eq === -1 ? pair : pair.slice(0, eq)) === name) return eq === -1 ? '' : safeDecode(pair.slice(eq + 1));
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function arrayKeys(value: Json): string[] {
  return Object.keys(value).filter((key) => Array.isArray(value[key]));
}

/** The items of a page: the response if it is an array, else its last top-level array property. */
export function pageItems(page: unknown): { items: unknown[]; key: string | undefined } {
  if (Array.isArray(page)) return { items: page, key: undefined };
  if (isRecord(page)) {
    const key = arrayKeys(page).at(-1);
    if (key !== undefined) return { items: page[key] as unknown[], key };
  }
  return { items: [], key: undefined };
}

function hasArrayWithin(value: unknown, depth: number): boolean {
  if (Array.isArray(value)) return true;
  if (!isRecord(value) || depth === 0) return false;
  return Object.values(value).some((item) => hasArrayWithin(item, depth - 1));
}

/**
 * Shapes a single (unpaginated) response: an object with no array within three levels is wrapped
 * in a one-element array; the main array (the response, or its last top-level array property) is
 * cut to the row limit.
 */
export function shapeResponse(json: unknown, rowLimit: number): { data: ResultData; rowCount: number; truncated: boolean } {
  if (Array.isArray(json)) {
    const truncated = json.length > rowLimit;
    const data = truncated ? json.slice(0, rowLimit) : json;
    return { data, rowCount: data.length, truncated };
  }
  if (!isRecord(json) || !hasArrayWithin(json, 3)) return { data: [json], rowCount: 1, truncated: false };
  const { items, key } = pageItems(json);
  if (key === undefined) return { data: json, rowCount: 1, truncated: false };
  const truncated = items.length > rowLimit;
  return { data: truncated ? { ...json, [key]: items.slice(0, rowLimit) } : json, rowCount: Math.min(items.length, rowLimit), truncated };
}

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
  const wanted = limits.rowLimit < itemsLimit ? limits.rowLimit + 1 : itemsLimit;
  const template = request.template ?? 'custom';
  let pages = 0;
  let stoppedBy: TruncationReason | undefined;

  /** The next page, or undefined when a cap stops the paging before it (the source had more). */
  const fetchNext = async (url: string): Promise<unknown | undefined> => {
    if (pages >= limits.maxPages) {
      stoppedBy = 'pages';
      return undefined;
    }
    if (limits.bytesRead() >= limits.maxTotalBytes) {
      stoppedBy = 'bytes';
      return undefined;
    }
    if (pages > 0 && limits.pageDelayMs > 0) await limits.sleep(limits.pageDelayMs);
    pages++;
    return fetchPage(url);
  };
  /** Adds a page's items to `list` up to `wanted`; false once it is full (paging stops). */
  const fill = (list: unknown[], items: unknown[]): boolean => {
    for (let i = 0; i < items.length && list.length < wanted; i++) list.push(items[i]);
    return list.length < wanted;
  };
  /** `list` cut back to the row limit (noting the cut when it had more). */
  const kept = (list: unknown[]): unknown[] => {
    if (list.length <= limits.rowLimit) return list;
    stoppedBy = 'rows';
    return list.slice(0, limits.rowLimit);
  };
  const answer = (data: ResultData, rowCount: number): PaginatedResult => ({
    data,
    rowCount,
    truncated: stoppedBy !== undefined,
    ...(stoppedBy ? { truncatedBy: stoppedBy } : {}),
    pages,
  });

  const collected: unknown[] = [];
  let last: unknown;
  let lastKey: string | undefined;
  let url = firstUrl;
  switch (template) {
    case 'pages': {
      const param = request.offset || 'page';
      let page = Number(getQueryParam(url, param)) || 1;
      let previous = '';
      for (;;) {
        url = setQueryParam(url, param, String(page));
        const json = await fetchNext(url);
        if (json === undefined) break;
        const { items } = pageItems(json);
        const text = JSON.stringify(items);
        if (items.length === 0 || text === previous) break;
        previous = text;
        if (!fill(collected, items)) break;
        page++;
      }
      const data = kept(collected);
      return answer(data, data.length);
    }
    case 'cursor': {
      const cursorPath = request.items || 'next_cursor';
      const param = request.offset || 'cursor';
      const arrays = new Map<string, unknown[]>();
      const seen = new Set<string>();
      for (;;) {
        const json = await fetchNext(url);
        if (json === undefined) break;
        last = json;
        let more = true;
        if (Array.isArray(json)) more = fill(collected, json);
        else if (isRecord(json)) {
          const keys = arrayKeys(json);
          for (const key of keys) {
            const list = arrays.get(key) ?? [];
            if (!fill(list, json[key] as unknown[])) more = false;
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
          out[key] = kept(list);
          rowCount = Math.max(rowCount, (out[key] as unknown[]).length);
        }
        return answer(out, rowCount);
      }
      const data = kept(collected);
      return answer(data, data.length);
    }
    case 'url': {
      const path = (request.paginationField ?? '').replace(/^root(\[\])?\.?/, '');
      const visited = new Set<string>();
      for (;;) {
        visited.add(url);
        const json = await fetchNext(url);
        if (json === undefined) break;
        last = json;
        const { items, key } = pageItems(json);
        if (key !== undefined) lastKey = key;
        if (items.length === 0 || !fill(collected, items)) break;
        const next = path ? getPath(json, path) : undefined;
        if (typeof next !== 'string' || next === '') break;
        const resolved = new URL(next, url).toString();
        if (visited.has(resolved)) break;
        url = resolved;
      }
      const data = kept(collected);
      if (isRecord(last) && lastKey !== undefined) return answer({ ...last, [lastKey]: data }, data.length);
      return answer(data, data.length);
    }
    case 'stripe': {
      url = setQueryParam(url, 'limit', '100');
      for (;;) {
        const json = await fetchNext(url);
        if (json === undefined) break;
        last = json;
        const items = isRecord(json) && Array.isArray(json['data']) ? (json['data'] as unknown[]) : [];
        if (items.length === 0 || !fill(collected, items)) break;
        if (!(isRecord(json) && json['has_more'] === true)) break;
        const lastId = getPath(items.at(-1), 'id');
        if (typeof lastId !== 'string' && typeof lastId !== 'number') break;
        url = setQueryParam(url, 'starting_after', String(lastId));
      }
      const envelope: Json = isRecord(last) ? { ...last } : { object: 'list' };
      envelope['data'] = kept(collected);
      return answer(envelope, (envelope['data'] as unknown[]).length);
    }
    default: {
      // custom (also any unknown template)
      const sizeParam = request.items || 'items';
      const offsetParam = request.offset || 'offset';
      const declared = Number(getQueryParam(url, sizeParam));
      const pageSize = Number.isFinite(declared) && declared > 0 ? declared : undefined;
      let offset = Number(getQueryParam(url, offsetParam)) || 0;
      let previous = '';
      for (;;) {
        url = setQueryParam(url, offsetParam, String(offset));
        const json = await fetchNext(url);
        if (json === undefined) break;
        const { items } = pageItems(json);
        const text = JSON.stringify(items);
        if (items.length === 0 || text === previous) break;
        previous = text;
        if (!fill(collected, items)) break;
        offset += pageSize ?? items.length;
      }
      const data = kept(collected);
      return answer(data, data.length);
    }
  }
}
