/**
 * Chart data, side by side in one run, on the orders tables of bench/data/orders.sql
 * (1,000,000 orders over 2025; known sums checked):
 *   (a) the bare GROUP BY straight through pg,
 *   (b) POST /project/{pid}/chart/{id}/query with pushdown: a line chart (count by day over the
 *       year) and a bar chart (sum of amount by country),
 *   (c) the same charts forced onto the streaming engine (PLOTLINE_CHART_PUSHDOWN=false),
 *   (d) the engine alone on 1,000,000 in-memory rows (count by day, Date values).
 * Each scenario runs in its own process so that its peak RSS is its own; wall times are the
 * median of 5 runs after one warm-up. The last line printed is one JSON object with every figure.
 *
 *   npm run bench:charts        (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { computeChartData } from '../src/engine/index.js';
import { generateOrders, ORDERS_TOTAL_AMOUNT } from './lib/orders.js';
import { ensureOrdersDatabase } from './lib/pg-orders-fixture.js';
import { startBenchService } from './lib/service.js';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(process.env['RUNS'] ?? 5);
const ROWS = 1_000_000;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Peak resident set of this process so far (VmHWM), in MiB. */
function peakRssMb(): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 102.4) / 10 : Math.round(process.memoryUsage.rss() / 104857.6) / 10;
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<{ medianMs: number; runsMs: number[]; last: unknown }> {
  let last = await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await work();
    times.push(Math.round((performance.now() - started) * 10) / 10);
  }
  return { medianMs: median(times), runsMs: times, last };
}

const LINE_SQL = `select date_trunc('day', created_at at time zone 'UTC') as day, count(*) from orders group by 1 order by 1`;
const BAR_SQL = `select country, sum(amount) from orders group by 1 order by 1`;

async function bare(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const line = await timed(RUNS, () => client.query(LINE_SQL));
    const bar = await timed(RUNS, () => client.query(BAR_SQL));
    const lineRows = (line.last as pg.QueryResult).rows;
    const barRows = (bar.last as pg.QueryResult<{ sum: string }>).rows;
    return {
      line: { medianMs: line.medianMs, runsMs: line.runsMs, buckets: lineRows.length },
      bar: { medianMs: bar.medianMs, runsMs: bar.runsMs, total: Math.round(barRows.reduce((a, r) => a + Number(r.sum), 0) * 100) / 100 },
    };
  } finally {
    await client.end();
  }
}

