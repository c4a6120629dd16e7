import { ValidationError } from '../errors/index.js';
import { valueBytes } from './row-bytes.js';
import type { ResultData } from './types.js';

/** One entry of a dataset's `joinSettings.joins`. */
export interface JoinSpec {
  /** The data request whose field is matched (the main one, or one joined earlier). */
  dr_id: number | string;
  /** The data request whose rows are joined in. */
  join_id: number | string;
  /** `root[].customer_id`, `root.data[].attributes.id`, … */
  dr_field: string;
  join_field: string;
  /** Joined fields go under `row[alias]`; without an alias they are added to the row (the row's own fields win). */
  alias?: string | null;
  /** `left` (default): rows without a match are kept as they are; `inner`: they are dropped. */
  type?: 'left' | 'inner' | null;
}

export interface FieldPath {
  /** Keys from the response root to the array of rows (empty: the response is the array). */
  rows: string[];
  /** Keys from a row to the value. */
  field: string[];
}

/** `root[].a.b` -> rows [], field [a, b]; `root.data[].id` -> rows [data], field [id]; `id` -> rows [], field [id]. */
export function parseFieldPath(path: string, name = 'field'): FieldPath {
  const text = path.trim().replace(/^root/, '');
  const marker = text.indexOf('[]');
  if (marker === -1) return { rows: [], field: split(text) };
  const field = text.slice(marker + 2);
  if (field.includes('[]')) throw ValidationError.field(name, 'can only go through one array ([]) level');
  return { rows: split(text.slice(0, marker)), field: split(field) };
}

function split(text: string): string[] {
  return text.split('.').filter(Boolean);
}

function get(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A copy of `container` with the value at `keys` replaced (the input is never modified). */
function put(container: unknown, keys: readonly string[], value: unknown): unknown {
  if (keys.length === 0) return value;
  const [head, ...rest] = keys as [string, ...string[]];
  const base = container !== null && typeof container === 'object' && !Array.isArray(container) ? (container as Record<string, unknown>) : {};
  return { ...base, [head]: put(base[head], rest, value) };
}

function isRow(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Hash join of the main data request's rows with other requests' rows, one join after the other:
 * O(n + m) per join. A row whose `dr_field` value strictly equals a joined row's `join_field` value
 * gets that row's fields (several matches: the last one wins; null and undefined never match);
 * rows without a match are kept as they are (left join, the default) or dropped (`type: "inner"`).
 * A join whose `dr_id` is a request joined earlier reads its field through that earlier join's alias.
 */
export function joinResults(
  mainId: number | string,
  results: ReadonlyMap<string, ResultData> | Readonly<Record<string, ResultData>>,
  joins: readonly JoinSpec[],
): ResultData {
  return hashJoin(mainId, results, joins).data;
}

/**
 * `joinResults` with its rows cut once they reach `maxBytes` (estimated as `row-bytes.ts` does,
 * the rows that come first are kept). A joined row carries the fields of its match, so rows that
 * share a match repeat it: the answer can be far larger than the results it was joined from.
 */
export function joinResultsWithin(
  mainId: number | string,
  results: ReadonlyMap<string, ResultData> | Readonly<Record<string, ResultData>>,
  joins: readonly JoinSpec[],
  maxBytes: number,
): { data: ResultData; truncated: boolean } {
  const { data, rowsPath } = hashJoin(mainId, results, joins);
  const rows = get(data, rowsPath);
  if (!Array.isArray(rows)) return { data, truncated: false };
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += valueBytes(rows[i]);
    if (bytes > maxBytes) return { data: put(data, rowsPath, rows.slice(0, i)) as ResultData, truncated: true };
  }
  return { data, truncated: false };
}

function hashJoin(
  mainId: number | string,
  results: ReadonlyMap<string, ResultData> | Readonly<Record<string, ResultData>>,
  joins: readonly JoinSpec[],
): { data: ResultData; rowsPath: string[] } {
  const byId = (id: number | string): ResultData | undefined =>
    results instanceof Map ? results.get(String(id)) : (results as Record<string, ResultData>)[String(id)];
  let data = byId(mainId);
  if (data === undefined) throw ValidationError.field('main_dr_id', 'has no result to join');

  let rowsPath: string[] | undefined;
  const aliasOf = new Map<string, string | null>();

  for (const [index, join] of joins.entries()) {
    const target = byId(join.join_id);
    if (target === undefined) continue;
    const drPath = parseFieldPath(join.dr_field, `joins[${index}].dr_field`);
    const joinPath = parseFieldPath(join.join_field, `joins[${index}].join_field`);
    const fromMain = String(join.dr_id) === String(mainId);
    rowsPath ??= fromMain ? drPath.rows : [];
    const alias = join.alias?.trim() || null;
    const through = fromMain ? undefined : aliasOf.get(String(join.dr_id));

    const targetRows = get(target, joinPath.rows);
    const index_ = new Map<unknown, Record<string, unknown>>();
    if (Array.isArray(targetRows)) {
      for (const row of targetRows) {
        if (!isRow(row)) continue;
        const key = get(row, joinPath.field);
        if (key !== null && key !== undefined) index_.set(key, row);
      }
    }

    const mainRows = get(data, rowsPath);
    if (!Array.isArray(mainRows)) continue;
    const inner = join.type === 'inner';
    const joined: unknown[] = [];
    for (const row of mainRows as unknown[]) {
      const scope = isRow(row) ? (through ? row[through] : row) : undefined;
      const key = get(scope, drPath.field);
      const match = !isRow(row) || key === null || key === undefined ? undefined : index_.get(key);
      if (!match) {
        if (!inner) joined.push(row);
      } else if (alias) {
        joined.push({ ...(row as Record<string, unknown>), [alias]: { ...match } });
      } else {
        const merged: Record<string, unknown> = { ...(row as Record<string, unknown>) };
        for (const [field, value] of Object.entries(match)) if (!(field in merged)) merged[field] = value;
        joined.push(merged);
      }
    }
    data = put(data, rowsPath, joined) as ResultData;
    aliasOf.set(String(join.join_id), alias);
  }
  return { data, rowsPath: rowsPath ?? [] };
}
