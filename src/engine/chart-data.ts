/**
 * The engine's entry point: a chart, its dataset configurations in order and each one's rows in,
 * `chartData` out. Pure: no store, no network, no users; the clock is `chart.now` when given.
 */
import { buildAxisChart } from './axis-chart.js';
import { expandBreakdowns } from './breakdown.js';
import { createEngineContext, type EngineContext } from './context.js';
import { buildMatrixChart } from './matrix-chart.js';
import { buildMetricChart } from './metric-chart.js';
import { aggregateSeries, checkBreakdown, datasetLabel, planSeries, type AggregatedSeries, type SeriesPlan } from './series.js';
import type { StopFlag } from './row-source.js';
import { collectTable, createTableCollector } from './table.js';
import { createBucketer } from './time-buckets.js';
import type {
  AxisChartData,
  ChartData,
  ChartInput,
  DatasetConfigInput,
  DatasetInput,
  EngineOptions,
  MatrixChartData,
  MetricChartData,
  TableChartData,
  TableDatasetData,
} from './types.js';

export async function computeChartData(chart: ChartInput, datasets: readonly DatasetInput[], options: EngineOptions = {}): Promise<ChartData> {
  const { signal } = options;
  signal?.throwIfAborted();
  const ctx = createEngineContext(chart, options);
  if (ctx.type === 'markdown') return { content: chart.content ?? '' };
  if (ctx.type === 'table') {
    // Every configuration is validated before any row is read.
    datasets.forEach((d, i) => checkBreakdown(ctx.type, d.config, i));
    const collectors = datasets.map((d, i) => createTableCollector(ctx, d.config, i));
    const tables = await readAll(signal, (stop) => collectors.map((c, i) => collectTable(ctx, c, datasets[i]!.rows, stop)));
    return tableChartData(datasets, tables);
  }
  const plans = planChart(ctx, datasets.map((d) => d.config));
  const series = await readAll(signal, (stop) => plans.map((plan, i) => aggregateSeries(ctx, plan, datasets[i]!.rows, stop)));
  return assembleChartData(ctx, plans, series);
}

/**
 * Reads every dataset's rows concurrently (async sources overlap their waits). When one fails or
 * the run is aborted, the others stop at their next row and close their sources.
 */
async function readAll<T>(signal: AbortSignal | undefined, start: (stop: StopFlag) => Array<Promise<T>>): Promise<T[]> {
  let failed = false;
  const stop: StopFlag = {
    get stopped() {
      return failed || (signal?.aborted ?? false);
    },
  };
  try {
    const results = await Promise.all(start(stop));
    signal?.throwIfAborted();
    return results;
  } catch (error) {
    failed = true;
    throw error;
  }
}

/**
 * Plans every dataset of a chart (validation included) before any row is read, so a bad
 * configuration fails fast. Matrix charts bucket by local day.
 */
export function planChart(ctx: EngineContext, configs: readonly DatasetConfigInput[]): SeriesPlan[] {
  if (ctx.type === 'matrix') {
    const days = createBucketer('day', ctx.clock);
    return configs.map((config, i) => planSeries(ctx, config, i, { axis: 'time', bucketer: days }));
  }
  return configs.map((config, i) => planSeries(ctx, config, i));
}

/**
 * chartData from series that are already aggregated, whether the streaming engine or a database
 * (pushdown) did the grouping: both paths share everything from here on.
 */
export function assembleChartData(ctx: EngineContext, plans: readonly SeriesPlan[], series: readonly AggregatedSeries[]): AxisChartData | MetricChartData | MatrixChartData {
  switch (ctx.type) {
    case 'kpi':
    case 'avg':
    case 'gauge':
      return buildMetricChart(ctx, plans, series);
    case 'matrix':
      return buildMatrixChart(ctx, plans, series, plans[0]?.bucketer ?? createBucketer('day', ctx.clock));
    default: {
      // A breakdown's values become series of their own (breakdown.ts); a cut is said in chartData.
      const expanded = expandBreakdowns(plans, series);
      const chartData = buildAxisChart(ctx, expanded.plans, expanded.series);
      if (expanded.cuts.length > 0) {
        chartData.seriesTruncated = true;
        chartData.seriesLimit = Math.max(...expanded.cuts.map((cut) => cut.shown));
        chartData.breakdowns = expanded.cuts;
      }
      return chartData;
    }
  }
}

function tableChartData(datasets: readonly DatasetInput[], tables: readonly TableDatasetData[]): TableChartData {
  const out: TableChartData = {};
  const used = new Map<string, number>();
  datasets.forEach((d, i) => {
    // Two datasets with the same legend get " 2", " 3" … so neither hides the other.
    const base = datasetLabel(d.config, i);
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    let key = n === 1 ? base : `${base} ${n}`;
    while (Object.hasOwn(out, key)) key = `${key}'`;
    Object.defineProperty(out, key, { value: tables[i]!, enumerable: true, writable: true, configurable: true });
  });
  return out;
}
