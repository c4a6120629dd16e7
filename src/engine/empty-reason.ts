/**
 * Why a chart computed to nothing. An empty chart is diagnosed by one more pass over its rows
 * (only then: a chart with data costs nothing extra), the same pass whether the database or the
 * streaming engine grouped them, so both paths give the same reason. The pass holds counters,
 * never rows, and stops as soon as the reason is certain.
 *
 * Reasons, checked in this order for each configuration (dataset) of the chart:
 * - `NO_ROWS`: the dataset answered with no rows;
 * - `FIELD_MISSING`: a field the configuration reads (`field`) is in no row;
 * - `FILTERED`: rows are there but the conditions (`by: 'conditions'`, dashboard filters included)
 *   or the chart's date range (`by: 'dateRange'`) leave none;
 * - `NOT_DATES`: the X axis is read as dates but no value of `field` is one;
 * - `NO_LABELS`: every row left has an empty X value (`field`), so there is no label to draw.
 * The chart run adds `VARIABLE_MISSING` (with `variables`) when the dataset ran with variables that
 * have no value, and `NO_DATASETS` is a chart without a dataset configuration. A chart of several
 * configurations is empty only when all are: its reason is the first configuration's, and
 * `datasets` holds each configuration's own when they differ.
 */
import type { EngineContext } from './context.js';
import { compilePredicate } from './conditions.js';
import { toEpochMs } from './date-value.js';
import { forEachRow, type StopFlag } from './row-source.js';
import { scopeFromPaths, type ScopedReader } from './row-scope.js';
import type { SeriesPlan } from './series.js';
import type { RowSource } from './types.js';
import { categoryLabel } from './values.js';

export type EmptyReasonCode = 'NO_DATASETS' | 'NO_ROWS' | 'FIELD_MISSING' | 'FILTERED' | 'NOT_DATES' | 'NO_LABELS' | 'VARIABLE_MISSING';

export interface EmptyReason {
  reason: EmptyReasonCode;
  /** The field a `FIELD_MISSING`, `NOT_DATES` or `NO_LABELS` is about, as the configuration names it. */
  field?: string;
  /** What left no rows, for `FILTERED`. */
  by?: 'conditions' | 'dateRange';
  /** The variables without a value, for `VARIABLE_MISSING`, sorted. */
  variables?: string[];
  /** The dataset configuration diagnosed (its position in the chart). */
  datasetIndex?: number;
  /** Its legend, when the chart has several configurations. */
  legend?: string;
  /** Each configuration's reason, in order, when a chart of several has different ones. */
  datasets?: EmptyReason[];
}

/**
 * Whether chartData has nothing to draw: no label or only zeros and nulls (axis charts), no point
 * (matrix), no value (KPI, average, gauge), no row (tables). Markdown never is.
 */
export function isEmptyChartData(type: string, chartData: unknown): boolean {
  if (chartData === null || typeof chartData !== 'object') return false;
  const data = chartData as Record<string, unknown>;
  if (type === 'markdown') return false;
  if (type === 'table') {
    const tables = Object.values(data).filter((t): t is { data: unknown[] } => t !== null && typeof t === 'object' && Array.isArray((t as { data?: unknown }).data));
    return tables.every((t) => t.data.length === 0);
  }
  if (type === 'kpi' || type === 'avg' || type === 'gauge') {
    const values = data.values;
    return Array.isArray(values) && values.every((v) => (v as { value?: unknown }).value === null);
  }
  const inner = data.data as { labels?: unknown; datasets?: unknown } | undefined;
  const sets = Array.isArray(inner?.datasets) ? (inner.datasets as Array<{ data?: unknown }>) : [];
  if (type === 'matrix') return sets.every((s) => !Array.isArray(s.data) || s.data.length === 0);
  if (Array.isArray(inner?.labels) && inner.labels.length === 0) return true;
  // Zero-filled buckets of a date range without rows draw a flat line of nothing.
  return sets.every((s) => !Array.isArray(s.data) || s.data.every((v) => v === null || v === 0));
}

