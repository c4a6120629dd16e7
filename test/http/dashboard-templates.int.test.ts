import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset, insertProject, teamWithEveryRole, type Person, type RoleTeam } from '../helpers/fixtures.js';

/**
 * Dashboard templates, Chartbrew's team templates: every chart of a dashboard saved with
 * `POST /team/{id}/template {project_id, name}` (the body Chartbrew's app sends), listed by
 * `GET /team/{id}/template`, previewed by `GET /team/{id}/template/generate/{project_id}`, and made
 * into charts again by `POST /project/{id}/template/custom {template_id, charts}`.
 */

type Json = Record<string, any>;

describe.each(['sqlite', 'postgres'] as StoreKind[])('dashboard templates on the %s store', (store) => {
  let t: TestApp;
  let team: RoleTeam;
  let ordersId: number;
  let otherDatasetId: number;
  let otherProjectId: number;
  let emptyProjectId: number;

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
  const chartsOf = async (projectId: number): Promise<Json[]> => (await json(owner().get(`/project/${projectId}`)))['Charts'];

  beforeAll(async () => {
    t = await buildTestApp({ store });
    team = await teamWithEveryRole(t);
    ordersId = await insertDataset(t, team.teamId, 'Orders', [team.projectId]);
    otherProjectId = await insertProject(t, team.teamId, 'Other board');
    emptyProjectId = await insertProject(t, team.teamId, 'Empty board');
    otherDatasetId = await insertDataset(t, team.teamId, 'Elsewhere', [otherProjectId]);
    await json(
      owner().post(`/project/${team.projectId}/chart/quick-create`, {
        name: 'Revenue',
        type: 'line',
        layout: { lg: [0, 0, 6, 2] },
        chartDatasetConfigs: [{ dataset_id: ordersId, id: 'tmp' }],
        visualization: {
          version: 2,
          layers: [
            {
              id: 'revenue',
              bindingId: 'tmp',
              mark: 'line',
              encoding: { time: { field: 'root[].created_at', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } },
            },
          ],
        },
      }),
    );
    await json(
      owner().post(`/project/${team.projectId}/chart/quick-create`, {
        name: 'Orders',
        type: 'kpi',
        layout: { lg: [6, 0, 3, 2] },
        chartDatasetConfigs: [{ dataset_id: ordersId, xAxis: 'root[].id', yAxis: 'root[].id', yAxisOperation: 'count' }],
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it("saves every chart of a dashboard from the app's body, lists it, and previews a model without storing one", async () => {
    const before = await json(owner().get(`/team/${team.teamId}/template`));
    const preview = await json(owner().get(`/team/${team.teamId}/template/generate/${team.projectId}`));
    expect(preview.Charts.map((c: Json) => [c.tid, c.name, c.type])).toEqual([
      [0, 'Revenue', 'line'],
      [1, 'Orders', 'kpi'],
    ]);
    expect(preview.Datasets).toEqual([{ id: ordersId }]);
    expect(preview.Connections).toEqual([]);
    expect(await json(owner().get(`/team/${team.teamId}/template`))).toHaveLength(before.length);

    const template = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Sales overview' }));
    expect(template).toMatchObject({ team_id: team.teamId, project_id: team.projectId, name: 'Sales overview', description: null });
    expect(template.model).toEqual(preview);
    const [revenue] = template.model.Charts;
    expect(revenue.layout).toEqual({ lg: [0, 0, 6, 2] });
    // The configs keep what makes the chart, not the ids of the dashboard it came from.
    expect(revenue.ChartDatasetConfigs).toEqual([expect.objectContaining({ dataset_id: ordersId, bindingId: 'binding-1' })]);
    expect(revenue.ChartDatasetConfigs[0]).not.toHaveProperty('id');
    expect(revenue.ChartDatasetConfigs[0]).not.toHaveProperty('chart_id');
    expect(revenue.visualization.layers[0]).toMatchObject({ bindingId: 'binding-1', mark: 'line' });

    const listed = await json(owner().get(`/team/${team.teamId}/template`));
    expect(listed[0]).toEqual(template);
    expect(await json(owner().get(`/team/${team.teamId}/template/custom/${template.id}`))).toEqual(template);
    // A dashboard template is no chart template, and the reverse.
    expect((await json(owner().get(`/team/${team.teamId}/chart-templates`))).map((c: Json) => c.id)).not.toContain(template.id);
    expect((await owner().get(`/team/${team.teamId}/chart-templates/${template.id}`)).statusCode).toBe(404);
  });

  it('makes the picked charts on another dashboard, below its charts, drawing the same datasets; all of them by default', async () => {
    const template = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Pick' }));
    const made = await json(owner().post(`/project/${emptyProjectId}/template/custom`, { template_id: template.id, charts: [1] }));
    expect(made.map((c: Json) => [c.name, c.type, c.project_id])).toEqual([['Orders', 'kpi', emptyProjectId]]);
    expect(made[0].layout).toEqual({ lg: [6, 0, 3, 2] });
    expect(made[0].ChartDatasetConfigs).toEqual([expect.objectContaining({ dataset_id: ordersId, yAxisOperation: 'count' })]);

    const all = await json(owner().post(`/project/${emptyProjectId}/template/${template.id}`, {}));
    expect(all.map((c: Json) => c.name)).toEqual(['Revenue', 'Orders']);
    // Below the KPI already there (y 0, h 2), keeping their places among themselves.
    expect(all.map((c: Json) => c.layout)).toEqual([{ lg: [0, 2, 6, 2] }, { lg: [6, 2, 3, 2] }]);
    // The spec's layers name the new configs.
    const revenue = all[0];
    expect(revenue.visualization.layers[0].bindingId).toBe(revenue.ChartDatasetConfigs[0].id);
    expect((await chartsOf(emptyProjectId)).map((c) => c.name).sort()).toEqual(['Orders', 'Orders', 'Revenue']);
  });

  it('refuses what it cannot do with a 400 naming the field, and changes nothing', async () => {
    const template = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Errors' }));
    const count = (await chartsOf(otherProjectId)).length;
    const cases: [unknown, string][] = [
      [{ template_id: template.id, charts: [5] }, 'body.charts.0'],
      [{ template_id: template.id, charts: [] }, 'body.charts'],
      [{ template_id: template.id, charts: [0, 'x'] }, 'body'],
    ];
    for (const [body, path] of cases) {
      const res = await owner().post(`/project/${otherProjectId}/template/custom`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(path);
    }
    const noCharts = await owner().post(`/team/${team.teamId}/template`, { project_id: emptyProjectId + 1000, name: 'Nowhere' });
    expect(noCharts.statusCode).toBe(404);
    const empty = await insertProject(t, team.teamId, 'Nothing here');
    const nothing = await owner().post(`/team/${team.teamId}/template`, { project_id: empty, name: 'Nothing' });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toContain('body.project_id');
    const unknown = await owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'X', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('colour');
    const withChartTemplate = await json(owner().post(`/project/${team.projectId}/template`, { chart_id: (await chartsOf(team.projectId))[0]!.id }));
    const mixed = await owner().post(`/project/${otherProjectId}/template/custom`, { template_id: withChartTemplate.id, charts: [0] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('body.charts');
    expect(await chartsOf(otherProjectId)).toHaveLength(count);
  });

  it("renames from its own answer sent back (the model is read-only) and deletes; another team's ids are 404", async () => {
    const template = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Old name' }));
    const renamed = await json(owner().put(`/team/${team.teamId}/template/${template.id}`, { ...template, name: 'New name', model: { Charts: [] } }));
    expect(renamed.name).toBe('New name');
    expect(renamed.model).toEqual(template.model);

    const stranger = await t.signup('Stranger');
    const theirs = { token: stranger.token } as Person;
    expect((await as(theirs).get(`/team/${stranger.teamId}/template/custom/${template.id}`)).statusCode).toBe(404);
    expect((await as(theirs).delete(`/team/${stranger.teamId}/template/${template.id}`)).statusCode).toBe(404);
    const strangerProject = await insertProject(t, stranger.teamId, 'Theirs');
    expect((await as(theirs).post(`/project/${strangerProject}/template/custom`, { template_id: template.id })).statusCode).toBe(404);
    expect((await as(theirs).get(`/team/${team.teamId}/template`)).statusCode).toBe(403);
    expect((await as(theirs).get(`/team/${stranger.teamId}/template/generate/${team.projectId}`)).statusCode).toBe(404);

    expect(await json(owner().delete(`/team/${team.teamId}/template/${template.id}`))).toEqual({ deleted: true });
    expect((await owner().get(`/team/${team.teamId}/template/custom/${template.id}`)).statusCode).toBe(404);
  });

  it('roles: project roles see templates of their dashboards; viewers make and save none; all or none of the charts are made', async () => {
    const mine = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Theirs to see' }));
    await json(owner().post(`/project/${otherProjectId}/chart/quick-create`, { name: 'Elsewhere', type: 'kpi', chartDatasetConfigs: [{ dataset_id: otherDatasetId }] }));
    const hidden = await json(owner().post(`/team/${team.teamId}/template`, { project_id: otherProjectId, name: 'Not theirs' }));

    const viewer = as(team.people.projectViewer);
    const seen = (await json(viewer.get(`/team/${team.teamId}/template`))).map((c: Json) => c.id);
    expect(seen).toContain(mine.id);
    expect(seen).not.toContain(hidden.id);
    expect((await viewer.get(`/team/${team.teamId}/template/custom/${hidden.id}`)).statusCode).toBe(404);
    expect((await viewer.post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'No' })).statusCode).toBe(403);
    expect((await viewer.post(`/project/${team.projectId}/template/custom`, { template_id: mine.id })).statusCode).toBe(403);
    expect((await viewer.delete(`/team/${team.teamId}/template/${mine.id}`)).statusCode).toBe(403);

    // A template mixing a dataset the project admin may use with one they may not: nothing is made.
    const first = (await chartsOf(team.projectId))[0]!;
    await json(
      owner().post(`/project/${team.projectId}/chart/${first.id}/chart-dataset-config`, { dataset_id: otherDatasetId }),
    );
    const mixed = await json(owner().post(`/team/${team.teamId}/template`, { project_id: team.projectId, name: 'Mixed' }));
    const admin = as(team.people.projectAdmin);
    const count = (await chartsOf(team.projectId)).length;
    const refused = await admin.post(`/project/${team.projectId}/template/custom`, { template_id: mixed.id });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain(`template ${mixed.id}.charts.0.chartDatasetConfigs.1.dataset_id`);
    expect(await chartsOf(team.projectId)).toHaveLength(count);
    // Without the chart that draws it, the same template works for them.
    const made = await json(admin.post(`/project/${team.projectId}/template/custom`, { template_id: mixed.id, charts: mixed.model.Charts.slice(1).map((c: Json) => c.tid) }));
    expect(made).toHaveLength(mixed.model.Charts.length - 1);
  });
});
