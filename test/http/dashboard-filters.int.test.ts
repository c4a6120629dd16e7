import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset, teamWithEveryRole, type Person, type RoleTeam } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EDITORS: Role[] = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor'];
const ROLES: Role[] = [...EDITORS, 'projectViewer'];

function expectFieldError(res: { statusCode: number; body: string; json(): any }, path: string, code = 'VALIDATION_FAILED'): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.code).toBe(code);
  expect(body.error).toContain(path);
  expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
}

/** The managed filters of a dashboard, on both stores: shapes, validation, roles, order, embedding. */
describe.each<StoreKind>(['sqlite', 'postgres'])('dashboard filters (%s)', (store) => {
  let t: TestApp;
  let team: RoleTeam;
  let owner: Person;
  let projectId: number;
  let charts: number[];
  /** A chart of another dashboard of the same team. */
  let otherChart: number;
  let otherProject: number;
  /** A dataset of the dashboard, one of no dashboard (not a project role's), and one of another team. */
  let ownDataset: number;
  let teamDataset: number;
  let foreignDataset: number;

  const base = () => `/project/${projectId}`;
  const as = (role: Role | 'stranger') => team.people[role].token;

  async function create(body: Json, token = owner.token, project = projectId) {
    return t.request({ method: 'POST', url: `/project/${project}/dashboard-filter`, token, payload: body });
  }
  async function created(body: Json, token = owner.token, project = projectId): Promise<Json> {
    const res = await create(body, token, project);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function list(token = owner.token, project = projectId): Promise<Json[]> {
    const res = await t.request({ method: 'GET', url: `/project/${project}/dashboard-filters`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function clear() {
    for (const filter of await list()) await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token });
  }

  beforeAll(async () => {
    t = await buildTestApp({ store });
    team = await teamWithEveryRole(t);
    owner = team.people.teamOwner;
    projectId = team.projectId;
    charts = [];
    for (const name of ['Revenue', 'Orders']) {
      const res = await t.request({ method: 'POST', url: `${base()}/chart`, token: owner.token, payload: { name, type: 'line' } });
      charts.push(res.json().id);
    }
    otherProject = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Elsewhere', team_id: owner.teamId } })).json().id;
    otherChart = (await t.request({ method: 'POST', url: `/project/${otherProject}/chart`, token: owner.token, payload: { name: 'Other', type: 'bar' } })).json().id;
    ownDataset = await insertDataset(t, owner.teamId, 'Orders', [projectId]);
    teamDataset = await insertDataset(t, owner.teamId, 'Finance', []);
    foreignDataset = await insertDataset(t, team.people.stranger.teamId, 'Theirs', []);
  });
  afterAll(() => t?.close());

  it('creates each kind, answers it as stored, and puts each new filter last', async () => {
    await clear();
    const date = await created({ configuration: { type: 'date', preset: 'last_30_days', label: 'Period', charts: [charts[0]] }, onReport: true });
    expect(date).toMatchObject({ project_id: projectId, configuration: { type: 'date', preset: 'last_30_days', label: 'Period', charts: [charts[0]] }, onReport: true, position: 0 });
    expect(date.id).toMatch(UUID);
    expect(Object.keys(date).sort()).toEqual(['configuration', 'createdAt', 'id', 'onReport', 'position', 'project_id', 'updatedAt']);

    const field = await created({ configuration: { id: 'client-chosen', type: 'field', field: 'country', operator: 'is', value: 'FR', valuesFrom: { datasetId: ownDataset, field: 'country' } } });
    // The client's own id inside the configuration is kept as given; onReport defaults to false.
    expect(field).toMatchObject({ configuration: { id: 'client-chosen', type: 'field', field: 'country', operator: 'is', value: 'FR', valuesFrom: { datasetId: ownDataset, field: 'country' } }, onReport: false, position: 1 });

    const variable = await created({ configuration: { type: 'variable', variable: 'status', value: ['paid', 'refunded'], dataType: 'string[]', label: 'Status' } });
    // allowValueChange defaults to true.
    expect(variable.configuration).toEqual({ type: 'variable', variable: 'status', value: ['paid', 'refunded'], dataType: 'string[]', label: 'Status', allowValueChange: true });
    expect(variable.position).toBe(2);

    const custom = await created({ configuration: { type: 'date', preset: 'custom', startDate: '2025-01-01', endDate: '2025-03-31T23:59:59Z' } });
    expect(custom.configuration).toEqual({ type: 'date', preset: 'custom', startDate: '2025-01-01', endDate: '2025-03-31T23:59:59Z' });

    // A client may choose the filter's id (a UUID); any case, answered in lower case.
    const chosen = '0B6F3C1E-6A53-4D5C-9B8F-2F1F1F7C0A11';
    const mine = await created({ id: chosen, configuration: { type: 'date', startDate: '2025-01-01' } });
    expect(mine.id).toBe(chosen.toLowerCase());
    const taken = await create({ id: chosen, configuration: { type: 'date', startDate: '2025-01-01' } }, owner.token, otherProject);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('FILTER_ID_TAKEN');

    expect((await list()).map((f) => f.id)).toEqual([date.id, field.id, variable.id, custom.id, mine.id]);
    const one = await t.request({ method: 'GET', url: `${base()}/dashboard-filter/${field.id.toUpperCase()}`, token: owner.token });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(field);
  });

  it('PUT replaces the configuration and changes onReport; DELETE answers {deleted: true}, then 404', async () => {
    const filter = await created({ configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR', label: 'Country' } });
    const put = await t.request({ method: 'PUT', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token, payload: { configuration: { type: 'date', preset: 'this_quarter' } } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ id: filter.id, configuration: { type: 'date', preset: 'this_quarter' }, onReport: false, position: filter.position, createdAt: filter.createdAt });
    expect(put.json().configuration).not.toHaveProperty('label');
    const flag = await t.request({ method: 'PUT', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token, payload: { onReport: true } });
    expect(flag.json()).toMatchObject({ configuration: { type: 'date', preset: 'this_quarter' }, onReport: true });

    const del = await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ deleted: true });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.request({ method, url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token, ...(method === 'PUT' ? { payload: { onReport: false } } : {}) });
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
    }
    // A filter is reached through its own dashboard only.
    const elsewhere = await created({ configuration: { type: 'date', preset: 'today' } }, owner.token, otherProject);
    expect((await t.request({ method: 'GET', url: `${base()}/dashboard-filter/${elsewhere.id}`, token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${elsewhere.id}`, token: owner.token })).statusCode).toBe(404);
  });

  it.each<[string, () => Json, string]>([
    ['an unknown preset', () => ({ configuration: { type: 'date', preset: 'next_week' } }), 'body.configuration.preset'],
    ['an unknown kind', () => ({ configuration: { type: 'range' } }), 'body.configuration.type'],
    ['no kind', () => ({ configuration: { preset: 'today' } }), 'body.configuration.type'],
    ['no configuration', () => ({ onReport: true }), 'body.configuration'],
    ['a custom range without dates', () => ({ configuration: { type: 'date', preset: 'custom' } }), 'body.configuration.startDate'],
    ['no preset and no dates', () => ({ configuration: { type: 'date', label: 'When' } }), 'body.configuration.startDate'],
    ['an end before the start', () => ({ configuration: { type: 'date', startDate: '2025-02-01', endDate: '2025-01-01' } }), 'body.configuration.endDate'],
    ['a start that is not a date', () => ({ configuration: { type: 'date', startDate: 'soon' } }), 'body.configuration.startDate'],
    ['February 30', () => ({ configuration: { type: 'date', startDate: '2025-02-30' } }), 'body.configuration.startDate'],
    ['a field filter without an operator', () => ({ configuration: { type: 'field', field: 'country' } }), 'body.configuration.operator'],
    ['an unknown operator', () => ({ configuration: { type: 'field', field: 'country', operator: 'like' } }), 'body.configuration.operator'],
    ['an empty field', () => ({ configuration: { type: 'field', field: '', operator: 'is' } }), 'body.configuration.field'],
    ['a variable without its type', () => ({ configuration: { type: 'variable', variable: 'status' } }), 'body.configuration.dataType'],
    ['an unknown variable type', () => ({ configuration: { type: 'variable', variable: 'status', dataType: 'uuid' } }), 'body.configuration.dataType'],
    ['a variable name that cannot be one', () => ({ configuration: { type: 'variable', variable: '1st', dataType: 'string' } }), 'body.configuration.variable'],
    ['a single value for a list type', () => ({ configuration: { type: 'variable', variable: 'ids', dataType: 'number[]', value: 3 } }), 'body.configuration.value'],
    ['a list for a single type', () => ({ configuration: { type: 'variable', variable: 'id', dataType: 'number', value: [3] } }), 'body.configuration.value'],
    ['allowValueChange that is not a boolean', () => ({ configuration: { type: 'variable', variable: 'id', dataType: 'number', allowValueChange: 'yes' } }), 'body.configuration.allowValueChange'],
    ['a chart of another dashboard', () => ({ configuration: { type: 'date', preset: 'today', charts: [charts[0], otherChart] } }), 'body.configuration.charts.1'],
    ['a chart id that is not one', () => ({ configuration: { type: 'field', field: 'a', operator: 'is', charts: [0] } }), 'body.configuration.charts.0'],
    ['a dataset of another team', () => ({ configuration: { type: 'field', field: 'c', operator: 'is', valuesFrom: { datasetId: foreignDataset, field: 'c' } } }), 'body.configuration.valuesFrom.datasetId'],
    ['a dataset that does not exist', () => ({ configuration: { type: 'variable', variable: 'c', dataType: 'string', valuesFrom: { datasetId: 999_999, field: 'c' } } }), 'body.configuration.valuesFrom.datasetId'],
    ['valuesFrom without its field', () => ({ configuration: { type: 'field', field: 'c', operator: 'is', valuesFrom: { datasetId: ownDataset } } }), 'body.configuration.valuesFrom.field'],
    ['a key no kind has', () => ({ configuration: { type: 'date', preset: 'today', colour: 'red' } }), 'body.configuration'],
    ['onReport that is not a boolean', () => ({ configuration: { type: 'date', preset: 'today' }, onReport: 'yes' }), 'body.onReport'],
    ['an id that is not a UUID', () => ({ id: 'filter-1', configuration: { type: 'date', preset: 'today' } }), 'body.id'],
  ])('%s is a 400 naming %s', async (_name, body, path) => {
    const before = (await list()).length;
    expectFieldError(await create(body()), path);
    expect(await list()).toHaveLength(before);
  });

  it('PUT validates the same way and changes nothing on a 400', async () => {
    const filter = await created({ configuration: { type: 'date', preset: 'today' } });
    const bad = await t.request({ method: 'PUT', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token, payload: { configuration: { type: 'date', preset: 'today', charts: [otherChart] } } });
    expectFieldError(bad, 'body.configuration.charts.0');
    expect((await t.request({ method: 'GET', url: `${base()}/dashboard-filter/${filter.id}`, token: owner.token })).json()).toEqual(filter);
    expectFieldError(await t.request({ method: 'GET', url: `${base()}/dashboard-filter/not-a-uuid`, token: owner.token }), 'params.fid');
  });

  it('reorders: every filter once, in the new order; anything else is a 400 that changes nothing', async () => {
    await clear();
    const ids: string[] = [];
    for (const preset of ['today', 'yesterday', 'this_week']) ids.push((await created({ configuration: { type: 'date', preset } })).id);
    const reversed = [...ids].reverse();
    const order = (filterIds: string[], token = owner.token) => t.request({ method: 'PUT', url: `${base()}/dashboard-filters/order`, token, payload: { filterIds } });
    const res = await order(reversed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((f: Json) => [f.id, f.position])).toEqual(reversed.map((id, i) => [id, i]));
    expect((await list()).map((f) => f.id)).toEqual(reversed);

    const elsewhere = (await created({ configuration: { type: 'date', preset: 'today' } }, owner.token, otherProject)).id;
    expectFieldError(await order([ids[0]!, ids[1]!]), 'body.filterIds');
    expectFieldError(await order([ids[0]!, ids[1]!, ids[1]!, ids[2]!]), 'body.filterIds.2');
    expectFieldError(await order([ids[0]!, ids[1]!, ids[2]!, elsewhere]), 'body.filterIds.3');
    expectFieldError(await order([ids[0]!, ids[1]!, '5d2e9a40-1c1b-4a4e-8d0e-7c3b1e2f4a55']), 'body.filterIds.2');
    expect((await list()).map((f) => f.id)).toEqual(reversed);
    // In upper case too (ids are UUIDs, their case means nothing).
    expect((await order(ids.map((id) => id.toUpperCase()))).json().map((f: Json) => f.id)).toEqual(ids);
  });

  it('roles: every member of the dashboard reads; editors write; a viewer gets 403; an outsider 404 everywhere', async () => {
    await clear();
    const filter = await created({ configuration: { type: 'date', preset: 'today' } });
    const urls = {
      list: { method: 'GET', url: `${base()}/dashboard-filters` },
      get: { method: 'GET', url: `${base()}/dashboard-filter/${filter.id}` },
      create: { method: 'POST', url: `${base()}/dashboard-filter`, payload: { configuration: { type: 'date', preset: 'yesterday' } } },
      update: { method: 'PUT', url: `${base()}/dashboard-filter/${filter.id}`, payload: { onReport: true } },
    } as const;
    for (const role of ROLES) {
      expect((await t.request({ ...urls.list, token: as(role) })).statusCode, role).toBe(200);
      expect((await t.request({ ...urls.get, token: as(role) })).statusCode, role).toBe(200);
      const write = EDITORS.includes(role) ? 200 : 403;
      expect((await t.request({ ...urls.create, token: as(role) })).statusCode, role).toBe(write);
      expect((await t.request({ ...urls.update, token: as(role) })).statusCode, role).toBe(write);
    }
    const made = (await list()).filter((f) => f.id !== filter.id);
    expect(made).toHaveLength(EDITORS.length);
    const viewerDelete = await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${made[0]!.id}`, token: as('projectViewer') });
    expect(viewerDelete.statusCode).toBe(403);
    const viewerOrder = await t.request({ method: 'PUT', url: `${base()}/dashboard-filters/order`, token: as('projectViewer'), payload: { filterIds: (await list()).map((f) => f.id) } });
    expect(viewerOrder.statusCode).toBe(403);
    for (const role of EDITORS) {
      const own = made.shift()!;
      expect((await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${own.id}`, token: as(role) })).statusCode, role).toBe(200);
    }
    const order = await t.request({ method: 'PUT', url: `${base()}/dashboard-filters/order`, token: as('projectEditor'), payload: { filterIds: [filter.id] } });
    expect(order.statusCode, order.body).toBe(200);

    // Someone of another team: every route of the dashboard is a 404 (its existence is not told).
    const all: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Json }[] = [
      urls.list,
      urls.get,
      urls.create,
      urls.update,
      { method: 'DELETE', url: `${base()}/dashboard-filter/${filter.id}` },
      { method: 'PUT', url: `${base()}/dashboard-filters/order`, payload: { filterIds: [filter.id] } },
    ];
    for (const request of all) {
      const res = await t.request({ ...request, token: as('stranger') });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
    }
    expect(await list()).toEqual([{ ...filter, onReport: true, updatedAt: expect.any(String) }]);
  });

  it("the dropdown's dataset must be one the caller may read: a project role only its dashboards', the team's roles any", async () => {
    const body = (datasetId: number) => ({ configuration: { type: 'field', field: 'country', operator: 'is', valuesFrom: { datasetId, field: 'country' } } });
    expect((await create(body(ownDataset), as('projectEditor'))).statusCode).toBe(200);
    expectFieldError(await create(body(teamDataset), as('projectEditor')), 'body.configuration.valuesFrom.datasetId');
    expectFieldError(await create(body(teamDataset), as('projectAdmin')), 'body.configuration.valuesFrom.datasetId');
    expect((await create(body(teamDataset), as('teamAdmin'))).statusCode).toBe(200);
  });

  it('GET /project/{id} carries the filters in order, to every member, and shows each change in the next read', async () => {
    await clear();
    const a = await created({ configuration: { type: 'date', preset: 'today' } });
    const b = await created({ configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR' }, onReport: true });
    const read = async (token = owner.token) => {
      const res = await t.request({ method: 'GET', url: base(), token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().DashboardFilters as Json[];
    };
    expect(await read()).toEqual([a, b]);
    expect(await read(as('projectViewer'))).toEqual([a, b]);
    await t.request({ method: 'PUT', url: `${base()}/dashboard-filters/order`, token: owner.token, payload: { filterIds: [b.id, a.id] } });
    expect((await read()).map((f) => f.id)).toEqual([b.id, a.id]);
    await t.request({ method: 'PUT', url: `${base()}/dashboard-filter/${a.id}`, token: owner.token, payload: { configuration: { type: 'date', preset: 'yesterday' } } });
    expect((await read()).find((f) => f.id === a.id)!.configuration.preset).toBe('yesterday');
    await t.request({ method: 'DELETE', url: `${base()}/dashboard-filter/${b.id}`, token: owner.token });
    expect((await read()).map((f) => f.id)).toEqual([a.id]);
    // The dashboard's writes answer the same body.
    const put = await t.request({ method: 'PUT', url: base(), token: owner.token, payload: { dashboardTitle: 'With filters' } });
    expect(put.json().DashboardFilters.map((f: Json) => f.id)).toEqual([a.id]);
    const fresh = await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Fresh', team_id: owner.teamId } });
    expect(fresh.json().DashboardFilters).toEqual([]);
  });

  it('deleting a dashboard deletes its filters', async () => {
    const doomed = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Doomed', team_id: owner.teamId } })).json().id;
    const filter = await created({ configuration: { type: 'date', preset: 'today' } }, owner.token, doomed);
    expect((await t.request({ method: 'DELETE', url: `/project/${doomed}`, token: owner.token })).statusCode).toBe(200);
    expect(await t.container.store.db.selectFrom('dashboard_filters').select('id').where('project_id', '=', doomed).execute()).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/project/${doomed}/dashboard-filter/${filter.id}`, token: owner.token })).statusCode).toBe(404);
  });

  it('the public dashboard carries the onReport filters only: no dataset ids, date presets resolved', async () => {
    await clear();
    const period = await created({ configuration: { id: 'period', type: 'date', preset: 'today', label: 'Period' }, onReport: true });
    const country = await created({ configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR', valuesFrom: { datasetId: ownDataset, field: 'country' } }, onReport: true });
    await created({ configuration: { type: 'variable', variable: 'tenant', value: 't-1', dataType: 'string' } });
    const custom = await created({ configuration: { type: 'date', startDate: '2025-01-01', endDate: '2025-01-31' }, onReport: true });
    await t.request({ method: 'POST', url: `${base()}/share/policy`, token: owner.token });
    const token = (await t.request({ method: 'POST', url: `${base()}/share/token`, token: owner.token })).json().token;
    const brewName = (await t.request({ method: 'GET', url: base(), token: owner.token })).json().brewName;
    const before = Date.now();
    const res = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${token}` });
    expect(res.statusCode, res.body).toBe(200);
    const filters = res.json().DashboardFilters as Json[];
    expect(filters.map((f) => f.id)).toEqual([period.id, country.id, custom.id]);
    expect(Object.keys(filters[0]!).sort()).toEqual(['configuration', 'id', 'position', 'resolved']);
    expect(filters[0]!.configuration).toEqual({ id: 'period', type: 'date', preset: 'today', label: 'Period' });
    // The dashboard's zone is UTC (none set): today runs from midnight to the last millisecond.
    const { startDate, endDate } = filters[0]!.resolved;
    expect(Date.parse(endDate) - Date.parse(startDate)).toBe(24 * 3600_000 - 1);
    expect(Date.parse(startDate)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(endDate)).toBeGreaterThanOrEqual(before);
    expect(startDate).toMatch(/T00:00:00\.000Z$/);
    expect(filters[1]).toEqual({ id: country.id, position: country.position, configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR', valuesFrom: { field: 'country' } } });
    expect(filters[2]!.resolved).toEqual({ startDate: '2025-01-01T00:00:00.000Z', endDate: '2025-01-31T23:59:59.999Z' });
    expect(res.body).not.toContain('datasetId');
    expect(res.body).not.toContain('tenant');
  });
});
