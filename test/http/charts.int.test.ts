import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { CHART_DISPLAY_DEFAULTS, CHART_DISPLAY_KEYS, ChartDisplayInput } from '../../src/modules/dashboards/chart-display.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset, sharedUser } from '../helpers/fixtures.js';

type Person = Awaited<ReturnType<TestApp['signup']>>;
type Json = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function addMember(t: TestApp, owner: Person, role: Role, projects: number[]): Promise<Person> {
  const person = await t.signup(role);
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects } });
  if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
  return person;
}

async function createProject(t: TestApp, who: Person, name = 'Board'): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/project', token: who.token, payload: { name, team_id: who.teamId } });
  if (res.statusCode !== 200) throw new Error(`create project failed: ${res.body}`);
  return res.json().id;
}

function expectFieldError(res: { statusCode: number; json(): any }, path: string): void {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.error).toContain(path);
  expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
}

/** Every writable chart field, with values unlike the defaults. */
const FULL_CHART = {
  name: 'Revenue',
  type: 'bar',
  subType: 'AddTimeseries',
  public: true,
  shareable: true,
  displayLegend: true,
  pointRadius: 4,
  dataLabels: true,
  startDate: '2024-01-01T00:00:00.000Z',
  endDate: '2024-12-31T23:59:59.000Z',
  dateVarsFormat: 'YYYY-MM-DD',
  includeZeros: false,
  currentEndDate: true,
  fixedStartDate: true,
  timeInterval: 'month',
  autoUpdate: 3600,
  draft: false,
  mode: 'kpichart',
  maxValue: 1000,
  minValue: -5,
  disabledExport: true,
  onReport: false,
  xLabelTicks: 'half',
  stacked: true,
  horizontal: true,
  showGrowth: true,
  invertGrowth: true,
  layout: { lg: [0, 0, 6, 2], md: [0, 0, 6, 2], sm: [0, 0, 4, 2], xs: [0, 0, 4, 2], xxs: [0, 0, 2, 2] },
  isLogarithmic: true,
  content: '# Heading',
  ranges: [{ min: 0, max: 50, label: 'low' }],
  dashedLastPoint: true,
  defaultRowsPerPage: 25,
  dashboardOrder: 7,
};

/** Every writable chart dataset config field. */
const FULL_CDC = {
  xAxis: 'root[].createdAt',
  xAxisOperation: 'none',
  yAxis: 'root[].amount',
  yAxisOperation: 'sum',
  dateField: 'root[].createdAt',
  dateFormat: 'YYYY-MM-DD',
  conditions: [{ id: 'c1', field: 'root[].status', operator: 'is', value: 'paid', displayValues: true }],
  formula: '{val / 100}',
  datasetColor: '#000000',
  fillColor: ['#ffffff', '#eeeeee'],
  fill: true,
  multiFill: true,
  legend: 'Amount',
  pointRadius: 5,
  excludedFields: ['secret'],
  sort: 'desc',
  columnsOrder: ['a', 'b'],
  order: 3,
  maxRecords: 100,
  goal: 1500,
  configuration: { variables: [{ name: 'region', value: 'eu' }] },
};

/** A value a body may set, unlike `fallback`, read off the body schema of a display option. */
function unlike(schema: Json, fallback: unknown): unknown {
  if (Array.isArray(schema.anyOf)) return unlike(schema.anyOf.find((member: Json) => member.type !== 'null'), fallback);
  if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== fallback);
  switch (schema.type) {
    case 'boolean':
      return fallback !== true;
    case 'integer':
    case 'number': {
      const value = Math.min(Math.max(7, schema.minimum ?? 7), schema.maximum ?? 7);
      return value === fallback ? value + 1 : value;
    }
    case 'string':
      return 'Set by the test';
    case 'object':
      return { set: [1, 2] };
    case 'array':
      return [{ set: true }];
  }
  throw new Error(`No value to set for the schema ${JSON.stringify(schema)}`);
}

