/**
 * The one label axis that every dataset of a chart shares.
 * - Time: the union of bucket keys in time order; with `includeZeros`, every bucket from the
 *   window's start (or the first bucket) to its end (or the last bucket), unless that is more than
 *   `maxFilledBuckets`.
 * - Category: the union of labels; numbers by value first, then text by code units (a fixed order
 *   that a SQL planner can reproduce; `sort` reorders by value later).
 * - None: the single `Total` point.
 * Mixed time and category datasets share a category axis built from the time labels.
 * A dataset without a point at some label gets `missing` there: 0, or null (missingValues `preserve`).
 */
import type { DateWindow } from './date-window.js';
import type { AggregatedSeries, AxisKind } from './series.js';
import { TOTAL_LABEL } from './series.js';
import { enumerateBuckets, type Bucketer } from './time-buckets.js';
import { compareLabels } from './values.js';

export interface SharedAxis {
  readonly kind: AxisKind;
  readonly keys: ReadonlyArray<number | string>;
  readonly labels: readonly string[];
}

export interface AxisSettings {
  bucketer: Bucketer;
  includeZeros: boolean;
  window: DateWindow | null;
  maxFilledBuckets: number;
}

export function buildSharedAxis(series: readonly AggregatedSeries[], settings: AxisSettings): SharedAxis {
  const kinds = new Set(series.map((s) => s.axis));
  if (kinds.size === 0 || (kinds.size === 1 && kinds.has('none'))) {
    return { kind: 'none', keys: [TOTAL_LABEL], labels: [TOTAL_LABEL] };
  }
  const { bucketer } = settings;
  if (kinds.size === 1 && kinds.has('time')) {
    const keySet = new Set<number>();
    for (const s of series) for (const k of s.points.keys()) keySet.add(k as number);
    if (settings.includeZeros) {
      let min = Infinity;
      let max = -Infinity;
      for (const k of keySet) {
        if (k < min) min = k;
        if (k > max) max = k;
      }
      const from = settings.window?.start != null ? bucketer.bucket(settings.window.start) : min;
      const to = settings.window?.end != null ? bucketer.bucket(settings.window.end) : max;
      if (Number.isFinite(from) && Number.isFinite(to) && from <= to) {
        const filled = enumerateBuckets(bucketer, from, to, settings.maxFilledBuckets);
        if (filled !== null) for (const k of filled) keySet.add(k);
      }
    }
    const keys = [...keySet].sort((a, b) => a - b);
    return { kind: 'time', keys, labels: keys.map((k) => bucketer.label(k)) };
  }
  const labels = new Set<string>();
  for (const s of series) for (const k of s.points.keys()) labels.add(labelOf(s.axis, k, bucketer));
  const sorted = [...labels].sort(compareLabels);
  return { kind: 'category', keys: sorted, labels: sorted };
}

function labelOf(axis: AxisKind, key: number | string, bucketer: Bucketer): string {
  return axis === 'time' ? bucketer.label(key as number) : String(key);
}

/** The series' values along the axis; missing points (and null aggregates) are `missing`. */
export function alignSeries(axis: SharedAxis, series: AggregatedSeries, bucketer: Bucketer, missing: number | null): Array<number | null> {
  if (axis.kind === 'category' && series.axis === 'time') {
    const byLabel = new Map<string, number | null>();
    for (const [k, v] of series.points) byLabel.set(bucketer.label(k as number), v);
    return axis.keys.map((k) => byLabel.get(k as string) ?? missing);
  }
  return axis.keys.map((k) => series.points.get(k) ?? missing);
}
