/**
 * `GET /team/{team_id}/datasets/{dataset_id}/values`: a filter dropdown's values, listed by the
 * database around a SQL dataset's query (Postgres, MariaDB) or in one streaming pass (an HTTP API,
 * nested fields, and every dataset when pushdown is off), the same list either way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { teamWithEveryRole, ROLE_NAMES, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../helpers/services.js';

interface Values {
  field: string;
  values: Array<string | number | boolean>;
  truncated: boolean;
  missing: boolean;
}

/** 400 rows: countries with case, accents, empty text and nulls; numbers, booleans, dates. */
const ORDERS = `
  create table orders (id int primary key, country text, status varchar(20), amount numeric(10,2), qty int, big int8,
    score float8, paid bool, day date, at_local timestamp, created_at timestamptz, tag uuid);
  insert into orders
  select i,
    (array['FR', 'DE', 'US', 'fr', 'GB', 'Éire', null, ''])[1 + i % 8],
    (array['paid', 'Paid', 'refunded', 'paid '])[1 + i % 4],
    (i % 7) * 1.5,
    i % 5,
    case when i % 50 = 0 then 9007199254740993 + i else i % 3 end,
    case when i % 40 = 0 then 'NaN'::float8 else (i % 4) / 4.0 end,
    i % 2 = 0,
    date '2025-01-01' + (i % 10),
    timestamp '2025-01-01 00:00:00' + (i % 6) * interval '90 minutes',
    timestamptz '2025-01-01T00:00:00Z' + i * interval '1 hour',
    ('00000000-0000-0000-0000-00000000000' || (i % 3))::uuid
  from generate_series(1, 400) as i;
`;

/** The source runs the app logged after `mark` (a position in its log lines): how many rows each read. */
function sourceRuns(t: TestApp, mark: number): number[] {
  return t.logs.lines
    .slice(mark)
    .map((line) => JSON.parse(line) as { event?: string; rows?: number })
    .filter((entry) => entry.event === 'source_run')
    .map((entry) => entry.rows ?? -1);
}

