/**
 * How big rows are, estimated cheaply and the same way for every source and every limit: about
 * their size as JSON text, which is what a run returns, caches or saves. Nothing is serialized to
 * be measured:
 * - text counts its length plus its quotes: one byte per character, so the JSON of ASCII text
 *   exactly, and text in other scripts up to three times less than its UTF-8 size;
 * - numbers count 8 bytes, booleans and null 5, dates 26 (their ISO form), bigints 24, binary
 *   values their byte length;
 * - objects and arrays count what they hold, key names and separators included; values nested
 *   deeper than 64 levels count 64 bytes each.
 */
import type { Row } from './types.js';

const MAX_DEPTH = 64;

export function valueBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'bigint':
      return 24;
    case 'undefined':
      return 4;
    case 'object': {
      if (value === null) return 4;
      if (depth >= MAX_DEPTH) return 64;
      if (value instanceof Date) return 26;
      if (ArrayBuffer.isView(value)) return value.byteLength;
      if (value instanceof ArrayBuffer) return value.byteLength;
      if (Array.isArray(value)) {
        let total = 2;
        for (let i = 0; i < value.length; i++) total += valueBytes(value[i], depth + 1) + 1;
        return total;
      }
      return objectBytes(value as Record<string, unknown>, depth);
    }
    default:
      return 8;
  }
}

/** One row: an object of columns (or, for MongoDB's `distinct`, a bare value). */
export function rowBytes(row: Row): number {
  return valueBytes(row);
}

function objectBytes(value: Record<string, unknown>, depth: number): number {
  let total = 2;
  for (const key in value) total += key.length + 4 + valueBytes(value[key], depth + 1);
  return total;
}

/** Bytes per row of `rows`, read from at most `sample` of them spread over the array. */
export function bytesPerRow(rows: readonly Row[], sample = 32): number {
  if (rows.length === 0) return 0;
  const step = Math.max(1, Math.floor(rows.length / sample));
  let bytes = 0;
  let counted = 0;
  for (let i = 0; i < rows.length; i += step) {
    bytes += rowBytes(rows[i]!);
    counted += 1;
  }
  return bytes / counted;
}
