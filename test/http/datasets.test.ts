import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataRequestsRepository } from '../../src/modules/data/data-requests-repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertProject, ROLE_NAMES, sharedUser, teamWithEveryRole, type Person, type RoleTeam } from '../helpers/fixtures.js';

async function connection(t: TestApp, who: Person, teamId = who.teamId): Promise<number> {
  const res = await t.request({ method: 'POST', url: `/team/${teamId}/connections`, token: who.token, payload: { name: 'db', type: 'postgres', host: 'db.internal', port: '5432' } });
  if (res.statusCode !== 200) throw new Error(`connection create failed: ${res.body}`);
  return res.json().id;
}

describe('datasets', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let connectionId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    projectId = await insertProject(t, owner.teamId);
    connectionId = await connection(t, owner);
  });
  afterAll(() => t.close());

  const url = () => `/team/${owner.teamId}/datasets`;

  it('creates from the documented body (team_id in the body is ignored) and round-trips every field', async () => {
    const payload = {
      team_id: 999999,
      project_ids: [projectId],
      name: 'Sales Dataset',
      connection_id: connectionId,
      type: 'postgres',
      query: 'select 1',
      datasetColor: '#4F46E5',
      dateField: 'created_at',
      dateFormat: 'YYYY-MM-DD',
      configuration: { a: 1 },
      xAxis: 'root[].country',
      yAxis: 'root[].amount',
      yAxisOperation: 'sum',
      conditions: [{ id: 'c1', field: 'root[].status', operator: 'is', value: 'paid', displayValues: true }],
      fieldsSchema: { 'root[].amount': 'number' },
      excludedFields: ['secret'],
      draft: false,
    };
    const res = await t.request({ method: 'POST', url: url(), token: owner.token, payload: payload as object });
    expect(res.statusCode).toBe(200);
    const ds = res.json();
    const { team_id: _ignored, ...expected } = payload;
    expect(ds).toMatchObject({ ...expected, team_id: owner.teamId, legend: 'Sales Dataset', DataRequests: [], VariableBindings: [], joinSettings: { joins: [] } });
    const again = await t.request({ method: 'GET', url: `${url()}/${ds.id}`, token: owner.token });
    expect(again.json()).toEqual(ds);
    const list = await t.request({ method: 'GET', url: url(), token: owner.token });
    expect(list.json().map((d: { id: number }) => d.id)).toContain(ds.id);
  });

  it('legacy legend mirrors name when name is absent', async () => {
    const ds = (await t.request({ method: 'POST', url: url(), token: owner.token, payload: { legend: 'Old style' } })).json();
    expect(ds).toMatchObject({ name: 'Old style', legend: 'Old style' });
  });

  it('PUT takes any subset (even {}) and bumps the version', async () => {
    const ds = (await t.request({ method: 'POST', url: url(), token: owner.token, payload: { name: 'A', query: 'q1' } })).json();
    const before = await t.container.store.db.selectFrom('datasets').select('version').where('id', '=', ds.id).executeTakeFirstOrThrow();
    const empty = await t.request({ method: 'PUT', url: `${url()}/${ds.id}`, token: owner.token, payload: {} });
    expect(empty.statusCode).toBe(200);
    const res = await t.request({ method: 'PUT', url: `${url()}/${ds.id}`, token: owner.token, payload: { name: 'B', configuration: { x: true } } });
    expect(res.json()).toMatchObject({ name: 'B', query: 'q1', configuration: { x: true } });
    const after = await t.container.store.db.selectFrom('datasets').select('version').where('id', '=', ds.id).executeTakeFirstOrThrow();
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('validates fields and foreign ids, naming the field', async () => {
    const other = await sharedUser(t, 'Other');
    const foreignConnection = await connection(t, other);
    const foreignProject = await insertProject(t, other.teamId);
    const cases: [unknown, string][] = [
      [{ connection_id: foreignConnection }, 'body.connection_id'],
      [{ project_ids: [foreignProject] }, 'body.project_ids'],
      [{ yAxisOperation: 'median' }, 'body.yAxisOperation'],
      [{ draft: 'no' }, 'body.draft'],
      [{ excludedFields: 'a,b' }, 'body.excludedFields'],
      [{ connection_id: 'abc' }, 'body.connection_id'],
      [{ joinSettings: { joins: [{ dr_id: 'x', join_id: 1, dr_field: 'a', join_field: 'b' }] } }, 'body.joinSettings.joins.0.dr_id'],
      [{ joinSettings: { joins: [{ dr_id: 1, join_id: 2, dr_field: 'a', join_field: 'b', type: 'outer' }] } }, 'body.joinSettings.joins.0.type'],
    ];
    for (const [payload, path] of cases) {
      const res = await t.request({ method: 'POST', url: url(), token: owner.token, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details[0].path).toBe(path);
    }
  });

  it('another team’s dataset is a 404; a team you are not in a 403', async () => {
    const other = await sharedUser(t, 'Other');
    const foreign = (await t.request({ method: 'POST', url: `/team/${other.teamId}/datasets`, token: other.token, payload: { name: 'theirs' } })).json();
    expect((await t.request({ method: 'GET', url: `${url()}/${foreign.id}`, token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'PUT', url: `${url()}/${foreign.id}`, token: owner.token, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${url()}/${foreign.id}`, token: owner.token })).statusCode).toBe(404);
    const res = await t.request({ method: 'GET', url: `/team/${other.teamId}/datasets/${foreign.id}`, token: owner.token });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('theirs');
  });

  it('DELETE answers a bare true and removes data requests and bindings', async () => {
    const ds = (await t.request({ method: 'POST', url: url(), token: owner.token, payload: { name: 'Doomed' } })).json();
    const dr = (await t.request({ method: 'POST', url: `${url()}/${ds.id}/dataRequests`, token: owner.token, payload: { connection_id: connectionId, query: 'select 1' } })).json();
    await t.request({ method: 'POST', url: `${url()}/${ds.id}/dataRequests/${dr.id}/variableBindings`, token: owner.token, payload: { name: 'x', type: 'number', default_value: '1' } });
    const res = await t.request({ method: 'DELETE', url: `${url()}/${ds.id}`, token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('true');
    expect((await t.request({ method: 'GET', url: `${url()}/${ds.id}`, token: owner.token })).statusCode).toBe(404);
    const db = t.container.store.db;
    expect(await db.selectFrom('data_requests').select('id').where('dataset_id', '=', ds.id).execute()).toEqual([]);
    expect(await db.selectFrom('variable_bindings').select('id').where('entity_id', '=', String(dr.id)).where('entity_type', '=', 'DataRequest').execute()).toEqual([]);
  });
});

describe('data requests and variable bindings', () => {
  let t: TestApp;
  let owner: Person;
  let connectionId: number;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    connectionId = await connection(t, owner);
    const ds = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets`, token: owner.token, payload: { name: 'D' } })).json();
    base = `/team/${owner.teamId}/datasets/${ds.id}/dataRequests`;
  });
  afterAll(() => t.close());

  const full = () => ({
    connection_id: connectionId,
    method: 'POST',
    route: '/v1/orders?status={{status}}',
    headers: [
      { key: 'Accept', value: 'application/json' },
      { key: 'Authorization', value: 'Bearer sk_live_header_secret_1234' },
    ],
    body: '{"limit": 10}',
    useGlobalHeaders: false,
    query: 'select * from orders where status = {{status}}',
    pagination: true,
    items: 'data',
    itemsLimit: 500,
    offset: 'starting_after',
    paginationField: 'next',
    template: 'stripe',
    conditions: [{ field: 'status', operator: '=', value: 'paid' }],
    configuration: { limit: 10, orderBy: 'created_at', orderByDirection: 'asc' },
    variables: { startDate: { value: '2025-01-01' } },
  });

  it('creates with every field; secret headers are masked and stored encrypted; Connection summary and bindings included', async () => {
    const res = await t.request({ method: 'POST', url: base, token: owner.token, payload: full() });
    expect(res.statusCode).toBe(200);
    const dr = res.json();
    const { headers: _h, ...rest } = full();
    expect(dr).toMatchObject(rest);
    expect(dr.headers).toEqual([
      { key: 'Accept', value: 'application/json' },
      { key: 'Authorization', value: '********' },
    ]);
    expect(dr.Connection).toEqual({ id: connectionId, name: 'db', type: 'postgres', subType: 'postgres', host: 'db.internal' });
    expect(dr.VariableBindings).toEqual([]);
    const row = await t.container.store.db.selectFrom('data_requests').selectAll().where('id', '=', dr.id).executeTakeFirstOrThrow();
    expect(row.headers).not.toContain('sk_live_header_secret_1234');
    expect(row.body).not.toContain('limit');
    expect(t.bodies.join('\n')).not.toContain('sk_live_header_secret_1234');
    const got = await t.request({ method: 'GET', url: `${base}/${dr.id}`, token: owner.token });
    expect(got.json()).toEqual(dr);
    expect((await t.request({ method: 'GET', url: base, token: owner.token })).json().map((r: { id: number }) => r.id)).toContain(dr.id);
  });

  it('writing the mask back keeps the stored header value', async () => {
    const dr = (await t.request({ method: 'POST', url: base, token: owner.token, payload: full() })).json();
    await t.request({ method: 'PUT', url: `${base}/${dr.id}`, token: owner.token, payload: { headers: dr.headers, route: '/v2' } });
    const record = await new DataRequestsRepository(t.container.store.db, t.container.secrets).find(dr.dataset_id, dr.id);
    expect(record?.headers).toEqual([
      { key: 'Accept', value: 'application/json' },
      { key: 'Authorization', value: 'Bearer sk_live_header_secret_1234' },
    ]);
  });

  it('accepts the update shape the docs show (empty strings and objects)', async () => {
    const dr = (await t.request({ method: 'POST', url: base, token: owner.token, payload: { connection_id: connectionId, route: '/users', useGlobalHeaders: true, pagination: false, items: 'items' } })).json();
    const res = await t.request({
      method: 'PUT',
      url: `${base}/${dr.id}`,
      token: owner.token,
      payload: { method: 'GET', route: '/users', headers: [{ key: 'Authorization', value: 'Bearer api-key' }], body: '', query: '', paginationField: '', template: '', conditions: [], configuration: {}, variables: {} },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ method: 'GET', body: '', template: '', conditions: [], VariableBindings: [], Connection: { id: connectionId } });
  });

  it('rejects a body that is not JSON text, a foreign connection and header line breaks', async () => {
    const other = await t.signup('Other');
    const foreign = await connection(t, other);
    const cases: [unknown, string][] = [
      [{ body: '{not json' }, 'body.body'],
      [{ body: { limit: 1 } }, 'body.body'],
      [{ connection_id: foreign }, 'body.connection_id'],
      [{ method: 'FETCH' }, 'body.method'],
      [{ headers: [{ key: 'X-Test', value: 'a\r\nInjected: 1' }] }, 'body.headers.0'],
      [{ itemsLimit: -1 }, 'body.itemsLimit'],
      [{ template: 'weird' }, 'body.template'],
    ];
    for (const [payload, path] of cases) {
      const res = await t.request({ method: 'POST', url: base, token: owner.token, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details[0].path).toBe(path);
    }
  });

  it('DELETE answers {deleted: true}; a request of another dataset is a 404', async () => {
    const dr = (await t.request({ method: 'POST', url: base, token: owner.token, payload: { query: 'select 1' } })).json();
    const otherDs = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets`, token: owner.token, payload: { name: 'E' } })).json();
    const wrong = `/team/${owner.teamId}/datasets/${otherDs.id}/dataRequests/${dr.id}`;
    expect((await t.request({ method: 'GET', url: wrong, token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: wrong, token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${base}/${dr.id}`, token: owner.token })).json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: `${base}/${dr.id}`, token: owner.token })).statusCode).toBe(404);
  });

  it('bindings: create, update, delete, each answering the parent data request', async () => {
    const dr = (await t.request({ method: 'POST', url: base, token: owner.token, payload: { query: 'select {{limit}}' } })).json();
    const created = await t.request({
      method: 'POST',
      url: `${base}/${dr.id}/variableBindings`,
      token: owner.token,
      payload: { name: '{{limit}}', type: 'number', default_value: '10', required: true, entity_type: 'Project', id: 77 },
    });
    expect(created.statusCode).toBe(200);
    const parent = created.json();
    expect(parent.id).toBe(dr.id);
    expect(parent.VariableBindings).toEqual([
      { id: expect.any(Number), entity_type: 'DataRequest', entity_id: String(dr.id), name: 'limit', type: 'number', default_value: '10', required: true, createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    const bindingId = parent.VariableBindings[0].id;
    const updated = await t.request({ method: 'PUT', url: `${base}/${dr.id}/variableBindings/${bindingId}`, token: owner.token, payload: { default_value: 25 } });
    expect(updated.json().VariableBindings[0]).toMatchObject({ name: 'limit', default_value: '25', required: true });
    const dup = await t.request({ method: 'POST', url: `${base}/${dr.id}/variableBindings`, token: owner.token, payload: { name: 'limit' } });
    expect(dup.statusCode).toBe(400);
    const removed = await t.request({ method: 'DELETE', url: `${base}/${dr.id}/variableBindings/${bindingId}`, token: owner.token });
    expect(removed.json()).toMatchObject({ id: dr.id, VariableBindings: [] });
    expect((await t.request({ method: 'DELETE', url: `${base}/${dr.id}/variableBindings/${bindingId}`, token: owner.token })).statusCode).toBe(404);
  });

  it('binding types and default values are checked', async () => {
    const dr = (await t.request({ method: 'POST', url: base, token: owner.token, payload: { query: 'select 1' } })).json();
    const bad: [unknown, string][] = [
      [{ name: 'n', type: 'integer' }, 'body.type'],
      [{ name: 'n', type: 'number', default_value: 'ten' }, 'body.default_value'],
      [{ name: 'b', type: 'boolean', default_value: 'yes' }, 'body.default_value'],
      [{ name: 'd', type: 'date', default_value: 'yesterday' }, 'body.default_value'],
      [{ name: 'bad name!' }, 'body.name'],
      [{ type: 'string' }, 'body.name'],
    ];
    for (const [payload, path] of bad) {
      const res = await t.request({ method: 'POST', url: `${base}/${dr.id}/variableBindings`, token: owner.token, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details[0].path).toBe(path);
    }
    for (const [name, type, value] of [['s', 'string', 'x'], ['n', 'number', '-1.5'], ['b', 'boolean', 'false'], ['d', 'date', '2025-03-30T01:00:00Z']]) {
      const ok = await t.request({ method: 'POST', url: `${base}/${dr.id}/variableBindings`, token: owner.token, payload: { name, type, default_value: value } });
      expect(ok.statusCode, `${type} ${value}`).toBe(200);
    }
  });
});

describe('quick-create', () => {
  let t: TestApp;
  let owner: Person;
  let connectionId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    connectionId = await connection(t, owner);
  });
  afterAll(() => t.close());

  it('creates dataset, requests, index joins and bindings; maps dimension/metric', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: {
        team_id: owner.teamId,
        name: 'Orders with customers',
        dimension: 'root[].country',
        metric: 'root[].amount',
        metricOperation: 'sum',
        dataRequests: [
          { connection_id: connectionId, query: 'select * from orders where country = {{country}}', variableBindings: [{ name: 'country', default_value: 'FR' }] },
          { connection_id: connectionId, query: 'select * from customers' },
        ],
        main_dr_index: 0,
        joinSettings: { joins: [{ dr_id: 0, join_id: 1, dr_field: 'root[].customer_id', join_field: 'root[].id', alias: 'customer' }] },
        variableBindings: [{ name: '{{year}}', type: 'number', default_value: '2025', required: true }],
      },
    });
    expect(res.statusCode).toBe(200);
    const ds = res.json();
    const [main, joined] = ds.DataRequests;
    expect(ds).toMatchObject({ name: 'Orders with customers', xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', main_dr_id: main.id, connection_id: connectionId, draft: true });
    expect(ds.joinSettings.joins).toEqual([{ dr_id: main.id, join_id: joined.id, dr_field: 'root[].customer_id', join_field: 'root[].id', alias: 'customer' }]);
    expect(main.VariableBindings).toMatchObject([{ name: 'country', type: 'string', default_value: 'FR', required: false }]);
    expect(ds.VariableBindings).toMatchObject([{ entity_type: 'Dataset', entity_id: String(ds.id), name: 'year', type: 'number', required: true }]);
  });

  it('a failure leaves nothing behind', async () => {
    const db = t.container.store.db;
    const count = async () => ({
      datasets: (await db.selectFrom('datasets').select('id').execute()).length,
      requests: (await db.selectFrom('data_requests').select('id').execute()).length,
      bindings: (await db.selectFrom('variable_bindings').select('id').execute()).length,
    });
    const before = await count();
    const bad = [
      { name: 'x', dataRequests: [{ query: 'a' }], joinSettings: { joins: [{ dr_id: 0, join_id: 3, dr_field: 'a', join_field: 'b' }] } },
      { name: 'x', dataRequests: [{ query: 'a' }, { query: 'b', connection_id: 999999 }] },
      { name: 'x', dataRequests: [{ query: 'a', variableBindings: [{ name: 'n', type: 'number', default_value: 'NaN?' }] }] },
      { name: 'x', dataRequests: [{ query: 'a' }], main_dr_index: 4 },
    ];
    for (const payload of bad) {
      const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await count()).toEqual(before);
  });
});

