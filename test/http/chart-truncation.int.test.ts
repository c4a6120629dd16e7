import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { postgresConnection } from '../helpers/fixtures.js';

/*
 * No silently wrong charts: with the default row limit (100,000), a chart over 1,000,000 rows that
 * is not pushed down reads every row (the streaming engine holds groups, not rows), and any run a
 * limit cuts says so: `truncated: true` with the limit, on dataset runs and on charts (saved too).
 */

const ROWS = 1_000_000;

describe('row limits never cut a chart silently', () => {
  let db: { url: string; drop(): Promise<void> };
  const apps: TestApp[] = [];
  let expectedSums: Record<string, number>;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`
      create table events as
        select g as id,
               timestamptz '2025-01-01T12:00:00Z' + ((g % 365) * interval '1 day') as created_at,
               'c' || (g % 7) as category,
               (g % 100)::int as amount
          from generate_series(1, ${ROWS}) g;
      analyze events;
    `);
    const sums = await client.query<{ category: string; total: string }>('select category, sum(amount) as total from events group by category');
    expectedSums = Object.fromEntries(sums.rows.map((r) => [r.category, Number(r.total)]));
    await client.end();
  }, 600_000);

  afterAll(async () => {
    for (const t of apps) await t.close();
    await db?.drop();
  });

  async function setup(env: Record<string, string>) {
    // Reading a million rows is slow on a loaded machine; this test is about exact answers, not speed.
    const t = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: 'false', PLOTLINE_QUERY_TIMEOUT_MS: '600000', ...env } });
    apps.push(t);
    const owner = await t.signup('Owner');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('events', url),
      })
    ).json<{ id: number }>();
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Events', team_id: owner.teamId, timezone: 'UTC' } })).json<{ id: number }>();
    const dataset = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Events', project_ids: [project.id], dataRequests: [{ connection_id: conn.id, query: 'select id, created_at, category, amount from events' }] },
      })
    ).json<{ id: number }>();
    const chart = async (payload: Record<string, unknown>, config: Record<string, unknown>) => {
      const res = await t.request({
        method: 'POST',
        url: `/project/${project.id}/chart/quick-create`,
        token: owner.token,
        payload: { ...payload, chartDatasetConfigs: [{ dataset_id: dataset.id, ...config }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    };
    const run = async (chartId: number) => {
      const res = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${chartId}/query`, token: owner.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ chartData: { data: { labels: string[]; datasets: { data: number[] }[] }; truncated?: boolean; rowLimit?: number } }>().chartData;
    };
    const saved = async (chartId: number) =>
      (await t.request({ method: 'GET', url: `/project/${project.id}/chart/${chartId}`, token: owner.token })).json<{ chartData: { truncated?: boolean; rowLimit?: number } }>().chartData;
    return { t, owner, dataset, chart, run, saved };
  }

  it('a line chart and a bar chart over 1,000,000 rows are exact on the streaming path', async () => {
    const { chart, run } = await setup({});
    const line = await chart(
      { name: 'Events per day', type: 'line', timeInterval: 'day' },
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Events' },
    );
    const days = await run(line);
    expect(days.data.labels).toHaveLength(365);
    expect(days.data.datasets[0]!.data.reduce((a, b) => a + b, 0)).toBe(ROWS);
    expect(days.truncated).toBeUndefined();

    const bar = await chart({ name: 'Amount by category', type: 'bar' }, { xAxis: 'root[].category', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' });
    const sums = await run(bar);
    expect(Object.fromEntries(sums.data.labels.map((label, i) => [label, sums.data.datasets[0]!.data[i]]))).toEqual(expectedSums);
    expect(sums.truncated).toBeUndefined();
  }, 600_000);

  it('a run that a limit cuts says so: dataset runs and charts (answer and saved chart)', async () => {
    const { t, owner, dataset, chart, run, saved } = await setup({ PLOTLINE_CHART_ROW_LIMIT: '1000', PLOTLINE_ROW_LIMIT: '500' });
    const rows = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${dataset.id}/request`, token: owner.token, payload: {} });
    expect(rows.statusCode, rows.body.slice(0, 300)).toBe(200);
    expect(rows.json<{ meta: unknown }>().meta).toMatchObject({ truncated: true, rowLimit: 500, rowCount: 500 });

    const line = await chart(
      { name: 'Cut', type: 'line', timeInterval: 'day' },
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Events' },
    );
    const cut = await run(line);
    expect(cut).toMatchObject({ truncated: true, rowLimit: 1000 });
    expect(cut.data.datasets[0]!.data.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(await saved(line)).toMatchObject({ truncated: true, rowLimit: 1000 });
  }, 600_000);
});
