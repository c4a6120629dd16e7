/**
 * From aggregated series to the plotted points, in this order:
 * shared axis (with gap filling) → missing points 0, or null with `gaps` → running total
 * (`AddTimeseries`) → formula → on a time axis keep the last `maxRecords` buckets → sort by
 * value → on other axes keep the first `maxRecords` labels.
 * Sort and maxRecords act on the shared axis; the first dataset (in order) that sets one decides it.
 *
 * With `gaps` (missingValues `preserve`), a null is "no point here": a running total carries its
 * last value over it (null before the series' first point), the formula leaves it null (and a
 * formula result that is not a finite number is null too, where it is 0 otherwise), and a sort by
 * value puts it last whichever the direction.
 */
import { alignSeries, buildSharedAxis, type SharedAxis } from './axis.js';
import type { EngineContext } from './context.js';
import type { AggregatedSeries, SeriesPlan } from './series.js';
import { cleanSum } from './values.js';

export interface ShapedSeries {
  readonly axis: SharedAxis;
  /** Per dataset: values along the full axis after the running total, before the formula (null only with `gaps`). */
  readonly raw: Array<Array<number | null>>;
  /** Per dataset: plotted values along the full axis (formula applied; null only with `gaps`). */
  readonly display: Array<Array<number | null>>;
  /** Axis positions in time order after truncation (growth reads the last two). */
  readonly timeOrder: number[];
  /** Axis positions as plotted. */
  readonly order: number[];
}

export interface ShapeOptions {
  /** KPI-style charts keep time order: their value is the last point. */
  allowSort: boolean;
  /** A missing point (or a null aggregate) is null, not 0 (missingValues `preserve`). */
  gaps: boolean;
  bucketer?: EngineContext['bucketer'];
}

export function shapeSeries(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  series: readonly AggregatedSeries[],
  options: ShapeOptions,
): ShapedSeries {
  const bucketer = options.bucketer ?? ctx.bucketer;
  const axis = buildSharedAxis(series, {
    bucketer,
    includeZeros: ctx.chart.includeZeros === true,
    window: ctx.window,
    maxFilledBuckets: ctx.options.maxFilledBuckets,
  });
  const missing = options.gaps ? null : 0;
  const raw = series.map((s) => {
    const values = alignSeries(axis, s, bucketer, missing);
    if (ctx.cumulative) {
      let running = 0;
      let magnitude = 0;
      let started = false;
      for (let i = 0; i < values.length; i += 1) {
        const v = values[i]!;
        if (v === null) {
          // Carried forward: the total so far, or nothing before the first point.
          values[i] = started ? cleanSum(running, magnitude) : null;
          continue;
        }
        started = true;
        running += v;
        magnitude += Math.abs(v);
        values[i] = cleanSum(running, magnitude);
      }
    }
    return values;
  });
  const display = raw.map((values, i) => {
    const formula = plans[i]?.formula ?? null;
    return formula === null ? values : values.map((v) => (v === null ? null : (formula.apply(v) ?? missing)));
  });

  let order = axis.keys.map((_, i) => i);
  const limit = plans.find((p) => p.maxRecords !== null)?.maxRecords ?? null;
  if (limit !== null && axis.kind === 'time' && order.length > limit) order = order.slice(order.length - limit);
  const timeOrder = order;

  const sorter = options.allowSort ? plans.find((p) => p.sort !== null) : undefined;
  if (sorter) {
    const values = display[plans.indexOf(sorter)]!;
    const direction = sorter.sort === 'asc' ? 1 : -1;
    // Array.prototype.sort is stable: equal values keep axis order; nulls go last either way.
    order = [...order].sort((a, b) => {
      const x = values[a]!;
      const y = values[b]!;
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
      return (x - y) * direction;
    });
  }
  if (limit !== null && axis.kind !== 'time' && order.length > limit) order = order.slice(0, limit);
  return { axis, raw, display, timeOrder, order };
}

export function pick<T>(values: readonly T[], order: readonly number[]): T[] {
  return order.map((i) => values[i]!);
}

/** Sum of plotted values, rounded to the precision of its terms; nulls left out, null when all are (or there is none). */
export function total(values: ReadonlyArray<number | null>): number | null {
  let sum = 0;
  let magnitude = 0;
  let any = false;
  for (const v of values) {
    if (v === null) continue;
    any = true;
    sum += v;
    magnitude += Math.abs(v);
  }
  return any ? cleanSum(sum, magnitude) : null;
}