async function pgConnection(t: TestApp, owner: Person, url: string): Promise<number> {
  const u = new URL(url);
  const res = await t.request({
    method: 'POST',
    url: `/team/${owner.teamId}/connections`,
    token: owner.token,
    payload: { name: 'shop', type: 'postgres', host: u.hostname, port: u.port || '5432', dbName: u.pathname.slice(1), username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) || undefined, ssl: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

async function dataset(t: TestApp, owner: Person, payload: Record<string, unknown>): Promise<number> {
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

function valuesUrl(teamId: number, datasetId: number, query: Record<string, string | number>): string {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return `/team/${teamId}/datasets/${datasetId}/values?${params}`;
}

describe('dataset values on Postgres', () => {
  let db: { url: string; drop(): Promise<void> };
  let t: TestApp;
  /** The same store-less setup with PLOTLINE_CHART_PUSHDOWN=false: always the streaming pass. */
  let streaming: TestApp;
  let owner: Person;
  let streamOwner: Person;
  let datasetId: number;
  let streamDatasetId: number;
  let requestId: number;

  const get = async (query: Record<string, string | number>, app = t, who = owner, id = datasetId) => {
    const res = await app.request({ method: 'GET', url: valuesUrl(who.teamId, id, query), token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Values>();
  };

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), ORDERS);
    t = await buildTestApp();
    streaming = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: 'false' } });
    owner = await t.signup('Values');
    streamOwner = await streaming.signup('Stream');
    const payload = (connectionId: number) => ({
      name: 'Orders',
      dataRequests: [{ connection_id: connectionId, query: 'select * from orders where id >= {{min_id}} order by id', variableBindings: [{ name: 'min_id', type: 'number', default_value: '1' }] }],
    });
    const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: payload(await pgConnection(t, owner, db.url)) });
    expect(created.statusCode, created.body).toBe(200);
    datasetId = created.json().id;
    requestId = created.json().DataRequests[0].id;
    streamDatasetId = await dataset(streaming, streamOwner, payload(await pgConnection(streaming, streamOwner, db.url)));
  });
  afterAll(async () => {
    await t?.close();
    await streaming?.close();
    await db?.drop();
  });

  it('lists the distinct values of a column, computed by the database: sorted by code points, no nulls or empty text', async () => {
    const mark = t.logs.lines.length;
    const body = await get({ field: 'root[].country' });
    expect(body).toEqual({ field: 'root[].country', values: ['DE', 'FR', 'GB', 'US', 'fr', 'Éire'], truncated: false, missing: false });
    // The describe query (no rows) and the DISTINCT query (six rows): the 400 rows never left the database.
    expect(sourceRuns(t, mark)).toEqual([0, 6]);
  });

  it('searches ignoring case, and cuts at limit with truncated: true', async () => {
    expect((await get({ field: 'country', search: 'f' })).values).toEqual(['FR', 'fr']);
    expect((await get({ field: 'country', search: 'ÉI' })).values).toEqual(['Éire']);
    expect((await get({ field: 'country', search: 'zz' })).values).toEqual([]);
    expect(await get({ field: 'country', limit: 2 })).toMatchObject({ values: ['DE', 'FR'], truncated: true });
    // Exactly as many values as the limit: nothing was left out.
    expect(await get({ field: 'country', limit: 6 })).toMatchObject({ values: ['DE', 'FR', 'GB', 'US', 'fr', 'Éire'], truncated: false });
    expect(await get({ field: 'country', limit: 5 })).toMatchObject({ values: ['DE', 'FR', 'GB', 'US', 'fr'], truncated: true });
  });

  it('lists numbers, booleans and dates as the rows hold them, in the database', async () => {
    const mark = t.logs.lines.length;
    expect((await get({ field: 'amount' })).values).toEqual([0, 1.5, 3, 4.5, 6, 7.5, 9]);
    expect((await get({ field: 'qty' })).values).toEqual([0, 1, 2, 3, 4]);
    expect((await get({ field: 'paid' })).values).toEqual([false, true]);
    expect((await get({ field: 'day', limit: 3 })).values).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    // Integers beyond 2^53 are exact text, after the numbers; NaN is no value.
    expect((await get({ field: 'big' })).values).toEqual([0, 1, 2, '9007199254741043', '9007199254741093', '9007199254741143', '9007199254741193', '9007199254741243', '9007199254741293', '9007199254741343', '9007199254741393']);
    expect((await get({ field: 'score' })).values).toEqual([0, 0.25, 0.5, 0.75]);
    expect((await get({ field: 'tag' })).values).toEqual(['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002']);
    expect((await get({ field: 'at_local', search: 't01:30' })).values).toEqual(['2025-01-01T01:30:00']);
    const runs = sourceRuns(t, mark);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((rows) => rows >= 400)).toEqual([]);
  });

  it('gives the streaming pass’s answer for every field, search and limit', async () => {
    const cases: Array<Record<string, string | number>> = [];
    for (const field of ['country', 'status', 'amount', 'qty', 'big', 'score', 'paid', 'day', 'at_local', 'created_at', 'tag']) {
      for (const limit of [1, 3, 100]) {
        cases.push({ field, limit });
        for (const search of ['a', 'P', '1', 'é', ' ']) cases.push({ field, limit, search });
      }
    }
    for (const query of cases) {
      const pushed = await get(query);
      const streamed = await get(query, streaming, streamOwner, streamDatasetId);
      expect(pushed, JSON.stringify(query)).toEqual(streamed);
    }
  });

  it('streams what the database cannot list exactly: timestamptz values, nested paths', async () => {
    const mark = t.logs.lines.length;
    const instants = await get({ field: 'created_at', limit: 2 });
    expect(instants).toMatchObject({ values: ['2025-01-01T01:00:00Z', '2025-01-01T02:00:00Z'], truncated: true });
    expect(sourceRuns(t, mark)).toEqual([0, 400]);
    // A path into a text column finds nothing there.
    expect(await get({ field: 'root[].country.name' })).toMatchObject({ values: [], missing: true });
  });

  it('a field the result does not have: 200 with no values and missing: true', async () => {
    expect(await get({ field: 'root[].nope' })).toEqual({ field: 'root[].nope', values: [], truncated: false, missing: true });
    expect(await get({ field: 'nope' }, streaming, streamOwner, streamDatasetId)).toEqual({ field: 'nope', values: [], truncated: false, missing: true });
  });

  it('refuses a field that is not a field path, and limits out of bounds, with a 400 naming the parameter', async () => {
    const url = (query: string) => `/team/${owner.teamId}/datasets/${datasetId}/values?${query}`;
    for (const [query, path] of [
      ['field=.country', 'querystring.field'],
      ['field=items%5B', 'querystring.field'],
      ['field=root%5B%5D', 'querystring.field'],
      ['field=', 'querystring.field'],
      ['search=fr', 'querystring.field'],
      ['field=country&limit=0', 'querystring.limit'],
      ['field=country&limit=1001', 'querystring.limit'],
      ['field=country&limit=ten', 'querystring.limit'],
    ]) {
      const res = await t.request({ method: 'GET', url: url(query!), token: owner.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details?.[0]?.path, `${query}: ${res.body}`).toBe(path);
    }
  });

  it('answers from the result cache until the dataset changes', async () => {
    const query = { field: 'status', search: 'paid' };
    const first = await get(query);
    expect(first.values).toEqual(['Paid', 'paid', 'paid ']);
    let mark = t.logs.lines.length;
    expect(await get(query)).toEqual(first);
    expect(sourceRuns(t, mark)).toEqual([]);
    // A changed data request is another version: computed again, with its new query.
    const put = await t.request({
      method: 'PUT',
      url: `/team/${owner.teamId}/datasets/${datasetId}/dataRequests/${requestId}`,
      token: owner.token,
      payload: { query: "select * from orders where id >= {{min_id}} and status <> 'Paid' order by id" },
    });
    expect(put.statusCode, put.body).toBe(200);
    mark = t.logs.lines.length;
    expect((await get(query)).values).toEqual(['paid', 'paid ']);
    expect(sourceRuns(t, mark)).toHaveLength(2);
  });
});

