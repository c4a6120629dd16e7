import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * Load queues instead of failing. One pooled connection and a queue of one: a second run waits its
 * turn, a third is 503 SOURCE_BUSY with retry-after (never SOURCE_UNREACHABLE: the database is up),
 * and identical chart runs share one computation even without getCache. Runs are held on the
 * database by a lock the test holds on the table they read (saved queries may only read, so they
 * cannot take locks of their own), so no step depends on timing.
 */

describe('source load', () => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let locker: pg.Client;
  let projectId: number;
  let datasetId: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('create table gate (id int)');
    t = await buildTestApp({ env: { PLOTLINE_SOURCE_POOL_SIZE: '1', PLOTLINE_SOURCE_QUEUE_LIMIT: '1', PLOTLINE_CHART_PUSHDOWN: 'false' } });
    owner = await t.signup('Owner');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('db', url),
      })
    ).json<{ id: number }>();
    projectId = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Load', team_id: owner.teamId } })).json<{ id: number }>().id;
    datasetId = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: {
          name: 'Held',
          project_ids: [projectId],
          dataRequests: [
            {
              connection_id: conn.id,
              query: `select (select count(*) from gate)::text as held, {{tag}}::text as tag, g as n from generate_series(1, 3) g`,
              variableBindings: [{ name: 'tag', default_value: 'default' }],
            },
          ],
        },
      })
    ).json<{ id: number }>().id;
  });

  afterAll(async () => {
    await locker?.end();
    await t?.close();
    await db?.drop();
  });

  const pool = () => t.container.sources.pools.stats()[0] ?? { inUse: 0, waiting: 0 };
  async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 1200; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  const blockedOnLock = async () =>
    Number((await locker.query(`select count(*) as n from pg_locks where relation = 'gate'::regclass and not granted`)).rows[0].n) > 0;
  /** Holds the table the dataset reads: its runs wait on the database until `release()`. */
  const hold = async () => {
    await locker.query('begin');
    await locker.query('lock table gate in access exclusive mode');
  };
  const release = () => locker.query('commit');
  const runDataset = (tag: string) =>
    t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token, payload: { variables: { tag } } });

  it('a run beyond the pool waits its turn; beyond the queue it is 503 SOURCE_BUSY with retry-after', async () => {
    await hold();
    const first = runDataset('a');
    await until(blockedOnLock, 'the first run to hold the pooled connection');
    const second = runDataset('b');
    await until(() => pool().waiting === 1, 'the second run to queue');
    const third = await runDataset('c');
    expect(third.statusCode, third.body).toBe(503);
    expect(third.json()).toMatchObject({ code: 'SOURCE_BUSY' });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);

    await release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json<{ data: { tag: string }[] }>().data[0]!.tag)).toEqual(['a', 'b']);
    expect(pool()).toMatchObject({ inUse: 0, waiting: 0 });

    const cached = () => t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token, payload: { getCache: true, variables: { tag: 'd' } } });
    expect((await cached()).json()).toMatchObject({ cache: { status: 'miss' } });
    expect((await cached()).json()).toMatchObject({ cache: { status: 'hit' } });
    const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/plotline_source_query_errors_total\{type="postgres",code="SOURCE_BUSY"\} 1/);
    expect(metrics).toMatch(/plotline_source_query_duration_seconds_count\{type="postgres",outcome="ok"\} \d+/);
    expect(metrics).toMatch(/plotline_source_rows_read_total\{type="postgres"\} \d+/);
    expect(metrics).toMatch(/plotline_source_pool_connections\{family="postgres",state="waiting"\} 0/);
    expect(metrics).toMatch(/plotline_cache_requests_total\{namespace="dataset",status="miss"\} 1/);
    expect(metrics).toMatch(/plotline_cache_requests_total\{namespace="dataset",status="hit"\} 1/);
    const runLog = t.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['event'] === 'source_run' && line['outcome'] === 'ok');
    expect(runLog).toMatchObject({ type: 'postgres', connectionId: expect.any(String), durationMs: expect.any(Number), rows: 3 });
  });

  it('identical concurrent chart runs share one computation, without getCache', async () => {
    const chart = (
      await t.request({
        method: 'POST',
        url: `/project/${projectId}/chart/quick-create`,
        token: owner.token,
        payload: { name: 'Rows', type: 'bar', chartDatasetConfigs: [{ dataset_id: datasetId, xAxis: 'root[].tag', yAxis: 'root[].n', yAxisOperation: 'sum', legend: 'N' }] },
      })
    ).json<{ id: number }>();
    await hold();
    // With one pooled connection and a queue of one, 20 separate computations would mostly be 503s.
    const runs = Array.from({ length: 20 }, () => t.request({ method: 'POST', url: `/project/${projectId}/chart/${chart.id}/query`, token: owner.token }));
    await until(blockedOnLock, 'the shared run to reach the database');
    await release();
    const answers = await Promise.all(runs);
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((r) => JSON.stringify(r.json<{ chartData: unknown }>().chartData))).size).toBe(1);
    expect(answers[0]!.json<{ chartData: { data: { datasets: { data: number[] }[] } } }>().chartData.data.datasets[0]!.data).toEqual([6]);
  });
});