/** Every display option, set unlike its default. */
const DISPLAY = Object.fromEntries(CHART_DISPLAY_KEYS.map((key) => [key, unlike(ChartDisplayInput.properties[key], CHART_DISPLAY_DEFAULTS[key])]));
const displayOf = (chart: Json) => Object.fromEntries(CHART_DISPLAY_KEYS.map((key) => [key, chart[key]]));

describe.each<StoreKind>(['sqlite', 'postgres'])('charts round trip (%s)', (store) => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let datasetId: number;
  beforeAll(async () => {
    t = await buildTestApp({ store });
    owner = await t.signup('Owner');
    projectId = await createProject(t, owner);
    datasetId = await insertDataset(t, owner.teamId, 'Orders');
  });
  afterAll(() => t.close());

  it('round-trips every chart field and ignores server-owned ones', async () => {
    const create = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart`,
      token: owner.token,
      payload: { ...FULL_CHART, id: 'abc', project_id: 424242, chartData: { evil: true }, chartDataUpdated: '2020-01-01T00:00:00.000Z', lastAutoUpdate: '2020-01-01T00:00:00.000Z' },
    });
    expect(create.statusCode).toBe(200);
    const chart = create.json();
    expect(chart).toMatchObject({ ...FULL_CHART, project_id: projectId, chartData: null, chartDataUpdated: null, lastAutoUpdate: null, ChartDatasetConfigs: [] });
    expect(Number.isInteger(chart.id)).toBe(true);

    const changed = {
      ...FULL_CHART,
      name: 'Revenue 2',
      type: 'line',
      subType: null,
      public: false,
      pointRadius: null,
      startDate: null,
      timeInterval: 'week',
      autoUpdate: null,
      mode: 'chart',
      disabledExport: null,
      xLabelTicks: 'showAll',
      layout: { lg: [6, 0, 6, 3] },
      content: null,
      ranges: null,
      defaultRowsPerPage: 50,
      dashboardOrder: null,
    };
    const put = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token, payload: { ...changed, chartData: { evil: true } } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ ...changed, chartData: null });

    const get = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token });
    expect(get.json()).toMatchObject({ ...changed, id: chart.id, project_id: projectId, createdAt: chart.createdAt, chartData: null });
  });

  it('round-trips every display option: on the chart, on the dashboard and on its share link', async () => {
    for (const key of CHART_DISPLAY_KEYS) expect(DISPLAY[key], key).not.toEqual(CHART_DISPLAY_DEFAULTS[key]);
    const create = await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload: { name: 'Display', type: 'line', public: true, ...DISPLAY } });
    expect(create.statusCode, create.body).toBe(200);
    const id = create.json().id;
    expect(displayOf(create.json())).toEqual(DISPLAY);

    const get = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${id}`, token: owner.token });
    expect(displayOf(get.json())).toEqual(DISPLAY);
    const project = await t.request({ method: 'GET', url: `/project/${projectId}`, token: owner.token });
    expect(displayOf(project.json().Charts.find((chart: Json) => chart.id === id))).toEqual(DISPLAY);
    const policy = await t.request({ method: 'POST', url: `/project/${projectId}/chart/${id}/share/policy`, token: owner.token });
    expect(policy.statusCode, policy.body).toBe(200);
    const shared = await t.request({ method: 'GET', url: `/chart/share/${policy.json().share_string}` });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(displayOf(shared.json())).toEqual(DISPLAY);

    // Left out of a body, each holds its default.
    const bare = await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload: { name: 'Bare', type: 'line' } });
    expect(displayOf(bare.json())).toEqual(CHART_DISPLAY_DEFAULTS);
  });

  it('round-trips every chart dataset config field', async () => {
    const chart = (await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload: { name: 'c', type: 'line' } })).json();
    const create = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/${chart.id}/chart-dataset-config`,
      token: owner.token,
      payload: { ...FULL_CDC, dataset_id: datasetId, id: 'not-yours', chart_id: 999 },
    });
    expect(create.statusCode).toBe(200);
    const cdc = create.json();
    expect(cdc).toMatchObject({ ...FULL_CDC, dataset_id: datasetId, chart_id: chart.id });
    expect(cdc.id).toMatch(UUID);

    const changed = { ...FULL_CDC, yAxisOperation: 'count_unique', conditions: [], fillColor: '#123456', fill: false, legend: null, sort: 'asc', order: 1.5, goal: null, configuration: { variables: [] } };
    const put = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}/chart-dataset-config/${cdc.id}`, token: owner.token, payload: changed });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ ...changed, id: cdc.id, chart_id: chart.id, dataset_id: datasetId });

    const get = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token });
    expect(get.json().ChartDatasetConfigs).toEqual([put.json()]);

    const del = await t.request({ method: 'DELETE', url: `/project/${projectId}/chart/${chart.id}/chart-dataset-config/${cdc.id}`, token: owner.token });
    expect(del.json()).toEqual({ removed: true });
    expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token })).json().ChartDatasetConfigs).toEqual([]);
  });

  it('quick-creates a chart with its configs, or nothing at all', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: {
        project_id: projectId,
        name: 'Monthly Revenue',
        type: 'line',
        chartDatasetConfigs: [
          { dataset_id: datasetId, xAxis: 'month', yAxis: 'revenue', legend: 'Revenue' },
          { dataset_id: datasetId, xAxis: 'month', yAxis: 'cost' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const chart = res.json();
    expect(chart).toMatchObject({ name: 'Monthly Revenue', type: 'line', project_id: projectId });
    expect(chart.ChartDatasetConfigs).toHaveLength(2);
    expect(chart.ChartDatasetConfigs[0]).toMatchObject({ chart_id: chart.id, dataset_id: datasetId, legend: 'Revenue', order: 0 });
    // A missing legend defaults to the dataset name.
    expect(chart.ChartDatasetConfigs[1]).toMatchObject({ yAxis: 'cost', legend: 'Orders', order: 1 });

    const stranger = await sharedUser(t, 'Stranger');
    const foreignDataset = await insertDataset(t, stranger.teamId, 'Theirs');
    const before = await t.container.store.db.selectFrom('charts').select('id').execute();
    const bad = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'Half', type: 'bar', chartDatasetConfigs: [{ dataset_id: datasetId }, { dataset_id: foreignDataset }] },
    });
    expectFieldError(bad, 'body.chartDatasetConfigs.1.dataset_id');
    const after = await t.container.store.db.selectFrom('charts').select('id').execute();
    expect(after).toEqual(before);
    const orphans = await t.container.store.db.selectFrom('chart_dataset_configs').select('id').where('chart_id', 'not in', after.map((c) => c.id)).execute();
    expect(orphans).toEqual([]);
  });
});

