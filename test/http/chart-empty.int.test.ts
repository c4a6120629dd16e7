import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * A chart that computes to nothing says why in `chartData.empty`, the same reason whether the
 * database grouped the rows (pushdown) or the streaming engine did; a chart with data has none.
 */

const BY_COUNTRY = { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' };

describe.each([
  { pushdown: true, label: 'pushed down into SQL' },
  { pushdown: false, label: 'on the streaming engine' },
])('empty charts say why over a real Postgres, $label', ({ pushdown }) => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let projectId: number;
  let orders: number;
  let none: number;
  let byStatus: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `
      create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
      insert into orders values
        (1, 'FR', 'paid', 10, '2025-01-01T10:00:00Z'),
        (2, 'DE', 'paid', 5, '2025-01-02T10:00:00Z'),
        (3, null, 'paid', 1, '2025-01-02T11:00:00Z');
    `);
    t = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: String(pushdown) } });
    owner = await t.signup('Owner');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('shop', url),
      })
    ).json<{ id: number }>();
    projectId = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Sales', team_id: owner.teamId, timezone: 'UTC' } })).json<{ id: number }>().id;
    const dataset = async (query: string, variableBindings: unknown[] = []) => {
      const res = await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Orders', project_ids: [projectId], dataRequests: [{ connection_id: conn.id, query, variableBindings }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    };
    orders = await dataset('select * from orders order by id');
    none = await dataset('select * from orders where false');
    byStatus = await dataset('select * from orders where status = {{status}}', [{ name: 'status' }]);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const preview = async (chart: Record<string, unknown>, config: Record<string, unknown>, dataset = orders) => {
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/preview`,
      token: owner.token,
      payload: { name: 'C', type: 'bar', ...chart, chartDatasetConfigs: [{ dataset_id: dataset, ...config }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ chartData: { empty?: unknown; data?: { labels?: string[] } } }>().chartData;
  };

  it('a chart with data has no reason', async () => {
    const data = await preview({}, BY_COUNTRY);
    expect([...(data.data?.labels ?? [])].sort()).toEqual(['DE', 'FR']);
    expect(data.empty).toBeUndefined();
  });

  it('no rows, a missing field, conditions and a date range that leave nothing', async () => {
    expect((await preview({}, BY_COUNTRY, none)).empty).toEqual({ reason: 'NO_ROWS', datasetIndex: 0 });
    expect((await preview({}, { ...BY_COUNTRY, xAxis: 'root[].region' })).empty).toEqual({ reason: 'FIELD_MISSING', field: 'root[].region', datasetIndex: 0 });
    const filtered = await preview({}, { ...BY_COUNTRY, conditions: [{ id: 'c1', field: 'root[].status', operator: 'is', value: 'lost' }] });
    expect(filtered.empty).toEqual({ reason: 'FILTERED', by: 'conditions', datasetIndex: 0 });
    const dated = await preview({ startDate: '2030-01-01T00:00:00Z', endDate: '2030-02-01T00:00:00Z' }, { ...BY_COUNTRY, dateField: 'root[].created_at' });
    expect(dated.empty).toEqual({ reason: 'FILTERED', by: 'dateRange', datasetIndex: 0 });
  });

  it('a date axis over a column that holds no dates, a table whose conditions leave nothing, a variable without a value', async () => {
    const line = await preview({ type: 'line', timeInterval: 'day' }, { ...BY_COUNTRY, dateField: 'root[].country' });
    expect(line.empty).toEqual({ reason: 'NOT_DATES', field: 'root[].country', datasetIndex: 0 });
    const table = await preview({ type: 'table' }, { legend: 'Orders', conditions: [{ id: 'c1', field: 'root[].status', operator: 'is', value: 'lost' }] });
    expect(table.empty).toEqual({ reason: 'FILTERED', by: 'conditions', datasetIndex: 0 });
    expect((await preview({}, BY_COUNTRY, byStatus)).empty).toEqual({ reason: 'VARIABLE_MISSING', variables: ['status'], datasetIndex: 0 });
  });

  it('a chart of two datasets is empty only when both are, and names each reason when they differ', async () => {
    const two = async (configs: Record<string, unknown>[]) => {
      const res = await t.request({ method: 'POST', url: `/project/${projectId}/chart/preview`, token: owner.token, payload: { name: 'C', type: 'bar', chartDatasetConfigs: configs } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ chartData: { empty?: unknown } }>().chartData;
    };
    const mixed = await two([
      { dataset_id: none, ...BY_COUNTRY, legend: 'Refunds' },
      { dataset_id: orders, ...BY_COUNTRY, xAxis: 'root[].region', legend: 'Orders' },
    ]);
    expect(mixed.empty).toEqual({
      reason: 'NO_ROWS',
      datasetIndex: 0,
      legend: 'Refunds',
      datasets: [
        { reason: 'NO_ROWS', datasetIndex: 0, legend: 'Refunds' },
        { reason: 'FIELD_MISSING', field: 'root[].region', datasetIndex: 1, legend: 'Orders' },
      ],
    });
    // The same reason twice is said once.
    const same = await two([
      { dataset_id: none, ...BY_COUNTRY, legend: 'Refunds' },
      { dataset_id: none, ...BY_COUNTRY, legend: 'Returns' },
    ]);
    expect(same.empty).toEqual({ reason: 'NO_ROWS', datasetIndex: 0, legend: 'Refunds' });
    // One dataset with data: the chart is not empty.
    expect((await two([{ dataset_id: none, ...BY_COUNTRY }, { dataset_id: orders, ...BY_COUNTRY }])).empty).toBeUndefined();
  });

  it('a saved chart says it in its run answer too', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Empty', type: 'bar', chartDatasetConfigs: [{ dataset_id: none, ...BY_COUNTRY }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const run = await t.request({ method: 'POST', url: `/project/${projectId}/chart/${created.json<{ id: number }>().id}/query`, token: owner.token });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json<{ chartData: { empty?: unknown } }>().chartData.empty).toEqual({ reason: 'NO_ROWS', datasetIndex: 0 });
  });
});
