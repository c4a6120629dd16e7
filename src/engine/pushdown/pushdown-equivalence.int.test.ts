/**
 * The pushdown promise, checked on real servers: for random rows and random eligible chart
 * configurations, with random runtime filters (a dashboard's field and date filters, turned into
 * conditions as chart runs turn them), the grouped query's chartData equals the streaming
 * engine's, deep-equal.
 *
 * Each run creates a fresh table in a scratch database, inserts the rows, reads the user's query
 * back through the real source (so the streaming engine sees exactly the values the service would
 * hand it), and runs the pushdown plan with the same bound parameters the service would send.
 * The data sits around DST changes (Europe/Paris, America/New_York) and a year boundary, with
 * wall-clock values in skipped and repeated hours.
 */
import fc from 'fast-check';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../../test/helpers/postgres-server.js';
import { runtimeFilterConditions } from '../../../test/helpers/runtime-filters.js';
import { assertReadOnlyStatement } from '../../sources/statement-safety/index.js';
import { MysqlSource } from '../../sources/mysql/mysql-source.js';
import { PoolManager } from '../../sources/pool-manager.js';
import { PostgresSource } from '../../sources/postgres/postgres-source.js';
import { postgresTypes } from '../../sources/postgres/value-types.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../../../test/helpers/services.js';
import type { ResolvedVariables, Row, RowStream, Source, SourceConnection } from '../../sources/types.js';
import { resolveVariables } from '../../sources/variables/resolve.js';
import { compileSql } from '../../sources/variables/sql.js';
import { assembleChartData, computeChartData, planChart } from '../chart-data.js';
import { createEngineContext } from '../context.js';
import { aggregateSeries, BREAKDOWN_CHART_TYPES, type AggregatedSeries } from '../series.js';
import { CONDITION_OPERATORS, type AxisChartData, type ChartCondition, type ChartInput, type ChartType, type DatasetConfigInput } from '../types.js';
import {
  buildPushdownPlan,
  canPushDown,
  describeSql,
  PushdownFallbackError,
  resultToSeries,
  type PushdownDialect,
  type ResultColumn,
} from './index.js';

/** Fixed so CI is repeatable; PLOTLINE_PUSHDOWN_SEED / _RUNS explore further or replay a failure. */
const SEED = Number(process.env['PLOTLINE_PUSHDOWN_SEED'] ?? 20250105);
const RUNS = Number(process.env['PLOTLINE_PUSHDOWN_RUNS'] ?? 60);
const NOW = new Date('2025-01-03T12:00:00Z');
const DAY = 86_400_000;

// -- data --------------------------------------------------------------------------------------

/** Instants next to DST changes (Paris, New York) and the year boundary. */
const INSTANT_ANCHORS = ['2024-03-10T07:00:00Z', '2024-03-31T01:00:00Z', '2024-10-27T01:00:00Z', '2024-11-03T06:00:00Z', '2024-12-31T23:00:00Z'].map(Date.parse);
/** Wall-clock times (written as UTC) at the start of skipped and repeated hours, and New Year's Eve. */
const WALL_ANCHORS = ['2024-03-10T02:00:00Z', '2024-03-31T02:00:00Z', '2024-10-27T02:00:00Z', '2024-11-03T01:00:00Z', '2024-12-31T23:30:00Z'].map(Date.parse);

/** Around an anchor: minutes within hours (DST hot spots), hours within days, any millisecond within days. */
const near = (anchors: number[], spread: Focus['spread']): fc.Arbitrary<number> =>
  fc
    .tuple(
      fc.constantFrom(...anchors),
      spread === 'tight'
        ? fc.oneof(
            fc.integer({ min: -90, max: 150 }).map((m) => m * 60_000),
            fc.integer({ min: -90 * 60_000, max: 150 * 60_000 }),
          )
        : fc.oneof(
            fc.integer({ min: -4 * 60, max: 4 * 60 }).map((m) => m * 60_000),
            fc.integer({ min: -3 * 24, max: 3 * 24 }).map((h) => h * 3_600_000),
            fc.integer({ min: -3 * DAY, max: 3 * DAY }),
          ),
    )
    .map(([a, d]) => a + d);

/** Case, trailing space, composed/decomposed, fullwidth, numeric-looking, astral, empty. */
const CATEGORIES = ['a', 'A', 'a ', 'b', 'é', 'e\u0301', '10', '9', '-1', '1.50', "x'y", '😀', '', 'Zz', '\uFF21'];
const STATUSES = ['paid', 'pending', 'refunded', 'Paid', 'PAID', 'paid '];

interface DataRow {
  id: number;
  at_tz: number | null;
  at_local: number | null;
  day: number | null;
  category: string | null;
  status: string | null;
  amount: number | null;
  qty: number | null;
  big: number | bigint | null;
  score: number | null;
  flag: boolean | null;
}

const nullable = <T,>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { nil: null, freq: 6 });

/** Local midnights (Paris, New York, UTC, Kolkata) and condition instants: window and span edges. */
const EDGE_INSTANTS = [
  '2024-10-26T22:00:00Z',
  '2024-10-27T23:00:00Z',
  '2024-10-31T23:00:00Z',
  '2024-11-03T04:00:00Z',
  '2024-11-04T05:00:00Z',
  '2024-10-27T00:00:00Z',
  '2024-10-28T00:00:00Z',
  '2024-10-26T18:30:00Z',
  '2024-10-27T01:30:00Z',
  '2024-03-31T01:00:00Z',
].map(Date.parse);
const EDGE_WALLS = ['2024-10-27T00:00:00Z', '2024-10-28T00:00:00Z', '2024-11-01T00:00:00Z', '2024-03-31T02:30:00Z', '2024-11-03T01:30:00Z', '2024-10-27T02:30:00Z'].map(Date.parse);
const edge = (anchors: number[]): fc.Arbitrary<number> =>
  fc.tuple(fc.constantFrom(...anchors), fc.constantFrom(0, 0, -1, -1, 1, -1000, 3_600_000)).map(([a, d]) => a + d);
/** Epoch seconds at local midnights: numbers that date conditions read as instants. */
const EPOCH_SECONDS = [1729980000, 1729987200, 1730070000, 1730073600];

