/**
 * Reading and writing the portable column kinds (see types.ts). Both drivers hand back slightly
 * different values (pg: boolean, Date, parsed jsonb; better-sqlite3: 0/1, text, text); these
 * helpers give repositories one shape.
 */
export type Dialect = 'sqlite' | 'postgres';

export function toBool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}

export function toBoolOrNull(value: boolean | number | null | undefined): boolean | null {
  return value === null || value === undefined ? null : toBool(value);
}

export function toIso(value: Date | string): string;
export function toIso(value: Date | string | null | undefined): string | null;
export function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // What `now()` wrote reads back unchanged: no need to parse and format it again on every read.
  return CANONICAL_ISO.test(value) ? value : new Date(value).toISOString();
}

/** `toISOString()`'s own shape (UTC, milliseconds, four-digit year). */
const CANONICAL_ISO = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** JSON columns arrive as JSON text from both drivers (see the store's pg type parsers). */
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function now(): string {
  return new Date().toISOString();
}
