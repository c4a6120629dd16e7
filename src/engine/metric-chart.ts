/**
 * chartData for kpi, avg and gauge charts: the series (for sparklines) plus one `values` entry
 * per dataset.
 * - On a time axis, kpi and gauge show the last point, avg the mean of the plotted points
 *   (buckets filled by `includeZeros` count as zeros).
 * - Without a time axis there is a single `Total` point: kpi and gauge show the operation over all
 *   rows, avg the average of the values.
 * The formula applies to the final value; `growth` (with `showGrowth`, time axis only) compares
 * the last two points.
 */
import { datasetColor, singleFill } from './colors.js';
import type { EngineContext } from './context.js';
import { formatValue } from './format.js';
import { computeGrowth } from './growth.js';
import { TOTAL_LABEL, type AggregatedSeries, type SeriesPlan } from './series.js';
import { pick, shapeSeries, total } from './shape.js';
import type { MetricChartData, MetricValue } from './types.js';
import { cleanNumber } from './values.js';

export function buildMetricChart(ctx: EngineContext, plans: readonly SeriesPlan[], series: readonly AggregatedSeries[]): MetricChartData {
  // A KPI, average or gauge reads its last point or the mean of its points: missing ones stay 0
  // whatever missingValues says (docs/chart-data.md).
  const shaped = shapeSeries(ctx, plans, series, { allowSort: false, gaps: false });
  const labels = shaped.order.map((i) => shaped.axis.labels[i]!);
  const datasets = plans.map((plan, i) => {
    const color = datasetColor(plan.config.datasetColor, plan.index);
    return {
      label: plan.label,
      data: pick(shaped.display[i]!, shaped.order),
      borderColor: color,
      backgroundColor: singleFill(plan.config.fillColor, color),
      fill: plan.config.fill === true,
    };
  });

  const values: MetricValue[] = plans.map((plan, i) => {
    const s = series[i]!;
    let raw: number | null;
    if (s.axis === 'none') raw = s.points.get(TOTAL_LABEL) ?? null;
    else {
      const points = pick(shaped.raw[i]!, shaped.order);
      if (points.length === 0) raw = null;
      else if (ctx.type === 'avg') {
        const sum = total(points);
        raw = sum === null ? null : cleanNumber(sum / points.length);
      }
      else raw = points[points.length - 1]!;
    }
    const value = raw === null ? null : plan.formula === null ? raw : plan.formula.apply(raw);
    let growth: MetricValue['growth'] = null;
    if (ctx.chart.showGrowth === true && s.axis === 'time') {
      const shown = pick(shaped.display[i]!, shaped.order);
      const last = shown.length > 0 ? shown[shown.length - 1]! : null;
      const previous = shown.length > 1 ? shown[shown.length - 2]! : null;
      growth = computeGrowth(last, previous, ctx.chart.invertGrowth === true);
    }
    return { label: plan.label, value, formatted: formatValue(value, plan.formula), goal: plan.goal, growth };
  });

  const out: MetricChartData = { data: { labels, datasets }, values };
  if (ctx.type === 'gauge') out.ranges = ctx.chart.ranges ?? [];
  return out;
}