describe('dataset values: who may list them', () => {
  let db: { url: string; drop(): Promise<void> };
  let t: TestApp;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), "create table t (country text); insert into t values ('FR'), ('DE');");
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('as a dataset run: editors and admins of its project yes, viewers and strangers no; another team’s dataset is a 404', async () => {
    const team = await teamWithEveryRole(t);
    const owner = team.people.teamOwner;
    const id = await dataset(t, owner, { name: 'Countries', project_ids: [team.projectId], dataRequests: [{ connection_id: await pgConnection(t, owner, db.url), query: 'select country from t' }] });
    const expected: Record<(typeof ROLE_NAMES)[number], number> = { teamOwner: 200, teamAdmin: 200, projectAdmin: 200, projectEditor: 200, projectViewer: 403, stranger: 403 };
    for (const role of ROLE_NAMES) {
      const res = await t.request({ method: 'GET', url: valuesUrl(team.teamId, id, { field: 'country' }), token: team.people[role].token });
      expect(res.statusCode, role).toBe(expected[role]);
      if (res.statusCode === 200) expect(res.json().values, role).toEqual(['DE', 'FR']);
      // The dataset run answers the same.
      const run = await t.request({ method: 'GET', url: `/team/${team.teamId}/datasets/${id}/request`, token: team.people[role].token });
      expect(run.statusCode, role).toBe(expected[role]);
    }
    const stranger = team.people.stranger;
    const foreign = await t.request({ method: 'GET', url: valuesUrl(stranger.teamId, id, { field: 'country' }), token: stranger.token });
    expect(foreign.statusCode).toBe(404);
    // The service the share routes build on keeps the tenancy check too.
    await expect(t.container.datasetValues.distinct(stranger.teamId, id, 'country')).rejects.toMatchObject({ statusCode: 404 });
    expect((await t.container.datasetValues.distinct(team.teamId, id, 'country')).values).toEqual(['DE', 'FR']);
  });
});