function rowArb(dialect: PushdownDialect, spread: Focus['spread']): fc.Arbitrary<Omit<DataRow, 'id'>> {
  const specialScores = dialect === 'postgres' ? [Number.NaN, Infinity, -Infinity] : [];
  const edges = spread === 'edges';
  return fc.record({
    at_tz: nullable(edges ? edge(EDGE_INSTANTS) : near(INSTANT_ANCHORS, spread)),
    at_local: nullable(edges ? edge(EDGE_WALLS) : near(WALL_ANCHORS, spread)),
    day: nullable((edges ? edge(EDGE_WALLS) : near(WALL_ANCHORS, 'wide')).map((w) => Math.floor(w / DAY) * DAY)),
    category: nullable(fc.constantFrom(...CATEGORIES)),
    status: nullable(fc.constantFrom(...STATUSES)),
    amount: nullable(fc.oneof(fc.integer({ min: -50_000, max: 50_000 }).map((c) => c / 100), fc.constantFrom(12.5, 5, -0.25, 1.5))),
    qty: nullable(edges ? fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constantFrom(...EPOCH_SECONDS)) : fc.integer({ min: -20, max: 40 })),
    big: nullable(
      fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -5, max: 30 }) }, { weight: 1, arbitrary: fc.constantFrom(9007199254740993n, 1234567890123456789n) }),
    ),
    score: nullable(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: -400, max: 400 }).map((v) => v / 8) },
        { weight: 2, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }) },
        ...(specialScores.length > 0 ? [{ weight: edges ? 3 : 1, arbitrary: fc.constantFrom(...specialScores) }] : []),
        ...(edges ? [{ weight: 2, arbitrary: fc.constantFrom(...EPOCH_SECONDS) }] : []),
      ),
    ),
    flag: nullable(fc.boolean()),
  });
}

const wallText = (ms: number): string => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

// -- configurations ----------------------------------------------------------------------------

type Axis = 'time' | 'category' | 'none';

/**
 * What a property draws from. `broad` mixes everything; the others pile up one risk each: time
 * buckets in DST zones over rows in skipped and repeated hours; strings that differ only by case,
 * padding or normalisation; conditions and windows over values sitting exactly on their edges;
 * sort and maxRecords with ties.
 */
interface Focus {
  name: string;
  types: string[];
  intervals: string[];
  zones: string[];
  axes: Axis[];
  timeColumns: Record<PushdownDialect, string[]>;
  categoryColumns: Record<PushdownDialect, string[]>;
  conditionFields: Record<PushdownDialect, string[]>;
  windowDates: string[];
  spread: 'wide' | 'tight' | 'edges';
  datasets: [number, number];
  conditionsPerDataset: [number, number];
  /** Runtime filters of the chart run (field filters on conditionFields, date ranges on each configuration's date field). */
  runtimeFilters: [number, number];
  operations: string[];
  /** How often a line, bar or radar dataset splits its series by a breakdown column (0 to 1). */
  breakdowns?: number;
  /** Last word on a generated chart or dataset (e.g. always sort, never a formula). */
  chart?: (chart: ChartInput) => ChartInput;
  dataset?: (config: DatasetConfigInput) => DatasetConfigInput;
}

const OPERATIONS = ['count', 'count', 'count_unique', 'sum', 'avg', 'min', 'max'];

const ALL_TYPES = ['line', 'bar', 'pie', 'doughnut', 'radar', 'polar', 'kpi', 'avg', 'gauge', 'matrix'];
const PG_DATES = ['at_tz', 'at_local', 'day'];
const MY_DATES = ['at_tz', 'at_local', 'day'];
const OTHER_FIELDS = ['category', 'status', 'qty', 'big', 'amount', 'score', 'flag'];