/** The whole service in this process: sign up, connection, dataset, two charts, then timed queries. */
async function service(url: string, database: string, pushdown: boolean) {
  const bench = await startBenchService({ PLOTLINE_CHART_PUSHDOWN: String(pushdown) });
  const { call, teamId } = bench;
  try {
    const connectionId = await bench.connect(url, database);
    const project = await call('POST', '/project', { name: 'Bench', team_id: teamId, timezone: 'UTC' });
    const dataset = await call('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'orders', project_ids: [project['id']], dataRequests: [{ connection_id: connectionId, query: 'select * from orders' }],
    });
    const chart = async (body: Record<string, unknown>) =>
      (await call('POST', `/project/${project['id']}/chart/quick-create`, body))['id'] as number;
    const line = await chart({
      name: 'Orders per day', type: 'line', timeInterval: 'day', includeZeros: true,
      chartDatasetConfigs: [{ dataset_id: dataset['id'], xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count' }],
    });
    const bar = await chart({
      name: 'Amount by country', type: 'bar',
      chartDatasetConfigs: [{ dataset_id: dataset['id'], xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum' }],
    });
    const run = (id: number) => () => call('POST', `/project/${project['id']}/chart/${id}/query`);
    const lineRun = await timed(RUNS, run(line));
    const barRun = await timed(RUNS, run(bar));
    const lineData = ((lineRun.last as { chartData: { data: { labels: string[]; datasets: { data: number[] }[] } } }).chartData.data);
    const barData = ((barRun.last as { chartData: { data: { datasets: { data: number[] }[] } } }).chartData.data);
    return {
      line: { medianMs: lineRun.medianMs, runsMs: lineRun.runsMs, rowsPerSec: Math.round(ROWS / (lineRun.medianMs / 1000)), buckets: lineData.labels.length, count: lineData.datasets[0]!.data.reduce((a, b) => a + b, 0) },
      bar: { medianMs: barRun.medianMs, runsMs: barRun.runsMs, rowsPerSec: Math.round(ROWS / (barRun.medianMs / 1000)), total: Math.round(barData.datasets[0]!.data.reduce((a, b) => a + b, 0) * 100) / 100 },
      peakRssMb: peakRssMb(),
    };
  } finally {
    await bench.close();
  }
}

async function engineAlone() {
  const rows = generateOrders(ROWS);
  const chart = { type: 'line', timeInterval: 'day', timezone: 'UTC', includeZeros: true } as const;
  const config = { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count' };
  const result = await timed(RUNS, () => computeChartData(chart, [{ config, rows: rows as unknown as Record<string, unknown>[] }]));
  const data = (result.last as { data: { datasets: { data: number[] }[] } }).data;
  return {
    medianMs: result.medianMs,
    runsMs: result.runsMs,
    rowsPerSec: Math.round(ROWS / (result.medianMs / 1000)),
    count: data.datasets[0]!.data.reduce((a, b) => a + b, 0),
    peakRssMb: peakRssMb(),
  };
}

async function scenario(name: string): Promise<unknown> {
  const fixture = await ensureOrdersDatabase(SERVER);
  switch (name) {
    case 'bare':
      return bare(fixture.url);
    case 'pushdown':
      return service(fixture.url, fixture.database, true);
    case 'stream':
      return service(fixture.url, fixture.database, false);
    case 'engine':
      return engineAlone();
    default:
      throw new Error(`unknown scenario ${name}`);
  }
}

async function main(): Promise<void> {
  const only = process.argv.indexOf('--scenario');
  if (only !== -1) {
    process.stdout.write(`${JSON.stringify(await scenario(process.argv[only + 1]!))}\n`);
    return;
  }
  await ensureOrdersDatabase(SERVER); // load once before anything is timed
  const self = fileURLToPath(import.meta.url);
  const tsx = path.resolve(path.dirname(self), '../node_modules/.bin/tsx');
  const results: Record<string, any> = {};
  for (const name of ['bare', 'pushdown', 'stream', 'engine']) {
    const out = execFileSync(tsx, [self, '--scenario', name], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: process.env });
    results[name] = JSON.parse(out.trim().split('\n').pop()!);
    process.stdout.write(`${JSON.stringify({ scenario: name, ...results[name] })}\n`);
  }
  const { bare: a, pushdown: b, stream: c, engine: d } = results;
  const checks = {
    line_count_pushdown: b.line.count === ROWS,
    line_count_stream: c.line.count === ROWS,
    bar_total_bare: Math.abs(a.bar.total - ORDERS_TOTAL_AMOUNT) < 0.005,
    bar_total_pushdown: Math.abs(b.bar.total - ORDERS_TOTAL_AMOUNT) < 0.005,
    bar_total_stream: Math.abs(c.bar.total - ORDERS_TOTAL_AMOUNT) < 0.005,
    engine_count: d.count === ROWS,
  };
  const round = (n: number) => Math.round(n * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({
      rows: ROWS,
      runs: RUNS,
      bare_line_ms: a.line.medianMs,
      bare_bar_ms: a.bar.medianMs,
      pushdown_line_ms: b.line.medianMs,
      pushdown_bar_ms: b.bar.medianMs,
      pushdown_over_bare_line: round(b.line.medianMs / a.line.medianMs),
      pushdown_over_bare_bar: round(b.bar.medianMs / a.bar.medianMs),
      pushdown_peak_rss_mb: b.peakRssMb,
      stream_line_ms: c.line.medianMs,
      stream_bar_ms: c.bar.medianMs,
      stream_line_rows_per_s: c.line.rowsPerSec,
      stream_bar_rows_per_s: c.bar.rowsPerSec,
      stream_peak_rss_mb_1m: c.peakRssMb,
      engine_ms_1m: d.medianMs,
      engine_rows_per_s_1m: d.rowsPerSec,
      engine_peak_rss_mb: d.peakRssMb,
      checks,
      node: process.version,
    })}\n`,
  );
  if (Object.values(checks).some((ok) => !ok)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
