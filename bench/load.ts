/**
 * Load on one Postgres connection: 200 concurrent refreshes of a dashboard's 4 charts
 * (POST /project/{pid}/chart/{id}/query), through HTTP on loopback, in two rounds:
 *   identical: every refresh asks the same thing (shared computations: single-flight);
 *   distinct:  every refresh passes its own runtime variable, so all 800 runs reach the database
 *              and queue for the connection's pool (PLOTLINE_SOURCE_POOL_SIZE, default 5).
 * Prints one JSON object: per round, requests, errors by status/code, and latency p50/p99/max.
 *
 *   npm run bench:load [-- --clients 200]   (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { request } from 'undici';
import { startBenchService } from './lib/service.js';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const argIndex = process.argv.indexOf('--clients');
const CLIENTS = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 200;
const ROWS = 20_000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const database = `plotline_bench_load_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const dbUrl = new URL(SERVER);
  dbUrl.pathname = `/${database}`;
  const seed = new pg.Client({ connectionString: dbUrl.toString() });
  await seed.connect();
  await seed.query(`
    create table orders as
      select g as id,
             timestamptz '2025-01-01' + ((g % 365) * interval '1 day') + ((g % 24) * interval '1 hour') as created_at,
             (array['FR','DE','US','GB','ES','IT'])[1 + g % 6] as country,
             (array['paid','refunded','pending'])[1 + g % 3] as status,
             ((g * 7919) % 10000) / 100.0 as amount
        from generate_series(1, ${ROWS}) g;
    analyze orders;`);
  await seed.end();

  const poolEnv = Object.fromEntries(
    ['PLOTLINE_SOURCE_POOL_SIZE', 'PLOTLINE_SOURCE_QUEUE_LIMIT', 'PLOTLINE_SOURCE_WAIT_TIMEOUT_MS'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
  );
  // Every client is on loopback, one address: the per-address connection cap (256 by default, a
  // guard against one host holding all sockets) would reset the 800 connections past it.
  const service = await startBenchService({ LOG_LEVEL: 'silent', PLOTLINE_MAX_CONNECTIONS_PER_ADDRESS: String(CLIENTS * 4 + 64), ...poolEnv });
  try {
    const connectionId = await service.connect(SERVER, database);
    const project = await service.call('POST', '/project', { name: 'Load', team_id: service.teamId, timezone: 'UTC' });
    const dataset = await service.call('POST', `/team/${service.teamId}/datasets/quick-create`, {
      name: 'Orders',
      project_ids: [project['id']],
      dataRequests: [{ connection_id: connectionId, query: 'select * from orders where amount >= {{min}}', variableBindings: [{ name: 'min', type: 'number', default_value: '0' }] }],
    });
    const config = (c: Record<string, unknown>) => ({ dataset_id: dataset['id'], ...c });
    const charts = await Promise.all(
      [
        { name: 'Orders per day', type: 'line', timeInterval: 'day', chartDatasetConfigs: [config({ xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' })] },
        { name: 'Amount by country', type: 'bar', chartDatasetConfigs: [config({ xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' })] },
        { name: 'Revenue', type: 'kpi', chartDatasetConfigs: [config({ yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' })] },
        { name: 'By status', type: 'pie', chartDatasetConfigs: [config({ xAxis: 'root[].status', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Status' })] },
      ].map((chart) => service.call('POST', `/project/${project['id']}/chart/quick-create`, chart)),
    );

    const refresh = async (chartId: unknown, body: unknown) => {
      const started = performance.now();
      let res;
      let text;
      try {
        res = await request(`${service.base}/project/${project['id']}/chart/${chartId}/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
          body: JSON.stringify(body),
        });
        text = await res.body.text();
      } catch (error) {
        // A connection refused or reset counts as an error of its own, not the end of the run.
        return { ms: performance.now() - started, code: `network ${(error as { code?: string }).code ?? 'error'}` };
      }
      const ms = performance.now() - started;
      const code = res.statusCode === 200 ? null : `${res.statusCode} ${(JSON.parse(text) as { code?: string }).code ?? ''}`.trim();
      return { ms, code };
    };

    const round = async (distinct: boolean) => {
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: CLIENTS }, (_, client) =>
          Promise.all(charts.map((chart) => refresh(chart['id'], distinct ? { variables: { min: client / 100 } } : {}))),
        ),
      );
      const flat = results.flat();
      const errors: Record<string, number> = {};
      for (const r of flat) if (r.code) errors[r.code] = (errors[r.code] ?? 0) + 1;
      const sorted = flat.map((r) => r.ms).sort((a, b) => a - b);
      const round1 = (n: number) => Math.round(n * 10) / 10;
      return {
        requests: flat.length,
        errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
        errors,
        p50Ms: round1(percentile(sorted, 50)),
        p99Ms: round1(percentile(sorted, 99)),
        maxMs: round1(sorted[sorted.length - 1] ?? 0),
        wallMs: round1(performance.now() - started),
      };
    };

    const identical = await round(false);
    const distinct = await round(true);
    process.stdout.write(
      `${JSON.stringify({ bench: 'load', clients: CLIENTS, chartsPerRefresh: charts.length, rows: ROWS, poolSize: Number(process.env['PLOTLINE_SOURCE_POOL_SIZE'] ?? 5), identical, distinct })}\n`,
    );
  } finally {
    await service.close();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
