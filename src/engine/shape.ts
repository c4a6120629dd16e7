/**
 * From aggregated series to the plotted points, in this order:
 * shared axis (with gap filling) → missing points 0 → running total (`AddTimeseries`) →
 * formula → on a time axis keep the last `maxRecords` buckets → sort by value → on other axes
 * keep the first `maxRecords` labels.
 * Sort and maxRecords act on the shared axis; the first dataset (in order) that sets one decides it.
 */
import { alignSeries, buildSharedAxis, type SharedAxis } from './axis.js';
import type { EngineContext } from './context.js';
import type { AggregatedSeries, SeriesPlan } from './series.js';
import { cleanSum } from './values.js';

export interface ShapedSeries {
  readonly axis: SharedAxis;
  /** Per dataset: values along the full axis after the running total, before the formula. */
  readonly raw: number[][];
  /** Per dataset: plotted values along the full axis (formula applied). */
  readonly display: number[][];
  /** Axis positions in time order after truncation (growth reads the last two). */
  readonly timeOrder: number[];
  /** Axis positions as plotted. */
  readonly order: number[];
}

export interface ShapeOptions {
  /** KPI-style charts keep time order: their value is the last point. */
  allowSort: boolean;
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
  const raw = series.map((s) => {
    const values = alignSeries(axis, s, bucketer);
    if (ctx.cumulative) {
      let running = 0;
      let magnitude = 0;
      for (let i = 0; i < values.length; i += 1) {
        running += values[i]!;
        magnitude += Math.abs(values[i]!);
        values[i] = cleanSum(running, magnitude);
      }
    }
    return values;
  });
  const display = raw.map((values, i) => {
    const formula = plans[i]?.formula ?? null;
    return formula === null ? values : values.map((v) => formula.apply(v) ?? 0);
  });

  let order = axis.keys.map((_, i) => i);
  const limit = plans.find((p) => p.maxRecords !== null)?.maxRecords ?? null;
  if (limit !== null && axis.kind === 'time' && order.length > limit) order = order.slice(order.length - limit);
  const timeOrder = order;

  const sorter = options.allowSort ? plans.find((p) => p.sort !== null) : undefined;
  if (sorter) {
    const values = display[plans.indexOf(sorter)]!;
    const direction = sorter.sort === 'asc' ? 1 : -1;
    // Array.prototype.sort is stable: equal values keep axis order.
    order = [...order].sort((a, b) => (values[a]! - values[b]!) * direction);
  }
  if (limit !== null && axis.kind !== 'time' && order.length > limit) order = order.slice(0, limit);
  return { axis, raw, display, timeOrder, order };
}

export function pick(values: readonly number[], order: readonly number[]): number[] {
  return order.map((i) => values[i]!);
}

/** Sum of plotted values, rounded to the precision of its terms. */
export function total(values: readonly number[]): number {
  let sum = 0;
  let magnitude = 0;
  for (const v of values) {
    sum += v;
    magnitude += Math.abs(v);
  }
  return cleanSum(sum, magnitude);
}