describe('dataset values on MariaDB', async () => {
  const probe = await probeMysql();
  const skip = announceSkip(probe, 'dataset values on MariaDB');
  let mysql: TempMysqlDatabase;
  let t: TestApp;
  let streaming: TestApp;
  let owner: Person;
  let streamOwner: Person;
  let datasetId: number;
  let streamDatasetId: number;

  const get = async (query: Record<string, string | number>, app = t, who = owner, id = datasetId) => {
    const res = await app.request({ method: 'GET', url: valuesUrl(who.teamId, id, query), token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Values>();
  };

  beforeAll(async () => {
    if (skip) return;
    mysql = await createTempMysqlDatabase();
    await mysql.exec(
      `create table orders (id int primary key, status varchar(20), amount decimal(10,2), big bigint, at_local datetime(3), day date, flag tinyint(1))
         default charset = utf8mb4 collate = utf8mb4_general_ci`,
    );
    const rows = Array.from({ length: 120 }, (_, i) => [
      i + 1,
      ['paid', 'Paid', 'paid ', 'PAID', 'refunded', 'é', 'e', null, ''][i % 9],
      ((i % 6) * 2.25).toFixed(2),
      i % 40 === 0 ? String(9007199254740993n + BigInt(i)) : String(i % 4),
      `2025-01-0${1 + (i % 3)} 10:00:00.${i % 2 === 0 ? '000' : '500'}`,
      `2025-02-0${1 + (i % 5)}`,
      i % 2,
    ]);
    await mysql.exec('insert into orders values ?', [rows]);
    const payload = (connectionId: number) => ({ name: 'm', dataRequests: [{ connection_id: connectionId, query: 'select * from orders order by id' }] });
    const connect = async (app: TestApp, who: Person) =>
      (
        await app.request({
          method: 'POST',
          url: `/team/${who.teamId}/connections`,
          token: who.token,
          payload: { name: 'maria', type: 'mysql', host: mysql.host, port: mysql.port, dbName: mysql.name, username: mysql.user, password: mysql.password || undefined },
        })
      ).json().id as number;
    t = await buildTestApp();
    streaming = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: 'false' } });
    owner = await t.signup('Maria');
    streamOwner = await streaming.signup('Stream');
    datasetId = await dataset(t, owner, payload(await connect(t, owner)));
    streamDatasetId = await dataset(streaming, streamOwner, payload(await connect(streaming, streamOwner)));
  });
  afterAll(async () => {
    await t?.close();
    await streaming?.close();
    await mysql?.drop();
  });

  it.skipIf(skip)('tells apart what the collation would merge (case, trailing spaces, accents), in the database', async () => {
    const mark = t.logs.lines.length;
    expect(await get({ field: 'status' })).toEqual({ field: 'status', values: ['PAID', 'Paid', 'e', 'paid', 'paid ', 'refunded', 'é'], truncated: false, missing: false });
    expect(sourceRuns(t, mark)).toEqual([0, 7]);
    expect((await get({ field: 'status', search: 'PAI' })).values).toEqual(['PAID', 'Paid', 'paid', 'paid ']);
    expect((await get({ field: 'status', search: 'É' })).values).toEqual(['é']);
    expect(await get({ field: 'status', limit: 3 })).toMatchObject({ values: ['PAID', 'Paid', 'e'], truncated: true });
  });

  it.skipIf(skip)('lists decimals, big integers, date-times and tinyint flags as the rows hold them, in the database', async () => {
    const mark = t.logs.lines.length;
    expect((await get({ field: 'amount' })).values).toEqual([0, 2.25, 4.5, 6.75, 9, 11.25]);
    expect((await get({ field: 'big' })).values).toEqual([0, 1, 2, 3, '9007199254740993', '9007199254741033', '9007199254741073']);
    expect((await get({ field: 'at_local', limit: 2 })).values).toEqual(['2025-01-01T10:00:00', '2025-01-01T10:00:00.500']);
    expect((await get({ field: 'flag' })).values).toEqual([0, 1]);
    expect(sourceRuns(t, mark).filter((rows) => rows >= 120)).toEqual([]);
    expect(await get({ field: 'Status' })).toMatchObject({ values: [], missing: true });
  });

  it.skipIf(skip)('gives the streaming pass’s answer for every field, search and limit', async () => {
    for (const field of ['status', 'amount', 'big', 'at_local', 'day', 'flag']) {
      for (const limit of [1, 4, 100]) {
        for (const search of [undefined, 'a', 'P', '1', 'é', ' ']) {
          const query = { field, limit, ...(search === undefined ? {} : { search }) };
          expect(await get(query), JSON.stringify(query)).toEqual(await get(query, streaming, streamOwner, streamDatasetId));
        }
      }
    }
  });
});

describe('dataset values of an HTTP API (the streaming pass)', () => {
  let server: Server;
  let t: TestApp;
  let owner: Person;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const items = Array.from({ length: 250 }, (_, i) => ({ id: i, country: ['FR', 'DE', null, 'US'][i % 4], tags: [`t${i % 3}`, `t${(i + 1) % 3}`], score: i % 5, meta: { region: i % 2 ? 'EU' : 'NA' } }));
      res.end(JSON.stringify(req.url === '/wrapped' ? { items } : items));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await buildTestApp({ env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    owner = await t.signup('Api');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads fields as charts do: top-level, nested, through arrays; every row once', async () => {
    const connection = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: { name: 'api', type: 'api', host: base } })).json().id;
    const rows = await dataset(t, owner, { name: 'rows', dataRequests: [{ connection_id: connection, method: 'GET', route: '/rows' }] });
    const wrapped = await dataset(t, owner, { name: 'wrapped', dataRequests: [{ connection_id: connection, method: 'GET', route: '/wrapped' }] });
    const get = async (id: number, query: Record<string, string | number>) => {
      const res = await t.request({ method: 'GET', url: valuesUrl(owner.teamId, id, query), token: owner.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Values>();
    };
    const mark = t.logs.lines.length;
    expect(await get(rows, { field: 'root[].country' })).toEqual({ field: 'root[].country', values: ['DE', 'FR', 'US'], truncated: false, missing: false });
    expect(sourceRuns(t, mark)).toEqual([250]);
    expect((await get(rows, { field: 'root[].meta.region' })).values).toEqual(['EU', 'NA']);
    expect((await get(rows, { field: 'root[].tags[]' })).values).toEqual(['t0', 't1', 't2']);
    expect(await get(rows, { field: 'score', limit: 2, search: '' })).toMatchObject({ values: [0, 1], truncated: true });
    expect((await get(rows, { field: 'country', search: 'u' })).values).toEqual(['US']);
    expect((await get(wrapped, { field: 'root.items[].country' })).values).toEqual(['DE', 'FR', 'US']);
    expect(await get(rows, { field: 'root[].tags' })).toMatchObject({ values: [], missing: false });
    expect(await get(rows, { field: 'root[].nope' })).toMatchObject({ values: [], missing: true });
  });
});
