import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { postgresConnection, teamWithEveryRole, type Person, type RoleTeam } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

type Json = Record<string, any>;

/**
 * Orders dated relative to the day the suite runs, so that date presets select known rows:
 * paid in the last 30 days: 1 and 2 (FR, 30); refunded in the last 30 days: 4 (DE, 7) and 6 (US, 50).
 */
const ORDERS = `
  create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
  insert into orders values
    (1, 'FR', 'paid', 10, now() - interval '2 days'),
    (2, 'FR', 'paid', 20, now() - interval '10 days'),
    (3, 'DE', 'paid', 5, now() - interval '40 days'),
    (4, 'DE', 'refunded', 7, now() - interval '3 days'),
    (5, 'US', 'paid', 100, now() - interval '100 days'),
    (6, 'US', 'refunded', 50, now() - interval '20 days');
`;

const DAY_MS = 86_400_000;
/** The UTC calendar day `n` days before today. */
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const kpi = (chart: Json) => chart.chartData.values[0].value;
const bars = (chart: Json) => Object.fromEntries(chart.chartData.data.labels.map((label: string, i: number) => [label, chart.chartData.data.datasets[0].data[i]]));

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, code: string, path?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().code).toBe(code);
  if (path !== undefined) expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
}

/** Runs with a runtime filter state: the members' routes and a shared report's, over a real Postgres source, on both stores. */
describe.each<StoreKind>(['sqlite', 'postgres'])('filter runs (%s store)', (store) => {
  let t: TestApp;
  let source: { url: string; drop(): Promise<void> };
  let team: RoleTeam;
  let owner: Person;
  let projectId: number;
  let brewName: string;
  /** revenue: kpi of paid orders (135); byCountry: paid amount per country; countryRevenue: kpi of `{{country}}` (FR: 30); broken: a failing query; notes: markdown; internal: not on the report. */
  const charts: Record<'revenue' | 'byCountry' | 'countryRevenue' | 'broken' | 'notes' | 'internal', number> = { revenue: 0, byCountry: 0, countryRevenue: 0, broken: 0, notes: 0, internal: 0 };
  let otherProjectChart: number;
  /** The dataset of paid orders (`{{status}}` defaults to paid): FR, DE and US have paid orders. */
  let ordersDataset: number;

  const as = (role: Role | 'stranger') => team.people[role].token;
  /** `token` null: no bearer token (a viewer). */
  const run = (chartId: number, payload: Json, token: string | null = owner.token, qs = '', headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: `/project/${projectId}/chart/${chartId}/filter${qs}`, ...(token !== null ? { token } : {}), payload, headers });
  async function ok(res: { statusCode: number; body: string; json(): any }): Promise<Json> {
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'), ORDERS);
    t = await buildTestApp({ store, rateLimit: { global: 100_000, auth: 100_000, share: 100_000 } });
    team = await teamWithEveryRole(t);
    owner = team.people.teamOwner;
    projectId = team.projectId;
    brewName = (await t.request({ method: 'GET', url: `/project/${projectId}`, token: owner.token })).json().brewName;
    const url = new URL(source.url);
    const connection = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('shop', url),
      })
    ).json();
    const dataset = async (name: string, query: string, variableBindings: Json[] = []) => {
      const res = await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name, project_ids: [projectId], dataRequests: [{ connection_id: connection.id, query, variableBindings }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const orders = await dataset('Orders', 'select * from orders where status = {{status}}', [{ name: 'status', default_value: 'paid' }]);
    ordersDataset = orders;
    const byCountry = await dataset('Orders of a country', 'select * from orders where country = {{country}}', [{ name: 'country', default_value: 'FR' }]);
    const broken = await dataset('Broken', 'select * from no_such_table');
    const chart = async (key: keyof typeof charts, body: Json, configs: Json[], save = true) => {
      const res = await t.request({ method: 'POST', url: `/project/${projectId}/chart/quick-create`, token: owner.token, payload: { ...body, chartDatasetConfigs: configs } });
      expect(res.statusCode, res.body).toBe(200);
      charts[key] = res.json().id;
      if (save) expect((await t.request({ method: 'POST', url: `/project/${projectId}/chart/${charts[key]}/query`, token: owner.token })).statusCode).toBe(200);
    };
    const dated = { dateField: 'root[].created_at' };
    await chart('revenue', { name: 'Revenue', type: 'kpi' }, [{ dataset_id: orders, yAxis: 'root[].amount', yAxisOperation: 'sum', ...dated }]);
    await chart('byCountry', { name: 'By country', type: 'bar' }, [{ dataset_id: orders, xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', ...dated }]);
    await chart('countryRevenue', { name: 'Country revenue', type: 'kpi' }, [{ dataset_id: byCountry, yAxis: 'root[].amount', yAxisOperation: 'sum', ...dated }]);
    await chart('broken', { name: 'Broken', type: 'kpi' }, [{ dataset_id: broken, yAxis: 'root[].amount', yAxisOperation: 'sum' }], false);
    await chart('notes', { name: 'Notes', type: 'markdown', content: '# Notes' }, [], false);
    await chart('internal', { name: 'Internal', type: 'kpi', onReport: false }, [{ dataset_id: orders, yAxis: 'root[].amount', yAxisOperation: 'sum' }]);
    const other = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Elsewhere', team_id: owner.teamId } })).json().id;
    otherProjectChart = (await t.request({ method: 'POST', url: `/project/${other}/chart`, token: owner.token, payload: { name: 'Other', type: 'kpi' } })).json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  describe('members', () => {
    it('a date preset filters the rows; the answer is never saved; identical states share one cache entry', async () => {
      const saved = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${charts.revenue}`, token: owner.token })).json();
      expect(kpi(saved)).toBe(135);

      const first = await run(charts.revenue, { filters: [{ type: 'date', preset: 'last_30_days' }] });
      const body = await ok(first);
      expect(kpi(body)).toBe(30);
      expect(body).toMatchObject({ id: charts.revenue, project_id: projectId, variablesWithoutValue: [], cacheStatus: 'miss' });
      expect(body.ChartDatasetConfigs).toHaveLength(1);
      expect(first.headers['x-plotline-cache']).toBe('miss');

      // The answer is of when it was computed, not of the saved data; a cache hit of when the entry was.
      expect(body.chartDataUpdated).not.toBe(saved.chartDataUpdated);
      expect(Date.parse(body.chartDataUpdated)).toBeGreaterThan(Date.parse(saved.chartDataUpdated));
      const again = await run(charts.revenue, { filters: [{ type: 'date', preset: 'last_30_days' }] });
      expect(again.headers['x-plotline-cache']).toBe('hit');
      const hit = await ok(again);
      expect(kpi(hit)).toBe(30);
      expect(hit.chartDataUpdated).toBe(body.chartDataUpdated);
      // Client-only items, an id and a chart list that includes this chart change nothing: the same entry.
      const alike = await run(charts.revenue, { filters: [{ type: 'pagination', page: 3 }, { type: 'date', preset: 'last_30_days', id: 'mine', charts: [charts.revenue, charts.byCountry] }], variables: [] });
      expect(alike.headers['x-plotline-cache']).toBe('hit');
      // The same days as dates: the same range once resolved, so the same entry too.
      const dates = await run(charts.revenue, { filters: [{ type: 'date', startDate: daysAgo(29), endDate: daysAgo(0) }] });
      expect(dates.headers['x-plotline-cache']).toBe('hit');
      expect(kpi(await ok(dates))).toBe(30);
      // Another range is another entry.
      const week = await run(charts.revenue, { filters: [{ type: 'date', preset: 'last_7_days' }] });
      expect(week.headers['x-plotline-cache']).toBe('miss');
      expect(kpi(await ok(week))).toBe(10);

      const after = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${charts.revenue}`, token: owner.token })).json();
      expect(after.chartData).toEqual(saved.chartData);
      expect(after.chartDataUpdated).toBe(saved.chartDataUpdated);
    });

    it('a field filter applies to every chart; one with `charts` only to those', async () => {
      expect(bars(await ok(await run(charts.byCountry, { filters: [{ field: 'country', operator: 'is', value: 'FR' }] })))).toEqual({ FR: 30 });
      expect(bars(await ok(await run(charts.byCountry, { filters: [{ field: 'root[].amount', operator: 'greaterThan', value: 10 }] })))).toEqual({ FR: 20, US: 100 });
      const onlyBars = [{ field: 'country', value: 'FR', charts: [charts.byCountry] }, { type: 'date', preset: 'last_7_days', charts: [charts.byCountry] }];
      expect(kpi(await ok(await run(charts.revenue, { filters: onlyBars })))).toBe(135);
      expect(bars(await ok(await run(charts.byCountry, { filters: onlyBars })))).toEqual({ FR: 10 });
    });

    it('variable filters and variables set the same variables, and share an entry', async () => {
      const filter = await run(charts.revenue, { filters: [{ type: 'variable', variable: 'status', value: 'refunded' }] });
      expect(kpi(await ok(filter))).toBe(57);
      expect(filter.headers['x-plotline-cache']).toBe('miss');
      const variables = await run(charts.revenue, { filters: [], variables: { status: 'refunded' } });
      expect(kpi(await ok(variables))).toBe(57);
      expect(variables.headers['x-plotline-cache']).toBe('hit');
      const both = await ok(await run(charts.countryRevenue, { filters: [{ type: 'date', preset: 'last_30_days' }], variables: { country: 'DE' } }));
      expect(kpi(both)).toBe(7);
      expect(kpi(await ok(await run(charts.countryRevenue, { filters: [{ type: 'variable', variable: 'country', value: 'US' }] })))).toBe(150);
    });

    it('every role of the dashboard may run; another team and another dashboard get 404', async () => {
      for (const role of ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        expect(kpi(await ok(await run(charts.revenue, { filters: [{ type: 'date', preset: 'last_30_days' }] }, as(role)))), role).toBe(30);
      }
      expectError(await run(charts.revenue, { filters: [] }, as('stranger')), 404, 'NOT_FOUND');
      expectError(await run(otherProjectChart, { filters: [] }), 404, 'NOT_FOUND');
      const batch = await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: as('stranger'), payload: { filters: [] } });
      expectError(batch, 404, 'NOT_FOUND');
      expect((await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: as('projectViewer'), payload: { filters: [] } })).statusCode).toBe(200);
    });

    it.each<[string, Json, string]>([
      ['no filters', { variables: {} }, 'body.filters'],
      ['a filter that is not an object', { filters: [3] }, 'body.filters.0'],
      ['an unknown operator', { filters: [{ field: 'country', operator: 'like', value: 'F' }] }, 'body.filters.0.operator'],
      ['an unknown preset', { filters: [{ type: 'date', preset: 'fortnight' }] }, 'body.filters.0.preset'],
      ['a date that is not one', { filters: [{ type: 'date', startDate: 'monday' }] }, 'body.filters.0.startDate'],
      ['variables that are text', { filters: [], variables: 'status=paid' }, 'body.variables'],
    ])('%s is a 400 naming %s', async (_name, payload, path) => {
      expectError(await run(charts.revenue, payload), 400, 'VALIDATION_FAILED', path);
      expectError(await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload }), 400, 'VALIDATION_FAILED', path);
    });

    it('the dashboard route computes every chart; one that fails is an entry with its error; chartIds choose and order', async () => {
      const res = await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: { filters: [{ type: 'date', preset: 'last_30_days' }] } });
      const { charts: answers } = await ok(res);
      const byId = new Map<number, Json>(answers.map((a: Json) => [a.id, a]));
      expect(answers.map((a: Json) => a.id)).toEqual([charts.revenue, charts.byCountry, charts.countryRevenue, charts.broken, charts.notes, charts.internal]);
      expect(kpi(byId.get(charts.revenue)!)).toBe(30);
      expect(bars(byId.get(charts.byCountry)!)).toEqual({ FR: 30 });
      expect(kpi(byId.get(charts.countryRevenue)!)).toBe(30);
      expect(byId.get(charts.broken)).toEqual({ id: charts.broken, error: { code: 'SOURCE_QUERY_FAILED', message: expect.any(String) } });
      expect(byId.get(charts.notes)).toMatchObject({ type: 'markdown', content: '# Notes', chartData: null, variablesWithoutValue: [] });
      expect(byId.get(charts.revenue)).toMatchObject({ project_id: projectId, cacheStatus: expect.any(String) });

      const some = await ok(await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: { filters: [], variables: { status: 'refunded' }, chartIds: [charts.byCountry, charts.revenue] } }));
      expect(some.charts.map((a: Json) => a.id)).toEqual([charts.byCountry, charts.revenue]);
      expect(kpi(some.charts[1])).toBe(57);
      const foreign = await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: { filters: [], chartIds: [charts.revenue, otherProjectChart] } });
      expectError(foreign, 400, 'VALIDATION_FAILED', 'body.chartIds.1');
    });

    it('each chart says which filters of the state narrow it (filteredBy), and a chart one does not reach is indeed left as it was', async () => {
      const state = {
        filters: [
          { type: 'date', id: 'period', preset: 'last_30_days', charts: [charts.revenue, charts.byCountry, charts.countryRevenue] },
          { type: 'field', id: 'country', field: 'country', value: 'FR' },
          { type: 'variable', id: 'status', variable: 'status', value: 'paid' },
          { type: 'variable', id: 'place', variable: 'country', value: 'FR' },
          { type: 'field', id: 'unset', field: 'country', value: '' },
          { type: 'field', field: 'amount', operator: 'greaterThan', value: 0 },
        ],
      };
      const { charts: answers } = await ok(await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: state }));
      const by = Object.fromEntries(answers.map((a: Json) => [a.id, a.filteredBy]));
      // A date filter needs the chart in its list and a date field; a variable filter a dataset naming it
      // ({{status}} for the orders, {{country}} for the other one); a filter without a value or an id is not named.
      expect(by[charts.revenue]).toEqual(['period', 'country', 'status']);
      expect(by[charts.byCountry]).toEqual(['period', 'country', 'status']);
      expect(by[charts.countryRevenue]).toEqual(['period', 'country', 'place']);
      expect(by[charts.internal]).toEqual(['country', 'status']);
      expect(by[charts.notes]).toEqual([]);
      expect(by[charts.broken]).toBeUndefined();
      // The one-chart route says the same.
      expect((await ok(await run(charts.countryRevenue, state))).filteredBy).toEqual(['period', 'country', 'place']);

      // A date filter for every chart: the chart without a date field is not narrowed, and its number is the saved one.
      const week = await ok(await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: { filters: [{ type: 'date', id: 'week', preset: 'last_7_days' }] } }));
      const weekById = new Map<number, Json>(week.charts.map((a: Json) => [a.id, a]));
      expect(weekById.get(charts.revenue)!['filteredBy']).toEqual(['week']);
      expect(kpi(weekById.get(charts.revenue)!)).toBe(10);
      expect(weekById.get(charts.internal)!['filteredBy']).toEqual([]);
      expect(kpi(weekById.get(charts.internal)!)).toBe(135);
    });
  });

  describe('filter reach, before any value', () => {
    const reach = (payload: Json, token: string = owner.token) => t.request({ method: 'POST', url: `/project/${projectId}/filter-reach`, token, payload });
    /** A date filter for the dated charts, a field filter that leaves `internal` out, and two variable filters: none has a value. */
    const idle = (): Json[] => [
      { type: 'date', id: 'period' },
      { type: 'field', id: 'country', field: 'country', operator: 'is', charts: [charts.revenue, charts.byCountry, charts.countryRevenue, charts.broken] },
      { type: 'variable', id: 'status', variable: 'status' },
      { type: 'variable', id: 'place', variable: 'country' },
      { type: 'field', field: 'amount' },
    ];

    it('names, per chart, the filters that would narrow it and those that would not, with no source queried', async () => {
      const { charts: answers } = await ok(await reach({ filters: idle() }));
      // Markdown is left out; the broken chart's query is never run, so it answers like the others.
      expect(answers.map((a: Json) => a.id)).toEqual([charts.revenue, charts.byCountry, charts.countryRevenue, charts.broken, charts.internal]);
      const by = Object.fromEntries(answers.map((a: Json) => [a.id, [a.reachedBy, a.notReachedBy]]));
      expect(by[charts.revenue]).toEqual([['period', 'country', 'status'], ['place']]);
      expect(by[charts.countryRevenue]).toEqual([['period', 'country', 'place'], ['status']]);
      // No date field, no variable named by its dataset: only the field filter, whose list holds it.
      expect(by[charts.broken]).toEqual([['country'], ['period', 'status', 'place']]);
      // No date field and left out of the field filter's list: only {{status}} of its dataset.
      expect(by[charts.internal]).toEqual([['status'], ['period', 'country', 'place']]);
    });

    it('says what the run says once the values are set (one rule)', async () => {
      const values: Record<string, Json> = { period: { preset: 'last_30_days' }, country: { value: 'FR' }, status: { value: 'paid' }, place: { value: 'FR' } };
      const set = idle().map((filter) => ({ ...filter, ...(filter.id ? values[filter.id] : { value: 1 }) }));
      const reached = (await ok(await reach({ filters: set }))).charts as Json[];
      const run = (await ok(await t.request({ method: 'POST', url: `/project/${projectId}/filter`, token: owner.token, payload: { filters: set } }))).charts as Json[];
      for (const chart of run.filter((c) => 'filteredBy' in c && c.type !== 'markdown')) {
        expect(reached.find((r) => r.id === chart.id)!.reachedBy, String(chart.id)).toEqual(chart.filteredBy);
      }
    });

    it('every member of the dashboard may ask; another team gets 404; a bad state is the run’s 400', async () => {
      for (const role of ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        expect((await reach({ filters: idle() }, as(role))).statusCode, role).toBe(200);
      }
      expectError(await reach({ filters: idle() }, as('stranger')), 404, 'NOT_FOUND');
      expectError(await reach({ filters: [{ type: 'field', field: 'country', operator: 'like' }] }), 400, 'VALIDATION_FAILED', 'body.filters.0.operator');
      expectError(await reach({ filters: [{ type: 'variable' }] }), 400, 'VALIDATION_FAILED', 'body.filters.0.variable');
    });
  });

  describe('viewers of a shared report', () => {
    let token: string;
    let policyId: number;
    const saved: Record<string, Json> = {};
    const publicRun = (chartId: number, payload: Json, qs = `?token=${encodeURIComponent(token)}`, headers: Record<string, string> = {}) => run(chartId, payload, null, qs, headers);
    const report = (payload: Json, qs = `?token=${encodeURIComponent(token)}`, headers: Record<string, string> = {}) =>
      t.request({ method: 'POST', url: `/project/dashboard/${brewName}/filter${qs}`, payload, headers });
    const setPolicy = (body: Json) => t.request({ method: 'PUT', url: `/project/${projectId}/share/policy/${policyId}`, token: owner.token, payload: body });

    beforeAll(async () => {
      const filter = async (key: string, body: Json) => {
        const res = await t.request({ method: 'POST', url: `/project/${projectId}/dashboard-filter`, token: owner.token, payload: body });
        expect(res.statusCode, res.body).toBe(200);
        saved[key] = res.json();
      };
      await filter('period', { configuration: { id: 'period', type: 'date', preset: 'last_7_days', charts: [charts.revenue, charts.byCountry] }, onReport: true });
      await filter('country', { configuration: { id: 'country', type: 'field', field: 'country', operator: 'is', value: 'FR' }, onReport: true });
      await filter('status', { configuration: { id: 'status', type: 'variable', variable: 'status', dataType: 'string', value: 'paid' }, onReport: true });
      await filter('place', { configuration: { id: 'place', type: 'variable', variable: 'country', dataType: 'string', value: 'FR' }, onReport: true });
      await filter('fixed', { configuration: { type: 'variable', variable: 'region', dataType: 'string', value: 'eu', allowValueChange: false }, onReport: true });
      await filter('hidden', { configuration: { id: 'hidden', type: 'field', field: 'status', operator: 'is', value: 'paid' } });
      policyId = (await t.request({ method: 'POST', url: `/project/${projectId}/share/policy`, token: owner.token })).json().id;
      // `status` is pinned by the link.
      expect((await setPolicy({ params: [{ key: 'status', value: 'paid' }] })).statusCode).toBe(200);
      token = (await t.request({ method: 'POST', url: `/project/${projectId}/share/token`, token: owner.token, payload: { sharePolicyId: policyId } })).json().token;
    });

    it("computes a report chart for the viewer's state of the report's filters: by id, values only, the display fields only", async () => {
      const res = await publicRun(charts.revenue, { filters: [{ id: 'period', type: 'date', preset: 'last_30_days' }] });
      const body = await ok(res);
      expect(kpi(body)).toBe(30);
      expect(body).toMatchObject({ id: charts.revenue, variablesWithoutValue: [], cacheStatus: expect.any(String) });
      expect(body).not.toHaveProperty('project_id');
      expect(body.ChartDatasetConfigs[0]).not.toHaveProperty('dataset_id');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).not.toContain('select');
      // The token in the body, Chartbrew's way; the filter by its row id, value only.
      const field = await ok(await run(charts.byCountry, { token, filters: [{ id: saved['country']!.id, value: 'DE' }] }, null, ''));
      expect(bars(field)).toEqual({ DE: 5 });
      // A date state without its kind or chart list is the saved filter's; its preset the viewer's.
      expect(bars(await ok(await publicRun(charts.byCountry, { filters: [{ id: 'period', preset: 'last_90_days' }] })))).toEqual({ FR: 30, DE: 5 });
      expect(bars(await ok(await publicRun(charts.byCountry, { filters: [{ id: 'period', preset: 'last_90_days' }, { id: 'country', type: 'field', field: 'country', value: 'DE' }] })))).toEqual({ DE: 5 });
      // The saved filter's chart list applies: the period does not reach the country chart.
      expect(kpi(await ok(await publicRun(charts.countryRevenue, { filters: [{ id: 'period', preset: 'last_7_days' }] })))).toBe(30);
    });

    it('only the report filters, only their values: anything else is 400 FILTER_NOT_ALLOWED naming it', async () => {
      const cases: [Json, string][] = [
        [{ filters: [{ type: 'date', preset: 'today' }] }, 'body.filters.0'],
        [{ filters: [{ field: 'country', value: 'FR' }] }, 'body.filters.0'],
        [{ filters: [{ type: 'pagination' }, { id: 'nope', value: 1 }] }, 'body.filters.1.id'],
        [{ filters: [{ id: 'hidden', value: 'refunded' }] }, 'body.filters.0.id'],
        [{ filters: [{ id: 'country', field: 'status', value: 'paid' }] }, 'body.filters.0.field'],
        [{ filters: [{ id: 'country', operator: 'isNot', value: 'FR' }] }, 'body.filters.0.operator'],
        [{ filters: [{ id: 'country', type: 'date', preset: 'today' }] }, 'body.filters.0.type'],
        [{ filters: [{ id: 'period', preset: 'today', charts: [charts.countryRevenue] }] }, 'body.filters.0.charts'],
        [{ filters: [{ id: 'place', variable: 'status', value: 'x' }] }, 'body.filters.0.variable'],
        [{ filters: [{ id: saved['fixed']!.id, value: 'us' }] }, 'body.filters.0.value'],
        [{ filters: [], variables: { tenant: 'other' } }, 'body.variables.tenant'],
      ];
      for (const [payload, path] of cases) {
        expectError(await publicRun(charts.revenue, payload), 400, 'FILTER_NOT_ALLOWED', path);
        expectError(await report(payload), 400, 'FILTER_NOT_ALLOWED', path);
      }
      // Its own value is no change; a variable a filter lets viewers change may come in `variables` too.
      expect((await publicRun(charts.revenue, { filters: [{ id: saved['fixed']!.id, value: 'eu' }] })).statusCode).toBe(200);
      expect(kpi(await ok(await publicRun(charts.countryRevenue, { filters: [], variables: { country: 'US' } })))).toBe(150);
      expect(kpi(await ok(await publicRun(charts.countryRevenue, { filters: [{ id: 'place', value: 'DE' }] })))).toBe(12);
    });

    it('a pinned param never moves: variables, variable filters and the URL get 403 SHARE_PARAM_LOCKED naming it', async () => {
      expectError(await publicRun(charts.revenue, { filters: [], variables: { status: 'refunded' } }), 403, 'SHARE_PARAM_LOCKED', 'body.variables.status');
      expectError(await publicRun(charts.revenue, { filters: [{ id: 'status', value: 'refunded' }] }), 403, 'SHARE_PARAM_LOCKED', 'body.filters.0.value');
      expectError(await report({ filters: [{ id: 'status', type: 'variable', variable: 'status', value: 'refunded' }] }), 403, 'SHARE_PARAM_LOCKED', 'body.filters.0.value');
      // Its own value changes nothing.
      expect(kpi(await ok(await publicRun(charts.revenue, { filters: [{ id: 'status', value: 'paid' }], variables: { status: 'paid' } })))).toBe(135);
      await setPolicy({ allow_params: true });
      try {
        const url = `?token=${encodeURIComponent(token)}&status=refunded`;
        expectError(await publicRun(charts.revenue, { filters: [] }, url), 403, 'SHARE_PARAM_LOCKED', 'querystring.status');
        expectError(await t.request({ method: 'GET', url: `/project/dashboard/${brewName}${url}` }), 403, 'SHARE_PARAM_LOCKED', 'querystring.status');
        // With params allowed, an unpinned variable is the viewer's, from the URL or the body.
        expect(kpi(await ok(await publicRun(charts.countryRevenue, { filters: [] }, `?token=${encodeURIComponent(token)}&country=DE`)))).toBe(12);
        expect(kpi(await ok(await publicRun(charts.countryRevenue, { filters: [], variables: { region: 'x', country: 'US' } })))).toBe(150);
      } finally {
        await setPolicy({ allow_params: false });
      }
    });

    it('the token and password rules of the report; report charts only', async () => {
      const state = { filters: [{ id: 'period', preset: 'last_30_days' }] };
      expectError(await publicRun(charts.revenue, state, ''), 401, 'SHARE_TOKEN_REQUIRED');
      expectError(await publicRun(charts.revenue, state, '?token=not-a-token'), 401, 'SHARE_TOKEN_INVALID');
      expectError(await report(state, ''), 401, 'SHARE_TOKEN_REQUIRED');
      expectError(await publicRun(charts.internal, state), 404, 'NOT_FOUND');
      expectError(await publicRun(otherProjectChart, state), 404, 'NOT_FOUND');
      expectError(await report({ ...state, chartIds: [charts.internal] }), 400, 'VALIDATION_FAILED', 'body.chartIds.0');

      const put = await t.request({ method: 'PUT', url: `/project/${projectId}`, token: owner.token, payload: { passwordProtected: true, password: 'report-password-1' } });
      expect(put.statusCode, put.body).toBe(200);
      try {
        expectError(await publicRun(charts.revenue, state), 403, 'PASSWORD_REQUIRED');
        expectError(await publicRun(charts.revenue, state, undefined, { pass: 'wrong password' }), 403, 'PASSWORD_INVALID');
        expect(kpi(await ok(await publicRun(charts.revenue, state, undefined, { pass: 'report-password-1' })))).toBe(30);
        expect(kpi(await ok(await publicRun(charts.revenue, { ...state, password: 'report-password-1' })))).toBe(30);
        expectError(await report(state), 403, 'PASSWORD_REQUIRED');
        expect((await report({ ...state, password: 'report-password-1' })).statusCode).toBe(200);
        // A member needs neither.
        expect(kpi(await ok(await run(charts.revenue, { filters: [{ type: 'date', preset: 'last_30_days' }] })))).toBe(30);
      } finally {
        await t.request({ method: 'PUT', url: `/project/${projectId}`, token: owner.token, payload: { passwordProtected: false } });
      }
    });

    it('the report route computes its charts for the state, each failing alone; nothing is saved', async () => {
      const before = (await t.request({ method: 'GET', url: `/project/${projectId}`, token: owner.token })).json().Charts as Json[];
      const { charts: answers } = await ok(await report({ filters: [{ id: 'period', preset: 'last_30_days' }, { id: 'place', value: 'US' }] }));
      expect(answers.map((a: Json) => a.id)).toEqual([charts.revenue, charts.byCountry, charts.countryRevenue, charts.broken, charts.notes]);
      const byId = new Map<number, Json>(answers.map((a: Json) => [a.id, a]));
      expect(kpi(byId.get(charts.revenue)!)).toBe(30);
      expect(bars(byId.get(charts.byCountry)!)).toEqual({ FR: 30 });
      expect(kpi(byId.get(charts.countryRevenue)!)).toBe(150);
      // The owner's query fails whatever the viewer sends: said so, in words that never quote the source.
      expect(byId.get(charts.broken)).toEqual({ id: charts.broken, error: { code: 'CHART_QUERY_FAILED', message: "This chart's query fails; its owner has to correct it" } });
      expect(byId.get(charts.notes)).toMatchObject({ type: 'markdown', chartData: null });
      for (const answer of answers) expect(answer).not.toHaveProperty('project_id');
      // Each chart names the report filters that narrow it, by the ids the viewer sent.
      expect(byId.get(charts.revenue)!['filteredBy']).toEqual(['period']);
      expect(byId.get(charts.countryRevenue)!['filteredBy']).toEqual(['place']);
      expect(byId.get(charts.notes)!['filteredBy']).toEqual([]);
      const named = await ok(await report({ filters: [{ id: 'period', preset: 'last_30_days' }, { id: saved['country']!.id, value: 'FR' }] }));
      const namedById = new Map<number, Json>(named.charts.map((a: Json) => [a.id, a]));
      expect(namedById.get(charts.byCountry)!['filteredBy']).toEqual(['period', saved['country']!.id]);
      expect(namedById.get(charts.countryRevenue)!['filteredBy']).toEqual([saved['country']!.id]);
      const some = await ok(await report({ filters: [], chartIds: [charts.countryRevenue] }));
      expect(some.charts.map((a: Json) => a.id)).toEqual([charts.countryRevenue]);

      const after = (await t.request({ method: 'GET', url: `/project/${projectId}`, token: owner.token })).json().Charts as Json[];
      expect(after.map((c) => [c.id, c.chartData, c.chartDataUpdated])).toEqual(before.map((c) => [c.id, c.chartData, c.chartDataUpdated]));
    });

    it('a member through the report route is answered as a member; a member of another team with the token as a viewer', async () => {
      const member = await ok(await run(charts.revenue, { token, filters: [{ field: 'country', value: 'FR' }] }, as('projectViewer')));
      expect(member).toMatchObject({ project_id: projectId });
      expect(kpi(member)).toBe(30);
      const outsider = await ok(await run(charts.revenue, { filters: [{ id: 'country', value: 'FR' }] }, as('stranger'), `?token=${encodeURIComponent(token)}`));
      expect(outsider).not.toHaveProperty('project_id');
      expect(kpi(outsider)).toBe(30);
      // Without the token the outsider is told nothing more than any route of the dashboard tells them.
      expectError(await run(charts.revenue, { filters: [] }, as('stranger')), 404, 'NOT_FOUND');
      // A bad bearer token is refused as everywhere.
      expectError(await run(charts.revenue, { filters: [] }, 'pls_not-a-real-token', `?token=${encodeURIComponent(token)}`), 401, 'INVALID_TOKEN');
    });

    it("a report filter's dropdown values: only for a report filter with valuesFrom, to whoever may open the report", async () => {
      const res = await t.request({
        method: 'POST',
        url: `/project/${projectId}/dashboard-filter`,
        token: owner.token,
        payload: { configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR', valuesFrom: { datasetId: ordersDataset, field: 'root[].country' } }, onReport: true },
      });
      expect(res.statusCode, res.body).toBe(200);
      const pick = res.json().id as string;
      const values = (fid: string, qs = `?token=${encodeURIComponent(token)}`) => t.request({ method: 'GET', url: `/project/dashboard/${brewName}/filter/${fid}/values${qs}` });

      // The report shows it without its dataset; its values are those of the paid orders.
      const reportFilters = (await ok(await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${encodeURIComponent(token)}` }))).DashboardFilters;
      expect(reportFilters.find((f: Json) => f.id === pick).configuration.valuesFrom).toEqual({ field: 'root[].country' });
      const listed = await ok(await values(pick));
      expect(listed).toEqual({ field: 'root[].country', values: ['DE', 'FR', 'US'], truncated: false, missing: false });
      expect((await ok(await values(pick, `?token=${encodeURIComponent(token)}&search=f`))).values).toEqual(['FR']);
      expect(await ok(await values(pick, `?token=${encodeURIComponent(token)}&limit=1`))).toMatchObject({ values: ['DE'], truncated: true });

      // As the report itself: no token, no values.
      const withoutToken = await values(pick, '');
      const reportWithoutToken = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}` });
      expect(withoutToken.statusCode).toBe(reportWithoutToken.statusCode);
      expect(withoutToken.json().code).toBe(reportWithoutToken.json().code);
      // A filter off the report, or one the link pins, is not there; one without a list has no values.
      expectError(await values(saved['hidden']!.id), 404, 'NOT_FOUND');
      expectError(await values(saved['status']!.id), 404, 'NOT_FOUND');
      expectError(await values(saved['country']!.id), 400, 'VALIDATION_FAILED', 'params.fid');
      expectError(await values('not-a-uuid'), 400, 'VALIDATION_FAILED', 'params.fid');
    });
  });
});
