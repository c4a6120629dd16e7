/**
 * Postgres source throughput: `select * from orders` (1,000,000 rows, bench/data/orders.sql)
 * streamed through PostgresSource (read-only transaction, cursor batches, normalized values).
 * The table is loaded once into the scratch database `plotline_bench` and reused. One warm-up run,
 * then RUNS measured runs; stdout gets one JSON line per run and, last, one summary object.
 *
 *   npx tsx bench/sources.ts          (PLOTLINE_BENCH_POSTGRES_URL=postgres://… to use another server)
 */
import { request } from 'undici';
import { PoolManager } from '../src/sources/pool-manager.js';
import { PostgresSource } from '../src/sources/postgres/postgres-source.js';
import type { SourceConnection } from '../src/sources/types.js';
import { PeakRss } from './lib/peak-rss.js';
import { ensureOrdersDatabase } from './lib/pg-orders-fixture.js';
import { startBenchService } from './lib/service.js';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(process.env['RUNS'] ?? 3);
const BATCH = Number(process.env['BATCH'] ?? 2_000);
const EXPECTED_ROWS = 1_000_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function streamOnce(source: PostgresSource, conn: SourceConnection): Promise<{ rows: number; ms: number; amount: number }> {
  const started = performance.now();
  const stream = await source.stream(conn, { query: 'select * from orders' }, { rowLimit: 2_000_000, timeoutMs: 600_000, batchSize: BATCH });
  let rows = 0;
  let amount = 0;
  for await (const batch of stream) {
    rows += batch.length;
    // Touch a value per row so the work is not just counting.
    for (let i = 0; i < batch.length; i++) amount += batch[i]!['amount'] as number;
  }
  return { rows, ms: performance.now() - started, amount };
}

interface HttpRun {
  rows: number;
  ms: number;
  bytes: number;
  cache: string;
}

/** One GET of a dataset run over real HTTP; the body is read as it streams and only counted. */
async function fetchRun(base: string, token: string, url: string): Promise<HttpRun> {
  const started = performance.now();
  const res = await request(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${await res.body.text()}`);
  let bytes = 0;
  let tail = '';
  for await (const chunk of res.body) {
    bytes += (chunk as Buffer).length;
    tail = (tail + (chunk as Buffer).toString('utf8')).slice(-2000);
  }
  const ms = performance.now() - started;
  const meta = /"meta":(\{[^]*?"durationMs":[\d.]+\})/.exec(tail);
  const cache = /"cache":\{"status":"(\w+)"/.exec(tail);
  return { rows: meta ? (JSON.parse(meta[1]!) as { rowCount: number }).rowCount : -1, ms, bytes, cache: cache?.[1] ?? 'unknown' };
}

/**
 * The same table through the whole service: HTTP -> auth -> dataset -> source -> JSON stream.
 * Cold: `GET …/request` (streamed, nothing held). Cached: the 100k slice with `getCache=true`,
 * first run computes and stores, the next ones are served from the memory cache.
 */
async function datasetRuns(fixtureUrl: string, database: string): Promise<Record<string, unknown>> {
  const service = await startBenchService();
  try {
    const { base, token, teamId, call } = service;
    const connectionId = await service.connect(fixtureUrl, database);
    const dataset = async (query: string) =>
      (await call('POST', `/team/${teamId}/datasets/quick-create`, { name: query, dataRequests: [{ connection_id: connectionId, query }] }))['id'] as number;
    const big = await dataset('select * from orders');
    const small = await dataset('select * from orders_100k');

    await fetchRun(base, token, `/team/${teamId}/datasets/${big}/request`); // warm-up
    const rss = new PeakRss();
    const cold: HttpRun[] = [];
    for (let i = 0; i < RUNS; i++) cold.push(await fetchRun(base, token, `/team/${teamId}/datasets/${big}/request`));
    const coldPeak = rss.stop();
    if (cold.some((r) => r.rows !== EXPECTED_ROWS)) throw new Error(`dataset run returned ${cold.map((r) => r.rows).join(', ')} rows`);

    const cachedRss = new PeakRss();
    const first = await fetchRun(base, token, `/team/${teamId}/datasets/${small}/request?getCache=true`);
    const hits: HttpRun[] = [];
    for (let i = 0; i < RUNS; i++) hits.push(await fetchRun(base, token, `/team/${teamId}/datasets/${small}/request?getCache=true`));
    const cachedPeak = cachedRss.stop();
    const coldMs = median(cold.map((r) => r.ms));
    const hitMs = median(hits.map((r) => r.ms));
    return {
      dataset_run_cold: { rows: EXPECTED_ROWS, medianMs: Math.round(coldMs), rowsPerSec: Math.round(EXPECTED_ROWS / (coldMs / 1000)), mbytes: Math.round(cold[0]!.bytes / 1e5) / 10, peakRssMb: coldPeak },
      dataset_run_100k_first: { rows: first.rows, ms: Math.round(first.ms), rowsPerSec: Math.round(first.rows / (first.ms / 1000)), cache: first.cache },
      dataset_run_100k_cached: { rows: hits[0]!.rows, medianMs: Math.round(hitMs), rowsPerSec: Math.round(hits[0]!.rows / (hitMs / 1000)), cache: hits.map((h) => h.cache), peakRssMb: cachedPeak },
    };
  } finally {
    await service.close();
  }
}

async function main(): Promise<void> {
  const fixture = await ensureOrdersDatabase(SERVER);
  const url = new URL(fixture.url);
  const conn: SourceConnection = {
    id: 'bench-orders',
    type: 'postgres',
    host: url.hostname,
    port: url.port || '5432',
    dbName: fixture.database,
    username: decodeURIComponent(url.username) || 'postgres',
    password: decodeURIComponent(url.password) || null,
  };
  const pools = new PoolManager();
  const source = new PostgresSource(pools);
  const baselineRss = Math.round((process.memoryUsage.rss() / 1024 / 1024) * 10) / 10;

  await streamOnce(source, conn); // warm-up: pool, plan cache, page cache
  const rss = new PeakRss();
  const runs: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const result = await streamOnce(source, conn);
    if (result.rows !== EXPECTED_ROWS) throw new Error(`expected ${EXPECTED_ROWS} rows, got ${result.rows}`);
    runs.push(result.ms);
    print({ bench: 'sources.postgres.stream', run, rows: result.rows, ms: Math.round(result.ms), rowsPerSec: Math.round(result.rows / (result.ms / 1000)) });
  }
  const peakRssMb = rss.stop();
  await pools.closeAll();

  const http = await datasetRuns(fixture.url, fixture.database);
  const medianMs = median(runs);
  print({
    ...http,
    bench: 'sources.postgres.stream',
    query: 'select * from orders',
    rows: EXPECTED_ROWS,
    batchSize: BATCH,
    runs: RUNS,
    medianMs: Math.round(medianMs),
    rowsPerSec: Math.round(EXPECTED_ROWS / (medianMs / 1000)),
    runsMs: runs.map((ms) => Math.round(ms)),
    baselineRssMb: baselineRss,
    peakRssMb,
    datasetLoaded: fixture.loaded,
    loadSeconds: fixture.loadSeconds,
    node: process.version,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
