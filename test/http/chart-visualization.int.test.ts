import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromJson } from '../../src/store/columns.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/**
 * Charts as Chartbrew's v5 web app makes them: quick-create with a dataset config, then
 * `PUT chart {visualization}` binding a date field to time (with a unit), a number to value (sum),
 * filters, a running total, a sort, a limit and a breakdown by a text field. The spec is written onto the dataset configs, so
 * the chart computes exactly what the same dataset config fields compute, by SQL pushdown over
 * Postgres and by the streaming engine (an HTTP API source, or pushdown turned off); on both stores.
 */

type Json = Record<string, any>;

const ORDERS = [
  { id: 1, country: 'FR', status: 'paid', amount: 10, created_at: '2025-01-05T10:00:00.000Z' },
  { id: 2, country: 'FR', status: 'paid', amount: 20.5, created_at: '2025-01-20T11:00:00.000Z' },
  { id: 3, country: 'DE', status: 'paid', amount: 5, created_at: '2025-02-02T10:00:00.000Z' },
  { id: 4, country: 'DE', status: 'refunded', amount: 7, created_at: '2025-02-03T10:00:00.000Z' },
  { id: 5, country: 'US', status: 'paid', amount: 100, created_at: '2025-03-03T12:00:00.000Z' },
  { id: 6, country: 'US', status: 'paid', amount: 1.25, created_at: '2025-03-30T12:00:00.000Z' },
  { id: 7, country: 'ES', status: 'paid', amount: 3, created_at: '2025-03-31T12:00:00.000Z' },
];

/** The v5 line: revenue per month, paid orders only, as a running total. */
const lineSpec = (bindingId: string, extra: Json = {}) => ({
  version: 2,
  status: 'ready',
  layers: [
    {
      id: 'layer-1',
      bindingId,
      mark: 'line',
      name: 'Revenue',
      encoding: {
        time: { field: 'root[].created_at', type: 'temporal', timeUnit: 'month' },
        value: { field: 'root[].amount', type: 'quantitative', aggregate: 'sum' },
        ...extra,
      },
      transforms: [
        { type: 'filter', field: 'root[].status', operator: 'equals', value: 'paid' },
        { type: 'window', operation: 'cumulativeSum', role: 'value' },
      ],
      style: {},
    },
  ],
  settings: { includeZeros: true },
  metadata: { editor: 'v5' },
});

