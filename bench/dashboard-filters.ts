/**
 * Dashboard filters, side by side in one run, on the 1,000,000 orders of bench/data/orders.sql
 * (loaded once into the database `bench_filters`): one dataset, a dashboard of 10 charts over it
 * (count, sum and average by day, week, month, country and status, two KPIs), every chart with
 * `created_at` as its date field. For each of RUNS date ranges (a changed date filter each time):
 *   (a) the 10 filtered GROUP BY queries, written by hand, bare through pg, as many at once as the
 *       server computes charts of one dashboard for a filter state (3 at a time);
 *   (b) the dashboard refreshed through Plotline with that date filter: one request to the batch
 *       route `POST /project/{id}/filter` over HTTP on loopback (`refreshDashboard`);
 *   (c) the same filter state again: answered by the result cache, no source run.
 * One warm-up range first. The last line printed is one JSON object: median and p95 of each, the
 * ratio (b)/(a) of the medians (goal: at most 1.5), whether every (c) was a cache hit, and checks
 * that (b) gave the bare queries' figures.
 *
 *   npm run bench:filters      (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server; RUNS=20)
 */
import pg from 'pg';
import { mapLimited } from '../src/runtime/map-limited.js';
import { DEFAULT_VIEWER_CONCURRENCY } from '../src/modules/dashboards/share-viewer.js';
import { ensureOrdersDatabase } from './lib/pg-orders-fixture.js';
import { startBenchService, type BenchService } from './lib/service.js';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'bench_filters';
const RUNS = Number(process.env['RUNS'] ?? 20);
const DAY_MS = 86_400_000;
/** Each range is 90 days, the next one a week later. */
const RANGE_DAYS = 90;

type Operation = 'count' | 'sum' | 'avg';

interface ChartSpec {
  name: string;
  type: 'line' | 'bar' | 'pie' | 'kpi';
  /** A time axis (with its interval) or a category field; none for a KPI. */
  x: { interval: 'day' | 'week' | 'month' } | { field: 'country' | 'status' } | null;
  operation: Operation;
}

const CHARTS: ChartSpec[] = [
  { name: 'Orders per day', type: 'line', x: { interval: 'day' }, operation: 'count' },
  { name: 'Revenue per week', type: 'line', x: { interval: 'week' }, operation: 'sum' },
  { name: 'Average order per month', type: 'line', x: { interval: 'month' }, operation: 'avg' },
  { name: 'Orders per month', type: 'bar', x: { interval: 'month' }, operation: 'count' },
  { name: 'Orders by country', type: 'bar', x: { field: 'country' }, operation: 'count' },
  { name: 'Revenue by country', type: 'bar', x: { field: 'country' }, operation: 'sum' },
  { name: 'Average order by status', type: 'bar', x: { field: 'status' }, operation: 'avg' },
  { name: 'Orders by status', type: 'pie', x: { field: 'status' }, operation: 'count' },
  { name: 'Revenue', type: 'kpi', x: null, operation: 'sum' },
  { name: 'Average order', type: 'kpi', x: null, operation: 'avg' },
];

/** The bare query a person would write for a chart under the date filter ($1, $2). */
function bareSql(spec: ChartSpec): string {
  const value = spec.operation === 'count' ? 'count(*)' : `${spec.operation}(amount)`;
  const where = 'where created_at >= $1 and created_at <= $2';
  if (spec.x === null) return `select ${value} as v from orders ${where}`;
  const key = 'interval' in spec.x ? `date_trunc('${spec.x.interval}', created_at at time zone 'UTC')` : spec.x.field;
  return `select ${key} as k, ${value} as v from orders ${where} group by 1 order by 1`;
}

function chartBody(spec: ChartSpec, datasetId: number): Record<string, unknown> {
  const x = spec.x === null ? {} : 'interval' in spec.x ? { xAxis: 'root[].created_at' } : { xAxis: `root[].${spec.x.field}` };
  return {
    name: spec.name,
    type: spec.type,
    ...(spec.x !== null && 'interval' in spec.x ? { timeInterval: spec.x.interval } : {}),
    chartDatasetConfigs: [
      { dataset_id: datasetId, ...x, dateField: 'root[].created_at', yAxis: spec.operation === 'count' ? 'root[].id' : 'root[].amount', yAxisOperation: spec.operation },
    ],
  };
}

/** The date filter of run `i`: 90 days from a week later each time, as a dashboard resolves a range (first to last millisecond). */
function dateRange(i: number): { startDate: string; endDate: string } {
  const start = Date.UTC(2025, 0, 1) + i * 7 * DAY_MS;
  return { startDate: new Date(start).toISOString(), endDate: new Date(start + RANGE_DAYS * DAY_MS - 1).toISOString() };
}

interface Refreshed {
  charts: Array<{ id: number; chartData: unknown; cache?: string; paths?: string[] }>;
}

interface Dashboard {
  bench: BenchService;
  projectId: number;
  chartIds: number[];
  concurrency: number;
}

/**
 * One changed filter state for the whole dashboard, as the editor sends it. Until the batch route
 * `POST /project/{id}/filter` exists this drives what it will run: ChartRunService.compute for
 * every chart, through the result cache, as many at once as a dashboard refresh. Switching to the
 * route is this function's body:
 *   return (await dashboard.bench.call('POST', `/project/${dashboard.projectId}/filter`, { filters })) as unknown as Refreshed;
 */
