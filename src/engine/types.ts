/**
 * Inputs and outputs of the chart-data engine. Inputs mirror the stored Chart and
 * ChartDatasetConfig rows (nullable the way the store hands them over); outputs are the
 * JSON-serialisable `chartData` shapes that the API saves and the web page renders.
 */

import type { ByteBudget } from './byte-budget.js';

export const CHART_TYPES = [
  'line',
  'bar',
  'radar',
  'polar',
  'pie',
  'doughnut',
  'table',
  'kpi',
  'avg',
  'gauge',
  'matrix',
  'markdown',
] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export const TIME_INTERVALS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

export const OPERATIONS = ['none', 'count', 'count_unique', 'sum', 'avg', 'min', 'max'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const CONDITION_OPERATORS = [
  'is',
  'isNot',
  'contains',
  'notContains',
  'greaterThan',
  'greaterOrEqual',
  'lessThan',
  'lessOrEqual',
  'isNull',
  'isNotNull',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export type Row = Record<string, unknown>;

/** A date as the store or a client sends it: Date, ISO string, or epoch seconds/milliseconds. */
export type DateInput = Date | string | number;

export interface GaugeRange {
  min: number;
  max: number;
  label?: string;
  color?: string;
}

export interface ChartInput {
  type: ChartType | string;
  subType?: string | null;
  timeInterval?: TimeInterval | string | null;
  startDate?: DateInput | null;
  endDate?: DateInput | null;
  currentEndDate?: boolean | null;
  fixedStartDate?: boolean | null;
  includeZeros?: boolean | null;
  showGrowth?: boolean | null;
  invertGrowth?: boolean | null;
  /** The project's IANA zone; buckets, labels and date windows are computed in it. Default UTC. */
  timezone?: string | null;
  content?: string | null;
  ranges?: GaugeRange[] | null;
  /** Injectable clock for the rolling window. */
  now?: Date;
  // Display settings carried into Chart.js options when present.
  displayLegend?: boolean | null;
  pointRadius?: number | null;
  stacked?: boolean | null;
  /** Bar charts: each label's values as shares of its total, stacked to 100. */
  stackPercent?: boolean | null;
  /**
   * Axis charts: a label where a series has no point (or its aggregate is null) plots 0 (`zero`,
   * the default) or null (`preserve`, a gap).
   */
  missingValues?: 'zero' | 'preserve' | string | null;
  horizontal?: boolean | null;
  minValue?: number | null;
  maxValue?: number | null;
  isLogarithmic?: boolean | null;
}

export interface ChartCondition {
  field: string;
  operator: ConditionOperator | string;
  value?: unknown;
  /** Forces how values compare; otherwise decided per value (see conditions.ts). */
  type?: 'string' | 'number' | 'date' | 'boolean' | string | null;
  [extra: string]: unknown;
}

export interface VariableValue {
  name: string;
  value: unknown;
}

export interface DatasetConfigInput {
  id?: string | number | null;
  legend?: string | null;
  xAxis?: string | null;
  yAxis?: string | null;
  yAxisOperation?: Operation | string | null;
  xAxisOperation?: string | null;
  dateField?: string | null;
  dateFormat?: string | null;
  conditions?: ChartCondition[] | null;
  formula?: string | null;
  sort?: 'asc' | 'desc' | string | null;
  maxRecords?: number | null;
  goal?: number | null;
  datasetColor?: string | null;
  fillColor?: string | string[] | null;
  fill?: boolean | null;
  multiFill?: boolean | null;
  pointRadius?: number | null;
  excludedFields?: string[] | null;
  columnsOrder?: string[] | null;
  configuration?: { variables?: VariableValue[] | null; [extra: string]: unknown } | null;
  /**
   * How to read the x axis. Default: `time` when `xAxis` and `dateField` name the same field,
   * otherwise `category`.
   */
  xAxisType?: 'time' | 'category' | null;
  /**
   * A field whose distinct values split the configuration's series: one series per value
   * (line, bar and radar charts; see breakdown.ts).
   */
  breakdown?: string | null;
  /** The breakdown's largest series drawn, 1 to `MAX_BREAKDOWN_SERIES` (default and most). */
  breakdownLimit?: number | null;
  /** The series past the limit summed into one more series instead of left out (count and sum only). */
  breakdownOther?: boolean | null;
  /** That series' label (default "Other"). */
  breakdownOtherLabel?: string | null;
}

/** Rows may be a plain array, any iterable, an async iterable, or batches of rows. */
export type RowSource =
  | Iterable<Row>
  | AsyncIterable<Row>
  | { batches: Iterable<readonly Row[]> | AsyncIterable<readonly Row[]> };

export interface DatasetInput {
  config: DatasetConfigInput;
  rows: RowSource;
}

export interface EngineOptions {
  /** Rows kept per table dataset when `maxRecords` is not lower. Default 100,000. */
  maxTableRows?: number;
  /** Above this many buckets, `includeZeros` does not fill gaps. Default 10,000. */
  maxFilledBuckets?: number;
  /** Aborts the run (request timeout, client gone): async sources are closed, the reason is thrown. */
  signal?: AbortSignal;
  /**
   * Bytes the chart may hold while it is computed (table rows, groups, distinct values), shared by
   * its dataset configurations. No limit without one. The caller reads `budget.exceeded` afterwards:
   * the chart was then computed from the first rows only.
   */
  budget?: ByteBudget;
}

// ---------------------------------------------------------------------------------------------
// Output: chartData

export type GrowthStatus = 'positive' | 'negative' | 'neutral';

export interface GrowthEntry {
  label: string;
  value: number | null;
  previous: number | null;
  percent: number | null;
  status: GrowthStatus;
}

export interface GoalEntry {
  label: string;
  datasetIndex: number;
  goal: number;
  value: number | null;
  percent: number | null;
  formattedGoal: string;
  formattedValue: string;
}

export interface ChartJsDataset {
  label: string;
  /** null: no point there (missingValues `preserve`). */
  data: Array<number | null>;
  borderColor: string | string[];
  backgroundColor: string | string[];
  fill: boolean;
  pointRadius?: number;
  [extra: string]: unknown;
}

export interface ChartJsData {
  labels: string[];
  datasets: ChartJsDataset[];
}

/** A configuration whose breakdown has more distinct values than its limit draws series for. */
export interface BreakdownCut {
  /** The configuration's position among the chart's dataset configurations. */
  datasetIndex: number;
  /** Its label (legend). */
  label: string;
  /** Its distinct values: the series it would draw. */
  series: number;
  /** The series drawn: the largest by total (its limit). */
  shown: number;
}

export interface AxisChartData {
  data: ChartJsData;
  options: Record<string, unknown>;
  growth?: GrowthEntry[];
  goals?: GoalEntry[];
  /** Set when a breakdown had more values than its limit and no "Other" series: the smallest are left out. */
  seriesTruncated?: true;
  /** The largest limit among the cut configurations (each one's is in `breakdowns`). */
  seriesLimit?: number;
  breakdowns?: BreakdownCut[];
}

export interface TableColumn {
  Header: string;
  accessor: string;
}

export interface TableDatasetData {
  columns: TableColumn[];
  data: Array<Record<string, unknown>>;
}

export type TableChartData = Record<string, TableDatasetData>;

export interface MetricValue {
  label: string;
  value: number | null;
  formatted: string;
  goal: number | null;
  growth: { previous: number | null; percent: number | null; status: GrowthStatus } | null;
}

export interface MetricChartData {
  data: ChartJsData;
  values: MetricValue[];
  ranges?: GaugeRange[];
}

export interface MatrixCell {
  x: string;
  v: number;
}

export interface MatrixChartData {
  data: { datasets: Array<{ label: string; data: MatrixCell[] }> };
}

export interface MarkdownChartData {
  content: string;
}

export type ChartData = AxisChartData | TableChartData | MetricChartData | MatrixChartData | MarkdownChartData;
