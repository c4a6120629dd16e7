import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../helpers/services.js';

/** Runs until cancelled (sleep functions are refused by the statement check). */
const SLOW_QUERY = 'select count(*) from (select generate_series(1, 100000000000)) s /* draft_cancel_marker */';

const ORDERS = `
  create table orders (id int primary key, status text);
  insert into orders values (1, 'paid'), (2, 'paid'), (3, 'refunded');
`;

/** `POST …/dataRequests/{id}/draft`: the SQL on the editor's screen, run without saving it. */
describe('draft runs of a data request on a real Postgres', () => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let datasetId: number;
  let requestId: number;
  let base: string;

  const draftUrl = () => `/team/${owner.teamId}/datasets/${datasetId}/dataRequests/${requestId}/draft`;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), ORDERS);
    t = await buildTestApp({ env: { PLOTLINE_QUERY_TIMEOUT_MS: '60000' } });
    owner = await t.signup('Drafter');
    const url = new URL(db.url);
    const conn = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/connections`,
      token: owner.token,
      payload: { ...postgresConnection('shop', url), ssl: false },
    });
    expect(conn.statusCode, conn.body).toBe(200);
    const ds = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: { name: 'Orders', dataRequests: [{ connection_id: conn.json().id, query: 'select id from orders order by id', variableBindings: [{ name: 'status' }] }] },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    datasetId = ds.json().id;
    requestId = ds.json().DataRequests[0].id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('runs the draft, not the saved query, and saves nothing', async () => {
    const res = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: "select status, count(*)::int as n from orders where status = {{status}} group by 1", variables: { status: 'paid' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().dataRequest.responseData.data).toEqual([{ status: 'paid', n: 2 }]);
    const saved = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/dataRequests`, token: owner.token });
    expect(saved.json()[0].query).toBe('select id from orders order by id');
  });

  it('names a bound variable that ran without a value (as NULL: no rows), and an unbound one that has none', async () => {
    const res = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: 'select id from orders where status = {{status}}' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().variablesWithoutValue).toEqual(['status']);
    expect(res.json().dataRequest.responseData.data).toEqual([]);
    const unbound = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: 'select id from orders where status = {{mystery}}' } });
    expect(unbound.statusCode).toBe(400);
    expect(unbound.json().error).toContain('mystery');
    // The draft's own variables, as the editor shows them: bound for this run only, nothing saved.
    const drafted = await t.request({
      method: 'POST',
      url: draftUrl(),
      token: owner.token,
      payload: { query: 'select id from orders where status = {{mystery}} or {{kind}} is not null order by id', variableBindings: [{ name: 'mystery' }, { name: 'kind', default_value: 'x' }] },
    });
    expect(drafted.statusCode, drafted.body).toBe(200);
    // The saved request's own binding without a value (status) is listed too, as in a saved run.
    expect(drafted.json().variablesWithoutValue).toEqual(['mystery', 'status']);
    expect(drafted.json().dataRequest.responseData.data).toHaveLength(3);
    const bindings = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/dataRequests`, token: owner.token });
    expect(bindings.json()[0].VariableBindings.map((b: { name: string }) => b.name)).toEqual(['status']);
  });

  it('keeps the statement check: a syntax error is said as one, a write is refused', async () => {
    const syntax = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: 'selec id from orders' } });
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toMatchObject({ code: 'INVALID_QUERY' });
    expect(syntax.json().error).toContain('syntax error');
    expect(syntax.json().error).not.toContain('read-only');
    const write = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: 'delete from orders' } });
    expect(write.statusCode).toBe(400);
    expect(write.json().error).toContain('DELETE is not a reading statement');
    const count = await t.request({ method: 'POST', url: draftUrl(), token: owner.token, payload: { query: 'select count(*)::int as n from orders' } });
    expect(count.json().dataRequest.responseData.data).toEqual([{ n: 3 }]);
  });

  it('needs the right to write datasets; another team gets a 404', async () => {
    const editor = await t.signup('Editor');
    const project = await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Board', team_id: owner.teamId } });
    await t.request({ method: 'PUT', url: `/team/${owner.teamId}/datasets/${datasetId}`, token: owner.token, payload: { project_ids: [project.json().id] } });
    const added = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: editor.email, role: 'projectEditor', projects: [project.json().id] } });
    expect(added.statusCode, added.body).toBe(200);
    const refused = await t.request({ method: 'POST', url: draftUrl(), token: editor.token, payload: { query: 'select 1' } });
    expect(refused.statusCode).toBe(403);
    const stranger = await t.signup('Stranger');
    const foreign = await t.request({ method: 'POST', url: draftUrl(), token: stranger.token, payload: { query: 'select 1' } });
    expect([403, 404]).toContain(foreign.statusCode);
  });

  it('cancels the query on Postgres when the client goes away', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const active = async () =>
      (await admin.query("select count(*)::int as n from pg_stat_activity where query like '%draft_cancel_marker%' and state = 'active' and pid <> pg_backend_pid()")).rows[0].n as number;
    const controller = new AbortController();
    const run = fetch(base + draftUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ query: SLOW_QUERY }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // Wait until the query runs on the server, then go away.
    let until = Date.now() + 15_000;
    while ((await active()) === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await active()).toBe(1);
    controller.abort();
    expect(await run).toMatchObject({ name: 'AbortError' });
    until = Date.now() + 15_000;
    while ((await active()) !== 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await active()).toBe(0);
    await admin.end();
  });
});

/** The same cancellation on MariaDB/MySQL: KILL QUERY when the client goes away. */
describe('draft runs on a real MariaDB', async () => {
  const skip = announceSkip(await probeMysql(), 'MariaDB draft-run cancellation');
  let t: TestApp;
  let owner: Person;
  let mysql: TempMysqlDatabase;
  let draftUrl: string;
  let base: string;

  beforeAll(async () => {
    if (skip) return;
    mysql = await createTempMysqlDatabase();
    t = await buildTestApp({ env: { PLOTLINE_QUERY_TIMEOUT_MS: '60000' } });
    owner = await t.signup('Maria');
    const conn = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/connections`,
      token: owner.token,
      payload: { name: 'maria', type: 'mysql', host: mysql.host, port: mysql.port, dbName: mysql.name, username: mysql.user, password: mysql.password || undefined },
    });
    expect(conn.statusCode, conn.body).toBe(200);
    const ds = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: { name: 'x', dataRequests: [{ connection_id: conn.json().id, query: 'select 1' }] } });
    draftUrl = `/team/${owner.teamId}/datasets/${ds.json().id}/dataRequests/${ds.json().DataRequests[0].id}/draft`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await mysql?.drop();
  });

  it.skipIf(skip)('cancels the query on the server when the client goes away', async () => {
    const marker = `draft_cancel_${process.pid}`;
    const running = async () =>
      Number(
        ((await mysql.exec(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'`, [`%${marker}%`])) as Array<{ n: number }>)[0]?.n ?? 0,
      );
    const controller = new AbortController();
    const run = fetch(base + draftUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ query: `select count(*) from information_schema.COLUMNS a, information_schema.COLUMNS b, information_schema.COLUMNS c /* ${marker} */` }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    let until = Date.now() + 15_000;
    while ((await running()) === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await running()).toBe(1);
    controller.abort();
    expect(await run).toMatchObject({ name: 'AbortError' });
    until = Date.now() + 15_000;
    while ((await running()) !== 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await running()).toBe(0);
  });
});
