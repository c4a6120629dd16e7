/**
 * Postgres source throughput: `select * from orders` (1,000,000 rows, /work/shared/bench/orders.sql)
 * streamed through PostgresSource (read-only transaction, cursor batches, normalized values).
 * The table is loaded once into the scratch database `plotline_bench` and reused. One warm-up run,
 * then RUNS measured runs; stdout gets one JSON line per run and, last, one summary object.
 *
 *   npx tsx bench/sources.ts          (PLOTLINE_BENCH_POSTGRES_URL=postgres://… to use another server)
 */
import { PoolManager } from '../src/sources/pool-manager.js';
import { PostgresSource } from '../src/sources/postgres/postgres-source.js';
import type { SourceConnection } from '../src/sources/types.js';
import { PeakRss } from './lib/peak-rss.js';
import { ensureOrdersDatabase } from './lib/pg-orders-fixture.js';

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

  const medianMs = median(runs);
  print({
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
