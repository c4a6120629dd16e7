import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { PreparedDataset } from '../../src/modules/data/dataset-runner.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/** source → dataset → chart → query → GET /project/{id} shows the saved chartData. */
describe.each([
  { pushdown: true, label: 'pushed down into SQL' },
  { pushdown: false, label: 'on the streaming engine' },
])('chart runs over a real Postgres, $label', ({ pushdown }) => {
  let t: TestApp;
  let owner: Person;
  let viewer: Person;
  let db: { url: string; drop(): Promise<void> };
  let projectId: number;
  let datasetId: number;
  let connectionId: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `
      create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
      insert into orders values
        (1, 'FR', 'paid', 10, '2025-01-01T10:00:00Z'),
        (2, 'FR', 'paid', 20, '2025-01-01T11:00:00Z'),
        (3, 'DE', 'paid', 5, '2025-01-02T10:00:00Z'),
        (4, 'DE', 'refunded', 7, '2025-01-03T10:00:00Z'),
        (5, 'US', 'paid', 100, '2025-01-03T12:00:00Z');
    `);
    t = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: String(pushdown) } });
    owner = await t.signup('Owner');
    viewer = await t.signup('Viewer');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('shop', url),
      })
    ).json();
    connectionId = conn.id;
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Sales', team_id: owner.teamId, timezone: 'UTC' } })).json();
    projectId = project.id;
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: viewer.email, role: 'projectViewer', projects: [projectId] } });
    const ds = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: {
          name: 'Orders',
          project_ids: [projectId],
          dataRequests: [{ connection_id: conn.id, query: 'select * from orders where status = {{status}}', variableBindings: [{ name: 'status', default_value: 'paid' }] }],
        },
      })
    ).json();
    datasetId = ds.id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  async function chart(payload: Record<string, unknown>, configs: Record<string, unknown>[]) {
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { ...payload, chartDatasetConfigs: configs.map((c) => ({ dataset_id: datasetId, ...c })) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; chartData: unknown };
  }

  const query = (id: number, token = owner.token, payload?: unknown, qs = '') =>
    t.request({ method: 'POST', url: `/project/${projectId}/chart/${id}/query${qs}`, token, ...(payload ? { payload: payload as object } : {}) });

  it('a line chart counts paid orders per day and saves chartData, shown by GET /project/{id}', async () => {
    const line = await chart({ name: 'Orders per day', type: 'line', timeInterval: 'day', includeZeros: true }, [
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' },
    ]);
    expect(line.chartData).toBeNull();
    const res = await query(line.id);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().chartData.data;
    expect(data.labels).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    expect(data.datasets[0]).toMatchObject({ label: 'Orders', data: [2, 1, 1] });
    const project = (await t.request({ method: 'GET', url: `/project/${projectId}`, token: owner.token })).json();
    const saved = project.Charts.find((c: { id: number }) => c.id === line.id);
    expect(saved.chartData.data.datasets[0].data).toEqual([2, 1, 1]);
    expect(Date.now() - new Date(saved.chartDataUpdated).getTime()).toBeLessThan(60_000);
  });

  it('a bar chart sums amount by country; runtime variables apply to that answer only', async () => {
    const bar = await chart({ name: 'Amount by country', type: 'bar' }, [{ xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' }]);
    const saved = (await query(bar.id)).json().chartData.data;
    expect(Object.fromEntries(saved.labels.map((l: string, i: number) => [l, saved.datasets[0].data[i]]))).toEqual({ FR: 30, DE: 5, US: 100 });
    const refunded = (await query(bar.id, owner.token, { variables: { status: 'refunded' } })).json().chartData.data;
    expect(refunded.labels).toEqual(['DE']);
    expect(refunded.datasets[0].data).toEqual([7]);
    const stored = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${bar.id}`, token: owner.token })).json();
    expect(stored.chartData.data.labels.sort()).toEqual(['DE', 'FR', 'US']);
    const filtered = (await query(bar.id, owner.token, { filters: [{ field: 'country', operator: 'is', value: 'FR' }] })).json().chartData.data;
    expect(filtered.labels).toEqual(['FR']);
  });

  it('a projectViewer may run with runtime inputs but never persists', async () => {
    const kpi = await chart({ name: 'Revenue', type: 'kpi' }, [{ yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' }]);
    const res = await query(kpi.id, viewer.token, { variables: { status: 'refunded' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().chartData.values[0].value).toBe(7);
    const plain = await query(kpi.id, viewer.token);
    expect(plain.json().chartData.values[0].value).toBe(135);
    const stored = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${kpi.id}`, token: owner.token })).json();
    expect(stored.chartData).toBeNull();
    expect((await query(kpi.id, viewer.token, undefined, '?noSource=true')).json().chartData).toBeNull();
  });

  it(pushdown ? 'each configuration of a SQL dataset is one grouped query; no rows are streamed' : 'a dataset bound by two configurations runs once', async () => {
    const two = await chart({ name: 'Two series', type: 'line', timeInterval: 'day' }, [
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Count' },
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Sum' },
    ]);
    const stream = vi.spyOn(PreparedDataset.prototype, 'stream');
    const compute = vi.spyOn(t.container.chartRuns, 'compute');
    let res;
    try {
      res = await query(two.id);
      expect(stream).toHaveBeenCalledTimes(pushdown ? 0 : 1);
      expect((await compute.mock.results[0]!.value).paths).toEqual(pushdown ? ['pushdown', 'pushdown'] : ['stream', 'stream']);
    } finally {
      stream.mockRestore();
      compute.mockRestore();
    }
    const data = res.json().chartData.data;
    expect(data.datasets.map((d: { label: string; data: number[] }) => [d.label, d.data])).toEqual([
      ['Count', [2, 1, 1]],
      ['Sum', [30, 5, 100]],
    ]);
  });

  it('tables, pies and getCache', async () => {
    const table = await chart({ name: 'Orders table', type: 'table' }, [{ legend: 'Orders', excludedFields: ['status'] }]);
    const rows = (await query(table.id)).json().chartData.Orders;
    expect(rows.columns.map((c: { accessor: string }) => c.accessor)).not.toContain('status');
    expect(rows.data).toHaveLength(4);
    const pie = await chart({ name: 'Share', type: 'pie' }, [{ xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count' }]);
    const first = await query(pie.id, owner.token, undefined, '?getCache=true');
    const second = await query(pie.id, owner.token, undefined, '?getCache=true');
    expect(second.json().chartData).toEqual(first.json().chartData);
  });

  it('creating or updating a chart does not run sources', async () => {
    const stream = vi.spyOn(PreparedDataset.prototype, 'stream');
    const target = vi.spyOn(PreparedDataset.prototype, 'sqlQuery');
    try {
      const c = await chart({ name: 'Idle', type: 'bar' }, [{ xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count' }]);
      await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${c.id}`, token: owner.token, payload: { name: 'Still idle' } });
      expect(stream).not.toHaveBeenCalled();
      expect(target).not.toHaveBeenCalled();
    } finally {
      stream.mockRestore();
      target.mockRestore();
    }
  });

  it('a chart over a dataset whose query imports a server file answers 400 INVALID_QUERY, and nothing is imported', async () => {
    const evil = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Evil', project_ids: [projectId], dataRequests: [{ connection_id: connectionId, query: "select id, created_at, lo_import('/etc/hostname') as imported from orders" }] },
      })
    ).json();
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Evil', type: 'line', timeInterval: 'day', chartDatasetConfigs: [{ dataset_id: evil.id, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = await query(res.json().id);
    expect(run.statusCode, run.body).toBe(400);
    expect(run.json()).toMatchObject({ code: 'INVALID_QUERY', error: expect.stringContaining('lo_import()') });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      expect((await client.query('select count(*)::int as n from pg_largeobject_metadata')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('columns named like denied functions are charted, pushed down too (the grouped query names them without a table)', async () => {
    const named = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Odd names', project_ids: [projectId], dataRequests: [{ connection_id: connectionId, query: "select country as pg_sleep, amount as lo_total from orders where status = 'paid'" }] },
      })
    ).json();
    const created = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Odd names', type: 'bar', chartDatasetConfigs: [{ dataset_id: named.id, xAxis: 'root[].pg_sleep', yAxis: 'root[].lo_total', yAxisOperation: 'sum' }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const compute = vi.spyOn(t.container.chartRuns, 'compute');
    let res;
    try {
      res = await query(created.json().id);
      expect((await compute.mock.results[0]!.value).paths).toEqual([pushdown ? 'pushdown' : 'stream']);
    } finally {
      compute.mockRestore();
    }
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().chartData.data;
    expect(Object.fromEntries(data.labels.map((l: string, i: number) => [l, data.datasets[0].data[i]]))).toEqual({ FR: 30, DE: 5, US: 100 });
  });

  it('a stranger cannot run the chart', async () => {
    const stranger = await t.signup('Stranger');
    const c = await chart({ name: 'Private', type: 'bar' }, [{ xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count' }]);
    const res = await query(c.id, stranger.token);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('FR');
  });
});
