import pg from 'pg';
import { expect } from 'vitest';
import { createTempDatabase } from './postgres-server.js';
import { postgresConnection } from './fixtures.js';

/** An HTTP call on one app instance: method, url, bearer token, JSON body. */
export type Call = (method: string, url: string, token?: string, payload?: unknown) => Promise<{ statusCode: number; body: string; json(): any }>;

/** A scratch Postgres database a dashboard reads from; the test changes its data between refreshes. */
export interface SourceDb {
  url: string;
  exec(sql: string, values?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

export async function createSourceDb(serverUrl: string): Promise<SourceDb> {
  const db = await createTempDatabase(serverUrl);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('create table metrics (v int); insert into metrics values (1), (2);');
  return {
    url: db.url,
    exec: async (sql, values) => {
      await client.query(sql, values as unknown[]);
    },
    drop: async () => {
      await client.end().catch(() => undefined);
      await db.drop();
    },
  };
}

export interface Dashboard {
  projectId: number;
  brewName: string;
  chartId: number;
  connectionId: number;
}

/** Connection -> dataset -> dashboard (with `project` fields) -> a KPI chart summing `metrics.v`, all through the API. */
export async function createDashboard(
  call: Call,
  person: { token: string; teamId: number },
  sourceUrl: string,
  options: { project?: Record<string, unknown>; chart?: Record<string, unknown>; query?: string; connectionId?: number } = {},
): Promise<Dashboard> {
  const ok = async (method: string, url: string, payload?: unknown) => {
    const res = await call(method, url, person.token, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const url = new URL(sourceUrl);
  const connectionId =
    options.connectionId ??
    (
      await ok('POST', `/team/${person.teamId}/connections`, postgresConnection('metrics', url))
    ).id;
  const project = await ok('POST', '/project', { name: `Dash ${Math.random().toString(36).slice(2, 7)}`, team_id: person.teamId, public: true, timezone: 'UTC', ...options.project });
  const dataset = await ok('POST', `/team/${person.teamId}/datasets/quick-create`, {
    name: 'Metrics',
    project_ids: [project.id],
    dataRequests: [{ connection_id: connectionId, query: options.query ?? 'select v from metrics' }],
  });
  const chart = await ok('POST', `/project/${project.id}/chart/quick-create`, {
    name: 'Total',
    type: 'kpi',
    ...options.chart,
    chartDatasetConfigs: [{ dataset_id: dataset.id, yAxis: 'root[].v', yAxisOperation: 'sum', legend: 'Total' }],
  });
  return { projectId: project.id, brewName: project.brewName, chartId: chart.id, connectionId };
}

/** The KPI value a chart shows in its saved chartData (null before the first run). */
export function kpiValue(chart: { chartData: unknown }): number | null {
  const data = chart.chartData as { values?: { value: number }[] } | null;
  return data?.values?.[0]?.value ?? null;
}

/** A clock the test moves by hand. */
export function steppedClock(start: string) {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}
