import type { ColumnInfo, ColumnType } from './types.js';

/*
 * Value normalization shared by every source, one documented way (docs/sources.md):
 * - integers beyond 2^53 and decimals whose integer part has more than 15 digits stay strings
 *   (exact); every other number is a JS number (decimals lose digits beyond double precision);
 * - dates are strings: `YYYY-MM-DD`; date-times with a zone as ISO 8601 UTC (`…Z`); date-times
 *   without a zone as ISO 8601 without an offset, as stored.
 */

const MAX_EXACT_INTEGER_DIGITS = 15;

/**
 * Decimal text -> number. Fractional digits beyond double precision are given up (charts do not
 * need them); an integer part longer than 15 digits is kept as the exact text instead.
 */
export function parseDecimal(text: string): number | string {
  const point = text.indexOf('.');
  const integerDigits = (point === -1 ? text.length : point) - (text.charCodeAt(0) === 45 ? 1 : 0);
  if (integerDigits > MAX_EXACT_INTEGER_DIGITS && !/[eE]/.test(text)) return text;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

/** 64-bit integer text -> number when it is a safe integer, else the text. */
export function parseBigInteger(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** `2025-01-01 10:00:00.123+00` (any offset) -> `2025-01-01T10:00:00.123Z`. */
export function zonedTimestampToIso(text: string): string {
  if (text.endsWith('+00') && text.length >= 22) {
    // Fast path, no Date: keeps microseconds as given.
    return `${text.slice(0, 10)}T${text.slice(11, -3)}Z`;
  }
  const iso = text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** `2025-01-01 10:00:00` -> `2025-01-01T10:00:00` (no zone added). */
export function naiveTimestampToIso(text: string): string {
  return text.length > 10 && text.charCodeAt(10) === 32 ? `${text.slice(0, 10)}T${text.slice(11)}` : text;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/**
 * Columns of schemaless results (MongoDB documents, API items), from the first rows: every key
 * seen, typed by its first non-null value.
 */
export function inferColumns(rows: readonly unknown[], sample = 50): ColumnInfo[] {
  const types = new Map<string, ColumnType>();
  for (let i = 0; i < rows.length && i < sample; i++) {
    const row = rows[i];
    if (row === null || typeof row !== 'object' || Array.isArray(row)) continue;
    for (const [key, value] of Object.entries(row)) {
      const known = types.get(key);
      if (known !== undefined && known !== 'unknown') continue;
      types.set(key, valueType(value));
    }
  }
  return [...types].map(([name, type]) => ({ name, type }));
}

function valueType(value: unknown): ColumnType {
  if (value === null || value === undefined) return 'unknown';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return ISO_DATE.test(value) ? 'date' : 'string';
  return 'json';
}
