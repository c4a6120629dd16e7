/**
 * Table datasets: rows pass through conditions and the date window, then are flattened:
 * - nested objects become dotted keys (`customer.name`), each a column;
 * - arrays become their JSON text (`["a","b"]`, `[{"sku":1}]`), so nothing is lost and cells stay
 *   scalar; Dates become ISO strings; bigints decimal strings;
 * - `excludedFields` removes a column, or every column under an object (`customer`);
 * - `columnsOrder` puts the named columns first, in that order; the others follow in the order
 *   they were first seen.
 * A row without some field has no key for it. When `xAxis` walks an array (`orders[]` or
 * `orders[].id`), each element of that array is a table row. Rows are kept up to `maxRecords`
 * (and at most `maxTableRows`, and as many as the chart's byte budget holds); the source is closed
 * once the table is full.
 */
import { tableRowBytes } from './byte-budget.js';
import { compilePredicate, resolveConditions } from './conditions.js';
import type { EngineContext } from './context.js';
import { toEpochMs } from './date-value.js';
import { InvalidChartConfigError } from './errors.js';
import { normalizeFieldPath } from './field-path.js';
import { forEachRow, type StopFlag } from './row-source.js';
import { scopeFromPath } from './row-scope.js';
import type { DatasetConfigInput, Row, RowSource, TableColumn, TableDatasetData } from './types.js';

const MAX_DEPTH = 16;

export interface TableCollector {
  /** Returns false once the table is full. */
  consume(row: Row): boolean;
  result(): TableDatasetData;
}

function normalizeList(list: readonly string[] | null | undefined, where: string): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((f): f is string => typeof f === 'string' && f.trim() !== '')
    .map((f) => {
      try {
        return normalizeFieldPath(f);
      } catch {
        throw new InvalidChartConfigError(where, `invalid field path "${f}"`);
      }
    });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function cell(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return `[${value.length} bytes]`;
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Plain assignment would turn a `__proto__` column into a prototype change. */
function setCell(row: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(row, name, { value, enumerable: true, writable: true, configurable: true });
  else row[name] = value;
}

export function createTableCollector(ctx: EngineContext, config: DatasetConfigInput, index: number): TableCollector {
  const at = `datasets[${index}]`;
  const excluded = normalizeList(config.excludedFields, `${at}.excludedFields`);
  const excludedSet = new Set(excluded);
  const excludedPrefixes = excluded.map((f) => `${f}.`);
  const isExcluded = (name: string): boolean => {
    if (excludedSet.has(name)) return true;
    for (const p of excludedPrefixes) if (name.startsWith(p)) return true;
    return false;
  };
  const order = normalizeList(config.columnsOrder, `${at}.columnsOrder`);

  let scope;
  try {
    scope = scopeFromPath(config.xAxis);
  } catch {
    throw new InvalidChartConfigError(`${at}.xAxis`, `invalid field path "${String(config.xAxis)}"`);
  }
  const conditions = resolveConditions(config.conditions, config.configuration?.variables, `${at}.conditions`);
  const predicate = compilePredicate(conditions, ctx.clock, (f) => scope.reader(f));
  const dateField = typeof config.dateField === 'string' && config.dateField.trim() !== '' ? config.dateField : null;
  const date = dateField !== null && ctx.window !== null ? scope.reader(dateField) : null;
  const lo = ctx.window?.start ?? -Infinity;
  const hi = ctx.window?.end ?? Infinity;
  const cap = Math.max(
    0,
    Math.min(
      typeof config.maxRecords === 'number' && config.maxRecords > 0 ? Math.floor(config.maxRecords) : Infinity,
      ctx.options.maxTableRows,
    ),
  );

  const columns = new Set<string>();
  const data: Array<Record<string, unknown>> = [];

  const flattenInto = (value: Record<string, unknown>, prefix: string, out: Record<string, unknown>, depth: number): void => {
    for (const key of Object.keys(value)) {
      const name = prefix === '' ? key : `${prefix}.${key}`;
      if (isExcluded(name)) continue;
      const v = value[key];
      if (isPlainObject(v) && depth < MAX_DEPTH && Object.keys(v).length > 0) {
        flattenInto(v, name, out, depth + 1);
      } else {
        setCell(out, name, cell(v));
      }
    }
  };

  const add = (top: unknown, el: unknown): boolean => {
    if (data.length >= cap) return false;
    if (predicate !== null && !predicate(top, el)) return true;
    if (date !== null) {
      const t = toEpochMs(date.get(top, el), ctx.clock);
      if (!(t >= lo && t <= hi)) return true;
    }
    const out: Record<string, unknown> = {};
    if (isPlainObject(el)) flattenInto(el, '', out, 0);
    else if (!isExcluded('value')) out.value = cell(el);
    // The chart's byte budget spent: the table is full, without this row.
    if (!ctx.budget.take(tableRowBytes(out))) return false;
    for (const name in out) columns.add(name);
    data.push(out);
    return data.length < cap;
  };

  const elements = scope.elements;
  return {
    consume(row) {
      if (elements === null) return add(row, row);
      const els: unknown[] = [];
      elements.collect(row, els);
      for (const el of els) if (!add(row, el)) return false;
      return true;
    },
    result() {
      const seen = [...columns];
      const first = order.filter((c) => columns.has(c));
      const firstSet = new Set(first);
      const names = [...first, ...seen.filter((c) => !firstSet.has(c))];
      const cols: TableColumn[] = names.map((name) => ({ Header: name, accessor: name }));
      return { columns: cols, data };
    },
  };
}

export async function collectTable(ctx: EngineContext, collector: TableCollector, rows: RowSource, stop?: StopFlag): Promise<TableDatasetData> {
  if (ctx.options.maxTableRows > 0) await forEachRow(rows, collector.consume, stop);
  return collector.result();
}
