/**
 * SQL pushdown: a chart dataset configuration over one SQL data request becomes one grouped
 * query, and the grouped rows become the same AggregatedSeries the streaming engine builds, so
 * `assembleChartData` gives identical chartData. Pure: SQL text and bound values in, series out.
 *
 *   const verdict = canPushDown(chart, config, 'postgres', { columns });
 *   if (verdict.ok) {
 *     const plan = buildPushdownPlan(chart, config, compileSql(userSql, 'postgres', variables), 'postgres', { columns, datasets });
 *     const rows = …run plan.sql with plan.params…;
 *     series[i] = resultToSeries(plan, rows); // PushdownFallbackError → stream this dataset instead
 *   }
 *
 * See docs/chart-data.md, "Pushdown", for what is pushed down and why the rest is not.
 */
import { planChart } from '../chart-data.js';
import { createEngineContext, type EngineContext } from '../context.js';
import { InvalidChartConfigError } from '../errors.js';
import type { AggregatedSeries, SeriesPlan } from '../series.js';
import type { ChartInput, DatasetConfigInput, Row } from '../types.js';
import type { ResultColumn } from './columns.js';
import { PushdownIneligibleError, Unsupported } from './errors.js';
import { buildSeriesQuery, type Reading } from './plan.js';
import { readSeries } from './result.js';
import type { CompiledQuery, PushdownDialect } from './sql-text.js';
import { subqueryText } from './user-query.js';

export type Eligibility = { ok: true } | { ok: false; reason: string };

export interface PushdownPlan {
  readonly dialect: PushdownDialect;
  /** The grouped query: `$n` (postgres) or `?` (mysql) placeholders, the user's first. */
  readonly sql: string;
  /** Bound in order: the user's variables, then condition values and window bounds. */
  readonly params: unknown[];
  readonly reading: Reading;
}

export interface PushdownContext {
  /**
   * The user's query result columns (`RunMeta.columns` of a run or of `describeSql`). Without
   * them only what does not depend on column types is checked.
   */
  columns?: readonly ResultColumn[] | null;
  /** The user's query, compiled by the sources' `compileSql` (checked to be one SELECT/WITH). */
  query?: CompiledQuery | null;
  /**
   * Every dataset configuration of the chart, in order, `config` among them. Sort and maxRecords
   * act on the axis the datasets share, so ORDER BY/LIMIT is pushed only when this is known and
   * there is one dataset.
   */
  datasets?: readonly DatasetConfigInput[] | null;
}

interface Located {
  ctx: EngineContext;
  plans: SeriesPlan[];
  index: number;
  complete: boolean;
}

function locate(chart: ChartInput, config: DatasetConfigInput, datasets: readonly DatasetConfigInput[] | null | undefined): Located {
  const ctx = createEngineContext(chart);
  const at = datasets ? datasets.indexOf(config) : -1;
  if (datasets && at >= 0) return { ctx, plans: planChart(ctx, datasets), index: at, complete: true };
  return { ctx, plans: planChart(ctx, [config]), index: 0, complete: false };
}

/** Whether this configuration can be computed by the database with exactly the engine's result. */
export function canPushDown(chart: ChartInput, config: DatasetConfigInput, dialect: PushdownDialect, context: PushdownContext = {}): Eligibility {
  try {
    const { ctx, plans, index, complete } = locate(chart, config, context.datasets);
    return checkSeriesPushdown(ctx, plans, index, dialect, { ...context, complete });
  } catch (error) {
    if (error instanceof InvalidChartConfigError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The grouped query for this configuration; throws PushdownIneligibleError when canPushDown says no. */
export function buildPushdownPlan(
  chart: ChartInput,
  config: DatasetConfigInput,
  query: CompiledQuery,
  dialect: PushdownDialect,
  context: { columns: readonly ResultColumn[]; datasets?: readonly DatasetConfigInput[] | null },
): PushdownPlan {
  const { ctx, plans, index, complete } = locate(chart, config, context.datasets);
  return planSeriesPushdown(ctx, plans, index, query, dialect, context.columns, complete);
}

/** The grouped rows of a plan as the series the streaming engine would have built. */
export function resultToSeries(plan: PushdownPlan, rows: Iterable<Row>): AggregatedSeries {
  return readSeries(plan.reading, rows);
}

/**
 * For a caller that already holds the engine context and every plan of the chart
 * (`createEngineContext`, `planChart`). `complete` says `plans` are all of the chart's datasets.
 */
function checkSeriesPushdown(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  index: number,
  dialect: PushdownDialect,
  context: PushdownContext & { complete?: boolean } = {},
): Eligibility {
  try {
    buildSeriesQuery(ctx, plans, index, dialect, context.columns ?? null, context.query ?? null, context.complete ?? true);
    return { ok: true };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.reason };
    throw error;
  }
}

function planSeriesPushdown(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  index: number,
  query: CompiledQuery,
  dialect: PushdownDialect,
  columns: readonly ResultColumn[],
  complete = true,
): PushdownPlan {
  try {
    const built = buildSeriesQuery(ctx, plans, index, dialect, columns, query, complete)!;
    return { dialect, sql: built.sql, params: built.params, reading: built.reading };
  } catch (error) {
    if (error instanceof Unsupported) throw new PushdownIneligibleError(error.reason);
    throw error;
  }
}

/**
 * The grouped query of configuration `index`, built once, or null when the database cannot give
 * exactly the engine's answer for it (the reason is then of no use to a run: it streams instead).
 */
export function planPushdown(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  index: number,
  dialect: PushdownDialect,
  columns: readonly ResultColumn[],
  query: CompiledQuery,
): PushdownPlan | null {
  try {
    const built = buildSeriesQuery(ctx, plans, index, dialect, columns, query, true);
    return built ? { dialect, sql: built.sql, params: built.params, reading: built.reading } : null;
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/**
 * A query that returns no rows but the user's query's columns, for `RunMeta.columns`. It embeds
 * the user's SQL as written (with its `{{variables}}`), so it runs through a source's ordinary
 * `run(conn, { query }, { variables })`. Null when the query cannot be wrapped.
 */
export function describeSql(userSql: string, dialect: PushdownDialect): string | null {
  const checked = subqueryText(userSql, dialect);
  return checked.ok ? `SELECT * FROM (\n${checked.text}\n) AS q LIMIT 0` : null;
}

export { PushdownFallbackError, PushdownIneligibleError } from './errors.js';
export { columnKind, type ColumnKind, type ResultColumn } from './columns.js';
export { PUSHDOWN_CHART_TYPES, type Reading } from './plan.js';
export { planDistinct, readDistinct, type DistinctOptions, type DistinctPlan } from './plan-distinct.js';
export type { CompiledQuery, PushdownDialect } from './sql-text.js';
