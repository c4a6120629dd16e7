import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';

type Json = Record<string, unknown>;

interface World {
  token: string;
  teamId: number;
  memberId: number;
  projectId: number;
  connectionId: number;
  datasetId: number;
  requestId: number;
  bindingId: number;
  chartId: number;
  cdcId: string;
  dashboardPolicyId: number;
  chartPolicyId: number;
  alertId: number;
  savedQueryId: number;
  integrationId: number;
  filterId: string;
  dashboardTemplateId: number;
  subscriptionId: number;
  chartSubscriptionId: number;
}

/** One PUT route: where its resource is read, and where it is written. */
interface PutCase {
  read(w: World): { url: string; pick?: (answer: unknown) => Json };
  write(w: World): string;
}

const byKey = (key: string, value: unknown) => (answer: unknown) => {
  const items = Array.isArray(answer) ? (answer as Json[]) : [];
  const found = items.find((item) => item[key] === value);
  if (!found) throw new Error(`no item with ${key} = ${String(value)}`);
  return found;
};

/**
 * Every PUT route of the API, by its OpenAPI path. The first test fails when a PUT route is added
 * without a case here.
 */
const PUT_CASES: Record<string, PutCase> = {
  '/team/{team_id}': { read: (w) => ({ url: `/team/${w.teamId}` }), write: (w) => `/team/${w.teamId}` },
  '/team/{team_id}/members/{user_id}': {
    read: (w) => ({ url: `/team/${w.teamId}/members`, pick: byKey('user_id', w.memberId) }),
    write: (w) => `/team/${w.teamId}/members/${w.memberId}`,
  },
  '/team/{team_id}/connections/{connection_id}': {
    read: (w) => ({ url: `/team/${w.teamId}/connections/${w.connectionId}` }),
    write: (w) => `/team/${w.teamId}/connections/${w.connectionId}`,
  },
  '/team/{team_id}/datasets/{dataset_id}': {
    read: (w) => ({ url: `/team/${w.teamId}/datasets/${w.datasetId}` }),
    write: (w) => `/team/${w.teamId}/datasets/${w.datasetId}`,
  },
  '/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}': {
    read: (w) => ({ url: `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}` }),
    write: (w) => `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}`,
  },
  '/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}': {
    read: (w) => ({
      url: `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}`,
      pick: (answer) => byKey('id', w.bindingId)((answer as Json)['VariableBindings']),
    }),
    write: (w) => `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}/variableBindings/${w.bindingId}`,
  },
  '/team/{team_id}/role': {
    read: (w) => ({ url: `/team/${w.teamId}/members`, pick: (answer) => (byKey('user_id', w.memberId)(answer)['TeamRoles'] as Json[])[0]! }),
    write: (w) => `/team/${w.teamId}/role`,
  },
  '/project/{id}': { read: (w) => ({ url: `/project/${w.projectId}` }), write: (w) => `/project/${w.projectId}` },
  '/project/{project_id}/chart/{id}': {
    read: (w) => ({ url: `/project/${w.projectId}/chart/${w.chartId}` }),
    write: (w) => `/project/${w.projectId}/chart/${w.chartId}`,
  },
  '/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}': {
    read: (w) => ({ url: `/project/${w.projectId}/chart/${w.chartId}`, pick: (answer) => byKey('id', w.cdcId)((answer as Json)['ChartDatasetConfigs']) }),
    write: (w) => `/project/${w.projectId}/chart/${w.chartId}/chart-dataset-config/${w.cdcId}`,
  },
  '/project/{id}/share/policy/{policy_id}': {
    read: (w) => ({ url: `/project/${w.projectId}/share/policy`, pick: byKey('id', w.dashboardPolicyId) }),
    write: (w) => `/project/${w.projectId}/share/policy/${w.dashboardPolicyId}`,
  },
  '/project/{project_id}/chart/{id}/share/policy/{policy_id}': {
    read: (w) => ({ url: `/project/${w.projectId}/chart/${w.chartId}/share/policy`, pick: byKey('id', w.chartPolicyId) }),
    write: (w) => `/project/${w.projectId}/chart/${w.chartId}/share/policy/${w.chartPolicyId}`,
  },
  '/project/{project_id}/chart/{id}/alert/{alert_id}': {
    read: (w) => ({ url: `/project/${w.projectId}/chart/${w.chartId}/alert/${w.alertId}` }),
    write: (w) => `/project/${w.projectId}/chart/${w.chartId}/alert/${w.alertId}`,
  },
  '/team/{team_id}/savedQuery/{id}': {
    read: (w) => ({ url: `/team/${w.teamId}/savedQuery`, pick: byKey('id', w.savedQueryId) }),
    write: (w) => `/team/${w.teamId}/savedQuery/${w.savedQueryId}`,
  },
  '/project/{id}/dashboard-filter/{fid}': {
    read: (w) => ({ url: `/project/${w.projectId}/dashboard-filter/${w.filterId}` }),
    write: (w) => `/project/${w.projectId}/dashboard-filter/${w.filterId}`,
  },
  '/project/{id}/dashboard-filters/order': {
    // The order's body is not an answer: it is read as the filters' ids, in order.
    read: (w) => ({ url: `/project/${w.projectId}/dashboard-filters`, pick: (answer) => ({ filterIds: (answer as Json[]).map((f) => f['id']) }) }),
    write: (w) => `/project/${w.projectId}/dashboard-filters/order`,
  },
  '/team/{team_id}/integration/{id}': {
    read: (w) => ({ url: `/team/${w.teamId}/integration/${w.integrationId}` }),
    write: (w) => `/team/${w.teamId}/integration/${w.integrationId}`,
  },
  '/project/{id}/subscriptions/{sid}': {
    read: (w) => ({ url: `/project/${w.projectId}/subscriptions/${w.subscriptionId}` }),
    write: (w) => `/project/${w.projectId}/subscriptions/${w.subscriptionId}`,
  },
  '/project/{project_id}/chart/{id}/subscriptions/{sid}': {
    read: (w) => ({ url: `/project/${w.projectId}/chart/${w.chartId}/subscriptions/${w.chartSubscriptionId}` }),
    write: (w) => `/project/${w.projectId}/chart/${w.chartId}/subscriptions/${w.chartSubscriptionId}`,
  },
  '/team/{team_id}/template/{template_id}': {
    read: (w) => ({ url: `/team/${w.teamId}/template/custom/${w.dashboardTemplateId}` }),
    write: (w) => `/team/${w.teamId}/template/${w.dashboardTemplateId}`,
  },
};