/** The whole dashboard for a filter state, in one request: the members' batch route `POST /project/{id}/filter`. */
async function refreshDashboard(dashboard: Dashboard, filters: unknown[]): Promise<Refreshed> {
  const answer = await dashboard.bench.call('POST', `/project/${dashboard.projectId}/filter`, { filters });
  const charts = (answer['charts'] as Array<{ id: number; chartData?: unknown; cacheStatus?: string; error?: unknown }>).map((chart) => {
    if (chart.error) throw new Error(`chart ${chart.id} failed: ${JSON.stringify(chart.error)}`);
    return { id: chart.id, chartData: chart.chartData, ...(chart.cacheStatus ? { cache: chart.cacheStatus } : {}) };
  });
  return { charts };
}

/** How each chart is computed for a filter state (pushdown or streaming), asked of the engine once, untimed and uncached. */
async function pathsOf(dashboard: Dashboard, filters: unknown[]): Promise<string[][]> {
  const { container, teamId } = dashboard.bench;
  return mapLimited(dashboard.chartIds, dashboard.concurrency, async (id) => {
    const loaded = await container.charts.loadForRun(teamId, id);
    if (!loaded) throw new Error(`chart ${id} is gone`);
    return (await container.chartRuns.compute(loaded, { filters: filters as never, persist: false })).paths;
  });
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const summary = (ms: number[]) => ({ medianMs: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)), runsMs: ms.map((v) => round(v)) });

/** The first series of a chart's data, summed (a KPI's value alike). */
function total(chartData: unknown): number {
  const datasets = (chartData as { data?: { datasets?: Array<{ data?: unknown[] }> } }).data?.datasets ?? [];
  return (datasets[0]?.data ?? []).reduce<number>((sum, v) => sum + (typeof v === 'number' ? v : 0), 0);
}

async function main(): Promise<void> {
  const fixture = await ensureOrdersDatabase(SERVER, DATABASE);
  const env: Record<string, string> = { PLOTLINE_CACHE_TTL_SECONDS: '3600' };
  const bench = await startBenchService(env);
  const pool = new pg.Pool({ connectionString: fixture.url, max: DEFAULT_VIEWER_CONCURRENCY });
  let sourceRuns = 0;
  bench.container.sources.observe(() => void sourceRuns++);
  try {
    const { call, teamId } = bench;
    const connectionId = await bench.connect(fixture.url, fixture.database);
    const project = await call('POST', '/project', { name: 'Filters', team_id: teamId, timezone: 'UTC' });
    const projectId = project['id'] as number;
    const dataset = await call('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'orders',
      project_ids: [projectId],
      dataRequests: [{ connection_id: connectionId, query: 'select id, created_at, amount, status, country from orders' }],
    });
    const chartIds: number[] = [];
    for (const spec of CHARTS) chartIds.push((await call('POST', `/project/${projectId}/chart/quick-create`, chartBody(spec, dataset['id'] as number)))['id'] as number);
    // The batch route computes a dashboard's charts DEFAULT_VIEWER_CONCURRENCY at a time: the bare queries run as many at once.
    const dashboard: Dashboard = { bench, projectId, chartIds, concurrency: DEFAULT_VIEWER_CONCURRENCY };

    const bareMs: number[] = [];
    const filteredMs: number[] = [];
    const cachedMs: number[] = [];
    let cacheHits = 0;
    let pushedDown = 0;
    let computedCharts = 0;
    const mismatches: string[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const range = dateRange(i);
      const filters = [{ type: 'date', ...range }];

      let started = performance.now();
      const bare = await mapLimited(CHARTS, dashboard.concurrency, async (spec) => (await pool.query<{ v: string | null }>(bareSql(spec), [range.startDate, range.endDate])).rows);
      const a = performance.now() - started;

      started = performance.now();
      const refreshed = await refreshDashboard(dashboard, filters);
      const b = performance.now() - started;

      const runsBefore = sourceRuns;
      started = performance.now();
      const again = await refreshDashboard(dashboard, filters);
      const c = performance.now() - started;
      const hit = sourceRuns === runsBefore && again.charts.every((chart) => chart.cache === undefined || chart.cache === 'hit');

      // What Plotline computed must be what the bare queries say (counts exactly, money to the cent).
      CHARTS.forEach((spec, k) => {
        if (spec.operation === 'avg') return;
        const expected = bare[k]!.reduce((sum, row) => sum + Number(row.v ?? 0), 0);
        const got = total(refreshed.charts[k]!.chartData);
        if (Math.abs(got - expected) > 0.005) mismatches.push(`run ${i}, ${spec.name}: ${got} ≠ ${expected}`);
      });
      if (i === 0) continue; // warm-up
      bareMs.push(a);
      filteredMs.push(b);
      cachedMs.push(c);
      if (hit) cacheHits++;
      if (i === 1) {
        for (const paths of await pathsOf(dashboard, filters)) {
          computedCharts++;
          if (paths.every((path) => path === 'pushdown')) pushedDown++;
        }
      }
    }

    const a = summary(bareMs);
    const b = summary(filteredMs);
    const c = summary(cachedMs);
    const ratio = round(b.medianMs / a.medianMs, 2);
    process.stdout.write(
      `${JSON.stringify({
        rows: 1_000_000,
        charts: CHARTS.length,
        runs: RUNS,
        concurrency: dashboard.concurrency,
        range_days: RANGE_DAYS,
        a_bare_pg: a,
        b_filter_changed: b,
        c_same_filter_cached: c,
        b_over_a: ratio,
        goal_b_over_a_at_most: 1.5,
        goal_met: ratio <= 1.5,
        c_cache_hits: `${cacheHits}/${RUNS}`,
        c_all_cache_hits: cacheHits === RUNS,
        b_charts_pushed_down: `${pushedDown}/${computedCharts}`,
        checks: { figures_match_bare: mismatches.length === 0, mismatches: mismatches.slice(0, 5) },
        node: process.version,
      })}\n`,
    );
    if (mismatches.length > 0 || cacheHits !== RUNS) process.exitCode = 1;
  } finally {
    await pool.end();
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
