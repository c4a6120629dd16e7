/**
 * One entry point for computing a chart from its datasets: it decides, per dataset configuration,
 * whether the database groups the rows (SQL pushdown) or the rows stream through the engine, and
 * assembles the same chartData either way. What reaches the sources is the caller's: it hands in
 * a way to open row streams and, for datasets that are one SQL query, a way to run a grouped query.
 */
import type { ByteBudget } from './byte-budget.js';
import { assembleChartData, computeChartData, planChart } from './chart-data.js';
import { createEngineContext, type EngineContext } from './context.js';
import { diagnoseEmpty, isEmptyChartData, type EmptyReason } from './empty-reason.js';
import { PUSHDOWN_CHART_TYPES, planPushdown, PushdownFallbackError, resultToSeries, describeSql, type CompiledQuery, type PushdownDialect, type ResultColumn } from './pushdown/index.js';
import { aggregateSeries, planSeries, type AggregatedSeries } from './series.js';
import type { ChartInput, ChartType, DatasetConfigInput, Row, RowSource } from './types.js';

/** A dataset that is one SQL query on a source that can run the chart's grouped query itself. */
export interface SqlQuerySource {
  readonly dialect: PushdownDialect;
  /** The user's SQL as written, with its `{{variables}}` (wrapped by `describeSql`). */
  readonly text: string;
  /** The same query with its variables bound as parameters. */
  readonly compiled: CompiledQuery;
  /** The result columns of a statement that returns none (the user's query wrapped by `describeSql`). */
  columns(describeStatement: string): Promise<readonly ResultColumn[]>;
  /** Runs a compiled statement; null when its answer was cut by a limit or is not rows. */
  rows(statement: { text: string; values: readonly unknown[] }): Promise<Row[] | null>;
}

/** What a chart run reads from: given by the caller for the configurations of one chart. */
export interface ChartRowSources {
  /** The dataset of configuration `index` as one SQL query, or null when it is not one. */
  sqlQuery(index: number): SqlQuerySource | null;
  /**
   * Opens a row source for each configuration at `indices` and calls `use` with them (in that
   * order); closes them afterwards, also on failure. A table keeps its rows, so it reads them
   * under the row limit of a collected run; every other type aggregates as rows go by; `diagnose`
   * reads them again, as `aggregate` does, to say why a chart came out empty (see empty-reason.ts).
   */
  withRows(indices: readonly number[], purpose: 'aggregate' | 'table' | 'diagnose', use: (sources: RowSource[]) => Promise<void>): Promise<void>;
}

export type ChartPath = 'pushdown' | 'stream';

export interface ChartRunOutcome {
  chartData: unknown;
  /** Why the chart has nothing to draw; undefined when it has something. Also set as `chartData.empty`. */
  empty?: EmptyReason;
  /** How each dataset configuration was computed. */
  paths: ChartPath[];
}

/**
 * Computes a chart: with `pushdown`, every configuration whose dataset is one SQL query and whose
 * series the database can compute exactly becomes one grouped query (built once); the rest, and
 * every configuration of a chart type that cannot be pushed down, stream through the engine.
 * `budget` bounds what the streaming engine holds (see `ByteBudget`).
 */
export async function computeChart(
  chart: ChartInput,
  configs: readonly DatasetConfigInput[],
  sources: ChartRowSources,
  options: { pushdown: boolean; budget?: ByteBudget },
): Promise<ChartRunOutcome> {
  const all = configs.map((_, index) => index);
  const engineOptions = options.budget ? { budget: options.budget } : {};
  if (!options.pushdown || !PUSHDOWN_CHART_TYPES.has(chart.type as ChartType)) {
    let chartData: unknown;
    await sources.withRows(all, chart.type === 'table' ? 'table' : 'aggregate', async (rows) => {
      chartData = await computeChartData(
        chart,
        configs.map((config, i) => ({ config, rows: rows[i]! })),
        engineOptions,
      );
    });
    return withEmptyReason({ chartData, paths: configs.map(() => 'stream') }, createEngineContext(chart, engineOptions), configs, sources);
  }

  const ctx = createEngineContext(chart, engineOptions);
  const plans = planChart(ctx, configs);
  const series = new Array<AggregatedSeries>(configs.length);
  const paths: ChartPath[] = configs.map(() => 'stream');
  for (const index of all) {
    const pushed = await pushDown(index);
    if (pushed) {
      series[index] = pushed;
      paths[index] = 'pushdown';
    }
  }
  const rest = all.filter((index) => paths[index] === 'stream');
  if (rest.length > 0) {
    await sources.withRows(rest, 'aggregate', async (rows) => {
      await Promise.all(rest.map(async (index, k) => (series[index] = await aggregateSeries(ctx, plans[index]!, rows[k]!))));
    });
  }
  return withEmptyReason({ chartData: assembleChartData(ctx, plans, series), paths }, ctx, configs, sources);

  /** The series of configuration `index` from one grouped query, or null to stream it instead. */
  async function pushDown(index: number): Promise<AggregatedSeries | null> {
    const query = sources.sqlQuery(index);
    if (!query) return null;
    const describe = describeSql(query.text, query.dialect);
    if (!describe) return null;
    const columns = await query.columns(describe);
    const plan = planPushdown(ctx, plans, index, query.dialect, columns, query.compiled);
    if (!plan) return null;
    const rows = await query.rows({ text: plan.sql, values: plan.params });
    if (!rows) return null;
    try {
      return resultToSeries(plan, rows);
    } catch (error) {
      // The grouped rows hold what the engine cannot reproduce exactly (see PushdownFallbackError).
      if (error instanceof PushdownFallbackError) return null;
      throw error;
    }
  }
}

/**
 * When the chart has nothing to draw, says why in `chartData.empty`: each configuration's rows are
 * read once more through the same diagnosis, whichever path computed the chart. The first reason
 * found is the chart's; with several configurations whose reasons differ, `datasets` lists each.
 */
async function withEmptyReason(outcome: ChartRunOutcome, ctx: EngineContext, configs: readonly DatasetConfigInput[], sources: ChartRowSources): Promise<ChartRunOutcome> {
  if (!isEmptyChartData(ctx.type, outcome.chartData)) return outcome;
  let empty: EmptyReason | null = null;
  if (configs.length === 0) empty = { reason: 'NO_DATASETS' };
  else {
    const reasons: EmptyReason[] = [];
    for (const [index, saved] of configs.entries()) {
      // A table reads no axis fields: only its filters (conditions, date range) can leave it empty.
      const config = ctx.type === 'table' ? { ...saved, xAxis: null, yAxis: null, yAxisOperation: 'count', xAxisOperation: null, breakdown: null, formula: null } : saved;
      const plan = planSeries(ctx, config, index);
      await sources.withRows([index], 'diagnose', async ([rows]) => {
        const found = await diagnoseEmpty(ctx, plan, rows!);
        const legend = configs.length > 1 && typeof saved.legend === 'string' && saved.legend.trim() !== '' ? { legend: saved.legend.trim() } : {};
        if (found) reasons.push({ ...found, ...legend });
      });
    }
    empty = reasons[0] ?? null;
    if (empty && reasons.length > 1 && new Set(reasons.map(sentenceKey)).size > 1) empty = { ...empty, datasets: reasons };
  }
  if (empty === null) return outcome;
  (outcome.chartData as Record<string, unknown>).empty = empty;
  return { ...outcome, empty };
}

/** Two reasons that read the same (the position and legend aside). */
function sentenceKey(reason: EmptyReason): string {
  return JSON.stringify([reason.reason, reason.field ?? null, reason.by ?? null, reason.variables ?? null]);
}