/** What may move when the same values are written again. */
function settled(value: Json): Json {
  const { updatedAt: _updatedAt, ...rest } = value;
  return rest;
}

describe.each<StoreKind>(['sqlite', 'postgres'])('write bodies: answers sent back (%s)', (store) => {
  let t: TestApp;
  let w: World;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.request({ method, url, token: w.token, ...(payload === undefined ? {} : { payload: payload as Json }) });
    return res;
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<Json> => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json<Json>();
  };
  const read = async (c: PutCase): Promise<Json> => {
    const { url, pick } = c.read(w);
    const answer = await ok('GET', url);
    return pick ? pick(answer) : answer;
  };

  beforeAll(async () => {
    // The integration's webhook is on loopback; the address policy must let it be saved.
    t = await buildTestApp({ store, env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    const owner = await t.signup('Owner');
    const member = await t.signup('Member');
    w = { token: owner.token, teamId: owner.teamId, memberId: member.userId } as World;
    w.projectId = (await ok('POST', '/project', { name: 'Sales', team_id: w.teamId })).id as number;
    await ok('POST', `/team/${w.teamId}/members`, { email: member.email, role: 'projectEditor', projects: [w.projectId] });
    w.connectionId = (
      await ok('POST', `/team/${w.teamId}/connections`, {
        name: 'Shop',
        type: 'postgres',
        host: 'db.example.com',
        port: '5432',
        dbName: 'shop',
        username: 'reader',
        password: 'a secret',
        project_ids: [w.projectId],
      })
    ).id as number;
    w.datasetId = (await ok('POST', `/team/${w.teamId}/datasets`, { name: 'Orders', project_ids: [w.projectId] })).id as number;
    const base = `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests`;
    w.requestId = (await ok('POST', base, { connection_id: w.connectionId, query: 'select 1 as n', headers: [{ key: 'Authorization', value: 'Bearer abc' }] })).id as number;
    const withBinding = await ok('POST', `${base}/${w.requestId}/variableBindings`, { name: 'country', type: 'string', default_value: 'FR' });
    w.bindingId = (withBinding['VariableBindings'] as Json[])[0]!['id'] as number;
    w.chartId = (await ok('POST', `/project/${w.projectId}/chart`, { name: 'Revenue', type: 'line' })).id as number;
    w.cdcId = (await ok('POST', `/project/${w.projectId}/chart/${w.chartId}/chart-dataset-config`, { dataset_id: w.datasetId, xAxis: 'root[].d', yAxis: 'root[].n' })).id as string;
    w.dashboardPolicyId = (await ok('POST', `/project/${w.projectId}/share/policy`)).id as number;
    w.chartPolicyId = (await ok('POST', `/project/${w.projectId}/chart/${w.chartId}/share/policy`)).id as number;
    w.savedQueryId = (await ok('POST', `/team/${w.teamId}/savedQuery`, { summary: 'Paid', query: 'select 1', type: 'postgres' })).id as number;
    w.integrationId = (
      await ok('POST', `/team/${w.teamId}/integration`, { team_id: w.teamId, name: 'Hook', type: 'webhook', config: { url: 'http://127.0.0.1:9/hook?token=abc', slackMode: false } })
    ).id as number;
    w.filterId = (await ok('POST', `/project/${w.projectId}/dashboard-filter`, { configuration: { type: 'date', preset: 'last_7_days' }, onReport: true })).id as string;
    w.dashboardTemplateId = (await ok('POST', `/team/${w.teamId}/template`, { project_id: w.projectId, name: 'Sales board' })).id as number;
    w.alertId = (
      await ok('POST', `/project/${w.projectId}/chart/${w.chartId}/alert`, { type: 'anomaly', alertIntegrations: [{ integration_id: w.integrationId, enabled: true }] })
    ).id as number;
    w.subscriptionId = (
      await ok('POST', `/project/${w.projectId}/subscriptions`, {
        schedule: { frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 9, minute: 0 }, timezone: 'Europe/Paris' },
        format: 'pdf',
        filters: { filters: [], variables: { country: 'FR' } },
        slackWebhooks: ['http://127.0.0.1:9/services/T1/B1/xyz'],
        integrations: [w.integrationId],
        webhook: { url: 'http://127.0.0.1:9/hook?token=abc' },
      })
    ).id as number;
    w.chartSubscriptionId = (
      await ok('POST', `/project/${w.projectId}/chart/${w.chartId}/subscriptions`, { schedule: { frequency: 'monthly', dayOfMonth: 31 }, format: 'png', theme: 'dark', webhook: { url: 'http://127.0.0.1:9/hook' } })
    ).id as number;
  });
  afterAll(() => t?.close());

  it('has a case for every PUT route of the API', () => {
    const paths = Object.entries(t.app.swagger().paths ?? {})
      .filter(([, item]) => item && 'put' in item)
      .map(([path]) => path)
      .sort();
    expect(paths).toEqual(Object.keys(PUT_CASES).sort());
  });

  it.each(Object.keys(PUT_CASES))('PUT %s takes its own answer back unchanged', async (path) => {
    const c = PUT_CASES[path]!;
    const before = await read(c);
    const res = await call('PUT', c.write(w), before);
    expect(res.statusCode, res.body).toBe(200);
    expect(settled(await read(c))).toEqual(settled(before));
  });

  it.each(Object.keys(PUT_CASES))('PUT %s refuses a key it does not know, naming it', async (path) => {
    const c = PUT_CASES[path]!;
    const before = await read(c);
    const res = await call('PUT', c.write(w), { ...before, colour: 'blue' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'body.colour is not a known field', details: [{ path: 'body.colour' }] });
    expect(settled(await read(c))).toEqual(settled(before));
  });

  it('the data request Chartbrew sends back (with Connection, VariableBindings, id, createdAt) is saved, not a 500', async () => {
    const url = `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}`;
    const answer = await ok('GET', url);
    expect(answer['Connection']).toMatchObject({ id: w.connectionId });
    const saved = await ok('PUT', url, { ...answer, query: 'select 2 as n' });
    expect(saved).toMatchObject({ query: 'select 2 as n', headers: [{ key: 'Authorization', value: '********' }], Connection: { id: w.connectionId } });
    // The masked header kept its stored value.
    const stored = await t.container.store.db.selectFrom('data_requests').select('headers').where('id', '=', w.requestId).executeTakeFirstOrThrow();
    expect(t.container.secrets.decrypt(stored.headers ?? '')).toContain('Bearer abc');
  });

  it('creates take an answer (or Chartbrew fields) as their body and ignore its read-only keys', async () => {
    const request = await ok('GET', `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests/${w.requestId}`);
    const copy = await ok('POST', `/team/${w.teamId}/datasets/${w.datasetId}/dataRequests`, { ...request, headers: [] });
    expect(copy['id']).not.toBe(w.requestId);
    expect(copy).toMatchObject({ query: request['query'], dataset_id: w.datasetId, VariableBindings: [] });

    // Its visualization binds the configs of the chart it was read from, which a chart created
    // without configs does not have (a 400 naming the layer: test/http/chart-visualization.int.test.ts).
    const { visualization: _bound, ...chart } = await ok('GET', `/project/${w.projectId}/chart/${w.chartId}`);
    const chartCopy = await ok('POST', `/project/${w.projectId}/chart`, chart);
    expect(chartCopy).toMatchObject({ name: 'Revenue', ChartDatasetConfigs: [] });

    // Chartbrew's connection form adds the project it was opened in.
    const connection = await ok('POST', `/team/${w.teamId}/connections`, { name: 'Form', type: 'mysql', host: 'db.example.com', project_id: String(w.projectId), useSsh: false });
    expect(connection).toMatchObject({ name: 'Form', type: 'mysql' });
    expect(connection['project_id']).toBeUndefined();
  });

  const CREATES: [string, (x: World) => { url: string; body: Json }][] = [
    ['/team/{team_id}/datasets', (x) => ({ url: `/team/${x.teamId}/datasets`, body: { name: 'D' } })],
    ['/team/{team_id}/datasets/{dataset_id}/dataRequests', (x) => ({ url: `/team/${x.teamId}/datasets/${x.datasetId}/dataRequests`, body: { query: 'select 1' } })],
    ['/team/{team_id}/connections', (x) => ({ url: `/team/${x.teamId}/connections`, body: { name: 'C', type: 'postgres' } })],
    ['/project', (x) => ({ url: '/project', body: { name: 'P', team_id: x.teamId } })],
    ['/project/{project_id}/chart', (x) => ({ url: `/project/${x.projectId}/chart`, body: { name: 'C', type: 'bar' } })],
    ['/project/{project_id}/chart/{id}/alert', (x) => ({ url: `/project/${x.projectId}/chart/${x.chartId}/alert`, body: { type: 'anomaly' } })],
    ['/team/{team_id}/savedQuery', (x) => ({ url: `/team/${x.teamId}/savedQuery`, body: { query: 'select 1' } })],
    ['/team/{team_id}/integration', (x) => ({ url: `/team/${x.teamId}/integration`, body: { name: 'I', type: 'webhook', config: { url: 'http://127.0.0.1:9/x' } } })],
  ];

  it.each(CREATES)('POST %s refuses a key it does not know', async (_path, make) => {
    const { url, body } = make(w);
    const res = await call('POST', url, { ...body, colour: 'blue' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.colour', message: 'is not a known field' }] });
    // The same body without the unknown key is fine: the key alone was refused.
    expect((await call('POST', url, body)).statusCode).toBe(200);
  });
});