/** The same chart as plain dataset config fields. */
const lineFields = {
  chart: { name: 'Revenue (fields)', type: 'line', timeInterval: 'month', subType: 'AddTimeseries', includeZeros: true },
  config: { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue', conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }] },
};

/** The v5 bar: the two countries with most orders, by count, descending. */
const barSpec = (bindingId: string) => ({
  version: 2,
  layers: [
    {
      id: 'bars',
      bindingId,
      mark: 'bar',
      name: 'Orders',
      encoding: { x: { field: 'root[].country', type: 'nominal' }, y: { field: 'root[].id', aggregate: 'count' } },
      transforms: [
        { type: 'sort', role: 'value', direction: 'desc' },
        { type: 'limit', count: 2 },
      ],
    },
  ],
});

/** The v5 bar split by country: revenue per month, one series per country. */
const breakdownSpec = (bindingId: string) => ({
  version: 2,
  status: 'ready',
  layers: [
    {
      id: 'layer-1',
      bindingId,
      mark: 'bar',
      name: 'Revenue',
      encoding: {
        time: { field: 'root[].created_at', type: 'temporal', timeUnit: 'month' },
        value: { field: 'root[].amount', type: 'quantitative', aggregate: 'sum' },
        breakdown: { field: 'root[].country', type: 'nominal' },
      },
      transforms: [],
    },
  ],
});

const breakdownFields = {
  chart: { name: 'Revenue by country (fields)', type: 'bar', timeInterval: 'month' },
  config: { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue', breakdown: 'root[].country' },
};

const barFields = {
  chart: { name: 'Orders (fields)', type: 'bar' },
  config: { xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders', sort: 'desc', maxRecords: 2 },
};

interface Source {
  name: string;
  /** Creates the team's connection and a dataset over it; returns the dataset id. */
  dataset(t: TestApp, owner: Person, projectId: number): Promise<number>;
  path(pushdown: boolean): 'pushdown' | 'stream';
}

let pg: { url: string; drop(): Promise<void> };
let api: Server;
let apiBase: string;

beforeAll(async () => {
  const values = ORDERS.map((o) => `(${o.id}, '${o.country}', '${o.status}', ${o.amount}, '${o.created_at}')`).join(',\n');
  pg = await createTempDatabase(
    inject('postgresUrl'),
    `create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
     insert into orders values ${values};`,
  );
  api = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(ORDERS));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => api?.close(() => resolve()));
  await pg?.drop();
});

const postgresSource: Source = {
  name: 'a Postgres source',
  async dataset(t, owner, projectId) {
    const url = new URL(pg.url);
    const conn = await ok(t, owner, 'POST', `/team/${owner.teamId}/connections`, postgresConnection('shop', url));
    const ds = await ok(t, owner, 'POST', `/team/${owner.teamId}/datasets/quick-create`, {
      name: 'Orders',
      project_ids: [projectId],
      dataRequests: [{ connection_id: conn.id, query: 'select id, country, status, amount, created_at from orders' }],
    });
    return ds.id;
  },
  path: (pushdown) => (pushdown ? 'pushdown' : 'stream'),
};

const apiSource: Source = {
  name: 'an HTTP API source',
  async dataset(t, owner, projectId) {
    const conn = await ok(t, owner, 'POST', `/team/${owner.teamId}/connections`, { name: 'api', type: 'api', host: apiBase });
    const ds = await ok(t, owner, 'POST', `/team/${owner.teamId}/datasets/quick-create`, {
      name: 'Orders',
      project_ids: [projectId],
      dataRequests: [{ connection_id: conn.id, method: 'GET', route: '/orders' }],
    });
    return ds.id;
  },
  path: () => 'stream',
};

async function ok(t: TestApp, who: Person, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Json> {
  const res = await t.request({ method, url, token: who.token, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

describe.each([
  { store: 'sqlite' as StoreKind, pushdown: true },
  { store: 'postgres' as StoreKind, pushdown: true },
  { store: 'sqlite' as StoreKind, pushdown: false },
])('charts saved with a visualization on the $store store, pushdown $pushdown', ({ store, pushdown }) => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;

  beforeAll(async () => {
    t = await buildTestApp({ store, env: { PLOTLINE_CHART_PUSHDOWN: String(pushdown), PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    owner = await t.signup('Owner');
    projectId = (await ok(t, owner, 'POST', '/project', { name: 'Sales', team_id: owner.teamId, timezone: 'UTC' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** quick-create as the v5 app does: the chart and a dataset config that only names its dataset. */
  async function v5Chart(datasetId: number, type: string): Promise<{ id: number; cdcId: string }> {
    const chart = await ok(t, owner, 'POST', `/project/${projectId}/chart/quick-create`, {
      name: 'New chart',
      type,
      subType: 'lcTimeseries',
      draft: false,
      chartDatasetConfigs: [{ dataset_id: datasetId, id: 'client-binding-1' }],
    });
    return { id: chart.id, cdcId: chart.ChartDatasetConfigs[0].id };
  }

  async function fieldsChart(datasetId: number, fields: { chart: Json; config: Json }): Promise<number> {
    return (await ok(t, owner, 'POST', `/project/${projectId}/chart/quick-create`, { ...fields.chart, draft: false, chartDatasetConfigs: [{ dataset_id: datasetId, ...fields.config }] })).id;
  }

  /** Runs a chart (saving chartData) and reads how the run computed it from the run history. */
  async function run(chartId: number): Promise<{ chartData: Json; paths: string[] }> {
    const answer = await ok(t, owner, 'POST', `/project/${projectId}/chart/${chartId}/query`);
    const history = await ok(t, owner, 'GET', `/project/${projectId}/chart/${chartId}/runs`);
    return { chartData: answer.chartData, paths: history.runs[0].charts[0].paths };
  }

  for (const source of [postgresSource, apiSource]) {
    describe(`over ${source.name}`, () => {
      let datasetId: number;
      beforeAll(async () => {
        datasetId = await source.dataset(t, owner, projectId);
      });

      it('time (month) + value (sum) + a filter + a running total computes what the same dataset config fields compute', async () => {
        const chart = await v5Chart(datasetId, 'line');
        // A role the engine cannot compute: a 400 naming it, and nothing is saved.
        const refused = await t.request({
          method: 'PUT',
          url: `/project/${projectId}/chart/${chart.id}`,
          token: owner.token,
          payload: { visualization: lineSpec(chart.cdcId, { row: { field: 'root[].country', type: 'nominal' } }) },
        });
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().details[0].path).toBe('body.visualization.layers.0.encoding.row');
        expect((await ok(t, owner, 'GET', `/project/${projectId}/chart/${chart.id}`)).ChartDatasetConfigs[0]).toMatchObject({ xAxis: null, yAxis: null, conditions: [] });

        const saved = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: lineSpec(chart.cdcId) });
        expect(saved).toMatchObject({ type: 'line', timeInterval: 'month', subType: 'AddTimeseries' });
        expect(saved.ChartDatasetConfigs[0]).toMatchObject({
          xAxis: 'root[].created_at',
          dateField: 'root[].created_at',
          yAxis: 'root[].amount',
          yAxisOperation: 'sum',
          legend: 'Revenue',
          conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }],
        });
        expect(saved.visualization).toMatchObject({
          version: 2,
          status: 'ready',
          metadata: { editor: 'v5' },
          settings: { timeInterval: 'month', includeZeros: true },
          layers: [
            {
              id: 'layer-1',
              bindingId: chart.cdcId,
              mark: 'line',
              encoding: { time: { field: 'root[].created_at', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } },
              transforms: [
                { type: 'filter', field: 'root[].status', operator: 'is', value: 'paid' },
                { type: 'window', operation: 'cumulativeSum', role: 'value' },
              ],
            },
          ],
        });

        const reference = await fieldsChart(datasetId, lineFields);
        const v5 = await run(chart.id);
        const plain = await run(reference);
        expect(v5.chartData).toEqual(plain.chartData);
        expect(v5.chartData.data.labels).toHaveLength(3);
        expect(v5.chartData.data.datasets[0].data).toEqual([30.5, 35.5, 139.75]);
        expect(v5.paths).toEqual([source.path(pushdown)]);
        expect(plain.paths).toEqual([source.path(pushdown)]);
      });

      it("a date format (the editor's, or Chartbrew's moment tokens) labels the months; buckets and values unchanged", async () => {
        const plain = await run(await fieldsChart(datasetId, lineFields));
        const formatted = await run(await fieldsChart(datasetId, { chart: lineFields.chart, config: { ...lineFields.config, dateFormat: 'MMM YYYY' } }));
        expect(plain.chartData.data.labels).toEqual(['2025-01', '2025-02', '2025-03']);
        expect(formatted.chartData.data.labels).toEqual(['Jan 2025', 'Feb 2025', 'Mar 2025']);
        expect(formatted.chartData.data.datasets).toEqual(plain.chartData.data.datasets);
        expect(formatted.paths).toEqual([source.path(pushdown)]);
      });

      it('time (month) + value (sum) + breakdown (a text field): one series per value, the same as the breakdown field', async () => {
        const chart = await v5Chart(datasetId, 'bar');
        const saved = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: breakdownSpec(chart.cdcId) });
        expect(saved.ChartDatasetConfigs[0]).toMatchObject({ xAxis: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', breakdown: 'root[].country' });
        expect(saved.visualization.layers[0].encoding.breakdown).toMatchObject({ field: 'root[].country' });
        const reference = await fieldsChart(datasetId, breakdownFields);
        const v5 = await run(chart.id);
        const plain = await run(reference);
        expect(v5.chartData).toEqual(plain.chartData);
        // Months January to March; countries by total: US 101.25, FR 30.5, DE 12, ES 3.
        expect(v5.chartData.data.labels).toHaveLength(3);
        expect(v5.chartData.data.datasets.map((d: Json) => [d.label, d.data])).toEqual([
          ['US', [0, 0, 101.25]],
          ['FR', [30.5, 0, 0]],
          ['DE', [0, 12, 0]],
          ['ES', [0, 0, 3]],
        ]);
        expect(v5.chartData).not.toHaveProperty('seriesTruncated');
        expect(v5.paths).toEqual([source.path(pushdown)]);
        expect(plain.paths).toEqual([source.path(pushdown)]);
      });

      it('options.series: the largest series and an "Other" series summing the rest, the same as the breakdown fields', async () => {
        const chart = await v5Chart(datasetId, 'bar');
        const spec = breakdownSpec(chart.cdcId);
        const series = { limit: 2, includeOther: true, otherLabel: 'Elsewhere', order: [], hidden: [] };
        const saved = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: { ...spec, layers: [{ ...spec.layers[0], options: { series } }] } });
        expect(saved.ChartDatasetConfigs[0]).toMatchObject({ breakdownLimit: 2, breakdownOther: true, breakdownOtherLabel: 'Elsewhere' });
        expect(saved.visualization.layers[0].options.series).toMatchObject({ limit: 2, includeOther: true, otherLabel: 'Elsewhere' });
        const reference = await fieldsChart(datasetId, { ...breakdownFields, config: { ...breakdownFields.config, breakdownLimit: 2, breakdownOther: true, breakdownOtherLabel: 'Elsewhere' } });
        const v5 = await run(chart.id);
        expect(v5.chartData).toEqual((await run(reference)).chartData);
        // US 101.25 and FR 30.5 drawn; DE 12 and ES 3 summed by month into one series, nothing cut.
        expect(v5.chartData.data.datasets.map((d: Json) => [d.label, d.data])).toEqual([
          ['US', [0, 0, 101.25]],
          ['FR', [30.5, 0, 0]],
          ['Elsewhere', [0, 12, 3]],
        ]);
        expect(v5.chartData).not.toHaveProperty('seriesTruncated');
        expect(v5.paths).toEqual([source.path(pushdown)]);

        // Without the "Other" series the rest are left out, and the answer says so.
        await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}/chart-dataset-config/${chart.cdcId}`, { breakdownOther: false });
        const cut = await run(chart.id);
        expect(cut.chartData.data.datasets.map((d: Json) => d.label)).toEqual(['US', 'FR']);
        expect(cut.chartData).toMatchObject({ seriesTruncated: true, seriesLimit: 2, breakdowns: [{ datasetIndex: 0, series: 4, shown: 2 }] });
      });

      it("stack: percent on a bar split by a breakdown: the chart's percent stacking, each month's shares summing to 100", async () => {
        const chart = await v5Chart(datasetId, 'bar');
        const spec = breakdownSpec(chart.cdcId);
        const saved = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: { ...spec, layers: [{ ...spec.layers[0], stack: 'percent' }] } });
        expect(saved).toMatchObject({ stacked: true, stackPercent: true });
        expect(saved.visualization.layers[0].stack).toBe('percent');
        const reference = await fieldsChart(datasetId, { ...breakdownFields, chart: { ...breakdownFields.chart, stacked: true, stackPercent: true } });
        const v5 = await run(chart.id);
        expect(v5.chartData).toEqual((await run(reference)).chartData);
        const datasets = v5.chartData.data.datasets as { data: number[] }[];
        for (let i = 0; i < v5.chartData.data.labels.length; i += 1) expect(datasets.reduce((sum, d) => sum + d.data[i]!, 0)).toBeCloseTo(100, 6);
        // Back to plain stacking through the spec.
        const normal = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: { ...spec, layers: [{ ...spec.layers[0], stack: 'normal' }] } });
        expect(normal).toMatchObject({ stacked: true, stackPercent: false });
        expect(normal.visualization.layers[0].stack).toBe('normal');
      });

      it("settings.missingValues.policy preserve: a month without a country's orders is null, as the chart's missingValues computes it; zero plots 0 again", async () => {
        const chart = await v5Chart(datasetId, 'bar');
        const spec = { ...breakdownSpec(chart.cdcId), settings: { missingValues: { policy: 'preserve' } } };
        const saved = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: spec });
        expect(saved.missingValues).toBe('preserve');
        expect(saved.visualization.settings.missingValues).toEqual({ policy: 'preserve' });
        const reference = await fieldsChart(datasetId, { ...breakdownFields, chart: { ...breakdownFields.chart, missingValues: 'preserve' } });
        const v5 = await run(chart.id);
        expect(v5.chartData).toEqual((await run(reference)).chartData);
        expect(v5.chartData.data.datasets.map((d: Json) => [d.label, d.data])).toEqual([
          ['US', [null, null, 101.25]],
          ['FR', [30.5, null, null]],
          ['DE', [null, 12, null]],
          ['ES', [null, null, 3]],
        ]);
        expect(v5.paths).toEqual([source.path(pushdown)]);
        // A running total carries its last value over a gap.
        const line = await v5Chart(datasetId, 'line');
        const running = lineSpec(line.cdcId, { breakdown: { field: 'root[].country', type: 'nominal' } });
        await ok(t, owner, 'PUT', `/project/${projectId}/chart/${line.id}`, { visualization: { ...running, settings: { missingValues: { policy: 'preserve' } } } });
        const cumulative = await run(line.id);
        expect(cumulative.chartData.data.datasets.map((d: Json) => [d.label, d.data])).toEqual([
          ['US', [null, null, 101.25]],
          ['FR', [30.5, 30.5, 30.5]],
          ['DE', [null, 5, 5]],
          ['ES', [null, null, 3]],
        ]);
        expect(cumulative.paths).toEqual([source.path(pushdown)]);
        // Back to zeros through the spec.
        const zero = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: { ...spec, settings: { missingValues: { policy: 'zero' } } } });
        expect(zero.missingValues).toBe('zero');
        expect((await run(chart.id)).chartData.data.datasets[0].data).toEqual([0, 0, 101.25]);
      });

      it('x (category) + y (count), sorted descending and limited to two: the same as sort and maxRecords', async () => {
        const chart = await v5Chart(datasetId, 'bar');
        await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: barSpec(chart.cdcId) });
        const reference = await fieldsChart(datasetId, barFields);
        const v5 = await run(chart.id);
        const plain = await run(reference);
        expect(v5.chartData).toEqual(plain.chartData);
        expect(v5.chartData.data.datasets[0].data).toEqual([2, 2]);
        expect(v5.paths).toEqual([source.path(pushdown)]);
      });
    });
  }

  it('every chart answer carries the visualization: GET, list, dashboard, query; share links without its filters', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const chart = await v5Chart(datasetId, 'line');
    await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: lineSpec(chart.cdcId), onReport: true });
    const layerOf = (answer: Json) => answer.visualization.layers[0];
    expect(layerOf(await ok(t, owner, 'GET', `/project/${projectId}/chart/${chart.id}`)).id).toBe('layer-1');
    expect(layerOf((await ok(t, owner, 'GET', `/project/${projectId}/chart`)).find((c: Json) => c.id === chart.id)).id).toBe('layer-1');
    expect(layerOf((await ok(t, owner, 'GET', `/project/${projectId}`)).Charts.find((c: Json) => c.id === chart.id)).id).toBe('layer-1');
    expect(layerOf(await ok(t, owner, 'POST', `/project/${projectId}/chart/${chart.id}/query`)).id).toBe('layer-1');

    // A chart link: the spec, without the filter (a config's conditions stay private).
    await ok(t, owner, 'POST', `/project/${projectId}/chart/${chart.id}/share/policy`);
    const chartLink = await ok(t, owner, 'POST', `/project/${projectId}/chart/${chart.id}/share/token`, {});
    const shared = (await t.request({ method: 'GET', url: new URL(chartLink.url).pathname.replace(/^\/chart\/([^/]+)\/embedded$/, '/chart/share/$1') + `?token=${chartLink.token}` })).json();
    expect(layerOf(shared).transforms).toEqual([{ type: 'window', operation: 'cumulativeSum', role: 'value' }]);
    expect(JSON.stringify(shared)).not.toContain('paid');
    // The dashboard's report.
    const policy = await ok(t, owner, 'POST', `/project/${projectId}/share/policy`);
    const { token } = await ok(t, owner, 'POST', `/project/${projectId}/share/token`, { sharePolicyId: policy.id });
    const project = await ok(t, owner, 'GET', `/project/${projectId}`);
    const report = (await t.request({ method: 'GET', url: `/project/dashboard/${project.brewName}?token=${token}` })).json();
    expect(layerOf(report.Charts.find((c: Json) => c.id === chart.id)).encoding.time.field).toBe('root[].created_at');
  });

  it('a chart without a saved spec answers one derived from its dataset configs (one layer per config)', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const id = await fieldsChart(datasetId, lineFields);
    const chart = await ok(t, owner, 'GET', `/project/${projectId}/chart/${id}`);
    expect(chart.visualization).toMatchObject({
      version: 2,
      status: 'ready',
      metadata: { migratedFrom: 'legacy' },
      layers: [{ id: `legacy-${chart.ChartDatasetConfigs[0].id}`, bindingId: chart.ChartDatasetConfigs[0].id, encoding: { time: { field: 'root[].created_at', timeUnit: 'month' }, value: { aggregate: 'sum' } } }],
    });
    const stored = await t.container.store.db.selectFrom('charts').select('visualization').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.visualization).toBeNull();
  });

  it('dataset config changes re-derive the saved layers; a new config gets a layer, a deleted one loses it', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const chart = await v5Chart(datasetId, 'line');
    await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: lineSpec(chart.cdcId) });
    const base = `/project/${projectId}/chart/${chart.id}/chart-dataset-config`;
    await ok(t, owner, 'PUT', `${base}/${chart.cdcId}`, { yAxisOperation: 'avg', conditions: [] });
    const storedSpec = async () => fromJson<Json>((await t.container.store.db.selectFrom('charts').select('visualization').where('id', '=', chart.id).executeTakeFirstOrThrow()).visualization, {});
    let layer = (await storedSpec()).layers[0];
    expect(layer).toMatchObject({ id: 'layer-1', encoding: { value: { aggregate: 'avg' } } });
    expect(layer.transforms.some((t: Json) => t.type === 'filter')).toBe(false);
    const added = await ok(t, owner, 'POST', base, { dataset_id: datasetId, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxisOperation: 'count', legend: 'Orders' });
    expect((await storedSpec()).layers.map((l: Json) => l.bindingId)).toEqual([chart.cdcId, added.id]);
    await ok(t, owner, 'DELETE', `${base}/${chart.cdcId}`);
    const answer = await ok(t, owner, 'GET', `/project/${projectId}/chart/${chart.id}`);
    expect(answer.visualization.layers.map((l: Json) => l.bindingId)).toEqual([added.id]);
    expect((await storedSpec()).layers.map((l: Json) => l.bindingId)).toEqual([added.id]);
    layer = answer.visualization.layers[0];
    expect(layer.encoding).toMatchObject({ time: { field: 'root[].created_at' }, value: { field: 'root[].created_at', aggregate: 'count' } });
  });

  it('quick-create takes a visualization whose layers name the configs by the client\'s ids', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const chart = await ok(t, owner, 'POST', `/project/${projectId}/chart/quick-create`, {
      name: 'Orders per country',
      type: 'bar',
      chartDatasetConfigs: [{ dataset_id: datasetId, id: 'temp-cdc' }],
      visualization: barSpec('temp-cdc'),
    });
    const cdc = chart.ChartDatasetConfigs[0];
    expect(cdc).toMatchObject({ xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count', sort: 'desc', maxRecords: 2, legend: 'Orders' });
    expect(chart.visualization.layers[0]).toMatchObject({ id: 'bars', bindingId: cdc.id, encoding: { category: { field: 'root[].country' } } });
  });

  it('an "Other" series only over a count or a sum, and series are not ordered or hidden by id: 400s naming the field, nothing saved', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const chart = await v5Chart(datasetId, 'bar');
    const cdcUrl = `/project/${projectId}/chart/${chart.id}/chart-dataset-config/${chart.cdcId}`;
    await ok(t, owner, 'PUT', cdcUrl, { breakdown: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'avg' });
    const onAverage = await t.request({ method: 'PUT', url: cdcUrl, token: owner.token, payload: { breakdownOther: true } });
    expect(onAverage.statusCode, onAverage.body).toBe(400);
    expect(onAverage.json().details[0]).toMatchObject({ path: 'body.breakdownOther', message: expect.stringContaining('count or a sum') });
    expect((await ok(t, owner, 'GET', `/project/${projectId}/chart/${chart.id}`)).ChartDatasetConfigs[0].breakdownOther).toBe(false);
    const tooMany = await t.request({ method: 'PUT', url: cdcUrl, token: owner.token, payload: { breakdownLimit: 21 } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details[0].path).toBe('body.breakdownLimit');
    const spec = breakdownSpec(chart.cdcId);
    for (const [key, value] of [['hidden', ['series-0123456789abcdef']], ['order', ['series-0123456789abcdef']]] as const) {
      const res = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token, payload: { visualization: { ...spec, layers: [{ ...spec.layers[0], options: { series: { [key]: value } } }] } } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details[0].path).toBe(`body.visualization.layers.0.options.series.${key}`);
    }
  });

  it('a breakdown only on line, bar and radar charts: a 400 naming the field at save, nothing saved', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const pie = await v5Chart(datasetId, 'pie');
    const cdcUrl = `/project/${projectId}/chart/${pie.id}/chart-dataset-config/${pie.cdcId}`;
    const onPie = await t.request({ method: 'PUT', url: cdcUrl, token: owner.token, payload: { breakdown: 'root[].country' } });
    expect(onPie.statusCode, onPie.body).toBe(400);
    expect(onPie.json().details[0].path).toBe('body.breakdown');
    expect(onPie.json().error).toMatch(/pie chart/);
    expect((await ok(t, owner, 'GET', `/project/${projectId}/chart/${pie.id}`)).ChartDatasetConfigs[0].breakdown).toBeNull();
    const spec = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${pie.id}`, token: owner.token, payload: { visualization: { version: 2, layers: [{ id: 'l', bindingId: pie.cdcId, mark: 'pie', encoding: { category: 'root[].status', value: 'root[].amount', color: 'root[].country' } }] } } });
    expect(spec.statusCode, spec.body).toBe(400);
    expect(spec.json().details[0].path).toBe('body.visualization.layers.0.encoding.color');
    // A bar with a breakdown cannot become a KPI while it has one; without it, it can.
    const bar = await v5Chart(datasetId, 'bar');
    await ok(t, owner, 'PUT', `/project/${projectId}/chart/${bar.id}/chart-dataset-config/${bar.cdcId}`, { breakdown: 'root[].country' });
    const toKpi = await t.request({ method: 'PUT', url: `/project/${projectId}/chart/${bar.id}`, token: owner.token, payload: { type: 'kpi' } });
    expect(toKpi.statusCode, toKpi.body).toBe(400);
    expect(toKpi.json().details[0].path).toBe('body.type');
    expect((await ok(t, owner, 'GET', `/project/${projectId}/chart/${bar.id}`)).type).toBe('bar');
    await ok(t, owner, 'PUT', `/project/${projectId}/chart/${bar.id}/chart-dataset-config/${bar.cdcId}`, { breakdown: null });
    expect((await ok(t, owner, 'PUT', `/project/${projectId}/chart/${bar.id}`, { type: 'kpi' })).type).toBe('kpi');
    // Quick-create names the config.
    const quick = await t.request({ method: 'POST', url: `/project/${projectId}/chart/quick-create`, token: owner.token, payload: { name: 'Split', type: 'table', chartDatasetConfigs: [{ dataset_id: datasetId, breakdown: 'root[].country' }] } });
    expect(quick.statusCode, quick.body).toBe(400);
    expect(quick.json().details[0].path).toBe('body.chartDatasetConfigs.0.breakdown');
  });

  it('a wrong field is a 400 naming its path, nothing saved; the spec wins over chart fields of the same body; null forgets it', async () => {
    const datasetId = await postgresSource.dataset(t, owner, projectId);
    const chart = await v5Chart(datasetId, 'line');
    const put = (payload: Json) => t.request({ method: 'PUT', url: `/project/${projectId}/chart/${chart.id}`, token: owner.token, payload });
    const badAggregate = await put({ visualization: { version: 2, layers: [{ id: 'l', bindingId: chart.cdcId, mark: 'line', encoding: { y: { field: 'root[].amount', aggregate: 'median' } } }] } });
    expect(badAggregate.statusCode).toBe(400);
    expect(badAggregate.json().details[0].path).toBe('body.visualization.layers.0.encoding.y.aggregate');
    expect((await ok(t, owner, 'GET', `/project/${projectId}/chart/${chart.id}`)).ChartDatasetConfigs[0].yAxis).toBeNull();
    // A whole chart sent with its spec (as Chartbrew's editor does): where both set a field, the spec wins.
    const whole = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { name: 'Renamed', timeInterval: 'week', subType: 'lcTimeseries', visualization: lineSpec(chart.cdcId) });
    expect(whole).toMatchObject({ name: 'Renamed', timeInterval: 'month', subType: 'AddTimeseries' });
    const forgotten = await ok(t, owner, 'PUT', `/project/${projectId}/chart/${chart.id}`, { visualization: null });
    expect(forgotten.visualization.layers[0].id).toBe(`legacy-${chart.cdcId}`);
    // The configs keep what the spec wrote.
    expect(forgotten.visualization.layers[0].encoding.value).toMatchObject({ field: 'root[].amount', aggregate: 'sum' });
  });
});
