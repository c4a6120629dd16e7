import { parse } from 'csv-parse/sync';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../helpers/services.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { startMongoWireServer, type MongoWireServer } from '../helpers/mongo-wire-server.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * Every run path is bounded in bytes as well as rows. With PLOTLINE_RESULT_MAX_MB=2, results of
 * tens of megabytes (rows of 100 KB, a single 5 MB value, a join that repeats a wide row, groups
 * with 10 KB labels) come back cut, and say so: `truncated: true, truncatedBy: 'bytes'` with the
 * `byteLimit`, in a run's meta, in a chart's data (saved too), and in an export's headers.
 */

const LIMIT_MB = 2;
const LIMIT = LIMIT_MB * 1024 * 1024;
/** Rows of about 100 KB each: 200 of them are about 20 MB. */
const WIDE_ROWS = 200;
const PAD = 100_000;

type Meta = { truncated: boolean; truncatedBy?: string; byteLimit?: number; rowLimit?: number; rowCount: number };

interface Setup {
  t: TestApp;
  owner: Person;
  projectId: number;
  connectionId: number;
  dataset(name: string, query: string): Promise<number>;
  run(datasetId: number, query?: string): Promise<{ data: Record<string, unknown>[]; meta: Meta; bodyBytes: number }>;
  chart(payload: Record<string, unknown>, datasetId: number, config?: Record<string, unknown>): Promise<number>;
  query(chartId: number): Promise<Record<string, unknown>>;
  saved(chartId: number): Promise<{ chartData: Record<string, unknown>; bytes: number }>;
}