describe('charts', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let datasetId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    projectId = await createProject(t, owner);
    datasetId = await insertDataset(t, owner.teamId, 'Orders', [projectId]);
  });
  afterAll(() => t.close());

  const newChart = async (body: Json = {}, pid = projectId, who = owner): Promise<Json> => {
    const res = await t.request({ method: 'POST', url: `/project/${pid}/chart`, token: who.token, payload: { name: 'Chart', type: 'line', ...body } });
    if (res.statusCode !== 200) throw new Error(`create chart failed: ${res.body}`);
    return res.json();
  };

  describe('charts', () => {
    it('accepts the mcp create body and leaves chartData to the server', async () => {
      const res = await t.request({
        method: 'POST',
        url: `/project/${projectId}/chart`,
        token: owner.token,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          name: 'From mcp',
          type: 'line',
          id: '77',
          subType: 'lcTimeseries',
          chartData: { data: { labels: ['x'] } },
          chartDataUpdated: '2024-01-01T00:00:00Z',
          public: false,
          shareable: false,
          ChartDatasetConfigs: ['0f8fad5b-d9cb-469f-a165-70867728950e'],
        }),
      });
      expect(res.statusCode).toBe(200);
      const chart = res.json();
      expect(chart).toMatchObject({ name: 'From mcp', type: 'line', subType: 'lcTimeseries', chartData: null, chartDataUpdated: null, ChartDatasetConfigs: [] });
      expect(chart.id).not.toBe(77);
      // Defaults of a new chart.
      expect(chart).toMatchObject({ draft: true, onReport: true, includeZeros: true, timeInterval: 'day', mode: 'chart', xLabelTicks: 'default', defaultRowsPerPage: 10 });
    });

    it('persists chartData only through the service, never from a body', async () => {
      const chart = await newChart();
      await t.container.charts.saveChartData(projectId, chart.id, { data: { labels: ['a'], datasets: [{ data: [1] }] } }, '2024-05-01T10:00:00.000Z');
      const put = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token, payload: { name: 'Renamed', chartData: { hacked: true }, chartDataUpdated: null } });
      expect(put.json()).toMatchObject({ name: 'Renamed', chartData: { data: { labels: ['a'], datasets: [{ data: [1] }] } }, chartDataUpdated: '2024-05-01T10:00:00.000Z' });
      const loaded = await t.container.charts.loadForRun(owner.teamId, chart.id);
      expect(loaded?.chart.chartData).toEqual({ data: { labels: ['a'], datasets: [{ data: [1] }] } });
      const stranger = await sharedUser(t, 'Stranger');
      expect(await t.container.charts.loadForRun(stranger.teamId, chart.id)).toBeUndefined();
    });

    it('validates fields, naming them', async () => {
      const post = (payload: Json) => t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload });
      expectFieldError(await post({ type: 'line' }), 'body.name');
      expectFieldError(await post({ name: 'x' }), 'body.type');
      expectFieldError(await post({ name: 'x', type: 'sparkline' }), 'body.type');
      expectFieldError(await post({ name: ' ', type: 'line' }), 'body.name');
      expectFieldError(await post({ name: 'x', type: 'line', timeInterval: 'fortnight' }), 'body.timeInterval');
      expectFieldError(await post({ name: 'x', type: 'line', pointRadius: 'big' }), 'body.pointRadius');
      expectFieldError(await post({ name: 'x', type: 'line', layout: 'grid' }), 'body.layout');
      expectFieldError(await post({ name: 'x', type: 'line', startDate: 'yesterday' }), 'body.startDate');
      expectFieldError(await post({ name: 'x', type: 'line', draft: 'false' }), 'body.draft');
      expectFieldError(await post({ name: 'x', type: 'line', maxValue: 1.5 }), 'body.maxValue');
      const chart = await newChart();
      expectFieldError(await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token, payload: { mode: 'fancy' } }), 'body.mode');
      expectFieldError(await t.request({ method: 'GET', url: `/project/${projectId}/chart/x`, token: owner.token }), 'params.id');
    });

    it('accepts every documented chart type and plain dates', async () => {
      for (const type of ['line', 'bar', 'pie', 'doughnut', 'radar', 'polar', 'table', 'kpi', 'avg', 'gauge', 'matrix', 'markdown']) {
        expect((await newChart({ type })).type).toBe(type);
      }
      expect((await newChart({ startDate: '2024-02-29' })).startDate).toBe('2024-02-29T00:00:00.000Z');
    });

    it('lists charts by dashboardOrder, then id', async () => {
      const pid = await createProject(t, owner, 'Ordering');
      const a = await newChart({ name: 'a' }, pid);
      const b = await newChart({ name: 'b', dashboardOrder: -1 }, pid);
      const c = await newChart({ name: 'c' }, pid);
      const d = await newChart({ name: 'd', dashboardOrder: null }, pid);
      const list = await t.request({ method: 'GET', url: `/project/${pid}/chart`, token: owner.token });
      expect(list.json().map((x: Json) => x.id)).toEqual([b.id, a.id, c.id, d.id]);
      const project = await t.request({ method: 'GET', url: `/project/${pid}`, token: owner.token });
      expect(project.json().Charts.map((x: Json) => x.id)).toEqual([b.id, a.id, c.id, d.id]);
    });

    it('deletes a chart with its configs and share policies', async () => {
      const chart = await newChart();
      await t.request({ method: 'POST', url: `/project/${projectId}/chart/${chart.id}/chart-dataset-config`, token: owner.token, payload: { dataset_id: datasetId } });
      await t.request({ method: 'POST', url: `/project/${projectId}/chart/${chart.id}/share/policy`, token: owner.token });
      const del = await t.request({ method: 'DELETE', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ deleted: true });
      expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token })).statusCode).toBe(404);
      const db = t.container.store.db;
      expect(await db.selectFrom('chart_dataset_configs').select('id').where('chart_id', '=', chart.id).execute()).toEqual([]);
      expect(await db.selectFrom('share_policies').select('id').where('entity_type', '=', 'Chart').where('entity_id', '=', chart.id).execute()).toEqual([]);
      expect((await t.request({ method: 'DELETE', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token })).statusCode).toBe(404);
    });

    it('serves the cli chart calls', async () => {
      const accept = { accept: 'application/json' };
      const created = await t.request({
        method: 'POST',
        url: `/project/${projectId}/chart`,
        token: owner.token,
        headers: { ...accept, 'content-type': 'application/json' },
        payload: '{"name":"cli","type":"kpi"}',
      });
      expect(created.statusCode).toBe(200);
      const id = created.json().id;
      expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart`, token: owner.token, headers: accept })).json().some((c: Json) => c.id === id)).toBe(true);
      const update = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${id}`, token: owner.token, headers: { ...accept, 'content-type': 'application/json' }, payload: '{"name":"cli 2"}' });
      expect(update.json().name).toBe('cli 2');
      expect((await t.request({ method: 'DELETE', url: `/project/${projectId}/chart/${id}`, token: owner.token, headers: accept })).json()).toEqual({ deleted: true });
    });
  });

  describe('chart dataset configs', () => {
    it('accepts the documented example body', async () => {
      const chart = await newChart();
      const res = await t.request({
        method: 'POST',
        url: `/project/${projectId}/chart/${chart.id}/chart-dataset-config`,
        token: owner.token,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          dataset_id: datasetId,
          xAxis: 'root[].field',
          xAxisOperation: 'none',
          yAxis: 'root[].value',
          yAxisOperation: 'sum',
          dateField: 'root[].createdAt',
          dateFormat: 'YYYY-MM-DD',
          datasetColor: '#000000',
          fillColor: '#ffffff',
          legend: 'Dataset',
          pointRadius: 5,
          maxRecords: 100,
          configuration: { variables: [] },
        }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ chart_id: chart.id, dataset_id: datasetId, legend: 'Dataset', fillColor: '#ffffff', conditions: [], excludedFields: [], columnsOrder: [] });
    });

    it('orders configs by `order` and defaults legend to the dataset name', async () => {
      const chart = await newChart();
      const url = `/project/${projectId}/chart/${chart.id}/chart-dataset-config`;
      const first = (await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId } })).json();
      const second = (await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId, order: -1 } })).json();
      const third = (await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId } })).json();
      expect(first).toMatchObject({ legend: 'Orders', order: 0 });
      expect(third.order).toBe(1);
      const get = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token });
      expect(get.json().ChartDatasetConfigs.map((c: Json) => c.id)).toEqual([second.id, first.id, third.id]);
    });

    it('keeps only declared keys of conditions and validates them', async () => {
      const chart = await newChart();
      const url = `/project/${projectId}/chart/${chart.id}/chart-dataset-config`;
      const res = await t.request({
        method: 'POST',
        url,
        token: owner.token,
        payload: { dataset_id: datasetId, conditions: [{ id: 'x', field: 'f', operator: 'greaterThan', value: 3, exposed: true, items: [1, 2], junk: 'drop me' }] },
      });
      expect(res.json().conditions).toEqual([{ id: 'x', field: 'f', operator: 'greaterThan', value: 3, exposed: true, items: [1, 2] }]);
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId, conditions: [{ operator: 'like' }] } }), 'body.conditions.0.operator');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: {} }), 'body.dataset_id');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId, yAxisOperation: 'median' } }), 'body.yAxisOperation');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId, excludedFields: 'a' } }), 'body.excludedFields');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId, fill: 'yes' } }), 'body.fill');
      expectFieldError(await t.request({ method: 'PUT', url: `${url}/not-a-uuid`, token: owner.token, payload: {} }), 'params.cdc_id');
    });

    it('rejects a dataset of another team, or one a project role may not use', async () => {
      const chart = await newChart();
      const url = `/project/${projectId}/chart/${chart.id}/chart-dataset-config`;
      const stranger = await sharedUser(t, 'Stranger');
      const foreign = await insertDataset(t, stranger.teamId, 'Foreign');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: foreign } }), 'body.dataset_id');
      expectFieldError(await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: 99999999 } }), 'body.dataset_id');

      const cdc = (await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: datasetId } })).json();
      expectFieldError(await t.request({ method: 'PUT', url: `${url}/${cdc.id}`, token: owner.token, payload: { dataset_id: foreign } }), 'body.dataset_id');
      expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token })).json().ChartDatasetConfigs[0].dataset_id).toBe(datasetId);

      // A team dataset outside the editor's projects is not theirs to draw.
      const hidden = await insertDataset(t, owner.teamId, 'Hidden', []);
      const editor = await addMember(t, owner, 'projectEditor', [projectId]);
      expectFieldError(await t.request({ method: 'POST', url, token: editor.token, payload: { dataset_id: hidden } }), 'body.dataset_id');
      expect((await t.request({ method: 'POST', url, token: editor.token, payload: { dataset_id: datasetId } })).statusCode).toBe(200);
      expect((await t.request({ method: 'POST', url, token: owner.token, payload: { dataset_id: hidden } })).statusCode).toBe(200);
    });

    it('answers 404 for a config of another chart', async () => {
      const a = await newChart();
      const b = await newChart();
      const cdc = (await t.request({ method: 'POST', url: `/project/${projectId}/chart/${a.id}/chart-dataset-config`, token: owner.token, payload: { dataset_id: datasetId } })).json();
      const wrong = `/project/${projectId}/chart/${b.id}/chart-dataset-config/${cdc.id}`;
      expect((await t.request({ method: 'PUT', url: wrong, token: owner.token, payload: { legend: 'x' } })).statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url: wrong, token: owner.token })).statusCode).toBe(404);
      const upper = `/project/${projectId}/chart/${a.id}/chart-dataset-config/${cdc.id.toUpperCase()}`;
      expect((await t.request({ method: 'PUT', url: upper, token: owner.token, payload: { legend: 'caps' } })).json().legend).toBe('caps');
    });
  });

  describe('tenancy', () => {
    it('never shows another team’s charts', async () => {
      const chart = await newChart({ name: 'Private numbers' });
      const stranger = await sharedUser(t, 'Stranger');
      const theirProject = await createProject(t, stranger, 'Theirs');
      const urls = [
        ['GET', `/project/${projectId}/chart`],
        ['GET', `/project/${projectId}/chart/${chart.id}`],
        ['PUT', `/project/${projectId}/chart/${chart.id}`],
        ['DELETE', `/project/${projectId}/chart/${chart.id}`],
        ['POST', `/project/${projectId}/chart`],
        ['POST', `/project/${projectId}/chart/quick-create`],
        ['POST', `/project/${projectId}/chart/${chart.id}/chart-dataset-config`],
      ] as const;
      for (const [method, url] of urls) {
        // A valid body for each route (an unknown key would be a 400 before the tenancy check).
        const payload = url.endsWith('chart-dataset-config') ? { dataset_id: datasetId } : { name: 'x', type: 'line' };
        const res = await t.request({ method, url, token: stranger.token, ...(method === 'POST' || method === 'PUT' ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.body).not.toContain('Private numbers');
      }
      // Reaching a chart through one's own dashboard id does not work either.
      expect((await t.request({ method: 'GET', url: `/project/${theirProject}/chart/${chart.id}`, token: stranger.token })).statusCode).toBe(404);
      // A chart of another dashboard of the same team is a 404 under the wrong path.
      const otherProject = await createProject(t, owner, 'Other');
      expect((await t.request({ method: 'GET', url: `/project/${otherProject}/chart/${chart.id}`, token: owner.token })).statusCode).toBe(404);
    });
  });

  describe('roles', () => {
    let own: number;
    let notOwn: number;
    let seeded: Json;
    let ownDataset: number;
    const people = {} as Record<Role, Person>;
    beforeAll(async () => {
      own = await createProject(t, owner, 'Own');
      notOwn = await createProject(t, owner, 'Not own');
      seeded = await newChart({ name: 'Seeded' }, own);
      ownDataset = await insertDataset(t, owner.teamId, 'Own data', [own]);
      people.teamOwner = owner;
      for (const role of ['teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        people[role] = await addMember(t, owner, role, role.startsWith('project') ? [own] : []);
      }
    });

    it.each<[Role, boolean]>([
      ['teamOwner', true],
      ['teamAdmin', true],
      ['projectAdmin', true],
      ['projectEditor', true],
      ['projectViewer', false],
    ])('%s (may write: %s)', async (role, write) => {
      const who = people[role];
      const expected = write ? 200 : 403;
      expect((await t.request({ method: 'GET', url: `/project/${own}/chart`, token: who.token })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: `/project/${own}/chart/${seeded.id}`, token: who.token })).statusCode).toBe(200);

      const create = await t.request({ method: 'POST', url: `/project/${own}/chart`, token: who.token, payload: { name: role, type: 'pie' } });
      expect(create.statusCode).toBe(expected);
      const quick = await t.request({ method: 'POST', url: `/project/${own}/chart/quick-create`, token: who.token, payload: { name: role, type: 'pie', chartDatasetConfigs: [] } });
      expect(quick.statusCode).toBe(expected);
      const target = write ? create.json().id : seeded.id;
      expect((await t.request({ method: 'PUT', url: `/project/${own}/chart/${target}`, token: who.token, payload: { name: `${role}!` } })).statusCode).toBe(expected);
      const cdc = await t.request({ method: 'POST', url: `/project/${own}/chart/${target}/chart-dataset-config`, token: who.token, payload: { dataset_id: ownDataset } });
      expect(cdc.statusCode).toBe(expected);
      if (write) {
        const cdcUrl = `/project/${own}/chart/${target}/chart-dataset-config/${cdc.json().id}`;
        expect((await t.request({ method: 'PUT', url: cdcUrl, token: who.token, payload: { legend: 'x' } })).statusCode).toBe(200);
        expect((await t.request({ method: 'DELETE', url: cdcUrl, token: who.token })).statusCode).toBe(200);
      }
      expect((await t.request({ method: 'DELETE', url: `/project/${own}/chart/${target}`, token: who.token })).statusCode).toBe(expected);

      const teamWide = role === 'teamOwner' || role === 'teamAdmin';
      expect((await t.request({ method: 'GET', url: `/project/${notOwn}/chart`, token: who.token })).statusCode).toBe(teamWide ? 200 : 403);
      expect((await t.request({ method: 'POST', url: `/project/${notOwn}/chart`, token: who.token, payload: { name: 'x', type: 'bar' } })).statusCode).toBe(teamWide ? 200 : 403);
    });
  });
});
