/**
 * chartData for line, bar, radar, polar, pie and doughnut charts: a Chart.js configuration
 * `{data: {labels, datasets}, options}` plus `growth` (when `showGrowth`) and `goals` (when a
 * dataset has a goal).
 */
import { datasetColor, singleFill, sliceColors } from './colors.js';
import type { EngineContext } from './context.js';
import { chartDateFormat, formatTimeLabel } from './date-labels.js';
import { formatValue } from './format.js';
import { computeGrowth, goalPercent } from './growth.js';
import type { AggregatedSeries, SeriesPlan } from './series.js';
import { pick, shapeSeries, total, type ShapedSeries } from './shape.js';
import type { AxisChartData, ChartJsDataset, ChartType, GoalEntry, GrowthEntry } from './types.js';

const SLICED: ReadonlySet<ChartType> = new Set(['pie', 'doughnut', 'polar']);

export function buildAxisChart(ctx: EngineContext, plans: readonly SeriesPlan[], series: readonly AggregatedSeries[]): AxisChartData {
  const shaped = shapeSeries(ctx, plans, series, { allowSort: true, gaps: ctx.chart.missingValues === 'preserve' });
  const format = shaped.axis.kind === 'time' ? chartDateFormat(plans.map((plan) => plan.config.dateFormat)) : null;
  const labels = shaped.order.map((i) => (format === null ? shaped.axis.labels[i]! : formatTimeLabel(shaped.axis.labels[i]!, format)));
  const datasets = plans.map((plan, i) => presentDataset(ctx, plan, pick(shaped.display[i]!, shaped.order), labels.length));
  if (ctx.type === 'bar' && ctx.chart.stackPercent === true) toShares(datasets, labels.length);
  const out: AxisChartData = { data: { labels, datasets }, options: chartOptions(ctx, datasets.length) };
  if (ctx.chart.showGrowth === true) out.growth = growthEntries(ctx, plans, shaped);
  const goals = goalEntries(plans, shaped);
  if (goals.length > 0) out.goals = goals;
  return out;
}

function presentDataset(ctx: EngineContext, plan: SeriesPlan, data: Array<number | null>, points: number): ChartJsDataset {
  const { config } = plan;
  const color = datasetColor(config.datasetColor, plan.index);
  const fill = config.fill === true;
  if (SLICED.has(ctx.type)) {
    const colors = sliceColors(config.fillColor, points);
    return { label: plan.label, data, borderColor: colors, backgroundColor: colors, fill };
  }
  if (ctx.type === 'bar') {
    // A colour list (or multiFill) colours each bar; otherwise one colour for the dataset.
    const background =
      Array.isArray(config.fillColor) || config.multiFill === true
        ? sliceColors(config.fillColor, points)
        : singleFill(config.fillColor, color);
    return { label: plan.label, data, borderColor: color, backgroundColor: background, fill };
  }
  // line and radar
  const dataset: ChartJsDataset = {
    label: plan.label,
    data,
    borderColor: color,
    backgroundColor: singleFill(config.fillColor, color),
    fill,
  };
  const radius = config.pointRadius ?? ctx.chart.pointRadius;
  if (typeof radius === 'number' && Number.isFinite(radius)) dataset.pointRadius = radius;
  return dataset;
}

function chartOptions(ctx: EngineContext, datasetCount: number): Record<string, unknown> {
  const { chart } = ctx;
  const legend = { display: chart.displayLegend ?? (SLICED.has(ctx.type) || datasetCount > 1) };
  const base = { responsive: true, maintainAspectRatio: false, plugins: { legend, tooltip: { enabled: true } } };
  if (ctx.type === 'pie' || ctx.type === 'doughnut') return base;
  if (ctx.type === 'radar' || ctx.type === 'polar') return { ...base, scales: { r: { beginAtZero: true } } };
  const percent = chart.stackPercent === true && ctx.type === 'bar';
  const stacked = (chart.stacked === true || percent) && ctx.type === 'bar';
  const horizontal = chart.horizontal === true && ctx.type === 'bar';
  const valueScale: Record<string, unknown> = {
    type: chart.isLogarithmic === true ? 'logarithmic' : 'linear',
    beginAtZero: chart.isLogarithmic !== true,
    stacked,
  };
  if (typeof chart.minValue === 'number') valueScale.min = chart.minValue;
  if (typeof chart.maxValue === 'number') valueScale.max = chart.maxValue;
  if (percent) {
    valueScale.min = 0;
    valueScale.max = 100;
  }
  const labelScale = { stacked, grid: { display: false } };
  return {
    ...base,
    indexAxis: horizontal ? 'y' : 'x',
    interaction: { mode: 'index', intersect: false },
    scales: horizontal ? { x: valueScale, y: labelScale } : { x: labelScale, y: valueScale },
  };
}

function growthEntries(ctx: EngineContext, plans: readonly SeriesPlan[], shaped: ShapedSeries): GrowthEntry[] {
  // A time axis compares the last two buckets in time; other axes the last two plotted points.
  const order = shaped.axis.kind === 'time' ? shaped.timeOrder : shaped.order;
  return plans.map((plan, i) => {
    const values = shaped.display[i]!;
    const value = order.length > 0 ? values[order[order.length - 1]!]! : null;
    const previous = order.length > 1 ? values[order[order.length - 2]!]! : null;
    const growth = computeGrowth(value, previous, ctx.chart.invertGrowth === true);
    return { label: plan.label, value, previous: growth.previous, percent: growth.percent, status: growth.status };
  });
}

/**
 * Goal progress: the last point on a time axis, otherwise the formula applied to the sum of the
 * plotted points (the total for counts and sums).
 */
function goalEntries(plans: readonly SeriesPlan[], shaped: ShapedSeries): GoalEntry[] {
  const goals: GoalEntry[] = [];
  plans.forEach((plan, i) => {
    if (plan.goal === null) return;
    let value: number | null;
    if (shaped.order.length === 0) value = null;
    else if (shaped.axis.kind === 'time') value = shaped.display[i]![shaped.timeOrder[shaped.timeOrder.length - 1]!]!;
    else {
      const sum = total(pick(shaped.raw[i]!, shaped.order));
      value = plan.formula === null || sum === null ? sum : plan.formula.apply(sum);
    }
    goals.push({
      label: plan.label,
      datasetIndex: i,
      goal: plan.goal,
      value,
      percent: goalPercent(value, plan.goal),
      formattedGoal: formatValue(plan.goal, plan.formula === null ? null : { ...plan.formula, fixedDecimals: false }),
      formattedValue: formatValue(value, plan.formula),
    });
  });
  return goals;
}

/**
 * Percent stacking: each label's values become their share of the label's total (of absolute
 * values), in percent with two decimals; a label whose total is 0 keeps zeros. A null (no point,
 * missingValues `preserve`) stays null and adds nothing to the total.
 */
function toShares(datasets: ChartJsDataset[], points: number): void {
  for (let i = 0; i < points; i += 1) {
    let total = 0;
    for (const d of datasets) total += Math.abs(d.data[i] ?? 0);
    for (const d of datasets) {
      const v = d.data[i] ?? null;
      if (v !== null) d.data[i] = total === 0 ? 0 : Math.round((Math.abs(v) / total) * 10_000) / 100;
    }
  }
}