async function setup(connection: Record<string, unknown>): Promise<Setup> {
  const t = await buildTestApp({ env: { PLOTLINE_RESULT_MAX_MB: String(LIMIT_MB) } });
  const owner = await t.signup('Owner');
  const conn = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: connection });
  expect(conn.statusCode, conn.body).toBe(200);
  const connectionId = conn.json<{ id: number }>().id;
  const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Wide', team_id: owner.teamId, timezone: 'UTC' } })).json<{ id: number }>();
  return {
    t,
    owner,
    projectId: project.id,
    connectionId,
    async dataset(name, query) {
      const res = await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name, project_ids: [project.id], dataRequests: [{ connection_id: connectionId, query }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    },
    async run(datasetId, query = '') {
      const res = await t.request({ method: query ? 'GET' : 'POST', url: `/team/${owner.teamId}/datasets/${datasetId}/request${query}`, token: owner.token, ...(query ? {} : { payload: {} }) });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json<{ data: Record<string, unknown>[]; meta: Meta }>();
      return { ...body, bodyBytes: res.rawPayload.length };
    },
    async chart(payload, datasetId, config = {}) {
      const res = await t.request({
        method: 'POST',
        url: `/project/${project.id}/chart/quick-create`,
        token: owner.token,
        payload: { ...payload, chartDatasetConfigs: [{ dataset_id: datasetId, legend: 'Rows', ...config }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    },
    async query(chartId) {
      const res = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${chartId}/query`, token: owner.token });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return res.json<{ chartData: Record<string, unknown> }>().chartData;
    },
    async saved(chartId) {
      const res = await t.request({ method: 'GET', url: `/project/${project.id}/chart/${chartId}`, token: owner.token });
      expect(res.statusCode).toBe(200);
      const chartData = res.json<{ chartData: Record<string, unknown> }>().chartData;
      return { chartData, bytes: Buffer.byteLength(JSON.stringify(chartData)) };
    },
  };
}

/** Cut by the byte limit: about as many 100 KB rows as 2 MiB holds, never more. */
function expectCutByBytes(meta: Meta, rows: number): void {
  expect(meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
  expect(meta.rowCount).toBe(rows);
  expect(rows * PAD).toBeLessThanOrEqual(LIMIT);
  expect(rows).toBeGreaterThanOrEqual(15);
}

describe('results are bounded in bytes: Postgres', () => {
  let db: { url: string; drop(): Promise<void> };
  let s: Setup;
  let wide: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    const url = new URL(db.url);
    s = await setup(postgresConnection('pg', url));
    wide = await s.dataset('Wide', `select g, repeat('x', ${PAD}) as pad from generate_series(1, ${WIDE_ROWS}) g`);
  });
  afterAll(async () => {
    await s?.t.close();
    await db?.drop();
  });

  it('a dataset run, streamed or collected, answers the rows that fit with truncatedBy bytes', async () => {
    const streamed = await s.run(wide);
    expectCutByBytes(streamed.meta, streamed.data.length);
    expect(streamed.bodyBytes).toBeLessThan(LIMIT + 64 * 1024);
    expect(streamed.data.map((row) => row['g'])).toEqual(Array.from({ length: streamed.data.length }, (_, i) => i + 1));

    const collected = await s.run(wide, '?getCache=true');
    expectCutByBytes(collected.meta, collected.data.length);
    expect(collected.meta.rowLimit).toBe(100_000);
  });

  it('a single value larger than the limit cuts the run before it, and the connection serves the next run', async () => {
    const huge = await s.dataset('Huge', `select g, case when g = 3 then repeat('y', 5000000) else 'small' end as v from generate_series(1, 10) g`);
    const cut = await s.run(huge);
    expect(cut.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    expect(cut.data.length).toBe(cut.meta.rowCount);
    expect(cut.data.length).toBeLessThan(3);
    expect(cut.data.every((row) => row['v'] === 'small')).toBe(true);
    const next = await s.run(await s.dataset('Small', 'select 1 as one'));
    expect(next.data).toEqual([{ one: 1 }]);
  });

  it('a table chart is cut and marked, in its answer and in its saved data', async () => {
    const table = await s.chart({ name: 'Wide table', type: 'table' }, wide);
    const answered = await s.query(table);
    expect(answered).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    const rows = (answered['Rows'] as { data: unknown[] }).data.length;
    expect(rows).toBeGreaterThanOrEqual(15);
    const saved = await s.saved(table);
    expect(saved.chartData).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    expect((saved.chartData['Rows'] as { data: unknown[] }).data).toHaveLength(rows);
    expect(saved.bytes).toBeLessThan(LIMIT + 64 * 1024);
  });

  it('a chart whose groups outgrow the limit (10 KB labels) is cut, marked and saved bounded', async () => {
    const labels = await s.dataset('Labels', `select g, repeat('c', 10000) || g as cat from generate_series(1, 1000) g`);
    const bar = await s.chart({ name: 'Many labels', type: 'bar' }, labels, { xAxis: 'root[].cat', yAxis: 'root[].g', yAxisOperation: 'count' });
    const answered = await s.query(bar);
    expect(answered).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    const shown = (answered['data'] as { labels: string[] }).labels.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(1000);
    const saved = await s.saved(bar);
    expect(saved.chartData).toMatchObject({ truncated: true, truncatedBy: 'bytes' });
    expect(saved.bytes).toBeLessThan(LIMIT + 64 * 1024);
  });

  it('a dataset export answers the rows that fit, and says it was cut in its headers', async () => {
    const csv = await s.t.request({ method: 'GET', url: `/team/${s.owner.teamId}/datasets/${wide}/export?format=csv`, token: s.owner.token });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    expect(csv.headers).toMatchObject({ 'x-plotline-truncated': 'true', 'x-plotline-truncated-by': 'bytes', 'x-plotline-byte-limit': String(LIMIT) });
    const rows = parse(csv.body, { bom: true, columns: true }) as { g: string; pad: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.length * PAD).toBeLessThanOrEqual(LIMIT);
    expect(rows.map((row) => Number(row.g))).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
  });

  it('a join whose rows repeat a wide joined row is cut once its answer reaches the limit', async () => {
    const res = await s.t.request({
      method: 'POST',
      url: `/team/${s.owner.teamId}/datasets/quick-create`,
      token: s.owner.token,
      payload: {
        name: 'Joined',
        project_ids: [s.projectId],
        dataRequests: [
          { connection_id: s.connectionId, query: 'select g, 1 as k from generate_series(1, 2000) g' },
          { connection_id: s.connectionId, query: `select 1 as k, repeat('z', 20000) as wide` },
        ],
        main_dr_index: 0,
        joinSettings: { joins: [{ dr_id: 0, join_id: 1, dr_field: 'root[].k', join_field: 'root[].k', alias: 'j' }] },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const joined = await s.run(res.json<{ id: number }>().id);
    expect(joined.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    expect(joined.data.length).toBe(joined.meta.rowCount);
    // Each joined row carries the 20 KB row it matched.
    expect(joined.data.length * 20_000).toBeLessThanOrEqual(LIMIT);
    expect(joined.data.length).toBeGreaterThan(50);
    expect(joined.bodyBytes).toBeLessThan(LIMIT + 64 * 1024);
  });
});

describe('results are bounded in bytes: MariaDB', async () => {
  const probe = await probeMysql();
  const skip = announceSkip(probe, 'MariaDB byte limits');
  let mysql: TempMysqlDatabase;
  let s: Setup;
  let wide: number;
  const series = (n: number) => `with recursive s (g) as (select 1 union all select g + 1 from s where g < ${n})`;

  beforeAll(async () => {
    if (skip) return;
    mysql = await createTempMysqlDatabase();
    s = await setup({ name: 'maria', type: 'mysql', host: mysql.host, port: mysql.port, dbName: mysql.name, username: mysql.user, password: mysql.password || undefined });
    wide = await s.dataset('Wide', `${series(WIDE_ROWS)} select g, repeat('x', ${PAD}) as pad from s`);
  });
  afterAll(async () => {
    await s?.t.close();
    await mysql?.drop();
  });

  it.skipIf(skip)('a dataset run, streamed or collected, answers the rows that fit with truncatedBy bytes', async () => {
    const streamed = await s.run(wide);
    expectCutByBytes(streamed.meta, streamed.data.length);
    expect(streamed.bodyBytes).toBeLessThan(LIMIT + 64 * 1024);
    const collected = await s.run(wide, '?getCache=true');
    expectCutByBytes(collected.meta, collected.data.length);
  });

  it.skipIf(skip)('a single value larger than the limit cuts the run before it, and the connection serves the next run', async () => {
    const huge = await s.dataset('Huge', `${series(10)} select g, case when g = 3 then repeat('y', 5000000) else 'small' end as v from s`);
    const cut = await s.run(huge);
    expect(cut.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    expect(cut.data.length).toBeLessThan(3);
    expect(cut.data.every((row) => row['v'] === 'small')).toBe(true);
    const next = await s.run(await s.dataset('Small', 'select 1 as one'));
    expect(next.data).toEqual([{ one: 1 }]);
  });

  it.skipIf(skip)('a table chart is cut and marked, in its answer and in its saved data', async () => {
    const table = await s.chart({ name: 'Wide table', type: 'table' }, wide);
    expect(await s.query(table)).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    const saved = await s.saved(table);
    expect(saved.chartData).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    expect(saved.bytes).toBeLessThan(LIMIT + 64 * 1024);
  });

  it.skipIf(skip)('a dataset export says it was cut in its headers', async () => {
    const csv = await s.t.request({ method: 'GET', url: `/team/${s.owner.teamId}/datasets/${wide}/export?format=csv`, token: s.owner.token });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    expect(csv.headers).toMatchObject({ 'x-plotline-truncated': 'true', 'x-plotline-truncated-by': 'bytes', 'x-plotline-byte-limit': String(LIMIT) });
    const rows = parse(csv.body, { bom: true, columns: true }) as unknown[];
    expect(rows.length * PAD).toBeLessThanOrEqual(LIMIT);
  });
});

describe('results are bounded in bytes: MongoDB (OP_MSG test server)', () => {
  let wire: MongoWireServer;
  let s: Setup;
  let wide: number;
  const dbName = 'wide';

  beforeAll(async () => {
    wire = await startMongoWireServer();
    const admin = await new MongoClient(wire.url).connect();
    try {
      await admin
        .db(dbName)
        .collection('docs')
        .insertMany(Array.from({ length: WIDE_ROWS }, (_, n) => ({ n, pad: 'x'.repeat(PAD) })));
    } finally {
      await admin.close();
    }
    s = await setup({ name: 'mongo', type: 'mongodb', connectionString: wire.url.replace('/?', `/${dbName}?`), dbName });
    wide = await s.dataset('Wide', "collection('docs').find({}, { projection: { _id: 0 } }).sort({ n: 1 })");
  });
  afterAll(async () => {
    await s?.t.close();
    await wire?.close();
  });

  it('a dataset run answers the documents that fit with truncatedBy bytes, and the server cursor is closed', async () => {
    const streamed = await s.run(wide);
    expectCutByBytes(streamed.meta, streamed.data.length);
    expect(streamed.data.map((row) => row['n'])).toEqual(Array.from({ length: streamed.data.length }, (_, i) => i));
    expect(streamed.bodyBytes).toBeLessThan(LIMIT + 64 * 1024);
    expect(wire.openCursors()).toBe(0);
  });

  it('a table chart is cut and marked, and saved bounded', async () => {
    const table = await s.chart({ name: 'Wide table', type: 'table' }, wide);
    expect(await s.query(table)).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: LIMIT });
    const saved = await s.saved(table);
    expect(saved.chartData).toMatchObject({ truncated: true, truncatedBy: 'bytes' });
    expect(saved.bytes).toBeLessThan(LIMIT + 64 * 1024);
  });
});