const FOCUSES: Record<'broad' | 'time' | 'text' | 'conditions' | 'limits' | 'filters' | 'breakdown', Focus> = {
  broad: {
    name: 'random charts',
    types: ALL_TYPES,
    intervals: ['second', 'minute', 'hour', 'hour', 'day', 'day', 'week', 'week', 'month', 'year'],
    zones: ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'],
    axes: ['time', 'category', 'none'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    // A timestamptz category is its session-dependent ISO text: not pushed down (MySQL TIMESTAMP is wall-clock).
    categoryColumns: { postgres: [...OTHER_FIELDS, 'day', 'at_local'], mysql: [...OTHER_FIELDS, 'day', 'at_local', 'at_tz'] },
    conditionFields: { postgres: [...OTHER_FIELDS, ...PG_DATES], mysql: [...OTHER_FIELDS, ...MY_DATES] },
    windowDates: ['2024-03-08', '2024-03-30', '2024-10-26', '2024-11-02', '2024-12-30', '2025-01-01', '2024-10-27T00:30:00Z'],
    spread: 'wide',
    datasets: [1, 2],
    conditionsPerDataset: [0, 3],
    runtimeFilters: [0, 2],
    operations: OPERATIONS,
    breakdowns: 0.25,
  },
  time: {
    name: 'time buckets around DST changes',
    types: ['line', 'bar', 'kpi', 'avg', 'matrix'],
    intervals: ['second', 'minute', 'hour', 'hour', 'day', 'week', 'month', 'year'],
    zones: ['Europe/Paris', 'America/New_York', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'],
    axes: ['time'],
    timeColumns: { postgres: ['at_local', 'at_local', 'at_tz', 'day'], mysql: ['at_local', 'at_local', 'at_tz', 'day'] },
    categoryColumns: { postgres: ['category'], mysql: ['category'] },
    conditionFields: { postgres: PG_DATES, mysql: MY_DATES },
    windowDates: ['2024-03-10', '2024-03-31', '2024-10-27', '2024-11-03', '2024-10-27T00:30:00Z', '2024-03-31T01:30:00Z', '2024-11-03T05:30:00Z'],
    spread: 'tight',
    datasets: [1, 2],
    conditionsPerDataset: [0, 2],
    runtimeFilters: [0, 2],
    operations: OPERATIONS,
  },
  text: {
    name: 'text semantics',
    types: ['bar', 'pie', 'doughnut', 'radar', 'polar', 'line'],
    intervals: ['day'],
    zones: ['UTC', 'Europe/Paris'],
    axes: ['category'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    categoryColumns: { postgres: ['category', 'status'], mysql: ['category', 'status'] },
    conditionFields: { postgres: ['category', 'status', 'category', 'status', 'at_local', 'qty'], mysql: ['category', 'status', 'category', 'status', 'at_local', 'qty'] },
    windowDates: ['2024-03-08', '2024-10-26', '2025-01-01'],
    spread: 'wide',
    datasets: [2, 4],
    conditionsPerDataset: [1, 2],
    runtimeFilters: [0, 2],
    operations: ['count', 'count_unique'],
  },
  conditions: {
    name: 'conditions on edges',
    types: ['bar', 'pie'],
    intervals: ['day'],
    zones: ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'],
    axes: ['category', 'none'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    categoryColumns: { postgres: ['status', 'qty', 'flag'], mysql: ['status', 'qty', 'flag'] },
    conditionFields: { postgres: [...OTHER_FIELDS, ...PG_DATES, ...PG_DATES], mysql: [...OTHER_FIELDS, ...MY_DATES, ...MY_DATES] },
    windowDates: ['2024-10-27', '2024-10-27', '2024-10-26', '2024-11-03', '2024-10-27T01:30:00Z'],
    spread: 'edges',
    datasets: [3, 4],
    conditionsPerDataset: [1, 2],
    runtimeFilters: [0, 2],
    operations: ['count'],
  },
  limits: {
    name: 'sort and maxRecords',
    types: ['bar', 'pie', 'doughnut', 'radar', 'polar', 'line', 'kpi'],
    intervals: ['hour', 'day', 'week'],
    zones: ['UTC', 'Europe/Paris'],
    axes: ['category', 'time'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    categoryColumns: { postgres: ['status', 'qty', 'big', 'flag', 'amount', 'score', 'day'], mysql: ['status', 'qty', 'big', 'flag', 'amount', 'score', 'day', 'at_local'] },
    conditionFields: { postgres: ['qty'], mysql: ['qty'] },
    windowDates: ['2024-03-08', '2024-12-30'],
    spread: 'wide',
    datasets: [1, 1],
    conditionsPerDataset: [0, 1],
    runtimeFilters: [0, 1],
    operations: ['count', 'count', 'count_unique', 'sum', 'min', 'max'],
    chart: (chart) => ({ ...chart, subType: null, includeZeros: false }),
    dataset: (config) => ({ ...config, formula: null, sort: config.sort ?? 'desc', maxRecords: config.maxRecords ?? 2 }),
    breakdowns: 0.3,
  },
  breakdown: {
    name: 'breakdowns',
    types: ['line', 'bar', 'radar'],
    intervals: ['hour', 'day', 'week', 'month'],
    zones: ['UTC', 'Europe/Paris', 'America/New_York'],
    axes: ['time', 'category', 'none'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    categoryColumns: { postgres: [...OTHER_FIELDS, 'day', 'at_local'], mysql: [...OTHER_FIELDS, 'day', 'at_local', 'at_tz'] },
    conditionFields: { postgres: [...OTHER_FIELDS, ...PG_DATES], mysql: [...OTHER_FIELDS, ...MY_DATES] },
    windowDates: ['2024-03-08', '2024-10-26', '2024-11-02', '2024-12-30'],
    spread: 'wide',
    datasets: [1, 2],
    conditionsPerDataset: [0, 2],
    runtimeFilters: [0, 1],
    operations: OPERATIONS,
    breakdowns: 1,
  },
  filters: {
    name: 'runtime filters',
    types: ['line', 'bar', 'pie', 'kpi', 'avg', 'matrix'],
    intervals: ['hour', 'day', 'day', 'week', 'month'],
    zones: ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'],
    axes: ['time', 'category', 'none'],
    timeColumns: { postgres: PG_DATES, mysql: MY_DATES },
    categoryColumns: { postgres: ['category', 'status', 'qty', 'flag', 'day'], mysql: ['category', 'status', 'qty', 'flag', 'day', 'at_local'] },
    conditionFields: { postgres: [...OTHER_FIELDS, ...PG_DATES], mysql: [...OTHER_FIELDS, ...MY_DATES] },
    windowDates: ['2024-10-26', '2024-10-27', '2024-11-03', '2025-01-01'],
    spread: 'edges',
    datasets: [1, 3],
    conditionsPerDataset: [0, 1],
    runtimeFilters: [1, 4],
    operations: OPERATIONS,
  },
};

const conditionValue: Record<string, fc.Arbitrary<unknown>> = {
  text: fc.oneof(
    fc.constantFrom(...CATEGORIES, ...STATUSES, 'pai', 'PAI', 'true', 'zzz', 'a  ', false),
    fc.array(fc.constantFrom(...CATEGORIES, ...STATUSES), { minLength: 1, maxLength: 3 }),
  ),
  number: fc.oneof(
    fc.integer({ min: -20, max: 40 }),
    fc.constantFrom('5', '12.5', 'abc', '2024-10-27', '2024-10-27T00:00:00', 1.5, -0.25, 12.5, true, false, 0, 1e16),
    fc.array(fc.integer({ min: -5, max: 10 }), { minLength: 1, maxLength: 3 }),
  ),
  date: fc.constantFrom(
    '2024-10-27',
    '2024-10',
    '2024-03-31T02:30',
    '2024-10-27T02:30',
    '2024-10-27T01:30:00Z',
    '2024-03-10T02:30:00',
    '2024-11-03T01:30:00',
    '2024-12-31',
    '2025',
    1730000000,
    'abc',
    false,
    ['2024-10-27', '2024-03-31'],
  ),
  flag: fc.constantFrom(true, false, 'true', 'false', 1, 0, 'yes', [true, false]),
};

/** In the edges focus, values sit on the same edges as the rows: spans holding rows, epochs, NaN's neighbours. */
const edgeConditionValue: Record<string, fc.Arbitrary<unknown>> = {
  ...conditionValue,
  number: fc.constantFrom(0, 1, 5, 12.5, '5', -1, 'abc', '2024-10-27', '2024-10-27T00:00:00', [1, 5], false),
  date: fc.constantFrom('2024-10-27', '2024-10', '2024-10-28', '2024-10-27T00:00:00', '2024-10-27T01:30:00Z', '2024-10-26T22:00:00Z', ['2024-10-27', '2024-11-03'], 'abc', 2024),
};

function columnFamily(column: string): keyof typeof conditionValue {
  if (['category', 'status'].includes(column)) return 'text';
  if (['at_tz', 'at_local', 'day'].includes(column)) return 'date';
  if (column === 'flag') return 'flag';
  return 'number';
}

const conditionArb = (dialect: PushdownDialect, focus: Focus): fc.Arbitrary<ChartCondition> =>
  fc.constantFrom(...focus.conditionFields[dialect]).chain((field) =>
    fc.record({
      field: fc.constantFrom(field, `root[].${field}`),
      operator: fc.constantFrom('is', 'isNot', 'contains', 'notContains', 'greaterThan', 'greaterOrEqual', 'lessThan', 'lessOrEqual', 'isNull', 'isNotNull'),
      value: (focus.spread === 'edges' ? edgeConditionValue : conditionValue)[columnFamily(field)]!,
      // Mostly untyped (compared per value); sometimes a forced comparison type.
      type: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('number', 'date', 'string', 'boolean') }),
    }),
  );

/**
 * Date filter bounds as a dashboard sends them: calendar dates, date-times without a zone, and
 * presets resolved to instants (a day's first millisecond to its last, in Paris, New York, UTC).
 */
const FILTER_DATES = [
  '2024-10-27',
  '2024-10-26',
  '2024-11-03',
  '2024-03-31',
  '2024-10-27T02:30:00',
  '2024-10-26T22:00:00.000Z',
  '2024-10-27T22:59:59.999Z',
  '2024-11-03T04:00:00.000Z',
  '2024-11-04T04:59:59.999Z',
  '2024-10-27T00:00:00.000Z',
  '2024-10-27T23:59:59.999Z',
  '2024-10-27T01:30:00Z',
  '2024-12-31T23:59:59.999Z',
];

/**
 * A runtime filter of a chart run, as a request's `filters` holds it: a field filter with any of
 * the condition operators (or none: `is`), or a date range on the configurations' date fields.
 */
const runtimeFilterArb = (dialect: PushdownDialect, focus: Focus): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...focus.conditionFields[dialect]).chain((field) =>
        fc.record({
          field: fc.constantFrom(field, `root[].${field}`),
          operator: fc.constantFrom(undefined, ...CONDITION_OPERATORS),
          value: (focus.spread === 'edges' ? edgeConditionValue : conditionValue)[columnFamily(field)]!,
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          type: fc.constant('date'),
          startDate: fc.option(fc.constantFrom(...FILTER_DATES), { nil: null }),
          endDate: fc.option(fc.constantFrom(...FILTER_DATES), { nil: null }),
        })
        // A range ends after it starts: the run routes refuse one that does not (400 naming endDate).
        .map((f) => (f.startDate !== null && f.endDate !== null && Date.parse(f.endDate) < Date.parse(f.startDate) ? { ...f, startDate: f.endDate, endDate: f.startDate } : f)),
    },
  );

const AXES: Record<string, Axis[]> = {
  line: ['time', 'category', 'none'],
  bar: ['time', 'category', 'none'],
  pie: ['category', 'none'],
  doughnut: ['category', 'none'],
  radar: ['category'],
  polar: ['category', 'none'],
  kpi: ['time', 'none'],
  avg: ['time', 'none'],
  gauge: ['time', 'none'],
  matrix: ['time'],
};

function datasetArb(dialect: PushdownDialect, type: string, focus: Focus): fc.Arbitrary<DatasetConfigInput> {
  const axes = AXES[type]!.filter((a) => focus.axes.includes(a));
  return fc
    .record({
      axis: fc.constantFrom(...(axes.length > 0 ? axes : AXES[type]!)),
      date: fc.constantFrom(...focus.timeColumns[dialect]),
      otherDate: fc.constantFrom(...focus.timeColumns[dialect]),
      separateTime: fc.boolean(),
      category: fc.constantFrom(...focus.categoryColumns[dialect]),
      windowField: fc.option(fc.constantFrom(...focus.timeColumns[dialect]), { nil: null }),
      op: fc.constantFrom(...focus.operations),
      countField: fc.option(fc.constantFrom('category', 'amount', 'score', 'at_local', 'flag'), { nil: null }),
      distinctField: fc.constantFrom(...focus.categoryColumns[dialect], 'category', 'status'),
      sumField: fc.constantFrom('amount', 'qty', 'amount', 'big', 'flag', 'day'),
      extremeField: fc.constantFrom('amount', 'qty', 'big', 'score', 'flag', 'day'),
      sort: fc.constantFrom(null, null, 'asc', 'desc'),
      maxRecords: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      formula: fc.constantFrom(null, null, null, '{val * 2}', '€{round(val, 1)}'),
      goal: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
      legend: fc.constantFrom('Orders', 'Revenue', null),
      breakdown: fc.constantFrom(...focus.categoryColumns[dialect]),
      split: fc.double({ min: 0, max: 1, noNaN: true }),
      breakdownLimit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 2 }),
      breakdownOther: fc.boolean(),
    })
    .map((g) => {
      const config: DatasetConfigInput = { legend: g.legend, sort: g.sort, maxRecords: g.maxRecords, formula: g.formula, goal: g.goal };
      if (BREAKDOWN_CHART_TYPES.has(type as ChartType) && g.split < (focus.breakdowns ?? 0)) config.breakdown = `root[].${g.breakdown}`;
      if (g.axis === 'time') {
        if (g.separateTime && type !== 'matrix') {
          Object.assign(config, { xAxis: `root[].${g.date}`, dateField: `root[].${g.otherDate}`, xAxisType: 'time' });
        } else Object.assign(config, { xAxis: `root[].${g.date}`, dateField: `root[].${g.date}` });
      } else if (g.axis === 'category') {
        Object.assign(config, { xAxis: `root[].${g.category}`, dateField: g.windowField === null ? null : `root[].${g.windowField}` });
      } else if (g.windowField !== null) config.dateField = `root[].${g.windowField}`;
      config.yAxisOperation = g.op;
      if (g.op === 'count') config.yAxis = g.countField;
      else if (g.op === 'count_unique') config.yAxis = g.distinctField;
      else if (g.op === 'sum' || g.op === 'avg') config.yAxis = g.sumField;
      else config.yAxis = g.extremeField;
      // An avg chart without a time axis averages the values themselves (planSeries).
      if (type === 'avg' && g.axis !== 'time') Object.assign(config, { yAxisOperation: 'avg', yAxis: g.sumField });
      // A breakdown's limit, and its "Other" series where the values add up.
      if (config.breakdown) Object.assign(config, { breakdownLimit: g.breakdownLimit, breakdownOther: g.breakdownOther && (g.op === 'count' || g.op === 'sum') });
      return focus.dataset ? focus.dataset(config) : config;
    });
}

