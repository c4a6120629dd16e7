import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * Typed variables through the API, over a real Postgres source: list bindings and their defaults,
 * each type's 400 naming the variable, `variables: []` as no variables, and `variablesWithoutValue`
 * on the dataset and data request runs and on the chart query.
 */

const QUERY = `select id, country from orders
 where ({{country}} is null or country = {{country}})
   and ({{countries}} is null or country in ({{countries}}))
   and ({{min}} is null or id >= {{min}})
 order by id`;

describe.each<StoreKind>(['sqlite', 'postgres'])('typed variables through the API (%s store)', (store) => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let datasetId: number;
  let requestId: number;
  let projectId: number;
  let chartId: number;

  const api = (path: string) => `/team/${owner.teamId}${path}`;
  const runDataset = (payload: unknown) => t.request({ method: 'POST', url: api(`/datasets/${datasetId}/request`), token: owner.token, payload: payload as object });
  const queryChart = (payload?: unknown, qs = '') =>
    t.request({ method: 'POST', url: `/project/${projectId}/chart/${chartId}/query${qs}`, token: owner.token, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    db = await createTempDatabase(
      inject('postgresUrl'),
      `create table orders (id int primary key, country text not null);
       insert into orders values (1, 'US'), (2, 'DE'), (3, 'FR'), (4, 'US');`,
    );
    t = await buildTestApp({ store });
    owner = await t.signup('Typist');
    const url = new URL(db.url);
    const conn = await t.request({
      method: 'POST',
      url: api('/connections'),
      token: owner.token,
      payload: { ...postgresConnection('shop', url), ssl: false },
    });
    expect(conn.statusCode, conn.body).toBe(200);
    const project = await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Typed', team_id: owner.teamId } });
    projectId = project.json().id;
    const ds = await t.request({
      method: 'POST',
      url: api('/datasets/quick-create'),
      token: owner.token,
      payload: {
        name: 'Orders',
        project_ids: [projectId],
        dataRequests: [
          {
            connection_id: conn.json().id,
            query: QUERY,
            variableBindings: [
              { name: 'country', type: 'string' },
              { name: 'countries', type: 'string[]' },
              { name: 'min', type: 'number' },
            ],
          },
        ],
      },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    datasetId = ds.json().id;
    requestId = ds.json().DataRequests[0].id;
    const chart = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: {
        name: 'Count',
        type: 'kpi',
        chartDatasetConfigs: [{ dataset_id: datasetId, xAxis: 'root[].id', yAxis: 'root[].id', yAxisOperation: 'count', configuration: { variables: [{ name: 'min', value: 2 }] } }],
      },
    });
    expect(chart.statusCode, chart.body).toBe(200);
    chartId = chart.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('stores a list binding with its default as a JSON array, and refuses a default that does not fit, naming the field', async () => {
    const base = api(`/datasets/${datasetId}/dataRequests/${requestId}/variableBindings`);
    const created = await t.request({ method: 'POST', url: base, token: owner.token, payload: { name: 'ids', type: 'number[]', default_value: '1, 2' } });
    expect(created.statusCode, created.body).toBe(200);
    const binding = created.json().VariableBindings.find((b: { name: string }) => b.name === 'ids');
    expect(binding).toMatchObject({ type: 'number[]', default_value: '[1,2]' });
    const updated = await t.request({ method: 'PUT', url: `${base}/${binding.id}`, token: owner.token, payload: { type: 'string[]', default_value: ['a,b', 'c'] } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().VariableBindings.find((b: { name: string }) => b.name === 'ids')).toMatchObject({ type: 'string[]', default_value: '["a,b","c"]' });
    const bad = await t.request({ method: 'PUT', url: `${base}/${binding.id}`, token: owner.token, payload: { type: 'date[]', default_value: ['2025-02-30'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json(), bad.body).toMatchObject({ code: 'VALIDATION_FAILED', error: expect.stringContaining('default_value item 1 must be a date') });
    const list = await t.request({ method: 'PUT', url: `${base}/${binding.id}`, token: owner.token, payload: { type: 'number', default_value: [1] } });
    expect(list.statusCode).toBe(400);
    const unknown = await t.request({ method: 'POST', url: base, token: owner.token, payload: { name: 'u', type: 'uuid' } });
    expect(unknown.statusCode).toBe(400);
    expect((await t.request({ method: 'DELETE', url: `${base}/${binding.id}`, token: owner.token })).statusCode).toBe(200);
  });

  it('answers a dataset run with the variables that ran without a value', async () => {
    const all = await runDataset({});
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4]);
    expect(all.json().variablesWithoutValue).toEqual(['countries', 'country', 'min']);

    const some = await runDataset({ variables: { countries: ['US', 'FR'], min: '2' } });
    expect(some.json().data.map((r: { id: number }) => r.id)).toEqual([3, 4]);
    expect(some.json().variablesWithoutValue).toEqual(['country']);

    // Held (through the cache) and streamed answers say the same; an empty list is no value.
    const cached = await runDataset({ variables: { countries: [], country: 'US' }, getCache: true });
    expect(cached.json().data.map((r: { id: number }) => r.id)).toEqual([1, 4]);
    expect(cached.json().variablesWithoutValue).toEqual(['countries', 'min']);

    const viaUrl = await t.request({ method: 'GET', url: api(`/datasets/${datasetId}/request?variables=${encodeURIComponent('{"countries":"DE,FR"}')}`), token: owner.token });
    expect(viaUrl.json().data.map((r: { id: number }) => r.id)).toEqual([2, 3]);
    expect(viaUrl.json().variablesWithoutValue).toEqual(['country', 'min']);

    const one = await t.request({ method: 'POST', url: api(`/datasets/${datasetId}/dataRequests/${requestId}/request`), token: owner.token, payload: { variables: { min: 4 } } });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().dataRequest.responseData.data).toEqual([{ id: 4, country: 'US' }]);
    expect(one.json().variablesWithoutValue).toEqual(['countries', 'country']);
  });

  it('takes `variables: []` as no variables', async () => {
    const res = await runDataset({ variables: [] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().variablesWithoutValue).toEqual(['countries', 'country', 'min']);
    expect((await runDataset({ variables: ['x'] })).statusCode).toBe(400);
  });

  it.each([
    ['a number', { min: 'ten' }, 'min', 'must be a number'],
    ['a list element', { countries: ['US', { $ne: null }] }, 'countries', 'item 2 must be a string'],
    ['a list past its cap', { countries: Array.from({ length: 1001 }, () => 'US') }, 'countries', 'has 1001 values; a list holds at most 1000'],
    ['a list for a string', { country: ['US'] }, 'country', 'must be a string'],
  ])('refuses %s with a 400 naming the variable', async (_label, variables, name, problem) => {
    const res = await runDataset({ variables });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VARIABLE_INVALID', error: `Variable "${name}" ${problem}`, details: [{ path: `variables.${name}`, message: problem }] });
  });

  it('answers the chart query with the variables that ran without a value (a saved chart value counts as a value)', async () => {
    const saved = await queryChart();
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().chartData).not.toBeNull();
    expect(saved.json().variablesWithoutValue).toEqual(['countries', 'country']);

    const empty = await queryChart({ variables: [] });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().variablesWithoutValue).toEqual(['countries', 'country']);

    const runtime = await queryChart({ variables: { country: 'US', countries: 'US,DE' } });
    expect(runtime.json().variablesWithoutValue).toEqual([]);

    // From the result cache: the same answer.
    const cached = await queryChart({ variables: { country: 'US' } }, '?getCache=true');
    expect(cached.json().variablesWithoutValue).toEqual(['countries']);
    expect((await queryChart({ variables: { country: 'US' } }, '?getCache=true')).json().variablesWithoutValue).toEqual(['countries']);

    const bad = await queryChart({ variables: { min: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VARIABLE_INVALID', error: 'Variable "min" must be a number' });
  });
});