describe('dataset roles', () => {
  let t: TestApp;
  let rt: RoleTeam;
  let own: number;
  let hidden: number;
  beforeAll(async () => {
    t = await buildTestApp();
    rt = await teamWithEveryRole(t);
    const owner = rt.people.teamOwner;
    const otherProject = await insertProject(t, rt.teamId, 'Other');
    own = (await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets`, token: owner.token, payload: { name: 'own', project_ids: [rt.projectId] } })).json().id;
    hidden = (await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets`, token: owner.token, payload: { name: 'hidden', project_ids: [otherProject] } })).json().id;
  });
  afterAll(() => t.close());

  const matrix: Record<(typeof ROLE_NAMES)[number], { list: number[] | 403; readOwn: number; readHidden: number; create: number; updateOwn: number }> = {
    teamOwner: { list: [0, 1], readOwn: 200, readHidden: 200, create: 200, updateOwn: 200 },
    teamAdmin: { list: [0, 1], readOwn: 200, readHidden: 200, create: 200, updateOwn: 200 },
    projectAdmin: { list: [0], readOwn: 200, readHidden: 404, create: 200, updateOwn: 200 },
    projectEditor: { list: [0], readOwn: 200, readHidden: 404, create: 403, updateOwn: 403 },
    projectViewer: { list: 403, readOwn: 403, readHidden: 403, create: 403, updateOwn: 403 },
    stranger: { list: 403, readOwn: 403, readHidden: 403, create: 403, updateOwn: 403 },
  };

  for (const who of ROLE_NAMES) {
    it(`${who}: list, read own/other project, create, update`, async () => {
      const token = rt.people[who].token;
      const expected = matrix[who];
      const list = await t.request({ method: 'GET', url: `/team/${rt.teamId}/datasets`, token });
      if (expected.list === 403) expect(list.statusCode).toBe(403);
      else {
        const ids = list.json().map((d: { id: number }) => d.id);
        expect(ids.includes(own)).toBe(true);
        expect(ids.includes(hidden)).toBe(expected.list.includes(1));
      }
      expect((await t.request({ method: 'GET', url: `/team/${rt.teamId}/datasets/${own}`, token })).statusCode).toBe(expected.readOwn);
      expect((await t.request({ method: 'GET', url: `/team/${rt.teamId}/datasets/${hidden}`, token })).statusCode).toBe(expected.readHidden);
      const created = await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets`, token, payload: { name: `by ${who}` } });
      expect(created.statusCode).toBe(expected.create);
      if (who === 'projectAdmin') expect(created.json().project_ids).toEqual([rt.projectId]);
      expect((await t.request({ method: 'PUT', url: `/team/${rt.teamId}/datasets/${own}`, token, payload: { datasetColor: '#000' } })).statusCode).toBe(expected.updateOwn);
    });
  }

  it('a projectAdmin cannot move a dataset to a project outside its scope', async () => {
    const other = await insertProject(t, rt.teamId, 'Elsewhere');
    const res = await t.request({ method: 'PUT', url: `/team/${rt.teamId}/datasets/${own}`, token: rt.people.projectAdmin.token, payload: { project_ids: [other] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('body.project_ids');
  });

  it('a projectEditor reads data requests without the connection host; a projectAdmin writes them', async () => {
    const owner = rt.people.teamOwner;
    const connectionId = await connection(t, owner, rt.teamId);
    await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets/${own}/dataRequests`, token: owner.token, payload: { connection_id: connectionId, query: 'select 1' } });
    const asEditor = await t.request({ method: 'GET', url: `/team/${rt.teamId}/datasets/${own}/dataRequests`, token: rt.people.projectEditor.token });
    expect(asEditor.statusCode).toBe(200);
    expect(asEditor.json()[0].Connection).toEqual({ id: connectionId, name: 'db', type: 'postgres', subType: 'postgres' });
    const editorWrite = await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets/${own}/dataRequests`, token: rt.people.projectEditor.token, payload: { query: 'x' } });
    expect(editorWrite.statusCode).toBe(403);
    const adminWrite = await t.request({ method: 'POST', url: `/team/${rt.teamId}/datasets/${own}/dataRequests`, token: rt.people.projectAdmin.token, payload: { query: 'x' } });
    expect(adminWrite.statusCode).toBe(200);
  });
});