const chartArb = (focus: Focus): fc.Arbitrary<ChartInput> =>
  fc
    .record({
      type: fc.constantFrom(...focus.types),
      timeInterval: fc.constantFrom(...focus.intervals),
      timezone: fc.constantFrom(...focus.zones),
      includeZeros: fc.boolean(),
      cumulative: fc.boolean(),
      showGrowth: fc.boolean(),
      startDate: fc.option(fc.constantFrom(...focus.windowDates), { nil: null, freq: 2 }),
      endDate: fc.option(fc.constantFrom(...focus.windowDates), { nil: null, freq: 2 }),
      currentEndDate: fc.boolean(),
      fixedStartDate: fc.boolean(),
      missingValues: fc.constantFrom('zero', 'preserve'),
      stackPercent: fc.boolean(),
    })
    .map((c): ChartInput => {
      const chart: ChartInput = {
        type: c.type,
        timeInterval: c.timeInterval,
        timezone: c.timezone,
        includeZeros: c.includeZeros,
        subType: c.cumulative ? 'lcTimeseries AddTimeseries' : null,
        showGrowth: c.showGrowth,
        startDate: c.startDate,
        endDate: c.endDate,
        currentEndDate: c.currentEndDate,
        fixedStartDate: c.fixedStartDate,
        missingValues: c.missingValues,
        stackPercent: c.stackPercent,
        now: NOW,
        ranges: c.type === 'gauge' ? [{ min: 0, max: 10 }] : null,
      };
      return focus.chart ? focus.chart(chart) : chart;
    });

