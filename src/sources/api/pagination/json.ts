/** Reading parsed JSON responses: lodash-style paths and the items array of a page. */

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
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

export function arrayKeys(value: Json): string[] {
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
