import type { ResultData } from '../../types.js';
import { isRecord, pageItems } from './json.js';

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