interface Scenario {
  chart: ChartInput;
  configs: DatasetConfigInput[];
  candidates: ChartCondition[][];
  /** The run's runtime filters (`body.filters`). */
  filters: unknown[];
  rows: Array<Omit<DataRow, 'id'>>;
  minId: number;
}

const scenarioArb = (dialect: PushdownDialect, focus: Focus): fc.Arbitrary<Scenario> =>
  chartArb(focus).chain((chart) =>
    fc.record({
      chart: fc.constant(chart),
      configs: fc.array(datasetArb(dialect, String(chart.type), focus), { minLength: focus.datasets[0], maxLength: focus.datasets[1] }),
      candidates: fc.array(
        fc.array(conditionArb(dialect, focus), { minLength: focus.conditionsPerDataset[0], maxLength: focus.conditionsPerDataset[1] }),
        { minLength: focus.datasets[1], maxLength: focus.datasets[1] },
      ),
      filters: fc.array(runtimeFilterArb(dialect, focus), { minLength: focus.runtimeFilters[0], maxLength: focus.runtimeFilters[1] }),
      // 'medium' lets arrays reach maxLength; the default size keeps them around ten rows.
      rows: fc.array(rowArb(dialect, focus.spread), { minLength: 0, maxLength: 80, size: 'medium' }),
      minId: fc.integer({ min: -1, max: 5 }),
    }),
  );

// -- the databases -----------------------------------------------------------------------------

