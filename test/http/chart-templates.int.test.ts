import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset, insertProject, teamWithEveryRole, type Person, type RoleTeam } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/**
 * Chart templates: a chart saved as a reusable template of its team (`POST /project/{id}/template`),
 * listed by `GET /team/{id}/chart-templates`, and made into a chart again by Chartbrew's
 * `POST /project/{id}/template/{template}`. Roles are those of charts.
 */

type Json = Record<string, any>;

describe.each(['sqlite', 'postgres'] as StoreKind[])('chart templates on the %s store', (store) => {
  let t: TestApp;
  let team: RoleTeam;
  let datasetId: number;
  let otherProjectId: number;
  let chartId: number;
  let cdcId: string;

  const as = (who: Person) => ({
    get: (url: string) => t.request({ method: 'GET', url, token: who.token }),
    post: (url: string, payload?: unknown) => t.request({ method: 'POST', url, token: who.token, ...(payload === undefined ? {} : { payload: payload as object }) }),
    put: (url: string, payload: unknown) => t.request({ method: 'PUT', url, token: who.token, payload: payload as object }),
    delete: (url: string) => t.request({ method: 'DELETE', url, token: who.token }),
  });
  const owner = () => as(team.people.teamOwner);
  const json = async (res: Promise<{ statusCode: number; body: string; json(): any }>): Promise<any> => {
    const answer = await res;
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  beforeAll(async () => {
    t = await buildTestApp({ store });
    team = await teamWithEveryRole(t);
    datasetId = await insertDataset(t, team.teamId, 'Orders', [team.projectId]);
    otherProjectId = await insertProject(t, team.teamId, 'Other board');
    const chart = await json(
      owner().post(`/project/${team.projectId}/chart/quick-create`, {
        name: 'Revenue',
        type: 'line',
        draft: false,
        displayLegend: true,
        layout: { lg: [0, 0, 6, 2] },
        chartDatasetConfigs: [{ dataset_id: datasetId, id: 'tmp' }],
        visualization: {
          version: 2,
          layers: [
            {
              id: 'revenue',
              bindingId: 'tmp',
              mark: 'line',
              name: 'Revenue',
              encoding: { time: { field: 'root[].created_at', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } },
              transforms: [{ type: 'filter', field: 'root[].status', operator: 'is', value: 'paid' }],
              style: { color: '#4E79A7' },
            },
          ],
        },
      }),
    );
    chartId = chart.id;
    cdcId = chart.ChartDatasetConfigs[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves a chart as a template of its team: its fields, its configs and its visualization, without its ids', async () => {
    const template = await json(owner().post(`/project/${team.projectId}/template`, { chart_id: chartId, description: 'Paid orders by month' }));
    expect(template).toMatchObject({
      team_id: team.teamId,
      project_id: team.projectId,
      name: 'Revenue',
      description: 'Paid orders by month',
      source: 'custom',
      slug: String(template.id),
      chart: { name: 'Revenue', type: 'line', timeInterval: 'month', displayLegend: true, draft: false },
      chartDatasetConfigs: [
        {
          dataset_id: datasetId,
          bindingId: 'binding-1',
          xAxis: 'root[].created_at',
          dateField: 'root[].created_at',
          yAxis: 'root[].amount',
          yAxisOperation: 'sum',
          datasetColor: '#4E79A7',
          conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }],
        },
      ],
      visualization: { layers: [{ id: 'revenue', bindingId: 'binding-1' }] },
    });
    expect(template.chart).not.toHaveProperty('layout');
    expect(JSON.stringify(template)).not.toContain(cdcId);
    const list = await json(owner().get(`/team/${team.teamId}/chart-templates`));
    expect(list.map((x: Json) => x.id)).toContain(template.id);
    expect(await json(owner().get(`/team/${team.teamId}/chart-templates?source=stripe`))).toEqual([]);
    expect(await json(owner().get(`/team/${team.teamId}/chart-templates/${template.id}`))).toEqual(template);
  });

  it('makes a chart from a template (custom + template_id, or the id in the path): new configs, the spec bound to them', async () => {
    const template = await json(owner().post(`/project/${team.projectId}/template`, { chart_id: chartId, name: 'Monthly revenue' }));
    const [made] = await json(owner().post(`/project/${otherProjectId}/template/custom`, { template_id: template.id }));
    expect(made).toMatchObject({ project_id: otherProjectId, name: 'Revenue', type: 'line', timeInterval: 'month', displayLegend: true });
    expect(made.ChartDatasetConfigs).toHaveLength(1);
    const config = made.ChartDatasetConfigs[0];
    expect(config.id).not.toBe(cdcId);
    expect(config).toMatchObject({ dataset_id: datasetId, xAxis: 'root[].created_at', yAxisOperation: 'sum', datasetColor: '#4E79A7' });
    expect(made.visualization.layers).toEqual([expect.objectContaining({ id: 'revenue', bindingId: config.id, encoding: expect.objectContaining({ time: expect.objectContaining({ timeUnit: 'month' }) }) })]);
    const [again] = await json(owner().post(`/project/${otherProjectId}/template/${template.id}`));
    expect(again.id).not.toBe(made.id);
    const board = await json(owner().get(`/project/${otherProjectId}`));
    expect(board.Charts.map((c: Json) => c.id)).toEqual(expect.arrayContaining([made.id, again.id]));
  });

  it("Chartbrew's built-in source templates are a 400 naming the path; custom needs template_id; another team's template is a 404", async () => {
    const stripe = await owner().post(`/project/${team.projectId}/template/stripe`, {});
    expect(stripe.statusCode).toBe(400);
    expect(stripe.json().details[0].path).toBe('params.template');
    const bare = await owner().post(`/project/${team.projectId}/template/custom`, {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json().details[0].path).toBe('body.template_id');
    const template = await json(owner().post(`/project/${team.projectId}/template`, { chart_id: chartId }));
    const stranger = as(team.people.stranger);
    const theirs = await json(stranger.post('/project', { name: 'Mine', team_id: team.people.stranger.teamId }));
    expect((await stranger.post(`/project/${theirs.id}/template/custom`, { template_id: template.id })).statusCode).toBe(404);
    expect((await stranger.get(`/team/${team.teamId}/chart-templates`)).statusCode).toBe(403);
    expect((await stranger.get(`/team/${team.people.stranger.teamId}/chart-templates/${template.id}`)).statusCode).toBe(404);
    expect((await stranger.post(`/project/${team.projectId}/template`, { chart_id: chartId })).statusCode).toBe(404);
  });

  describe('roles are those of charts', () => {
    const ROLES = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const;
    const writers = new Set(['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor']);

    it.each(ROLES)('%s: saves, lists, uses and deletes as it may write and read charts', async (role) => {
      const who = as(team.people[role]);
      const saved = await who.post(`/project/${team.projectId}/template`, { chart_id: chartId, name: `by ${role}` });
      expect(saved.statusCode, saved.body).toBe(writers.has(role) ? 200 : 403);
      const template = writers.has(role) ? saved.json() : await json(owner().post(`/project/${team.projectId}/template`, { chart_id: chartId, name: `for ${role}` }));
      const listed = await json(who.get(`/team/${team.teamId}/chart-templates`));
      expect(listed.map((x: Json) => x.id)).toContain(template.id);
      const used = await who.post(`/project/${team.projectId}/template/custom`, { template_id: template.id });
      expect(used.statusCode, used.body).toBe(writers.has(role) ? 200 : 403);
      const removed = await who.delete(`/team/${team.teamId}/chart-templates/${template.id}`);
      expect(removed.statusCode, removed.body).toBe(writers.has(role) ? 200 : 403);
      if (writers.has(role)) expect((await owner().get(`/team/${team.teamId}/chart-templates/${template.id}`)).statusCode).toBe(404);
    });

    it("project roles see only templates saved from their dashboards, and use only their projects' datasets", async () => {
      const elsewhereDataset = await insertDataset(t, team.teamId, 'Elsewhere', [otherProjectId]);
      const other = await json(owner().post(`/project/${otherProjectId}/chart/quick-create`, { name: 'Elsewhere', type: 'bar', chartDatasetConfigs: [{ dataset_id: elsewhereDataset, xAxis: 'country' }] }));
      const hidden = await json(owner().post(`/project/${otherProjectId}/template`, { chart_id: other.id }));
      for (const role of ['projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        const who = as(team.people[role]);
        expect((await json(who.get(`/team/${team.teamId}/chart-templates`))).map((x: Json) => x.id)).not.toContain(hidden.id);
        expect((await who.get(`/team/${team.teamId}/chart-templates/${hidden.id}`)).statusCode).toBe(404);
      }
      expect((await json(as(team.people.teamAdmin).get(`/team/${team.teamId}/chart-templates`))).map((x: Json) => x.id)).toContain(hidden.id);
      // A template of their dashboard whose dataset is not theirs (using it there attached it; it was
      // taken off that dashboard since): the quick-create's dataset check, naming the template.
      const borrowed = await json(owner().post(`/project/${team.projectId}/chart/quick-create`, { name: 'Borrowed', type: 'bar', chartDatasetConfigs: [{ dataset_id: elsewhereDataset, xAxis: 'country' }] }));
      const template = await json(owner().post(`/project/${team.projectId}/template`, { chart_id: borrowed.id }));
      await json(owner().put(`/team/${team.teamId}/datasets/${elsewhereDataset}`, { project_ids: [otherProjectId] }));
      const refused = await as(team.people.projectEditor).post(`/project/${team.projectId}/template/custom`, { template_id: template.id });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details[0].path).toBe(`template ${template.id}.chartDatasetConfigs.0.dataset_id`);
    });
  });
});

describe('a chart made from a template computes what its model does', () => {
  let t: TestApp;
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    db = await createTempDatabase(
      inject('postgresUrl'),
      `create table orders (id int primary key, status text, amount numeric(10,2), created_at timestamptz);
       insert into orders values (1, 'paid', 10, '2025-01-05T10:00:00Z'), (2, 'void', 99, '2025-01-06T10:00:00Z'), (3, 'paid', 4.5, '2025-02-01T10:00:00Z');`,
    );
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('the same chartData on another dashboard', async () => {
    const owner = await t.signup('Owner');
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
      const res = await t.request({ method, url, token: owner.token, ...(payload === undefined ? {} : { payload: payload as object }) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const url = new URL(db.url);
    const conn = await call('POST', `/team/${owner.teamId}/connections`, { name: 'pg', type: 'postgres', host: url.hostname, port: url.port || '5432', dbName: url.pathname.slice(1), username: decodeURIComponent(url.username) });
    const a = await call('POST', '/project', { name: 'A', team_id: owner.teamId, timezone: 'UTC' });
    const b = await call('POST', '/project', { name: 'B', team_id: owner.teamId, timezone: 'UTC' });
    const ds = await call('POST', `/team/${owner.teamId}/datasets/quick-create`, { name: 'Orders', project_ids: [a.id, b.id], dataRequests: [{ connection_id: conn.id, query: 'select * from orders' }] });
    const chart = await call('POST', `/project/${a.id}/chart/quick-create`, { name: 'Paid', type: 'bar', chartDatasetConfigs: [{ dataset_id: ds.id }] });
    await call('PUT', `/project/${a.id}/chart/${chart.id}`, {
      visualization: {
        version: 2,
        layers: [
          {
            id: 'l',
            bindingId: chart.ChartDatasetConfigs[0].id,
            mark: 'bar',
            encoding: { time: { field: 'root[].created_at', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } },
            transforms: [{ type: 'filter', field: 'root[].status', operator: 'is', value: 'paid' }],
          },
        ],
      },
    });
    const template = await call('POST', `/project/${a.id}/template`, { chart_id: chart.id });
    const [made] = await call('POST', `/project/${b.id}/template/custom`, { template_id: template.id });
    const original = (await call('POST', `/project/${a.id}/chart/${chart.id}/query`)).chartData;
    const copy = (await call('POST', `/project/${b.id}/chart/${made.id}/query`)).chartData;
    expect(copy).toEqual(original);
    expect(original.data.datasets[0].data).toEqual([10, 4.5]);
  });
});
