/**
 * JSON with object keys sorted at every level, so equal values always give equal text (hashes,
 * cache keys). Dates become ISO strings, bigints strings, undefined members are dropped.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(normalize(value, new Set()));
}

function normalize(value: unknown, seen: Set<object>): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? null : value;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof RegExp) return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (seen.has(value)) throw new TypeError('Cannot serialize a cyclic structure');
  seen.add(value);
  try {
    if (value instanceof Map) return normalize(Object.fromEntries(value), seen);
    if (value instanceof Set) return [...value].map((item) => normalize(item, seen));
    if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : normalize(item, seen)));
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return normalize(withJson.toJSON(), seen);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) Object.defineProperty(out, key, { value: normalize(item, seen), enumerable: true });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
