/**
 * One dataset configuration streamed into an aggregated series: rows are read once, filtered
 * (conditions, date window), grouped by time bucket or category, and aggregated. Memory holds
 * one state per group, never the rows.
 *
 * The x axis is a time axis when `xAxisType` is `time`, or by default when `xAxis` and
 * `dateField` name the same field; otherwise it is a category axis; with no `xAxis`, or for
 * KPI-style charts without a time axis, everything falls into one group, `Total`.
 *
 * With a `breakdown` field, the groups are kept per distinct value of that field (a map of group
 * maps, filled in the same pass), and the series holds one set of points per value.
 */
import { createAggregator, GroupState, isOperation, type Aggregator } from './aggregators.js';
import { groupBytes } from './byte-budget.js';
import { compilePredicate, resolveConditions, type ResolvedCondition } from './conditions.js';
import type { EngineContext } from './context.js';
import { toEpochMs } from './date-value.js';
import type { DateWindow } from './date-window.js';
import { InvalidChartConfigError } from './errors.js';
import { normalizeFieldPath } from './field-path.js';
import { compileFormula, type Formula } from './formula.js';
import { forEachRow, type StopFlag } from './row-source.js';
import { scopeFromPaths, type RowScope } from './row-scope.js';
import type { Bucketer } from './time-buckets.js';
import type { ChartType, DatasetConfigInput, Operation, Row, RowSource } from './types.js';
import { categoryLabel } from './values.js';

export type AxisKind = 'time' | 'category' | 'none';

export const TOTAL_LABEL = 'Total';

/** A dataset configuration, resolved and validated; no rows involved yet. */
export interface SeriesPlan {
  readonly index: number;
  readonly config: DatasetConfigInput;
  readonly label: string;
  readonly axis: AxisKind;
  readonly operation: Operation;
  readonly aggregator: Aggregator;
  /** Normalised field paths, as a SQL planner needs them. */
  readonly fields: { x: string | null; y: string | null; date: string | null; breakdown: string | null };
  readonly conditions: readonly ResolvedCondition[];
  /** Window applied to `fields.date`; null when the configuration has no date field or the chart no window. */
  readonly window: DateWindow | null;
  readonly bucketer: Bucketer | null;
  readonly formula: Formula | null;
  readonly sort: 'asc' | 'desc' | null;
  readonly maxRecords: number | null;
  readonly goal: number | null;
}

/** Aggregated values by group key: the bucket key on a time axis, the label otherwise. */
export interface AggregatedSeries {
  readonly axis: AxisKind;
  readonly points: Map<number | string, number | null>;
  /** With a breakdown: the points of each distinct value, by its label (`points` is then empty). */
  readonly breakdown?: Map<string, Map<number | string, number | null>>;
}

/** The chart types whose configurations may split their series by a breakdown field. */
export const BREAKDOWN_CHART_TYPES: ReadonlySet<ChartType> = new Set(['line', 'bar', 'radar']);

/** Whether a chart of this type may carry a breakdown (unknown types may not). */
export function allowsBreakdown(type: string | null | undefined): boolean {
  return (BREAKDOWN_CHART_TYPES as ReadonlySet<string>).has(type ?? '');
}

/** Refuses a breakdown on a chart type that draws no series per value. */
export function checkBreakdown(type: ChartType, config: DatasetConfigInput, index: number): string | null {
  const path = normalized(text(config.breakdown), `datasets[${index}].breakdown`);
  if (path !== null && !BREAKDOWN_CHART_TYPES.has(type)) {
    throw new InvalidChartConfigError(`datasets[${index}].breakdown`, `a ${type} chart draws no series per value; a breakdown is for ${[...BREAKDOWN_CHART_TYPES].join(', ')} charts`);
  }
  return path;
}

const CATEGORY_ONLY: ReadonlySet<ChartType> = new Set(['pie', 'doughnut', 'radar', 'polar']);
const METRIC: ReadonlySet<ChartType> = new Set(['kpi', 'avg', 'gauge']);