interface Target {
  dialect: PushdownDialect;
  conn: SourceConnection;
  source: Source;
  pools: PoolManager;
  createTable(name: string, rows: DataRow[]): Promise<void>;
  dropTable(name: string): Promise<void>;
  /** Administrative statements (examples' own tables). */
  exec(sqlText: string): Promise<void>;
  /** Runs a pushdown plan with its bound parameters, as the source would. */
  query(sqlText: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

async function postgresTarget(url: string): Promise<Target> {
  const temp = await createTempDatabase(url);
  const dbUrl = new URL(temp.url);
  const admin = new pg.Client({ connectionString: temp.url, types: postgresTypes });
  await admin.connect();
  const pools = new PoolManager();
  return {
    dialect: 'postgres',
    pools,
    source: new PostgresSource(pools),
    conn: {
      id: `pushdown-pg-${dbUrl.pathname.slice(1)}`,
      type: 'postgres',
      host: dbUrl.hostname,
      port: dbUrl.port || '5432',
      dbName: dbUrl.pathname.slice(1),
      username: decodeURIComponent(dbUrl.username),
      password: decodeURIComponent(dbUrl.password),
    },
    async createTable(name, rows) {
      await admin.query(
        `create table ${name} (id int primary key, at_tz timestamptz, at_local timestamp(3), day date, category text, status varchar(20),
           amount numeric(12,2), qty int, big int8, score float8, flag bool)`,
      );
      for (let i = 0; i < rows.length; i += 50) {
        const chunk = rows.slice(i, i + 50);
        const values: unknown[] = [];
        const tuples = chunk.map((r) => {
          const base = values.length;
          values.push(
            r.id,
            r.at_tz === null ? null : new Date(r.at_tz).toISOString(),
            r.at_local === null ? null : wallText(r.at_local),
            r.day === null ? null : dayText(r.day),
            r.category,
            r.status,
            r.amount === null ? null : r.amount.toFixed(2),
            r.qty,
            r.big === null ? null : String(r.big),
            r.score === null ? null : String(r.score),
            r.flag,
          );
          return `(${Array.from({ length: 11 }, (_, k) => `$${base + k + 1}`).join(', ')})`;
        });
        await admin.query(`insert into ${name} values ${tuples.join(', ')}`, values);
      }
    },
    async dropTable(name) {
      await admin.query(`set lock_timeout = '5s'; drop table if exists ${name}`);
    },
    async exec(sqlText) {
      await admin.query(sqlText);
    },
    async query(sqlText, params) {
      return (await admin.query(sqlText, params)).rows as Row[];
    },
    async close() {
      await pools.closeAll();
      await admin.end();
      await temp.drop();
    },
  };
}

async function mysqlTarget(temp: TempMysqlDatabase): Promise<Target> {
  const pools = new PoolManager();
  // The same driver settings as the MySQL source's pool, without its value normalisation
  // (which resultToSeries must not depend on).
  const runner = await mysql.createConnection({
    host: temp.host,
    port: Number(temp.port),
    user: temp.user,
    password: temp.password,
    database: temp.name,
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    charset: 'utf8mb4',
  });
  return {
    dialect: 'mysql',
    pools,
    source: new MysqlSource(pools),
    conn: { id: `pushdown-my-${temp.name}`, type: 'mysql', host: temp.host, port: temp.port, dbName: temp.name, username: temp.user, password: temp.password },
    async createTable(name, rows) {
      await temp.exec(
        `CREATE TABLE ${name} (id INT PRIMARY KEY, at_tz TIMESTAMP(3) NULL, at_local DATETIME(3), day DATE, category VARCHAR(20), status VARCHAR(20),
           amount DECIMAL(12,2), qty INT, big BIGINT, score DOUBLE, flag TINYINT(1)) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci`,
      );
      if (rows.length === 0) return;
      const values = rows.map((r) => [
        r.id,
        r.at_tz === null ? null : wallText(r.at_tz),
        r.at_local === null ? null : wallText(r.at_local),
        r.day === null ? null : dayText(r.day),
        r.category,
        r.status,
        r.amount === null ? null : r.amount.toFixed(2),
        r.qty,
        r.big === null ? null : String(r.big),
        r.score,
        r.flag === null ? null : Number(r.flag),
      ]);
      await temp.exec(`INSERT INTO ${name} VALUES ?`, [values]);
    },
    async dropTable(name) {
      await temp.exec(`DROP TABLE IF EXISTS ${name}`);
    },
    async exec(sqlText) {
      await temp.exec(sqlText);
    },
    async query(sqlText, params) {
      const [rows] = await runner.execute(sqlText, params as never[]);
      return rows as Row[];
    },
    async close() {
      await pools.closeAll();
      await runner.end();
      await temp.drop();
    },
  };
}

async function probePostgres(url: string): Promise<{ ok: boolean; reason: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true, reason: '' };
  } catch (error) {
    return { ok: false, reason: `Postgres at ${new URL(url).host} is unreachable (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

// -- the property ------------------------------------------------------------------------------

interface Tally {
  runs: number;
  datasets: number;
  conditions: number;
  conditionsRefused: number;
  fallbacks: number;
  reasons: Set<string>;
  /** Configurations that runtime filters added conditions to, and how many of those were still pushed down. */
  filtered: number;
  filteredPushed: number;
}

interface BothPaths {
  streamed: unknown;
  pushed: unknown;
  fallbacks: string[];
  /** Configurations the database could not compute exactly (the service streams them). */
  ineligible: number[];
}

/**
 * The service's two paths over one user query: every dataset streamed through the source into
 * computeChartData, and every dataset pushed down (streamed instead on PushdownFallbackError, and
 * where runtime filters made it ineligible, as the chart run does). A grouped query must also pass
 * the statement check every SQL run goes through.
 */
async function runBothPaths(
  target: Target,
  chart: ChartInput,
  configs: DatasetConfigInput[],
  userSql: string,
  variables: ResolvedVariables,
  columns: readonly ResultColumn[],
): Promise<BothPaths> {
  // Cursors left open by a failing run would hold locks on the table: always closed.
  const opened: RowStream[] = [];
  const open = async (): Promise<RowStream> => {
    const stream = await target.source.stream!(target.conn, { query: userSql }, { variables });
    opened.push(stream);
    return stream;
  };
  try {
    const streams = await Promise.all(configs.map(() => open()));
    const streamed = await computeChartData(
      chart,
      configs.map((config, i) => ({ config, rows: { batches: streams[i]! } })),
    );
    const ctx = createEngineContext(chart);
    const plans = planChart(ctx, configs);
    const series: AggregatedSeries[] = [];
    const fallbacks: string[] = [];
    const ineligible: number[] = [];
    for (const [i, config] of configs.entries()) {
      if (!canPushDown(chart, config, target.dialect, { columns, datasets: configs }).ok) {
        ineligible.push(i);
        series.push(await aggregateSeries(ctx, plans[i]!, { batches: await open() }));
        continue;
      }
      const plan = buildPushdownPlan(chart, config, compileSql(userSql, target.dialect, variables), target.dialect, { columns, datasets: configs });
      await assertReadOnlyStatement(plan.sql, target.dialect);
      const grouped = await target.query(plan.sql, plan.params);
      try {
        series.push(resultToSeries(plan, grouped));
      } catch (error) {
        if (!(error instanceof PushdownFallbackError)) throw error;
        fallbacks.push(error.reason);
        series.push(await aggregateSeries(ctx, plans[i]!, { batches: await open() }));
      }
    }
    // chartData is stored as JSON: compare what would be saved.
    const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
    return { streamed: json(streamed), pushed: json(assembleChartData(ctx, plans, series)), fallbacks, ineligible };
  } finally {
    await Promise.all(opened.map((stream) => stream.close().catch(() => undefined)));
  }
}

async function describeColumns(target: Target, userSql: string, variables: ResolvedVariables): Promise<ResultColumn[]> {
  const described = await target.source.run(target.conn, { query: describeSql(userSql, target.dialect)! }, { variables });
  return described.meta.columns;
}

async function checkScenario(target: Target, scenario: Scenario, run: number, tally: Tally): Promise<void> {
  const table = `pd_run_${run}`;
  const rows: DataRow[] = scenario.rows.map((r, i) => ({ id: i + 1, ...r }));
  if (target.dialect === 'mysql') {
    // MySQL stores no NaN or infinities.
    for (const r of rows) if (r.score !== null && !Number.isFinite(r.score)) r.score = null;
  }
  await target.dropTable(table);
  await target.createTable(table, rows);
  try {
    const userSql = `SELECT * FROM ${table} WHERE id >= {{min_id}} ORDER BY id;`;
    const variables: ResolvedVariables = resolveVariables({
      bindings: [{ name: 'min_id', type: 'number', default_value: '0' }],
      runtime: { min_id: scenario.minId },
    });
    const columns = await describeColumns(target, userSql, variables);
    expect(columns.map((c) => c.name)).toContain('amount');

    // Conditions join a configuration only when it stays eligible; the rest are counted.
    const configs = scenario.configs.map((config, i) => {
      const base = canPushDown(scenario.chart, config, target.dialect, { columns });
      if (!base.ok) throw new Error(`generated configuration is not eligible: ${base.reason}\n${JSON.stringify(config)}`);
      let current: DatasetConfigInput = config;
      for (const condition of scenario.candidates[i] ?? []) {
        tally.conditions += 1;
        const next = { ...current, conditions: [...(current.conditions ?? []), condition] };
        if (canPushDown(scenario.chart, next, target.dialect, { columns }).ok) current = next;
        else tally.conditionsRefused += 1;
      }
      return current;
    });
    // Runtime filters are conditions of every configuration (on its own date field), whatever
    // they do to eligibility: a configuration they make ineligible streams, as in a chart run.
    const filtered = new Set<number>();
    const runConfigs = configs.map((config, i) => {
      const extra = runtimeFilterConditions(scenario.filters, config.dateField);
      if (extra.length === 0) return config;
      filtered.add(i);
      return { ...config, conditions: [...(config.conditions ?? []), ...extra] };
    });

    const both = await runBothPaths(target, scenario.chart, runConfigs, userSql, variables, columns);
    tally.datasets += runConfigs.length - both.ineligible.length;
    tally.filtered += filtered.size;
    tally.filteredPushed += [...filtered].filter((i) => !both.ineligible.includes(i)).length;
    tally.fallbacks += both.fallbacks.length;
    for (const reason of both.fallbacks) tally.reasons.add(reason);
    expect(both.pushed).toEqual(both.streamed);
  } finally {
    await target.dropTable(table);
  }
}

let tableCounter = 0;

async function runProperty(target: Target, focus: Focus, runs: number): Promise<Tally> {
  const tally: Tally = { runs: 0, datasets: 0, conditions: 0, conditionsRefused: 0, fallbacks: 0, reasons: new Set(), filtered: 0, filteredPushed: 0 };
  try {
    await fc.assert(
      fc.asyncProperty(scenarioArb(target.dialect, focus), async (scenario) => {
        tally.runs += 1;
        tableCounter += 1;
        await checkScenario(target, scenario, tableCounter, tally);
      }),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
  } catch (error) {
    // fast-check's message already names the seed and the counterexample; say which database and focus.
    (error as Error).message = `[${target.dialect}, ${focus.name}, seed ${SEED}] ${(error as Error).message}`;
    throw error;
  }
  report(target, focus, tally);
  return tally;
}

function report(target: Target, focus: Focus, tally: Tally): void {
  process.stdout.write(
    `[pushdown] ${target.dialect}, ${focus.name}: ${tally.runs} charts, ${tally.datasets} datasets pushed down, ` +
      `${tally.conditions - tally.conditionsRefused}/${tally.conditions} random conditions eligible, ` +
      `${tally.filteredPushed}/${tally.filtered} datasets with runtime filters pushed down, ${tally.fallbacks} fallbacks` +
      `${tally.reasons.size > 0 ? ` (${[...tally.reasons].join('; ')})` : ''}\n`,
  );
}

const pgUrl = inject('postgresUrl');
const pgProbe = await probePostgres(pgUrl);
const skipPostgres = announceSkip(pgProbe, 'pushdown equivalence on Postgres');
const mysqlProbe = await probeMysql();
const skipMysql = announceSkip(mysqlProbe, 'pushdown equivalence on MariaDB/MySQL');

/** The broad property gets RUNS; each focused one two thirds of it. */
const PROPERTIES: Array<{ focus: Focus; runs: number }> = [
  { focus: FOCUSES.broad, runs: RUNS },
  { focus: FOCUSES.time, runs: Math.ceil((RUNS * 2) / 3) },
  { focus: FOCUSES.text, runs: Math.ceil((RUNS * 2) / 3) },
  { focus: FOCUSES.conditions, runs: Math.ceil((RUNS * 2) / 3) },
  { focus: FOCUSES.limits, runs: Math.ceil((RUNS * 2) / 3) },
  { focus: FOCUSES.filters, runs: RUNS },
  { focus: FOCUSES.breakdown, runs: Math.ceil((RUNS * 2) / 3) },
];

const DATABASES: Array<{ name: string; skip: boolean; setup: () => Promise<Target> }> = [
  { name: 'Postgres', skip: skipPostgres, setup: () => postgresTarget(pgUrl) },
  { name: 'MariaDB/MySQL', skip: skipMysql, setup: async () => mysqlTarget(await createTempMysqlDatabase()) },
];

for (const database of DATABASES) {
  describe.skipIf(database.skip)(`pushdown equivalence: ${database.name}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await database.setup();
    });
    afterAll(async () => {
      await target?.close();
    });

