import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../helpers/services.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/** Runs until cancelled (sleep functions are refused by the statement check). */
const SLOW_QUERY = 'select count(*) from (select generate_series(1, 100000000000)) s /* slow_run_marker */';

const ORDERS = `
  create table customers (id int primary key, name text not null);
  create table orders (id int primary key, customer_id int, status text, amount numeric(10,2), created_at timestamptz);
  insert into customers values (1, 'Ada'), (2, 'Grace');
  insert into orders values
    (1, 1, 'paid', 10.50, '2025-01-01T10:00:00Z'),
    (2, 2, 'paid', 20.00, '2025-01-02T10:00:00Z'),
    (3, 1, 'refunded', 5.00, '2025-01-03T10:00:00Z'),
    (4, 2, 'paid', 7.25, '2025-02-01T10:00:00Z');
`;

describe('runs against a real Postgres', () => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let connectionId: number;
  let datasetId: number;
  let ordersRequest: number;

  const api = (path: string) => `/team/${owner.teamId}${path}`;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), ORDERS);
    t = await buildTestApp({ env: { PLOTLINE_QUERY_TIMEOUT_MS: '1500' } });
    owner = await t.signup('Runner');
    const url = new URL(db.url);
    const conn = await t.request({
      method: 'POST',
      url: api('/connections'),
      token: owner.token,
      payload: { ...postgresConnection('shop', url), ssl: false },
    });
    expect(conn.statusCode, conn.body).toBe(200);
    connectionId = conn.json().id;
    const ds = await t.request({
      method: 'POST',
      url: api('/datasets/quick-create'),
      token: owner.token,
      payload: {
        name: 'Orders',
        dateField: 'created_at',
        dataRequests: [
          { connection_id: connectionId, query: 'select id, customer_id, status, amount, created_at from orders where status = {{status}} order by id', variableBindings: [{ name: 'status', default_value: 'paid' }] },
          { connection_id: connectionId, query: 'select id, name from customers' },
        ],
      },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    datasetId = ds.json().id;
    ordersRequest = ds.json().DataRequests[0].id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('tests the connection and introspects its schema (saved on the connection)', async () => {
    expect((await t.request({ method: 'GET', url: api(`/connections/${connectionId}/test`), token: owner.token })).json()).toEqual({ success: true });
    const schema = await t.request({ method: 'GET', url: api(`/connections/${connectionId}/schema`), token: owner.token });
    expect(schema.statusCode).toBe(200);
    const tables = schema.json().schema.tables.map((x: { name: string }) => x.name);
    expect(tables).toEqual(expect.arrayContaining(['customers', 'orders']));
    const conn = (await t.request({ method: 'GET', url: api(`/connections/${connectionId}`), token: owner.token })).json();
    expect(conn.schema.tables.length).toBeGreaterThanOrEqual(2);
  });

  it('runs the dataset with the binding default, streamed as {options, data, meta}', async () => {
    const res = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.options.id).toBe(datasetId);
    expect(body.data.map((r: { id: number }) => r.id)).toEqual([1, 2, 4]);
    expect(body.meta).toMatchObject({ rowCount: 3, truncated: false });
    expect(new Date(body.data[0].created_at).toISOString()).toBe('2025-01-01T10:00:00.000Z');
  });

  it('binds variables as parameters: injection attempts return no extra rows and change nothing', async () => {
    for (const value of ["x' OR '1'='1", "'; DROP TABLE orders; --", '{"$ne": null}', '../', '%0d%0a']) {
      const res = await t.request({ method: 'POST', url: api(`/datasets/${datasetId}/request`), token: owner.token, payload: { variables: { status: value } } });
      expect(res.statusCode, value).toBe(200);
      expect(res.json().data, value).toEqual([]);
    }
    const still = await t.request({ method: 'POST', url: api(`/datasets/${datasetId}/request`), token: owner.token, payload: { variables: { status: 'refunded' } } });
    expect(still.json().data.map((r: { id: number }) => r.id)).toEqual([3]);
  });

  it('applies filters, limit and offset', async () => {
    const filtered = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?filters=${encodeURIComponent(JSON.stringify({ customer_id: 2 }))}`), token: owner.token });
    expect(filtered.json().data.map((r: { id: number }) => r.id)).toEqual([2, 4]);
    const range = await t.request({
      method: 'POST',
      url: api(`/datasets/${datasetId}/request`),
      token: owner.token,
      payload: { filters: [{ type: 'date', startDate: '2025-01-02T00:00:00Z', endDate: '2025-01-31T23:59:59Z' }] },
    });
    expect(range.json().data.map((r: { id: number }) => r.id)).toEqual([2]);
    const paged = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?limit=1&offset=1`), token: owner.token });
    expect(paged.json().data.map((r: { id: number }) => r.id)).toEqual([2]);
    const bad = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?filters=%7Bnope`), token: owner.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('querystring.filters');
  });

  it('caches with getCache: a second identical run is a hit; noSource answers from the cache only', async () => {
    const first = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?getCache=true`), token: owner.token });
    expect(first.json().cache.status).toBe('miss');
    const second = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?getCache=true`), token: owner.token });
    expect(second.json().cache.status).toBe('hit');
    expect(second.json().data).toEqual(first.json().data);
    const cached = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?noSource=true`), token: owner.token });
    expect(cached.json().data).toEqual(first.json().data);
    // Editing the data request changes the dataset version, so the old entry is never served.
    await t.request({ method: 'PUT', url: api(`/datasets/${datasetId}/dataRequests/${ordersRequest}`), token: owner.token, payload: { query: 'select id from orders where status = {{status}} order by id desc' } });
    const after = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?getCache=true`), token: owner.token });
    expect(after.json().cache.status).toBe('miss');
    expect(after.json().data).toEqual([{ id: 4 }, { id: 2 }, { id: 1 }]);
    await t.request({ method: 'PUT', url: api(`/datasets/${datasetId}/dataRequests/${ordersRequest}`), token: owner.token, payload: { query: 'select id, customer_id, status, amount, created_at from orders where status = {{status}} order by id' } });
  });

  it('joins the customers request by hash join, under an alias; an inner join drops rows without a match', async () => {
    const ds = (await t.request({ method: 'GET', url: api(`/datasets/${datasetId}`), token: owner.token })).json();
    const [orders, customers] = ds.DataRequests;
    const put = await t.request({
      method: 'PUT',
      url: api(`/datasets/${datasetId}`),
      token: owner.token,
      payload: { joinSettings: { joins: [{ dr_id: orders.id, join_id: customers.id, dr_field: 'root[].customer_id', join_field: 'root[].id', alias: 'customer' }] } },
    });
    expect(put.statusCode, put.body).toBe(200);
    const res = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: owner.token });
    expect(res.json().data.map((r: { id: number; customer: { name: string } }) => [r.id, r.customer.name])).toEqual([
      [1, 'Ada'],
      [2, 'Grace'],
      [4, 'Grace'],
    ]);
    // Order ids matched to customer ids: order 4 has no customer 4, kept by a left join, dropped by an inner one.
    const byId = async (type: 'left' | 'inner') => {
      const join = { dr_id: orders.id, join_id: customers.id, dr_field: 'root[].id', join_field: 'root[].id', alias: 'c', type };
      const saved = await t.request({ method: 'PUT', url: api(`/datasets/${datasetId}`), token: owner.token, payload: { joinSettings: { joins: [join] } } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().joinSettings.joins[0].type).toBe(type);
      return (await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: owner.token })).json().data.map((r: { id: number }) => r.id);
    };
    expect(await byId('left')).toEqual([1, 2, 4]);
    expect(await byId('inner')).toEqual([1, 2]);
    await t.request({ method: 'PUT', url: api(`/datasets/${datasetId}`), token: owner.token, payload: { joinSettings: { joins: [] } } });
  });

  it('runs one data request: {options, dataRequest: {responseData: {data}}}', async () => {
    const res = await t.request({ method: 'POST', url: api(`/datasets/${datasetId}/dataRequests/${ordersRequest}/request`), token: owner.token, payload: { variables: { status: 'refunded' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().options.id).toBe(datasetId);
    expect(res.json().dataRequest.responseData.data.map((r: { id: number }) => r.id)).toEqual([3]);
    const empty = await t.request({ method: 'POST', url: api(`/datasets/${datasetId}/dataRequests/${ordersRequest}/request`), token: owner.token });
    expect(empty.statusCode).toBe(200);
  });

  it('reports source errors: bad SQL 400 SOURCE_QUERY_FAILED, timeout 504 within the limit, unknown variable 400', async () => {
    const make = async (query: string) =>
      (await t.request({ method: 'POST', url: api('/datasets/quick-create'), token: owner.token, payload: { name: 'x', dataRequests: [{ connection_id: connectionId, query }] } })).json().id;
    const bad = await t.request({ method: 'GET', url: api(`/datasets/${await make('select nope from nowhere')}/request`), token: owner.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('SOURCE_QUERY_FAILED');
    expect(bad.json().error).toContain('nowhere');
    const slow = await t.request({ method: 'GET', url: api(`/datasets/${await make(SLOW_QUERY)}/request`), token: owner.token });
    expect(slow.statusCode).toBe(504);
    expect(slow.json().code).toBe('SOURCE_TIMEOUT');
    const unknown = await t.request({ method: 'GET', url: api(`/datasets/${await make('select {{mystery}}')}/request`), token: owner.token });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('mystery');
    // The timed-out query is gone from the server.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const active = async () =>
      (await client.query("select count(*)::int as n from pg_stat_activity where query like '%slow_run_marker%' and state = 'active' and pid <> pg_backend_pid()")).rows[0].n;
    // The cancel may still be on its way when the 504 is sent: poll for a while rather than once.
    const until = Date.now() + 15_000;
    while ((await active()) !== 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await active()).toBe(0);
    await client.end();
  });

  it('refuses a saved COPY … TO PROGRAM or file-reading query with 400 INVALID_QUERY, and the command never runs', async () => {
    const marker = path.join(os.tmpdir(), `plotline-http-copy-${process.pid}-${Date.now()}`);
    rmSync(marker, { force: true });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // The connection is a superuser's: only the statement check stands between the query and the shell.
      expect((await client.query("select current_setting('is_superuser') as su")).rows[0].su).toBe('on');
      const queries = [
        `copy (select 1) to program 'touch ${marker}'`,
        `select 1; copy orders to '${marker}'`,
        "select pg_read_file('/etc/hostname')",
        "select lo_import('/etc/hostname')",
        // The same calls in functional notation: (x).f and t.f are f(x) and f(t).
        "select ('/etc/hostname'::text).pg_read_file",
        "select p.lo_import from lower('/etc/hostname') as p",
      ];
      for (const query of queries) {
        const created = await t.request({ method: 'POST', url: api('/datasets/quick-create'), token: owner.token, payload: { name: 'evil', dataRequests: [{ connection_id: connectionId, query }] } });
        expect(created.statusCode, created.body).toBe(200);
        const res = await t.request({ method: 'GET', url: api(`/datasets/${created.json().id}/request`), token: owner.token });
        expect(res.statusCode, query).toBe(400);
        expect(res.json().code, query).toBe('INVALID_QUERY');
        expect(res.json().error, query).toMatch(/reading statement|not allowed/);
      }
      expect(existsSync(marker)).toBe(false);
      expect((await client.query('select count(*)::int as n from pg_largeobject_metadata')).rows[0].n).toBe(0);
    } finally {
      await client.end();
      rmSync(marker, { force: true });
    }
  });

  it('an unreachable database is a 502; another team cannot run this dataset', async () => {
    const conn = (await t.request({ method: 'POST', url: api('/connections'), token: owner.token, payload: { name: 'dead', type: 'postgres', host: '127.0.0.1', port: '1', dbName: 'x', username: 'x' } })).json();
    const test = await t.request({ method: 'GET', url: api(`/connections/${conn.id}/test`), token: owner.token });
    expect(test.statusCode).toBe(502);
    expect(test.json().code).toBe('SOURCE_UNREACHABLE');
    const stranger = await t.signup('Stranger');
    expect((await t.request({ method: 'GET', url: `/team/${stranger.teamId}/datasets/${datasetId}/request`, token: stranger.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: stranger.token })).statusCode).toBe(403);
  });

  it('closes the connection’s pool when it is updated or deleted', async () => {
    await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: owner.token });
    expect(t.container.sources.pools.has(connectionId)).toBe(true);
    await t.request({ method: 'PUT', url: api(`/connections/${connectionId}`), token: owner.token, payload: { name: 'shop (renamed)' } });
    expect(t.container.sources.pools.has(connectionId)).toBe(false);
    await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request`), token: owner.token });
    expect(t.container.sources.pools.has(connectionId)).toBe(true);
    await t.request({ method: 'DELETE', url: api(`/connections/${connectionId}?removeDatasets=true`), token: owner.token });
    expect(t.container.sources.pools.has(connectionId)).toBe(false);
  });
});