function text(value: string | null | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function normalized(path: string | null, where: string): string | null {
  if (path === null) return null;
  try {
    return normalizeFieldPath(path);
  } catch {
    throw new InvalidChartConfigError(where, `invalid field path "${path}"`);
  }
}

export function datasetLabel(config: DatasetConfigInput, index: number): string {
  return text(config.legend) ?? `Dataset ${index + 1}`;
}

export interface PlanOverrides {
  /** Matrix charts bucket by day whatever the chart interval. */
  bucketer?: Bucketer;
  axis?: AxisKind;
}

export function planSeries(ctx: EngineContext, config: DatasetConfigInput, index: number, overrides: PlanOverrides = {}): SeriesPlan {
  const at = `datasets[${index}]`;
  const x = normalized(text(config.xAxis), `${at}.xAxis`);
  const y = normalized(text(config.yAxis), `${at}.yAxis`);
  const date = normalized(text(config.dateField), `${at}.dateField`);
  const breakdown = checkBreakdown(ctx.type, config, index);

  let axis: AxisKind;
  if (overrides.axis) axis = overrides.axis;
  else if (CATEGORY_ONLY.has(ctx.type)) axis = x === null ? 'none' : 'category';
  else {
    const temporal =
      config.xAxisType === 'time' ? x !== null : config.xAxisType === 'category' ? false : x !== null && date !== null && x === date;
    if (METRIC.has(ctx.type)) axis = temporal ? 'time' : 'none';
    else axis = temporal ? 'time' : x === null ? 'none' : 'category';
  }
  const xField = axis === 'time' ? (x ?? date) : axis === 'category' ? x : null;
  if (axis === 'time' && xField === null) {
    throw new InvalidChartConfigError(`${at}.xAxis`, 'a time axis needs a date field');
  }

  let operation: Operation;
  const rawOp = config.yAxisOperation ?? 'none';
  if (!isOperation(rawOp)) throw new InvalidChartConfigError(`${at}.yAxisOperation`, `unknown operation "${String(rawOp)}"`);
  operation = rawOp;
  if (operation === 'none' && y === null && isOperation(config.xAxisOperation) && config.xAxisOperation !== 'none') {
    operation = config.xAxisOperation;
  }
  if (operation === 'none' && y === null) operation = 'count';
  // An average chart without a time axis shows the average of the values themselves.
  if (ctx.type === 'avg' && axis === 'none') operation = 'avg';
  if (y === null && operation !== 'count') {
    throw new InvalidChartConfigError(`${at}.yAxis`, `operation "${operation}" needs a value field`);
  }

  const sort = config.sort === 'asc' || config.sort === 'desc' ? config.sort : null;
  const maxRecords =
    typeof config.maxRecords === 'number' && Number.isFinite(config.maxRecords) && config.maxRecords > 0
      ? Math.floor(config.maxRecords)
      : null;
  const formula = text(config.formula) === null ? null : compileFormula(config.formula!.trim(), `${at}.formula`);

  return {
    index,
    config,
    label: datasetLabel(config, index),
    axis,
    operation,
    aggregator: createAggregator(operation, y !== null, ctx.budget),
    fields: { x: xField, y, date, breakdown },
    conditions: resolveConditions(config.conditions, config.configuration?.variables, `${at}.conditions`),
    window: date !== null ? ctx.window : null,
    bucketer: axis === 'time' ? (overrides.bucketer ?? ctx.bucketer) : null,
    formula,
    sort,
    maxRecords,
    goal: typeof config.goal === 'number' && Number.isFinite(config.goal) ? config.goal : null,
  };
}

/** A consumer for one pass over the rows, and the series it has built so far. */
export interface SeriesAggregation {
  consume(row: Row): void;
  result(): AggregatedSeries;
}

export function createSeriesAggregation(ctx: EngineContext, plan: SeriesPlan): SeriesAggregation {
  const { clock } = ctx;
  const { aggregator, axis, fields } = plan;
  const add = aggregator.add;
  // Without a breakdown, one group map; with one, a group map per breakdown value, `groups` being
  // the current row's (undefined until a row of that value opens a group).
  let groups: Map<number | string, GroupState> | undefined = new Map<number | string, GroupState>();
  const partitions = fields.breakdown === null ? null : new Map<number | string, Map<number | string, GroupState>>();
  let partition: number | string = TOTAL_LABEL;
  if (partitions !== null) groups = undefined;

  const scope: RowScope = scopeFromPaths([fields.x, fields.y, fields.date, fields.breakdown, ...plan.conditions.map((c) => c.field)]);
  const x = fields.x === null ? null : scope.reader(fields.x);
  const y = fields.y === null ? null : scope.reader(fields.y);
  const date = plan.window === null || fields.date === null ? null : scope.reader(fields.date);
  const split = fields.breakdown === null ? null : scope.reader(fields.breakdown);
  const predicate = compilePredicate(plan.conditions, clock, (f) => scope.reader(f));
  const lo = plan.window?.start ?? -Infinity;
  const hi = plan.window?.end ?? Infinity;
  const bucket = plan.bucketer === null ? null : plan.bucketer.bucket;
  // The window check can reuse the parsed x when both read the same field.
  const dateIsX = date !== null && x !== null && date.path === x.path && !x.multi;

  // Once the chart's byte budget is spent, rows go nowhere: the groups hold the rows read before.
  const budget = ctx.budget;
  const nowhere = new GroupState();
  // Consecutive rows usually share a group (sorted data, few categories): skip the map lookup then.
  let lastKey: number | string = NaN;
  let lastState: GroupState = new GroupState();
  const stateFor = (key: number | string): GroupState => {
    if (budget.exceeded) return nowhere;
    if (key === lastKey) return lastState;
    let map = groups;
    if (map === undefined) {
      // The first group of a breakdown value opens its partition.
      if (!budget.take(groupBytes(partition))) return nowhere;
      map = new Map<number | string, GroupState>();
      partitions!.set(partition, map);
      groups = map;
    }
    let state = map.get(key);
    if (state === undefined) {
      if (!budget.take(groupBytes(key))) return nowhere;
      state = new GroupState();
      map.set(key, state);
    }
    lastKey = key;
    lastState = state;
    return state;
  };
  /** Makes `value`'s partition the current one; false when the value is empty (the row is left out). */
  const enter = (value: unknown): boolean => {
    let part: number | string;
    // Numbers are kept as numbers and labelled once, at the end, as on a category axis.
    if (typeof value === 'string' || typeof value === 'number') part = value;
    else {
      const label = categoryLabel(value);
      if (label === null) return false;
      part = label;
    }
    if (part === partition && groups !== undefined) return true;
    partition = part;
    groups = partitions!.get(part);
    lastKey = NaN;
    return true;
  };
  if (axis === 'none' && partitions === null) stateFor(TOTAL_LABEL);

  const simple =
    scope.elements === null && !(x?.multi ?? false) && !(y?.multi ?? false) && !(date?.multi ?? false) && !(split?.multi ?? false);
  let consume: (row: Row) => void;

  if (simple) {
    const yGet = y === null ? (_t: unknown, _e: unknown) => undefined : y.get;
    if (axis === 'time') {
      const xGet = x!.get;
      const toKey = bucket!;
      if (date === null || dateIsX) {
        consume = (row) => {
          if (predicate !== null && !predicate(row, row)) return;
          const t = toEpochMs(xGet(row, row), clock);
          if (!(t >= lo && t <= hi)) return;
          add(stateFor(toKey(t)), yGet(row, row));
        };
      } else {
        const dGet = date.get;
        consume = (row) => {
          if (predicate !== null && !predicate(row, row)) return;
          const d = toEpochMs(dGet(row, row), clock);
          if (!(d >= lo && d <= hi)) return;
          const t = toEpochMs(xGet(row, row), clock);
          if (t !== t) return;
          add(stateFor(toKey(t)), yGet(row, row));
        };
      }
    } else {
      const xGet = x === null ? null : x.get;
      const dGet = date === null ? null : date.get;
      consume = (row) => {
        if (predicate !== null && !predicate(row, row)) return;
        if (dGet !== null) {
          const d = toEpochMs(dGet(row, row), clock);
          if (!(d >= lo && d <= hi)) return;
        }
        let key: number | string;
        if (xGet === null) key = TOTAL_LABEL;
        else {
          const v = xGet(row, row);
          // Numbers group under the number itself and get their label once, at the end.
          if (typeof v === 'string' || typeof v === 'number') key = v;
          else {
            const label = categoryLabel(v);
            if (label === null) return;
            key = label;
          }
        }
        add(stateFor(key), yGet(row, row));
      };
    }
    if (split !== null) {
      // The breakdown value picks the partition; the row then goes where it would without one.
      const whole = consume;
      const sGet = split.get;
      consume = (row) => {
        if (enter(sGet(row, row))) whole(row);
      };
    }
  } else {
    consume = createScopedConsumer();
  }

  function createScopedConsumer(): (row: Row) => void {
    const keysOf = (top: unknown, el: unknown, out: Array<number | string>): void => {
      if (x === null) {
        out.push(TOTAL_LABEL);
        return;
      }
      const values: unknown[] = [];
      x.collect(top, el, values);
      for (const v of values) {
        if (axis === 'time') {
          const t = toEpochMs(v, clock);
          if (t === t) out.push(bucket!(t));
        } else if (typeof v === 'string' || typeof v === 'number') {
          out.push(v);
        } else {
          const label = categoryLabel(v);
          if (label !== null) out.push(label);
        }
      }
    };
    const unit = (top: unknown, el: unknown): void => {
      if (predicate !== null && !predicate(top, el)) return;
      if (date !== null) {
        const d = toEpochMs(date.get(top, el), clock);
        if (!(d >= lo && d <= hi)) return;
      }
      const keys: Array<number | string> = [];
      keysOf(top, el, keys);
      if (keys.length === 0) return;
      let values: unknown[] | null = null;
      if (y !== null) {
        values = [];
        y.collect(top, el, values);
      }
      const into = (): void => {
        for (const key of keys) {
          const state = stateFor(key);
          if (values === null) add(state, undefined);
          else for (const v of values) add(state, v);
        }
      };
      if (split === null) {
        into();
        return;
      }
      // Every breakdown value the unit holds gets its values, as every x value does.
      const parts: unknown[] = [];
      split.collect(top, el, parts);
      for (const part of parts) if (enter(part)) into();
    };
    const elements = scope.elements;
    if (elements === null) return (row) => unit(row, row);
    return (row) => {
      const els: unknown[] = [];
      elements.collect(row, els);
      for (const el of els) unit(row, el);
    };
  }

  const pointsOf = (map: Map<number | string, GroupState>): Map<number | string, number | null> => {
    const points = new Map<number | string, number | null>();
    if (axis !== 'category') {
      for (const [key, state] of map) points.set(key, aggregator.result(state));
      return points;
    }
    // 1 and "1" were separate groups; they share the label "1", so they become one point.
    const byLabel = new Map<string, GroupState>();
    for (const [key, state] of map) {
      const label = typeof key === 'number' ? String(key) : key;
      const existing = byLabel.get(label);
      if (existing === undefined) byLabel.set(label, state);
      else aggregator.merge(existing, state);
    }
    for (const [label, state] of byLabel) points.set(label, aggregator.result(state));
    return points;
  };

  return {
    consume,
    result() {
      if (partitions === null) return { axis, points: pointsOf(groups!) };
      // Breakdown values 1 and "1" share the label "1": their groups are merged, key by key.
      const byLabel = new Map<string, Map<number | string, GroupState>>();
      for (const [part, map] of partitions) {
        const label = typeof part === 'number' ? String(part) : part;
        const existing = byLabel.get(label);
        if (existing === undefined) {
          byLabel.set(label, map);
          continue;
        }
        for (const [key, state] of map) {
          const into = existing.get(key);
          if (into === undefined) existing.set(key, state);
          else aggregator.merge(into, state);
        }
      }
      const breakdown = new Map<string, Map<number | string, number | null>>();
      for (const [label, map] of byLabel) breakdown.set(label, pointsOf(map));
      return { axis, points: new Map(), breakdown };
    },
  };
}

/** Streams `rows` once through the plan; stops reading once the chart's byte budget is spent. */
export async function aggregateSeries(ctx: EngineContext, plan: SeriesPlan, rows: RowSource, stop?: StopFlag): Promise<AggregatedSeries> {
  const aggregation = createSeriesAggregation(ctx, plan);
  const { budget } = ctx;
  const halt: StopFlag = {
    get stopped() {
      return budget.exceeded || (stop?.stopped ?? false);
    },
  };
  await forEachRow(rows, aggregation.consume, halt);
  return aggregation.result();
}