    describe('examples', () => {
      const none = resolveVariables({});
      const both = async (chart: ChartInput, configs: DatasetConfigInput[], userSql: string, variables = none): Promise<BothPaths> => {
        const columns = await describeColumns(target, userSql, variables);
        return runBothPaths(target, chart, configs, userSql, variables, columns);
      };

      it('labels the hour repeated in autumn as the engine does', async () => {
        const timestamp = target.dialect === 'postgres' ? 'timestamptz' : 'DATETIME(3)';
        await target.exec(`CREATE TABLE ex_dst (at ${timestamp}, local_at ${target.dialect === 'postgres' ? 'timestamp' : 'DATETIME'})`);
        // 00:30Z and 01:30Z are both 02:30 in Paris on 2025-10-26; a wall-clock 02:30 is the first of them.
        const instants = target.dialect === 'postgres' ? ["'2025-10-26 00:30:00+00'", "'2025-10-26 01:30:00+00'"] : ["'2025-10-26 02:30:00'", "'2025-10-26 03:30:00'"];
        await target.exec(`INSERT INTO ex_dst VALUES (${instants[0]}, '2025-10-26 02:30:00'), (${instants[1]}, '2025-10-26 03:30:00')`);
        const chart: ChartInput = { type: 'line', timeInterval: 'hour', timezone: 'Europe/Paris' };
        const configs = [
          { legend: 'at', xAxis: 'at', dateField: 'at', yAxisOperation: 'count' },
          { legend: 'local', xAxis: 'local_at', dateField: 'local_at', yAxisOperation: 'count' },
        ];
        try {
          const result = await both(chart, configs, 'SELECT * FROM ex_dst');
          expect(result.pushed).toEqual(result.streamed);
          expect(result.fallbacks).toEqual([]);
          const labels = (result.pushed as AxisChartData).data.labels;
          expect(labels).toEqual(
            target.dialect === 'postgres'
              ? ['2025-10-26 02:00 +02:00', '2025-10-26 02:00 +01:00', '2025-10-26 03:00']
              : ['2025-10-26 02:00 +02:00', '2025-10-26 03:00'],
          );
        } finally {
          await target.dropTable('ex_dst');
        }
      });

      it('falls back where the exact decimal sum would round differently from the engine', async () => {
        await target.exec(`CREATE TABLE ex_sum (status VARCHAR(10), amount ${target.dialect === 'postgres' ? 'numeric' : 'DECIMAL(30,18)'})`);
        await target.exec(`INSERT INTO ex_sum VALUES ('paid', -27.941251221917893521), ('paid', 28.612525492209344116), ('open', 1.25)`);
        try {
          const result = await both({ type: 'bar' }, [{ xAxis: 'status', yAxis: 'amount', yAxisOperation: 'sum' }], 'SELECT * FROM ex_sum');
          expect(result.fallbacks).toHaveLength(1);
          expect(result.pushed).toEqual(result.streamed);
          expect((result.pushed as AxisChartData).data.datasets[0]!.data).toEqual([1.25, 0.6712742702914]);
        } finally {
          await target.dropTable('ex_sum');
        }
      });

      it('splits decimals into numbers and exact text where the source does (16 integer digits)', async () => {
        await target.exec(`CREATE TABLE ex_dec (amount ${target.dialect === 'postgres' ? 'numeric(20,2)' : 'DECIMAL(20,2)'})`);
        await target.exec(`INSERT INTO ex_dec VALUES (999999999999999.99), (1000000000000000.00), (1.50), (1.50), (-999999999999999.99)`);
        try {
          const configs = [
            { xAxis: 'amount', yAxisOperation: 'count' },
            { xAxis: 'amount', yAxis: 'amount', yAxisOperation: 'count_unique' },
          ];
          const result = await both({ type: 'bar' }, configs, 'SELECT * FROM ex_dec');
          expect(result.fallbacks).toEqual([]);
          expect(result.pushed).toEqual(result.streamed);
          // 999999999999999.99 is a number for the engine (printed 1000000000000000), 1000000000000000.00 exact text.
          expect((result.pushed as AxisChartData).data.labels).toEqual(['-1000000000000000', '1.5', '1000000000000000', '1000000000000000.00']);
        } finally {
          await target.dropTable('ex_dec');
        }
      });

      it('splits a series by a breakdown, past the series limit too, as the engine does', async () => {
        await target.exec(`CREATE TABLE ex_split (day DATE, country VARCHAR(10), amount ${target.dialect === 'postgres' ? 'numeric(12,2)' : 'DECIMAL(12,2)'})`);
        // 25 countries c1..c25, country ci selling i on 2024-01-01 and 1 on 2024-01-02; one row without a country.
        const values = Array.from({ length: 25 }, (_, i) => `('2024-01-01', 'c${i + 1}', ${i + 1}), ('2024-01-02', 'c${i + 1}', 1)`);
        await target.exec(`INSERT INTO ex_split VALUES ${values.join(', ')}, ('2024-01-02', NULL, 1000)`);
        try {
          const config = { legend: 'Sales', xAxis: 'day', dateField: 'day', yAxis: 'amount', yAxisOperation: 'sum', breakdown: 'country' };
          const result = await both({ type: 'bar', timeInterval: 'day' }, [config], 'SELECT * FROM ex_split');
          expect(result.fallbacks).toEqual([]);
          expect(result.pushed).toEqual(result.streamed);
          const out = result.pushed as AxisChartData;
          expect(out.data.datasets.map((d) => d.label).slice(0, 3)).toEqual(['c25', 'c24', 'c23']);
          expect(out.data.datasets[0]!.data).toEqual([25, 1]);
          expect(out).toMatchObject({ seriesTruncated: true, seriesLimit: 20, breakdowns: [{ datasetIndex: 0, label: 'Sales', series: 25, shown: 20 }] });
        } finally {
          await target.dropTable('ex_split');
        }
      });

      it('binds hostile condition values: nothing extra matches, nothing changes', async () => {
        await target.exec(`CREATE TABLE ex_attack (status VARCHAR(40))`);
        await target.exec(`INSERT INTO ex_attack VALUES ('paid'), ('open')`);
        try {
          for (const value of ["x' OR '1'='1", "'; DROP TABLE ex_attack; --", "\\'; DROP TABLE ex_attack; #", '$1', '?']) {
            const config = { xAxis: 'status', yAxisOperation: 'count', conditions: [{ field: 'status', operator: 'is', value }] };
            const result = await both({ type: 'pie' }, [config], 'SELECT * FROM ex_attack');
            expect(result.pushed).toEqual(result.streamed);
            expect((result.pushed as AxisChartData).data.labels).toEqual([]);
          }
          const rows = await target.query('SELECT COUNT(*) AS n FROM ex_attack', []);
          expect(Number(rows[0]!['n'])).toBe(2);
        } finally {
          await target.dropTable('ex_attack');
        }
      });

      it('cuts rows on the date column for a date filter, but never the rows the engine reads differently', async () => {
        if (target.dialect !== 'postgres') return; // MySQL date-times hold years 1000–9999 only
        await target.exec(`CREATE TABLE ex_far (status text, at timestamptz, local_at timestamp)`);
        await target.exec(
          `INSERT INTO ex_far VALUES ('paid', '2024-10-27T01:00:00Z', '2024-10-27 01:00'), ('paid', '10000-01-01T00:00:00Z', '10000-01-01 00:00'),
             ('open', '0044-03-15 00:00:00+00 BC', '0044-03-15 00:00 BC'), ('open', '2024-11-03T05:00:00Z', '2024-11-03 05:00')`,
        );
        try {
          for (const field of ['at', 'local_at']) {
            const filters = [{ type: 'date', startDate: '2024-10-27T00:00:00.000Z', endDate: '2024-12-31T23:59:59.999Z' }];
            const config = { xAxis: 'status', dateField: field, yAxisOperation: 'count', conditions: runtimeFilterConditions(filters, field) };
            const result = await both({ type: 'bar', timezone: 'Europe/Paris' }, [config], 'SELECT * FROM ex_far');
            expect(result.pushed, field).toEqual(result.streamed);
            // The far years reach the grouped query (whatever the engine makes of them), so it falls back.
            expect(result.fallbacks, field).toHaveLength(1);
            const near = { ...config, conditions: runtimeFilterConditions(filters, field) };
            const inside = await both({ type: 'bar', timezone: 'Europe/Paris' }, [near], "SELECT * FROM ex_far WHERE at BETWEEN '2000-01-01' AND '2100-01-01'");
            expect(inside.fallbacks, field).toEqual([]);
            expect(inside.pushed, field).toEqual(inside.streamed);
            // 01:00 on 2024-10-27 in Paris, as a wall-clock value, is the evening before the filter's start.
            const kept = field === 'at' ? { labels: ['open', 'paid'], datasets: [{ data: [1, 1] }] } : { labels: ['open'], datasets: [{ data: [1] }] };
            expect((inside.pushed as AxisChartData).data, field).toMatchObject(kept);
          }
        } finally {
          await target.dropTable('ex_far');
        }
      });

      it('composes with user variables bound inside quoted literals and bare', async () => {
        await target.exec(`CREATE TABLE ex_vars (status VARCHAR(20), qty INT)`);
        await target.exec(`INSERT INTO ex_vars VALUES ('paid', 1), ('repaid', 2), ('open', 3), ('paid', 9)`);
        try {
          const variables = resolveVariables({
            bindings: [
              { name: 'q', type: 'string' },
              { name: 'max', type: 'number' },
            ],
            runtime: { q: 'aid', max: 5 },
          });
          const config = { xAxis: 'status', yAxis: 'qty', yAxisOperation: 'sum', conditions: [{ field: 'qty', operator: 'greaterThan', value: 0 }] };
          const result = await both({ type: 'bar' }, [config], "SELECT * FROM ex_vars WHERE status LIKE '%{{q}}%' AND qty < {{max}}", variables);
          expect(result.pushed).toEqual(result.streamed);
          expect((result.pushed as AxisChartData).data.labels).toEqual(['paid', 'repaid']);
        } finally {
          await target.dropTable('ex_vars');
        }
      });
    });

    for (const { focus, runs } of PROPERTIES) {
      it(`gives the streaming engine's chartData (${runs} ${focus.name}, seed ${SEED})`, { timeout: Math.max(120_000, runs * 2_000) }, async () => {
        const tally = await runProperty(target, focus, runs);
        // Fallbacks are allowed (the service then streams this dataset) but must stay the exception.
        expect(tally.fallbacks).toBeLessThanOrEqual(tally.datasets / 5);
      });
    }
  });
}
