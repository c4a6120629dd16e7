/**
 * The chart-data engine: pure functions from (chart, dataset configurations, rows) to chartData.
 * The lower-level pieces are exported for the SQL pushdown planner, which must produce the same
 * chartData from grouped rows (it builds AggregatedSeries and calls assembleChartData).
 */
export { computeChartData, planChart, assembleChartData } from './chart-data.js';
export { DistinctCollector, compareDistinct, distinctValueOf, type DistinctValue, type DistinctValues } from './distinct-values.js';
export { describeSql, planDistinct, readDistinct, PushdownFallbackError, type DistinctPlan } from './pushdown/index.js';
export { isEmptyChartData, diagnoseEmpty, type EmptyReason, type EmptyReasonCode } from './empty-reason.js';
export { computeChart, type ChartRowSources, type ChartRunOutcome, type ChartPath, type SqlQuerySource } from './chart-run.js';
export { createEngineContext, type EngineContext, DEFAULT_MAX_FILLED_BUCKETS, DEFAULT_MAX_TABLE_ROWS } from './context.js';
export { ByteBudget } from './byte-budget.js';
export {
  planSeries,
  createSeriesAggregation,
  aggregateSeries,
  datasetLabel,
  TOTAL_LABEL,
  BREAKDOWN_CHART_TYPES,
  allowsBreakdown,
  checkBreakdown,
  type SeriesPlan,
  type AggregatedSeries,
  type AxisKind,
  type SeriesAggregation,
} from './series.js';
export { ADDITIVE_OPERATIONS, expandBreakdowns, MAX_BREAKDOWN_SERIES, type ExpandedSeries } from './breakdown.js';
export { createTableCollector, collectTable, type TableCollector } from './table.js';
export { buildSharedAxis, alignSeries, type SharedAxis } from './axis.js';
export { shapeSeries, type ShapedSeries } from './shape.js';
export {
  compileFieldPath,
  compileSegments,
  parseFieldPath,
  normalizeFieldPath,
  formatFieldPath,
  EACH,
  type FieldAccessor,
  type PathSegment,
} from './field-path.js';
export { scopeFromPaths, scopeFromPath, type RowScope, type ScopedReader } from './row-scope.js';
export {
  resolveConditions,
  compileValueTest,
  compilePredicate,
  compileConditions,
  dateSpanOf,
  isNegativeOperator,
  type ResolvedCondition,
  type ValueTest,
  type ComparisonType,
} from './conditions.js';
export { createAggregator, isOperation, GroupState, type Aggregator } from './aggregators.js';
export { compileFormula, DEFAULT_FORMULA_DECIMALS, type Formula } from './formula.js';
export { formatValue } from './format.js';
export { computeGrowth, goalPercent, type Growth } from './growth.js';
export { createBucketer, enumerateBuckets, type Bucketer } from './time-buckets.js';
export { resolveDateWindow, type DateWindow, type DateWindowSettings } from './date-window.js';
export { DATE_PRESETS, isDatePreset, isRangeBound, resolveDateRange, type DatePreset, type DateRange, type DateRangeInput } from './date-presets.js';
export { toEpochMs, parseDateString, epochFromNumber } from './date-value.js';
export { ZoneClock } from './zone-clock.js';
export { isoWeekOfDay, daysFromCivil, DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from './calendar.js';
export { toNumber, categoryLabel, distinctKey, cleanNumber, compareLabels, roundTo } from './values.js';
export { forEachRow, type RowConsumer } from './row-source.js';
export { PALETTE, paletteColor } from './colors.js';
export { InvalidChartConfigError } from './errors.js';
export * from './types.js';
