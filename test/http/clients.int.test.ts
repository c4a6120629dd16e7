import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/**
 * The two public clients of this API, replayed call by call with their exact transport habits:
 * the MCP client sends `Content-Type: application/json` and the bearer on every call (GET and
 * DELETE without a body included) and JSON-encodes object query values; the CLI sends
 * `Accept: application/json`, a content type only with a body, and never a query string.
 */
describe('public client request shapes', () => {
  let t: TestApp;
  let db: { url: string; drop(): Promise<void> };
  let token: string;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), "create table sales (month text, revenue numeric); insert into sales values ('2025-01', 10), ('2025-02', 20);");
    t = await buildTestApp();
    token = (await t.signup('Client')).token;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  /** The MCP transport. */
  const mcp = async (method: string, path: string, payload?: unknown, query?: Record<string, unknown>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined || v === null) continue;
      qs.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const res = await t.app.inject({
      method: method as 'GET',
      url: `${path}${qs.size ? `?${qs}` : ''}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    t.bodies.push(res.body);
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
    return res.json();
  };

  /** The CLI transport: body bytes as given, no query strings. */
  const cli = async (method: string, path: string, data?: string) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: path,
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(data === undefined ? {} : { payload: data }),
    });
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
    return res.body === '' ? null : JSON.parse(res.body);
  };

  it('replays every MCP call and gets the documented shapes', async () => {
    expect(Array.isArray(await mcp('GET', '/team'))).toBe(true);
    const team = await mcp('POST', '/team', { name: 'MCP team', showBranding: true, allowReportRefresh: false, allowReportExport: false });
    expect(team).toMatchObject({ id: expect.any(Number), name: 'MCP team', TeamRoles: expect.any(Array) });
    const teamId = team.id;
    expect((await mcp('GET', `/team/${teamId}`)).id).toBe(teamId);
    expect(await mcp('PUT', `/team/${teamId}`, { name: 'MCP team 2', showBranding: false, allowReportRefresh: true, allowReportExport: true })).toMatchObject({ name: 'MCP team 2', showBranding: false });

    const providers = await mcp('GET', '/connection-providers');
    expect(providers.map((p: { subType: string }) => p.subType)).toEqual(expect.arrayContaining(['postgres', 'timescaledb', 'mysql', 'rdsMysql', 'api', 'mongodb', 'firestore', 'realtimedb', 'googleAnalytics', 'customerio']));
    for (const p of providers) expect(p).toMatchObject({ id: expect.any(String), type: expect.any(String), name: expect.any(String), category: expect.any(String), capabilities: expect.any(Object) });

    const url = new URL(db.url);
    const connection = await mcp('POST', `/team/${teamId}/connections`, {
      name: 'Production Database', type: 'postgres', subType: 'postgres', host: url.hostname, port: url.port || '5432', username: decodeURIComponent(url.username),
      ssl: false, sslMode: 'disable', options: {},
    });
    expect(connection).toMatchObject({ id: expect.any(Number), team_id: teamId, name: 'Production Database', type: 'postgres', port: url.port || '5432' });
    // The MCP create keys have no dbName; a connection to a non-default database gets it by update.
    await mcp('PUT', `/team/${teamId}/connections/${connection.id}`, { dbName: url.pathname.slice(1) });
    expect((await mcp('GET', `/team/${teamId}/connections`)).map((c: { id: number }) => c.id)).toContain(connection.id);
    expect((await mcp('GET', `/team/${teamId}/connections/${connection.id}`)).id).toBe(connection.id);
    expect(await mcp('GET', `/team/${teamId}/connections/${connection.id}/test`)).toEqual({ success: true });
    const schema = await mcp('GET', `/team/${teamId}/connections/${connection.id}/schema`);
    expect(JSON.stringify(schema.schema)).toContain('sales');

    const project = await mcp('POST', '/project', { name: 'sales-dashboard', team_id: teamId, dashboardTitle: 'Sales Performance Dashboard', description: 'Monthly sales analytics and KPIs' });
    expect(project).toMatchObject({ id: expect.any(Number), brewName: expect.any(String), public: false, Charts: [] });
    const updatedConnection = await mcp('PUT', `/team/${teamId}/connections/${connection.id}`, { name: 'Prod', project_ids: [String(project.id)] });
    expect(updatedConnection.project_ids).toEqual([String(project.id)]);

    const dataset = await mcp('POST', `/team/${teamId}/datasets`, {
      team_id: teamId, project_ids: [project.id], name: 'Sales Dataset', connection_id: connection.id, type: 'postgres', query: '', datasetColor: '#4F46E5', dateField: 'month', dateFormat: 'YYYY-MM', legend: 'Sales', configuration: {},
    });
    expect(dataset).toMatchObject({ id: expect.any(Number), name: 'Sales Dataset', team_id: teamId });
    const quick = await mcp('POST', `/team/${teamId}/datasets/quick-create`, {
      team_id: teamId, project_ids: [project.id], draft: false, name: 'Revenue', dimension: 'root[].month', metric: 'root[].revenue', metricOperation: 'sum',
      dataRequests: [{ connection_id: connection.id, query: 'select month, revenue from sales order by month' }], main_dr_index: 0, variableBindings: [],
    });
    expect(quick).toMatchObject({ xAxis: 'root[].month', yAxis: 'root[].revenue', yAxisOperation: 'sum', DataRequests: [expect.any(Object)] });
    expect((await mcp('GET', `/team/${teamId}/datasets/${quick.id}`)).id).toBe(quick.id);
    expect((await mcp('PUT', `/team/${teamId}/datasets/${dataset.id}`, {})).id).toBe(dataset.id);
    expect((await mcp('GET', `/team/${teamId}/datasets`)).length).toBeGreaterThanOrEqual(2);
    const requests = await mcp('GET', `/team/${teamId}/datasets/${quick.id}/dataRequests`);
    const run = await mcp('POST', `/team/${teamId}/datasets/${quick.id}/dataRequests/${requests[0].id}/request`);
    expect(run.dataRequest.responseData.data).toEqual([{ month: '2025-01', revenue: 10 }, { month: '2025-02', revenue: 20 }]);
    expect((await mcp('POST', `/team/${teamId}/datasets/${quick.id}/dataRequests/${requests[0].id}/request`, { getCache: false })).options.id).toBe(quick.id);
    const fetched = await mcp('GET', `/team/${teamId}/datasets/${quick.id}/request`, undefined, { noSource: false, getCache: false, filters: { month: '2025-02' } });
    expect(fetched).toMatchObject({ options: { id: quick.id }, data: [{ month: '2025-02', revenue: 20 }] });

    expect((await mcp('GET', `/project/team/${teamId}`)).map((p: { id: number }) => p.id)).toContain(project.id);
    const updatedProject = await mcp('PUT', `/project/${project.id}`, {
      name: 'Sales', dashboardTitle: 'Sales', description: 'd', backgroundColor: '#103751', titleColor: 'white', headerCode: '', footerCode: '', public: false, passwordProtected: false,
      timezone: 'Europe/Paris', updateSchedule: { timezone: 'Europe/Paris', frequency: 'every_x_minutes', frequencyNumber: '30', time: { hour: 0, minute: 0, second: 0, millisecond: 0 } },
    });
    expect(updatedProject).toMatchObject({ timezone: 'Europe/Paris', updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '30' } });
    const policy = await mcp('POST', `/project/${project.id}/share/policy`);
    expect(policy).toMatchObject({ entity_type: 'Project', entity_id: project.id, params: [], allow_params: false, share_string: expect.any(String) });
    expect(await mcp('PUT', `/project/${project.id}/share/policy/${policy.id}`, { params: [{ key: 'region', value: 'eu' }], allow_params: true, expires_at: '2099-01-01T00:00:00.000Z' })).toMatchObject({ allow_params: true });

    const plain = await mcp('POST', `/project/${project.id}/chart`, { name: 'Plain', type: 'bar', ChartDatasetConfigs: [] });
    expect(plain).toMatchObject({ id: expect.any(Number), name: 'Plain', type: 'bar', ChartDatasetConfigs: [] });
    const chart = await mcp('POST', `/project/${project.id}/chart/quick-create`, {
      project_id: project.id, name: 'Monthly Revenue', type: 'line', chartDatasetConfigs: [{ dataset_id: quick.id, xAxis: 'root[].month', yAxis: 'root[].revenue', yAxisOperation: 'sum', legend: 'Revenue' }],
    });
    expect(chart.ChartDatasetConfigs).toHaveLength(1);
    const cdc = await mcp('POST', `/project/${project.id}/chart/${chart.id}/chart-dataset-config`, {
      dataset_id: quick.id, xAxis: 'root[].month', xAxisOperation: 'none', yAxis: 'root[].revenue', yAxisOperation: 'sum', dateField: 'root[].month', dateFormat: 'YYYY-MM-DD',
      datasetColor: '#000000', fillColor: '#ffffff', legend: 'Dataset', pointRadius: 5, maxRecords: 100, configuration: { variables: [] },
    });
    expect(cdc.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await mcp('PUT', `/project/${project.id}/chart/${chart.id}/chart-dataset-config/${cdc.id}`, { legend: 'Revenue 2' })).legend).toBe('Revenue 2');
    expect(await mcp('DELETE', `/project/${project.id}/chart/${chart.id}/chart-dataset-config/${cdc.id}`)).toEqual({ removed: true });
    const queried = await mcp('POST', `/project/${project.id}/chart/${chart.id}/query`, undefined, { no_source: false, skip_parsing: false, getCache: false });
    expect(queried.chartData.data).toMatchObject({ labels: ['2025-01', '2025-02'], datasets: [{ label: 'Revenue', data: [10, 20] }] });
    expect((await mcp('POST', `/project/${project.id}/chart/${chart.id}/query`, { filters: [{ field: 'month', operator: 'is', value: '2025-01' }] })).chartData.data.labels).toEqual(['2025-01']);
    expect((await mcp('GET', `/project/${project.id}/chart/${chart.id}`)).chartData.data.labels).toEqual(['2025-01', '2025-02']);
    const dashboard = await mcp('GET', `/project/${project.id}`);
    expect(dashboard.Charts.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([plain.id, chart.id]));
    const chartPolicy = await mcp('POST', `/project/${project.id}/chart/${chart.id}/share/policy`);
    expect(chartPolicy).toMatchObject({ entity_type: 'Chart', entity_id: chart.id });
    expect((await mcp('PUT', `/project/${project.id}/chart/${chart.id}/share/policy/${chartPolicy.id}`, { params: [], allow_params: false })).id).toBe(chartPolicy.id);

    expect(await mcp('DELETE', `/project/${project.id}/chart/${chart.id}/share/policy/${chartPolicy.id}`)).toEqual({ deleted: true });
    expect(await mcp('DELETE', `/project/${project.id}/chart/${chart.id}`)).toEqual({ deleted: true });
    expect(await mcp('DELETE', `/project/${project.id}/share/policy/${policy.id}`)).toEqual({ deleted: true });
    expect(await mcp('DELETE', `/project/${project.id}`)).toEqual({ removed: true });
    expect(await mcp('DELETE', `/team/${teamId}/datasets/${dataset.id}`)).toBe(true);
    expect(await mcp('DELETE', `/team/${teamId}/connections/${connection.id}`, undefined, { removeDatasets: true })).toEqual({ removed: true });
    expect(await mcp('GET', `/team/${teamId}/datasets`)).toEqual([]);
  });

  it('replays the CLI commands (bodies byte for byte, no query strings)', async () => {
    const team = await cli('POST', '/team', '{"name":"demo"}');
    expect(team.name).toBe('demo');
    expect((await cli('GET', '/team')).length).toBeGreaterThan(0);
    expect((await cli('GET', `/team/${team.id}`)).id).toBe(team.id);
    expect((await cli('PUT', `/team/${team.id}`, '{"name":"demo 2"}')).name).toBe('demo 2');
    const project = await cli('POST', '/project', JSON.stringify({ name: 'cli board', team_id: team.id }));
    expect((await cli('GET', `/project/team/${team.id}`)).map((p: { id: number }) => p.id)).toContain(project.id);
    expect((await cli('GET', `/project/${project.id}`)).id).toBe(project.id);
    expect((await cli('PUT', `/project/${project.id}`, '{"description":"from the cli"}')).description).toBe('from the cli');
    const connection = await cli('POST', `/team/${team.id}/connections`, '{"name":"api","type":"api","host":"https://example.com"}');
    expect((await cli('GET', `/team/${team.id}/connections`)).length).toBe(1);
    expect((await cli('GET', `/team/${team.id}/connections/${connection.id}`)).name).toBe('api');
    expect((await cli('PUT', `/team/${team.id}/connections/${connection.id}`, '{"name":"api 2"}')).name).toBe('api 2');
    const dataset = await cli('POST', `/team/${team.id}/datasets`, JSON.stringify({ team_id: team.id, name: 'ds', connection_id: connection.id }));
    expect((await cli('GET', `/team/${team.id}/datasets`)).length).toBe(1);
    expect((await cli('GET', `/team/${team.id}/datasets/${dataset.id}`)).name).toBe('ds');
    expect((await cli('PUT', `/team/${team.id}/datasets/${dataset.id}`, '{"name":"ds2"}')).name).toBe('ds2');
    const request = await cli('POST', `/team/${team.id}/datasets/${dataset.id}/dataRequests`, JSON.stringify({ connection_id: connection.id, route: '/users', useGlobalHeaders: true, pagination: false, items: 'items' }));
    expect((await cli('GET', `/team/${team.id}/datasets/${dataset.id}/dataRequests`)).length).toBe(1);
    expect((await cli('GET', `/team/${team.id}/datasets/${dataset.id}/dataRequests/${request.id}`)).route).toBe('/users');
    expect((await cli('PUT', `/team/${team.id}/datasets/${dataset.id}/dataRequests/${request.id}`, '{"route":"/v2/users"}')).route).toBe('/v2/users');
    const chart = await cli('POST', `/project/${project.id}/chart`, '{"name":"c","type":"kpi"}');
    expect((await cli('GET', `/project/${project.id}/chart`)).map((c: { id: number }) => c.id)).toEqual([chart.id]);
    expect((await cli('GET', `/project/${project.id}/chart/${chart.id}`)).type).toBe('kpi');
    expect((await cli('PUT', `/project/${project.id}/chart/${chart.id}`, '{"name":"c2"}')).name).toBe('c2');
    expect(await cli('DELETE', `/project/${project.id}/chart/${chart.id}`)).toEqual({ deleted: true });
    expect(await cli('DELETE', `/project/${project.id}`)).toEqual({ removed: true });
    expect(await cli('DELETE', `/team/${team.id}/datasets/${dataset.id}`)).toBe(true);
  });
});
