/**
 * Everything about a chart that is resolved once per run, before any row is read: its type,
 * zone, interval, bucketer and date window.
 */
import { ByteBudget, UNLIMITED_BUDGET_BYTES } from './byte-budget.js';
import { resolveDateWindow, type DateWindow } from './date-window.js';
import { InvalidChartConfigError } from './errors.js';
import { createBucketer, type Bucketer } from './time-buckets.js';
import { CHART_TYPES, TIME_INTERVALS, type ChartInput, type ChartType, type EngineOptions, type TimeInterval } from './types.js';
import { ZoneClock } from './zone-clock.js';

export interface EngineContext {
  readonly chart: ChartInput;
  readonly type: ChartType;
  readonly interval: TimeInterval;
  readonly clock: ZoneClock;
  readonly bucketer: Bucketer;
  readonly window: DateWindow | null;
  readonly cumulative: boolean;
  readonly options: Required<Omit<EngineOptions, 'signal' | 'budget'>>;
  /** What the chart may still hold (see `ByteBudget`). */
  readonly budget: ByteBudget;
}

export const DEFAULT_MAX_TABLE_ROWS = 100_000;
export const DEFAULT_MAX_FILLED_BUCKETS = 10_000;

function isChartType(value: unknown): value is ChartType {
  return typeof value === 'string' && (CHART_TYPES as readonly string[]).includes(value);
}

export function createEngineContext(chart: ChartInput, options: EngineOptions = {}): EngineContext {
  if (!isChartType(chart.type)) {
    throw new InvalidChartConfigError('type', `unknown chart type "${String(chart.type)}"`);
  }
  const rawInterval = chart.timeInterval ?? 'day';
  if (!(TIME_INTERVALS as readonly string[]).includes(rawInterval)) {
    throw new InvalidChartConfigError('timeInterval', `unknown time interval "${rawInterval}"`);
  }
  const interval = rawInterval as TimeInterval;
  const clock = ZoneClock.of(chart.timezone);
  return {
    chart,
    type: chart.type,
    interval,
    clock,
    bucketer: createBucketer(interval, clock),
    window: resolveDateWindow(chart, interval, clock),
    cumulative: (chart.subType ?? '').toLowerCase().includes('addtimeseries'),
    options: {
      maxTableRows: options.maxTableRows ?? DEFAULT_MAX_TABLE_ROWS,
      maxFilledBuckets: options.maxFilledBuckets ?? DEFAULT_MAX_FILLED_BUCKETS,
    },
    budget: options.budget ?? new ByteBudget(UNLIMITED_BUDGET_BYTES),
  };
}
