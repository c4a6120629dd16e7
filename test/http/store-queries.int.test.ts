import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { postgresConnection } from '../helpers/fixtures.js';

/**
 * How many statements the store runs for one request on the two run paths, counted from the
 * store's own query hook: everything from authentication to the answer (source queries are not
 * the store's and are not counted).
 */
describe('store statements per run', () => {
  let t: TestApp;
  let db: { url: string; drop(): Promise<void> };
  let counting = false;
  let statements: string[] = [];
  let token: string;
  let teamId: number;
  let projectId: number;
  let datasetId: number;
  let connectionId: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `
      create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
      insert into orders select g, (array['FR','DE','US'])[1 + g % 3], 'paid', g, timestamptz '2025-01-01' + g * interval '5 hours' from generate_series(1, 200) g;
    `);
    t = await buildTestApp({ onStoreQuery: (sql) => counting && statements.push(sql) });
    const owner = await t.signup('Owner');
    token = owner.token;
    teamId = owner.teamId;
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${teamId}/connections`,
        token,
        payload: postgresConnection('shop', url),
      })
    ).json();
    connectionId = conn.id;
    projectId = (await t.request({ method: 'POST', url: '/project', token, payload: { name: 'Sales', team_id: teamId, timezone: 'UTC' } })).json().id;
    const dataset = await t.request({
      method: 'POST',
      url: `/team/${teamId}/datasets/quick-create`,
      token,
      payload: {
        name: 'Orders',
        project_ids: [projectId],
        dataRequests: [{ connection_id: conn.id, query: 'select * from orders where status = {{status}}', variableBindings: [{ name: 'status', default_value: 'paid' }] }],
      },
    });
    expect(dataset.statusCode, dataset.body).toBe(200);
    datasetId = dataset.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  async function counted(run: () => Promise<{ statusCode: number; body: string }>): Promise<string[]> {
    statements = [];
    counting = true;
    try {
      const res = await run();
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      counting = false;
    }
    return statements;
  }

  async function chart(type: string, config: Record<string, unknown>): Promise<number> {
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token,
      payload: { name: type, type, timeInterval: 'day', chartDatasetConfigs: [{ dataset_id: datasetId, ...config }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  /** Reads the run itself makes: every select but authentication's session lookup (shared by every route). */
  const runReads = (sqls: string[]) => sqls.filter((sql) => /^select/i.test(sql) && !/from "sessions"/.test(sql) && !/from "alerts"/.test(sql));
  /**
   * Statements of the run itself: not authentication's (the session lookup, and its lastUsedAt
   * touch, written at most once a minute), nor a background schema refresh of an earlier run that
   * may land while this one is counted on a slow machine.
   */
  const runStatements = (sqls: string[]) => sqls.filter((sql) => !/"sessions"/.test(sql) && !/^update "connections"/i.test(sql));

  it.each([
    { path: 'pushdown', type: 'line', config: { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum' } },
    { path: 'stream', type: 'table', config: { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'none' } },
  ])('a chart refresh ($path) reads the store at most 6 times, then saves its data and its history', async ({ path, type, config }) => {
    const id = await chart(type, config);
    const sqls = await counted(() => t.request({ method: 'POST', url: `/project/${projectId}/chart/${id}/query`, token }));
    console.log(`[store-queries] chart refresh, ${path}: ${runReads(sqls).length} reads, ${sqls.length} statements in all`);
    expect(runReads(sqls).length).toBeLessThanOrEqual(6);
    // The reads, the save (1), the run history (begin, 2 inserts, commit) and its alerts (1).
    expect(runStatements(sqls).length).toBeLessThanOrEqual(12);
  });

  it('the reads do not grow with the number of datasets a chart draws', async () => {
    const second = await t.request({
      method: 'POST',
      url: `/team/${teamId}/datasets/quick-create`,
      token,
      payload: { name: 'Orders again', project_ids: [projectId], dataRequests: [{ connection_id: connectionId, query: 'select * from orders' }] },
    });
    expect(second.statusCode, second.body).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token,
      payload: {
        name: 'Two datasets',
        type: 'bar',
        chartDatasetConfigs: [
          { dataset_id: datasetId, xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum' },
          { dataset_id: second.json().id, xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const sqls = await counted(() => t.request({ method: 'POST', url: `/project/${projectId}/chart/${res.json().id}/query`, token }));
    expect(runReads(sqls).length).toBeLessThanOrEqual(6);
  });

  it('a dataset run reads the store at most 5 times before its first row', async () => {
    const sqls = await counted(() => t.request({ method: 'GET', url: `/team/${teamId}/datasets/${datasetId}/request`, token }));
    console.log(`[store-queries] dataset run: ${runReads(sqls).length} reads, ${sqls.length} statements in all`);
    expect(runReads(sqls).length).toBeLessThanOrEqual(5);
    expect(runStatements(sqls).length).toBeLessThanOrEqual(5);
  });
});
