/**
 * chartData for matrix (calendar heatmap) charts: one cell per local day, `{x: 'YYYY-MM-DD', v}`,
 * from the window's first to last day, or from the first to the last day with data. Days are
 * always the unit, whatever `timeInterval` says; days without rows are 0; the formula applies
 * to each cell. More than `maxFilledBuckets` days keeps only the days with data.
 */
import type { EngineContext } from './context.js';
import type { AggregatedSeries, SeriesPlan } from './series.js';
import { enumerateBuckets, type Bucketer } from './time-buckets.js';
import type { MatrixChartData } from './types.js';

export function buildMatrixChart(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  series: readonly AggregatedSeries[],
  days: Bucketer,
): MatrixChartData {
  let min = Infinity;
  let max = -Infinity;
  const dataKeys = new Set<number>();
  for (const s of series) {
    for (const k of s.points.keys()) {
      const key = k as number;
      dataKeys.add(key);
      if (key < min) min = key;
      if (key > max) max = key;
    }
  }
  const from = ctx.window?.start != null ? days.bucket(ctx.window.start) : min;
  const to = ctx.window?.end != null ? days.bucket(ctx.window.end) : max;
  let keys: number[] = [];
  if (Number.isFinite(from) && Number.isFinite(to) && from <= to) {
    keys = enumerateBuckets(days, from, to, ctx.options.maxFilledBuckets) ?? [...dataKeys].sort((a, b) => a - b);
  }
  const labels = keys.map((k) => days.label(k));
  const datasets = plans.map((plan, i) => {
    const points = series[i]!.points;
    const data = keys.map((k, j) => {
      const v = points.get(k) ?? 0;
      return { x: labels[j]!, v: plan.formula === null ? v : (plan.formula.apply(v) ?? 0) };
    });
    return { label: plan.label, data };
  });
  return { data: { datasets } };
}
