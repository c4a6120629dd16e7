/**
 * Field paths as the chart configuration writes them (`root[].customer.name`,
 * `root.items[].price`, `amount`), compiled once into accessors so the per-row path never
 * parses text.
 *
 * Each row handed to the engine is one element of `root[]`, so a leading `root[].` or `root.`
 * is dropped: `root[].a.b`, `root.a.b` and `a.b` all read `row.a.b`. `[]` after a key walks
 * every element of that array, so `root.items[].x` yields one value per element of
 * `row.items`. Any number of `[]` levels is allowed; `[n]` reads one index.
 */
import { InvalidChartConfigError } from './errors.js';

/** Marks "every element of the array here". */
export const EACH = Symbol('each');
export type PathSegment = string | typeof EACH;

export interface FieldAccessor {
  /** The normalised path, e.g. `items[].price`. */
  readonly path: string;
  readonly segments: readonly PathSegment[];
  /** True when the path walks at least one array, so a row can give several values. */
  readonly multi: boolean;
  /** The single value (the first one for a multi path; undefined when there is none). */
  get(row: unknown): unknown;
  /** Appends every value the path reaches to `out`. */
  collect(row: unknown, out: unknown[]): void;
}

type Obj = Record<string, unknown>;

/** Splits a path into segments. Throws on empty keys or unclosed brackets. */
export function parseFieldPath(path: string): PathSegment[] {
  const trimmed = path.trim();
  const segments: PathSegment[] = [];
  let key = '';
  let i = 0;
  const pushKey = () => {
    if (key.length > 0) segments.push(key);
    key = '';
  };
  while (i < trimmed.length) {
    const ch = trimmed[i]!;
    if (ch === '.') {
      if (key.length === 0 && segments.length === 0) throw badPath(path, 'starts with "."');
      pushKey();
      i += 1;
    } else if (ch === '[') {
      const close = trimmed.indexOf(']', i);
      if (close === -1) throw badPath(path, 'has an unclosed "["');
      pushKey();
      const inner = trimmed.slice(i + 1, close).trim();
      if (inner === '') segments.push(EACH);
      else if (/^\d+$/.test(inner)) segments.push(inner);
      else segments.push(inner.replace(/^["']|["']$/g, ''));
      i = close + 1;
    } else {
      key += ch;
      i += 1;
    }
  }
  pushKey();
  // The rows are already the elements of root[]; `root` alone (or `root[]`) is the row itself.
  if (segments[0] === 'root') {
    segments.shift();
    if (segments.indexOf(EACH) === 0) segments.shift();
  }
  return segments;
}

function badPath(path: string, why: string): InvalidChartConfigError {
  return new InvalidChartConfigError('field', `field path "${path}" ${why}`);
}

export function formatFieldPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (s === EACH) out += '[]';
    else out += out.length === 0 ? s : `.${s}`;
  }
  return out;
}

/** The canonical spelling of a path (`root[].a.b` and `a.b` give `a.b`), for comparisons. */
export function normalizeFieldPath(path: string): string {
  return formatFieldPath(parseFieldPath(path));
}

export function compileFieldPath(path: string): FieldAccessor {
  return compileSegments(parseFieldPath(path));
}

export function compileSegments(segments: readonly PathSegment[]): FieldAccessor {
  const path = formatFieldPath(segments);
  const multi = segments.includes(EACH);
  if (!multi) {
    const get = plainGetter(segments as readonly string[]);
    return {
      path,
      segments,
      multi,
      get,
      collect(row, out) {
        out.push(get(row));
      },
    };
  }
  const walk = (value: unknown, at: number, out: unknown[]): void => {
    for (let i = at; i < segments.length; i += 1) {
      const seg = segments[i]!;
      if (seg === EACH) {
        if (Array.isArray(value)) {
          for (const el of value) walk(el, i + 1, out);
        } else if (value !== null && value !== undefined) {
          // A scalar where an array was expected counts as a one-element array.
          walk(value, i + 1, out);
        }
        return;
      }
      if (value === null || value === undefined) return;
      value = (value as Obj)[seg];
    }
    out.push(value);
  };
  return {
    path,
    segments,
    multi,
    get(row) {
      const out: unknown[] = [];
      walk(row, 0, out);
      return out[0];
    },
    collect(row, out) {
      walk(row, 0, out);
    },
  };
}

/** Specialised closures for the common depths, so reading a field is a couple of property loads. */
function plainGetter(keys: readonly string[]): (row: unknown) => unknown {
  switch (keys.length) {
    case 0:
      return (row) => row;
    case 1: {
      const a = keys[0]!;
      return (row) => (row === null || row === undefined ? undefined : (row as Obj)[a]);
    }
    case 2: {
      const a = keys[0]!;
      const b = keys[1]!;
      return (row) => {
        if (row === null || row === undefined) return undefined;
        const v = (row as Obj)[a];
        return v === null || v === undefined ? undefined : (v as Obj)[b];
      };
    }
    case 3: {
      const a = keys[0]!;
      const b = keys[1]!;
      const c = keys[2]!;
      return (row) => {
        if (row === null || row === undefined) return undefined;
        const v = (row as Obj)[a];
        if (v === null || v === undefined) return undefined;
        const w = (v as Obj)[b];
        return w === null || w === undefined ? undefined : (w as Obj)[c];
      };
    }
    default:
      return (row) => {
        let v: unknown = row;
        for (let i = 0; i < keys.length; i += 1) {
          if (v === null || v === undefined) return undefined;
          v = (v as Obj)[keys[i]!];
        }
        return v;
      };
  }
}

/** Length of the longest prefix that ends on an array marker and is shared by all `paths`. */
export function commonArrayPrefix(paths: ReadonlyArray<readonly PathSegment[]>): number {
  if (paths.length === 0) return 0;
  const first = paths[0]!;
  let shared = first.length;
  for (const p of paths) {
    let i = 0;
    while (i < shared && i < p.length && p[i] === first[i]) i += 1;
    shared = i;
  }
  let end = 0;
  for (let i = 0; i < shared; i += 1) if (first[i] === EACH) end = i + 1;
  return end;
}
