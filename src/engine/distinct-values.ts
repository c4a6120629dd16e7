/**
 * The distinct values of a field, for a filter's dropdown: one pass over the rows that keeps only
 * the `limit + 1` smallest values (so memory is bounded however many rows or values there are),
 * and the order both paths share, the streaming pass here and the database's DISTINCT query
 * (pushdown/plan-distinct.ts), so that a cut list holds the same values either way.
 *
 * What counts as a value: text (not empty), finite numbers and booleans, as the source handed them
 * over (dates are already ISO text there; a Date object is read as its ISO text). Nulls, empty
 * text, objects and arrays are left out: a dropdown cannot offer them, and a condition with an
 * empty value is ignored anyway.
 *
 * Order: booleans (false, true), then numbers ascending, then text by code points (the byte order
 * of UTF-8, which is what a binary collation gives in SQL).
 */

export type DistinctValue = string | number | boolean;

export interface DistinctValues {
  /** At most `limit` values, in the order of `compareDistinct`. */
  values: DistinctValue[];
  /** True when there were more values than `limit` (only the first ones are kept). */
  truncated: boolean;
}

/** The value as a dropdown offers it, or null when it offers none for it. */
export function distinctValueOf(value: unknown): DistinctValue | null {
  switch (typeof value) {
    case 'string':
      return value === '' ? null : value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'boolean':
      return value;
    case 'object':
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : null;
    default:
      return null;
  }
}

const RANK = { boolean: 0, number: 1, string: 2 } as const;

export function compareDistinct(a: DistinctValue, b: DistinctValue): number {
  const ta = typeof a as keyof typeof RANK;
  const tb = typeof b as keyof typeof RANK;
  if (ta !== tb) return RANK[ta] - RANK[tb];
  if (ta === 'string') return compareCodePoints(a as string, b as string);
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Code point order of two strings (JavaScript's `<` compares UTF-16 code units, which puts
 * U+E000–U+FFFF after astral characters; UTF-8 bytes and code points put them before).
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

/** Surrogates above every other BMP unit, the units above them moved down: code point order. */
function fixup(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** The search as the values are tested against it: lower-cased, empty = none. */
export function searchNeedle(search: string | null | undefined): string | null {
  return search === undefined || search === null || search === '' ? null : search.toLowerCase();
}

/** Whether a value's text contains the needle, ignoring case. */
export function matchesSearch(value: DistinctValue, needle: string | null): boolean {
  return needle === null || String(value).toLowerCase().includes(needle);
}

/**
 * Collects distinct values: `add` every value read (nulls and all), then `result()`. Keeps the
 * `limit + 1` smallest values seen, sorted; one more than asked says whether the list was cut.
 */
export class DistinctCollector {
  private readonly kept: DistinctValue[] = [];
  private readonly members = new Set<DistinctValue>();
  private readonly needle: string | null;

  constructor(
    private readonly limit: number,
    search?: string | null,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer: ${limit}`);
    this.needle = searchNeedle(search);
  }

  add(raw: unknown): void {
    const value = distinctValueOf(raw);
    if (value === null || this.members.has(value) || !matchesSearch(value, this.needle)) return;
    const kept = this.kept;
    const cap = this.limit + 1;
    if (kept.length === cap && compareDistinct(value, kept[cap - 1]!) >= 0) return;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareDistinct(kept[mid]!, value) < 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, value);
    this.members.add(value);
    if (kept.length > cap) this.members.delete(kept.pop()!);
  }

  result(): DistinctValues {
    return { values: this.kept.slice(0, this.limit), truncated: this.kept.length > this.limit };
  }
}
