import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySerializer } from '../../src/platform/schema-compilers.js';
import { Project } from '../../src/modules/dashboards/projects-schemas.js';
import { COMPONENT_SCHEMAS } from '../../src/openapi-components.js';
import type { Role } from '../../src/platform/authorization.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset } from '../helpers/fixtures.js';

type Person = Awaited<ReturnType<TestApp['signup']>>;
type Json = Record<string, any>;

/**
 * `GET /project/{id}` keeps its charts and share policies serialized per `view_version`, which
 * triggers move. Every change to what a dashboard shows must be in the very next read, whichever
 * route or statement made it; and the body must be the one the `Project` schema gives.
 */
describe.each<StoreKind>(['sqlite', 'postgres'])('dashboard views (%s)', (store) => {
  let t: TestApp;
  let owner: Person;
  let viewer: Person;
  let projectId: number;
  let datasetId: number;
  let chartId: number;
  let statements: string[] = [];
  const serializeProject = lazySerializer<Json>(Project, COMPONENT_SCHEMAS);

  beforeAll(async () => {
    t = await buildTestApp({ store, onStoreQuery: (sql) => statements.push(sql) });
    owner = await t.signup('Owner');
    const project = await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Board', team_id: owner.teamId } });
    expect(project.statusCode, project.body).toBe(200);
    projectId = project.json().id;
    viewer = await addMember(owner, 'projectViewer', [projectId]);
    datasetId = await insertDataset(t, owner.teamId, 'Orders', [projectId]);
    const chart = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Revenue', type: 'line', chartDatasetConfigs: [{ dataset_id: datasetId, xAxis: 'root[].day', yAxis: 'root[].amount', yAxisOperation: 'sum' }] },
    });
    expect(chart.statusCode, chart.body).toBe(200);
    chartId = chart.json().id;
  });
  afterAll(async () => t?.close());

  async function addMember(of: Person, role: Role, projects: number[]): Promise<Person> {
    const person = await t.signup(role);
    const res = await t.request({ method: 'POST', url: `/team/${of.teamId}/members`, token: of.token, payload: { email: person.email, role, projects } });
    if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
    return person;
  }

  async function read(who: Person = owner): Promise<{ body: Json; text: string; statements: string[] }> {
    statements = [];
    const res = await t.request({ method: 'GET', url: `/project/${projectId}`, token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return { body: res.json(), text: res.body, statements };
  }

  async function write(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json): Promise<Json> {
    const res = await t.request({ method, url, token: owner.token, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const chartsRead = (sqls: string[]) => sqls.filter((sql) => /\bfrom "charts"/.test(sql)).length;

  it('answers the bytes the Project schema gives, and reads the charts once per version', async () => {
    const first = await read();
    expect(first.body.Charts).toHaveLength(1);
    expect(first.text).toBe(serializeProject(first.body));
    const again = await read();
    expect(again.text).toBe(first.text);
    // Kept: the token, the dashboard with its grant, nothing more.
    expect(chartsRead(again.statements)).toBe(0);
    expect(again.statements.some((sql) => /\bfrom "share_policies"/.test(sql))).toBe(false);
    expect(again.statements.some((sql) => /\bfrom "dashboard_filters"/.test(sql))).toBe(false);
  });

  it('gives the share policies to those who manage sharing only, from one kept entry', async () => {
    await write('POST', `/project/${projectId}/share/policy`);
    const asViewer = await read(viewer);
    expect(asViewer.body.SharePolicies).toBeUndefined();
    expect(asViewer.text).toBe(serializeProject(asViewer.body));
    const asOwner = await read();
    expect(asOwner.body.SharePolicies).toHaveLength(1);
    expect(asOwner.text).toBe(serializeProject(asOwner.body));
    expect(chartsRead(asOwner.statements)).toBe(0);
    const viewerAgain = await read(viewer);
    expect(viewerAgain.text).toBe(asViewer.text);
    // Kept: its charts, their configs and its filters are not read again.
    expect(viewerAgain.statements).toHaveLength(asViewer.statements.length - 3);
  });

  it('shows every change made through the API in the next read', async () => {
    await read();
    await write('PUT', `/project/${projectId}/chart/${chartId}`, { name: 'Revenue by day' });
    expect((await read()).body.Charts[0].name).toBe('Revenue by day');

    const cdc = await write('POST', `/project/${projectId}/chart/${chartId}/chart-dataset-config`, { dataset_id: datasetId, xAxis: 'root[].day', yAxis: 'root[].id', yAxisOperation: 'count' });
    expect((await read()).body.Charts[0].ChartDatasetConfigs).toHaveLength(2);
    await write('PUT', `/project/${projectId}/chart/${chartId}/chart-dataset-config/${cdc.id}`, { legend: 'Orders' });
    expect((await read()).body.Charts[0].ChartDatasetConfigs.find((c: Json) => c.id === cdc.id).legend).toBe('Orders');
    await write('DELETE', `/project/${projectId}/chart/${chartId}/chart-dataset-config/${cdc.id}`);
    expect((await read()).body.Charts[0].ChartDatasetConfigs).toHaveLength(1);

    const policy = (await read()).body.SharePolicies[0];
    await write('PUT', `/project/${projectId}/share/policy/${policy.id}`, { allow_params: true });
    expect((await read()).body.SharePolicies[0].allow_params).toBe(true);
    await write('POST', `/project/${projectId}/share/policy/${policy.id}/revoke`);
    // Tokens are not part of the view, but the policy row changed: read again, not kept.
    expect((await read()).statements.some((sql) => /\bfrom "share_policies"/.test(sql))).toBe(true);
    await write('DELETE', `/project/${projectId}/share/policy/${policy.id}`);
    expect((await read()).body.SharePolicies).toEqual([]);

    const filter = await write('POST', `/project/${projectId}/dashboard-filter`, { configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR' } });
    const withFilter = await read();
    expect(withFilter.body.DashboardFilters.map((f: Json) => f.id)).toEqual([filter.id]);
    expect(withFilter.text).toBe(serializeProject(withFilter.body));
    await write('PUT', `/project/${projectId}/dashboard-filter/${filter.id}`, { onReport: true });
    expect((await read(viewer)).body.DashboardFilters[0].onReport).toBe(true);
    await write('DELETE', `/project/${projectId}/dashboard-filter/${filter.id}`);
    expect((await read()).body.DashboardFilters).toEqual([]);

    // The dashboard's own fields are read on every request.
    await write('PUT', `/project/${projectId}`, { dashboardTitle: 'Sales' });
    expect((await read(viewer)).body.dashboardTitle).toBe('Sales');

    const second = await write('POST', `/project/${projectId}/chart`, { name: 'Second', type: 'bar' });
    expect((await read()).body.Charts.map((c: Json) => c.name)).toEqual(['Revenue by day', 'Second']);
    await write('DELETE', `/project/${projectId}/chart/${second.id}`);
    expect((await read()).body.Charts.map((c: Json) => c.name)).toEqual(['Revenue by day']);
  });

  it('shows a change no route announced: a statement on the store, and a cascade from another table', async () => {
    await read();
    await t.container.store.db.updateTable('charts').set({ name: 'Renamed in the store' }).where('id', '=', chartId).execute();
    expect((await read()).body.Charts[0].name).toBe('Renamed in the store');
    await t.container.store.db.updateTable('chart_dataset_configs').set({ legend: 'Set in the store' }).where('chart_id', '=', chartId).execute();
    expect((await read()).body.Charts[0].ChartDatasetConfigs[0].legend).toBe('Set in the store');

    // Deleting the dataset removes its configs from the charts (foreign keys cascade).
    const res = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/datasets/${datasetId}`, token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await read()).body.Charts[0].ChartDatasetConfigs).toEqual([]);
  });

  it('answers 404 for a deleted dashboard it had kept', async () => {
    const other = await write('POST', '/project', { name: 'Short-lived', team_id: owner.teamId });
    await write('POST', `/project/${other.id}/chart`, { name: 'Only', type: 'bar' });
    const before = await t.request({ method: 'GET', url: `/project/${other.id}`, token: owner.token });
    expect(before.json().Charts).toHaveLength(1);
    await write('DELETE', `/project/${other.id}`);
    const after = await t.request({ method: 'GET', url: `/project/${other.id}`, token: owner.token });
    expect(after.statusCode).toBe(404);
  });
});
