import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * POST /project/{pid}/chart/preview computes an unsaved chart through the same engine path as a chart
 * run: the same chartData as the saved chart's run, nothing written, every dataset id checked.
 */

const LINE = {
  name: 'Orders per day',
  type: 'line',
  timeInterval: 'day',
  includeZeros: true,
  config: { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' },
};
const BAR = { name: 'Amount by country', type: 'bar', config: { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' } };
const TABLE = { name: 'Orders', type: 'table', config: { legend: 'Orders' } };
const KPI = { name: 'Revenue', type: 'kpi', config: { yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue', formula: '€{val}' } };

describe.each([
  { pushdown: true, label: 'pushed down into SQL' },
  { pushdown: false, label: 'on the streaming engine' },
])('chart previews over a real Postgres, $label', ({ pushdown }) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let stranger: Person;
  let db: { url: string; drop(): Promise<void> };
  let projectId: number;
  let otherProjectId: number;
  let datasetId: number;
  let hiddenDatasetId: number;
  let foreignDatasetId: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `
      create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
      insert into orders values
        (1, 'FR', 'paid', 10, '2025-01-01T10:00:00Z'),
        (2, 'FR', 'paid', 20, '2025-01-01T11:00:00Z'),
        (3, 'DE', 'paid', 5, '2025-01-02T10:00:00Z'),
        (4, 'DE', 'refunded', 7, '2025-01-03T10:00:00Z'),
        (5, 'US', 'paid', 100, '2025-01-03T12:00:00Z');
    `);
    t = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: String(pushdown) } });
    owner = await t.signup('Owner');
    editor = await t.signup('Editor');
    viewer = await t.signup('Viewer');
    stranger = await t.signup('Stranger');
    const url = new URL(db.url);
    const connection = (team: number, token: string) =>
      t.request({
        method: 'POST',
        url: `/team/${team}/connections`,
        token,
        payload: postgresConnection('shop', url),
      });
    const conn = (await connection(owner.teamId, owner.token)).json<{ id: number }>();
    const project = async (team: number, token: string, name: string) =>
      (await t.request({ method: 'POST', url: '/project', token, payload: { name, team_id: team, timezone: 'UTC' } })).json<{ id: number }>().id;
    projectId = await project(owner.teamId, owner.token, 'Sales');
    otherProjectId = await project(owner.teamId, owner.token, 'Finance');
    for (const [person, role] of [
      [editor, 'projectEditor'],
      [viewer, 'projectViewer'],
    ] as const) {
      const added = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects: [projectId] } });
      expect(added.statusCode, added.body).toBe(200);
    }
    const dataset = async (team: number, token: string, projectIds: number[], connectionId: number) => {
      const res = await t.request({
        method: 'POST',
        url: `/team/${team}/datasets/quick-create`,
        token,
        payload: {
          name: 'Orders',
          project_ids: projectIds,
          dataRequests: [{ connection_id: connectionId, query: 'select * from orders where status = {{status}} order by id', variableBindings: [{ name: 'status', default_value: 'paid' }] }],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    };
    datasetId = await dataset(owner.teamId, owner.token, [projectId], conn.id);
    hiddenDatasetId = await dataset(owner.teamId, owner.token, [otherProjectId], conn.id);
    const foreignConn = (await connection(stranger.teamId, stranger.token)).json<{ id: number }>();
    const foreignProject = await project(stranger.teamId, stranger.token, 'Theirs');
    foreignDatasetId = await dataset(stranger.teamId, stranger.token, [foreignProject], foreignConn.id);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const body = (spec: { name: string; type: string; config: Record<string, unknown>; [key: string]: unknown }, dataset = datasetId) => {
    const { config, ...chart } = spec;
    return { ...chart, chartDatasetConfigs: [{ dataset_id: dataset, ...config }] };
  };
  const preview = (payload: unknown, token = owner.token, project = projectId) =>
    t.request({ method: 'POST', url: `/project/${project}/chart/preview`, token, payload: payload as object });
  const chartCount = async () => (await t.request({ method: 'GET', url: `/project/${projectId}/chart`, token: owner.token })).json<unknown[]>().length;

  it('answers the chartData that a run of the same chart, saved, computes (line, bar, table, KPI)', async () => {
    for (const spec of [LINE, BAR, TABLE, KPI]) {
      const previewed = await preview(body(spec));
      expect(previewed.statusCode, previewed.body).toBe(200);
      const answer = previewed.json<{ chartData: unknown; truncated: boolean; paths: string[] }>();
      expect(answer.truncated).toBe(false);
      expect(answer.paths).toHaveLength(1);

      const created = await t.request({ method: 'POST', url: `/project/${projectId}/chart/quick-create`, token: owner.token, payload: body(spec) });
      expect(created.statusCode, created.body).toBe(200);
      const run = await t.request({ method: 'POST', url: `/project/${projectId}/chart/${created.json<{ id: number }>().id}/query`, token: owner.token });
      expect(run.statusCode, run.body).toBe(200);
      expect(answer.chartData, spec.name).toEqual(run.json<{ chartData: unknown }>().chartData);
    }
    const bar = (await preview(body(BAR))).json<{ chartData: { data: { labels: string[]; datasets: { data: number[] }[] } } }>().chartData.data;
    expect(Object.fromEntries(bar.labels.map((l, i) => [l, bar.datasets[0]!.data[i]]))).toEqual({ FR: 30, DE: 5, US: 100 });
  });

  it('writes nothing: no chart, no saved data, no run history; runtime variables and filters apply to the answer', async () => {
    const before = await chartCount();
    const runsBefore = (await t.request({ method: 'GET', url: `/project/${projectId}/runs`, token: owner.token })).json<unknown>();
    const refunded = await preview({ ...body(BAR), variables: { status: 'refunded' } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json<{ chartData: { data: { labels: string[] } } }>().chartData.data.labels).toEqual(['DE']);
    const filtered = await preview({ ...body(BAR), filters: [{ field: 'country', operator: 'is', value: 'FR' }] });
    expect(filtered.json<{ chartData: { data: { labels: string[] } } }>().chartData.data.labels).toEqual(['FR']);
    const editorPreview = await preview(body(LINE), editor.token);
    expect(editorPreview.statusCode, editorPreview.body).toBe(200);
    expect(await chartCount()).toBe(before);
    const runsAfter = (await t.request({ method: 'GET', url: `/project/${projectId}/runs`, token: owner.token })).json<unknown>();
    expect(runsAfter).toEqual(runsBefore);
  });

  it('checks every dataset id: another team\'s, one outside the caller\'s projects and an unknown one are 404', async () => {
    const before = await chartCount();
    const foreign = await preview(body(BAR, foreignDatasetId));
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(foreign.json<{ error: string }>().error).toContain('body.chartDatasetConfigs.0.dataset_id');
    // The editor's projects do not include the dataset's project: the same answer as a foreign id.
    const hidden = await preview(body(BAR, hiddenDatasetId), editor.token);
    expect(hidden.statusCode, hidden.body).toBe(404);
    const second = await preview({ ...body(BAR), chartDatasetConfigs: [{ dataset_id: datasetId, ...BAR.config }, { dataset_id: 999_999, ...BAR.config }] });
    expect(second.statusCode).toBe(404);
    expect(second.json<{ error: string }>().error).toContain('body.chartDatasetConfigs.1.dataset_id');
    // Another team's dashboard is a 404 too; a projectViewer (who may only run saved charts) is a 403.
    expect((await preview(body(BAR), stranger.token)).statusCode).toBe(404);
    expect((await preview(body(BAR), viewer.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/project/${projectId}/chart/preview`, payload: body(BAR) })).statusCode).toBe(401);
    expect(await chartCount()).toBe(before);
  });

  it('a bad body is a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ ...body(BAR), type: 'sparkline' }, 'type'],
      [{ name: 'No configs', type: 'bar' }, 'chartDatasetConfigs'],
      [{ ...body(BAR), chartDatasetConfigs: [] }, 'chartDatasetConfigs'],
      [{ ...body(BAR), chartDatasetConfigs: [{ dataset_id: datasetId, yAxisOperation: 'median' }] }, 'yAxisOperation'],
      [{ ...body(BAR), chartDatasetConfigs: [{ dataset_id: 'seven' }] }, 'dataset_id'],
      [{ ...body(BAR), timeInterval: 'fortnight' }, 'timeInterval'],
      [{ ...body(BAR), filters: [{ operator: 'is', value: 'FR' }] }, 'body.filters.0.field'],
    ];
    for (const [payload, field] of cases) {
      const res = await preview(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ error: string }>().error, JSON.stringify(payload)).toContain(field);
    }
  });
});

describe('chart previews respect the row limits of chart runs', () => {
  let t: TestApp;
  let db: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `create table events as select g as id, 'c' || (g % 3) as category from generate_series(1, 3000) g;`);
    t = await buildTestApp({ env: { PLOTLINE_CHART_PUSHDOWN: 'false', PLOTLINE_CHART_ROW_LIMIT: '1000', PLOTLINE_ROW_LIMIT: '500' } });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('a preview that a limit cuts says so, as the saved chart run does', async () => {
    const owner = await t.signup('Owner');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('events', url),
      })
    ).json<{ id: number }>();
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Events', team_id: owner.teamId } })).json<{ id: number }>();
    const dataset = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Events', project_ids: [project.id], dataRequests: [{ connection_id: conn.id, query: 'select id, category from events order by id' }] },
      })
    ).json<{ id: number }>();
    const bar = { name: 'Per category', type: 'bar', chartDatasetConfigs: [{ dataset_id: dataset.id, xAxis: 'root[].category', yAxis: 'root[].id', yAxisOperation: 'count' }] };
    const table = { name: 'Rows', type: 'table', chartDatasetConfigs: [{ dataset_id: dataset.id }] };

    const cutBar = await t.request({ method: 'POST', url: `/project/${project.id}/chart/preview`, token: owner.token, payload: bar });
    expect(cutBar.statusCode, cutBar.body).toBe(200);
    const barAnswer = cutBar.json<{ truncated: boolean; rowLimit: number; chartData: { truncated: boolean; rowLimit: number; data: { datasets: { data: number[] }[] } } }>();
    expect(barAnswer).toMatchObject({ truncated: true, rowLimit: 1000, chartData: { truncated: true, rowLimit: 1000 } });
    expect(barAnswer.chartData.data.datasets[0]!.data.reduce((a, b) => a + b, 0)).toBe(1000);

    const cutTable = await t.request({ method: 'POST', url: `/project/${project.id}/chart/preview`, token: owner.token, payload: table });
    expect(cutTable.json()).toMatchObject({ truncated: true, rowLimit: 500 });

    const saved = await t.request({ method: 'POST', url: `/project/${project.id}/chart/quick-create`, token: owner.token, payload: bar });
    const run = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${saved.json<{ id: number }>().id}/query`, token: owner.token });
    expect(barAnswer.chartData).toEqual(run.json<{ chartData: unknown }>().chartData);
  });
});