/**
 * The reason one configuration's rows give nothing to draw (see the module comment); null when
 * rows reach the chart after all (their values are zeros or empty: that is data, not nothing).
 */
export async function diagnoseEmpty(ctx: EngineContext, plan: SeriesPlan, rows: RowSource, stop?: StopFlag): Promise<EmptyReason | null> {
  const { clock } = ctx;
  const { fields } = plan;
  const named = (path: string | null): [string, string][] => (path === null ? [] : [[path, path]]);
  // Each field with the name the configuration gave it (the saved path), in the order reported.
  const wanted: [string, string][] = [
    ...named(fields.x).map(([p]) => [p, original(plan.config.xAxis, p)] as [string, string]),
    ...named(fields.y).map(([p]) => [p, original(plan.config.yAxis, p)] as [string, string]),
    ...named(fields.date).map(([p]) => [p, original(plan.config.dateField, p)] as [string, string]),
    ...named(fields.breakdown).map(([p]) => [p, original(plan.config.breakdown, p)] as [string, string]),
  ];
  const scope = scopeFromPaths([fields.x, fields.y, fields.date, fields.breakdown, ...plan.conditions.map((c) => c.field)]);
  const readers: Array<{ reader: ScopedReader; name: string; seen: boolean }> = wanted.map(([path, name]) => ({ reader: scope.reader(path), name, seen: false }));
  const predicate = compilePredicate(plan.conditions, clock, (f) => scope.reader(f));
  const date = plan.window === null || fields.date === null ? null : scope.reader(fields.date);
  const x = fields.x === null ? null : scope.reader(fields.x);
  const lo = plan.window?.start ?? -Infinity;
  const hi = plan.window?.end ?? Infinity;
  let rowsRead = 0;
  let passedConditions = 0;
  let passedWindow = 0;
  let dated = 0;
  const values: unknown[] = [];

  const unit = (top: unknown, el: unknown): void => {
    for (const r of readers) {
      if (r.seen) continue;
      values.length = 0;
      r.reader.collect(top, el, values);
      if (values.some((v) => v !== undefined)) r.seen = true;
    }
    if (predicate !== null && !predicate(top, el)) return;
    passedConditions += 1;
    if (date !== null) {
      const d = toEpochMs(date.get(top, el), clock);
      if (!(d >= lo && d <= hi)) return;
    }
    passedWindow += 1;
    if (x === null) return;
    values.length = 0;
    x.collect(top, el, values);
    for (const v of values) {
      if (plan.axis === 'time' ? toEpochMs(v, clock) === toEpochMs(v, clock) : categoryLabel(v) !== null) dated += 1;
    }
  };
  const elements = scope.elements;
  await forEachRow(
    rows,
    (row) => {
      rowsRead += 1;
      if (elements === null) unit(row, row);
      else {
        const els: unknown[] = [];
        elements.collect(row, els);
        for (const el of els) unit(row, el);
      }
      // Every field seen and a labelled row through the filters: no later row changes the answer.
      return !(dated > 0 && readers.every((r) => r.seen));
    },
    stop,
  );

  const at = { datasetIndex: plan.index };
  if (rowsRead === 0) return { reason: 'NO_ROWS', ...at };
  const missing = readers.find((r) => !r.seen);
  if (missing) return { reason: 'FIELD_MISSING', field: missing.name, ...at };
  if (passedConditions === 0) return { reason: 'FILTERED', by: 'conditions', ...at };
  if (passedWindow === 0) return { reason: 'FILTERED', by: 'dateRange', ...at };
  if (x !== null && dated === 0) return { reason: plan.axis === 'time' ? 'NOT_DATES' : 'NO_LABELS', field: original(plan.config.xAxis ?? plan.config.dateField, fields.x!), ...at };
  return null;
}

function original(saved: string | null | undefined, normalized: string): string {
  return typeof saved === 'string' && saved.trim() !== '' ? saved.trim() : normalized;
}