describe('runs against a real MariaDB', async () => {
  const probe = await probeMysql();
  const skip = announceSkip(probe, 'MariaDB dataset runs');
  let t: TestApp;
  let owner: Person;
  let mysql: TempMysqlDatabase;
  let datasetId: number;
  let connectionId: number;

  beforeAll(async () => {
    if (skip) return;
    mysql = await createTempMysqlDatabase();
    await mysql.exec('create table orders (id int primary key, status varchar(20), amount decimal(10,2)); insert into orders values (1, "paid", 10.5), (2, "paid", 20), (3, "refunded", 5);');
    t = await buildTestApp({ env: { PLOTLINE_QUERY_TIMEOUT_MS: '1500' } });
    owner = await t.signup('Maria');
    const conn = (
      await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: { name: 'maria', type: 'mysql', host: mysql.host, port: mysql.port, dbName: mysql.name, username: mysql.user, password: mysql.password || undefined } })
    ).json();
    connectionId = conn.id;
    const ds = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: { name: 'm', dataRequests: [{ connection_id: conn.id, query: "select id, amount from orders where status = {{status}} and status like '%{{status}}%' order by id", variableBindings: [{ name: 'status', default_value: 'paid' }] }] },
    });
    datasetId = ds.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await mysql?.drop();
  });

  it.skipIf(skip)('runs with bound variables (also inside a quoted LIKE pattern) and rejects injection', async () => {
    const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ id: 1, amount: 10.5 }, { id: 2, amount: 20 }]);
    const evil = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token, payload: { variables: { status: "x' OR '1'='1" } } });
    expect(evil.json().data).toEqual([]);
    expect(await mysql.exec('select count(*) as n from orders')).toEqual([{ n: 3 }]);
  });

  it.skipIf(skip)('groups a chart by a text column in the database: the grouped query passes the statement check', async () => {
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Maria charts', team_id: owner.teamId } })).json();
    const ds = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: { name: 'by status', project_ids: [project.id], dataRequests: [{ connection_id: connectionId, query: 'select status, amount from orders' }] },
    });
    const chart = await t.request({
      method: 'POST',
      url: `/project/${project.id}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Amount by status', type: 'bar', chartDatasetConfigs: [{ dataset_id: ds.json().id, xAxis: 'root[].status', yAxis: 'root[].amount', yAxisOperation: 'sum' }] },
    });
    expect(chart.statusCode, chart.body).toBe(200);
    const run = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${chart.json().id}/query`, token: owner.token });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().chartData.data).toMatchObject({ labels: ['paid', 'refunded'], datasets: [{ data: [30.5, 5] }] });
    const runs = (await t.request({ method: 'GET', url: `/project/${project.id}/runs`, token: owner.token })).json();
    expect(runs.runs[0].charts[0].paths).toEqual(['pushdown']);
  });

  it.skipIf(skip)('refuses INTO OUTFILE hidden behind a comment, and SELECT … INTO @var, with 400 INVALID_QUERY', async () => {
    // MariaDB writes the file as its own OS user when secure_file_priv allows it (it does on the test machines).
    const marker = path.join(os.tmpdir(), `plotline-http-outfile-${process.pid}-${Date.now()}`);
    rmSync(marker, { force: true });
    onTestFinished(() => rmSync(marker, { force: true }));
    for (const query of [`select * from orders into/**/outfile '${marker}'`, `select * from orders into -- x\noutfile '${marker}'`, `select * from orders into #x\noutfile '${marker}'`, 'select 1 into @x']) {
      const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: { name: 'evil', dataRequests: [{ connection_id: connectionId, query }] } });
      expect(created.statusCode, created.body).toBe(200);
      const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${created.json().id}/request`, token: owner.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe('INVALID_QUERY');
      expect(res.json().error, query).toContain('SELECT … INTO');
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe('runs against an HTTP API on loopback', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer api-secret-token') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: 'no' }));
        return;
      }
      if (url.pathname === '/feed') {
        // A cursor-paged feed of 1,000 items a page that never ends.
        const from = Number(url.searchParams.get('cursor') ?? 0);
        res.end(JSON.stringify({ data: Array.from({ length: 1_000 }, (_, i) => ({ n: from + i })), meta: { next_cursor: String(from + 1_000) } }));
        return;
      }
      res.end(JSON.stringify({ items: [{ id: 1, q: url.searchParams.get('q') }, { id: 2, q: url.searchParams.get('q') }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function setup(t: TestApp) {
    const owner = await t.signup('Api');
    const conn = (
      await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: { name: 'api', type: 'api', host: base, authentication: { type: 'bearer_token', token: 'api-secret-token' } } })
    ).json();
    const ds = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'a', dataRequests: [{ connection_id: conn.id, method: 'GET', route: '/things?q={{q}}', variableBindings: [{ name: 'q', default_value: 'a&b=c' }] }] },
      })
    ).json();
    return { owner, datasetId: ds.id as number };
  }

  it('blocks loopback targets by default (400 TARGET_NOT_ALLOWED)', async () => {
    const t = await buildTestApp();
    try {
      const { owner, datasetId } = await setup(t);
      const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('TARGET_NOT_ALLOWED');
    } finally {
      await t.close();
    }
  });

  it('reaches an allowed private host; variables are URL-encoded; the token never leaves the server', async () => {
    const t = await buildTestApp({ env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    try {
      const { owner, datasetId } = await setup(t);
      const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/request`, token: owner.token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ items: [{ id: 1, q: 'a&b=c' }, { id: 2, q: 'a&b=c' }] });
      expect(t.bodies.join('\n')).not.toContain('api-secret-token');
      expect(t.logs.text).not.toContain('api-secret-token');
    } finally {
      await t.close();
    }
  });

  it('cursor paging stopped by the page cap answers truncated: true with the reason and the rows it kept', async () => {
    const t = await buildTestApp({ env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    try {
      const { owner } = await setup(t);
      const conn = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections`, token: owner.token })).json()[0];
      const ds = (
        await t.request({
          method: 'POST',
          url: `/team/${owner.teamId}/datasets/quick-create`,
          token: owner.token,
          payload: { name: 'feed', dataRequests: [{ connection_id: conn.id, method: 'GET', route: '/feed', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' }] },
        })
      ).json();
      // 100 pages (the cap) of 1,000 items: as many rows as the row limit, and the feed has more.
      const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${ds.id}/request`, token: owner.token });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json();
      expect(body.data.data).toHaveLength(100_000);
      // The page cap, not the row limit, cut it (the run's row limit is reported beside it).
      expect(body.meta).toMatchObject({ rowCount: 100_000, truncated: true, truncatedBy: 'pages', pageLimit: 100, rowLimit: 100_000 });

      // A chart over it says the same in its chartData (saved, shown on report pages).
      const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Feed', team_id: owner.teamId } })).json();
      await t.request({ method: 'PUT', url: `/team/${owner.teamId}/datasets/${ds.id}`, token: owner.token, payload: { project_ids: [project.id] } });
      const chart = await t.request({
        method: 'POST',
        url: `/project/${project.id}/chart/quick-create`,
        token: owner.token,
        payload: { name: 'Items', type: 'kpi', chartDatasetConfigs: [{ dataset_id: ds.id, yAxis: 'root.data[].n', yAxisOperation: 'count' }] },
      });
      expect(chart.statusCode, chart.body).toBe(200);
      const run = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${chart.json().id}/query`, token: owner.token });
      expect(run.statusCode, run.body.slice(0, 300)).toBe(200);
      expect(run.json().chartData).toMatchObject({ truncated: true, truncatedBy: 'pages', pageLimit: 100 });
    } finally {
      await t.close();
    }
  });
});
