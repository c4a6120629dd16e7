/**
 * Which "row" a dataset configuration looks at. When the fields it uses walk into an inner
 * array (`items[].price`), each element of that array becomes a row of its own, and fields
 * outside the array (`customer.country`) are read from the record that holds it. So
 * `x = country`, `y = items[].price` sums item prices per country, and a condition on
 * `items[].status` filters items, not whole records.
 *
 * The scope is the longest array prefix shared by every array path the configuration uses.
 * A path that walks a different array still yields several values per row.
 */
import type { ConditionReader } from './conditions.js';
import { EACH, commonArrayPrefix, compileSegments, parseFieldPath, type FieldAccessor, type PathSegment } from './field-path.js';

export interface ScopedReader extends ConditionReader {
  readonly path: string;
}

export interface RowScope {
  /** Accessor to the elements a top-level row expands into; null when rows are used as they are. */
  readonly elements: FieldAccessor | null;
  /** Reader for a field; an empty path reads the scoped row itself. */
  reader(path: string): ScopedReader;
}

export function scopeFromPaths(paths: ReadonlyArray<string | null | undefined>): RowScope {
  const parsed = paths.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map(parseFieldPath);
  const withArrays = parsed.filter((segs) => segs.includes(EACH));
  return scopeOfPrefix(withArrays.length === 0 ? [] : withArrays[0]!.slice(0, commonArrayPrefix(withArrays)));
}

/** The scope is the array prefix of `path` (up to its last `[]`), e.g. the rows of a table. */
export function scopeFromPath(path: string | null | undefined): RowScope {
  if (!path || path.trim() === '') return scopeOfPrefix([]);
  const segs = parseFieldPath(path);
  const last = segs.lastIndexOf(EACH);
  return scopeOfPrefix(last === -1 ? [] : segs.slice(0, last + 1));
}

function startsWith(segs: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  if (segs.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (segs[i] !== prefix[i]) return false;
  return true;
}

function scopeOfPrefix(prefix: readonly PathSegment[]): RowScope {
  const elements = prefix.length === 0 ? null : compileSegments(prefix);
  return {
    elements,
    reader(path) {
      const segs = parseFieldPath(path);
      const inScope = elements !== null && startsWith(segs, prefix);
      const accessor = compileSegments(inScope ? segs.slice(prefix.length) : segs);
      const pick = inScope || elements === null;
      return {
        path: accessor.path,
        multi: accessor.multi,
        get: pick ? (_top, el) => accessor.get(el) : (top) => accessor.get(top),
        collect: pick ? (_top, el, out) => accessor.collect(el, out) : (top, _el, out) => accessor.collect(top, out),
      };
    },
  };
}
