import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('operations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      beforeReady(app) {
        app.get('/__boom', async () => {
          throw new Error('database password=hunter2 exploded at /srv/secret.ts:12');
        });
      },
    });
  });
  afterAll(() => t.close());

  it('/healthz and /readyz answer without a token', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'disabled' } });
  });

  it('/readyz is 503 when the store is gone', async () => {
    const other = await buildTestApp();
    await other.container.store.close();
    const res = await other.request({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'NOT_READY' });
    await other.app.close();
  });

  it('/metrics has request counts and latency histograms by route pattern', async () => {
    const me = await t.signup('Metric');
    await t.request({ method: 'GET', url: `/team/${me.teamId}`, token: me.token });
    const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/plotline_http_requests_total\{method="GET",route="\/team\/:team_id",status_code="200"\} \d+/);
    expect(text).toMatch(/plotline_http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/team\/:team_id",status_code="200"\}/);
    expect(text).not.toContain(`/team/${me.teamId}"`);
  });

  it('/openapi.json is OpenAPI 3.1 and lists every route with its schemas', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const route of [
      'POST /user',
      'POST /user/login',
      'POST /user/logout',
      'GET /user/me',
      'POST /team',
      'GET /team',
      'GET /team/{team_id}',
      'PUT /team/{team_id}',
      'DELETE /team/{team_id}',
      'GET /team/user/{user_id}',
      'GET /team/{team_id}/members',
      'POST /team/{team_id}/members',
      'PUT /team/{team_id}/members/{user_id}',
      'DELETE /team/{team_id}/members/{user_id}',
      'POST /team/{team_id}/apikey',
      'GET /team/{team_id}/apikey',
      'DELETE /team/{team_id}/apikey/{id}',
      'GET /healthz',
      'GET /readyz',
      'GET /connection-providers',
      'GET /team/{team_id}/connections',
      'POST /team/{team_id}/connections',
      'GET /team/{team_id}/connections/{connection_id}',
      'PUT /team/{team_id}/connections/{connection_id}',
      'DELETE /team/{team_id}/connections/{connection_id}',
      'POST /team/{team_id}/connections/{connection_id}/files',
      'GET /team/{team_id}/connections/{connection_id}/test',
      'GET /team/{team_id}/connections/{connection_id}/schema',
      'GET /team/{team_id}/datasets',
      'POST /team/{team_id}/datasets',
      'POST /team/{team_id}/datasets/quick-create',
      'GET /team/{team_id}/datasets/{dataset_id}',
      'PUT /team/{team_id}/datasets/{dataset_id}',
      'DELETE /team/{team_id}/datasets/{dataset_id}',
      'GET /team/{team_id}/datasets/{dataset_id}/request',
      'POST /team/{team_id}/datasets/{dataset_id}/request',
      'POST /team/{team_id}/datasets/{dataset_id}/dataRequests',
      'GET /team/{team_id}/datasets/{dataset_id}/dataRequests',
      'GET /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}',
      'PUT /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}',
      'DELETE /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}',
      'POST /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/request',
      'POST /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings',
      'PUT /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}',
      'DELETE /team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}',
      'GET /project/team/{team_id}',
      'POST /project',
      'GET /project/{id}',
      'PUT /project/{id}',
      'DELETE /project/{id}',
      'GET /project/{project_id}/chart',
      'POST /project/{project_id}/chart',
      'POST /project/{project_id}/chart/quick-create',
      'GET /project/{project_id}/chart/{id}',
      'PUT /project/{project_id}/chart/{id}',
      'DELETE /project/{project_id}/chart/{id}',
      'POST /project/{project_id}/chart/{id}/query',
      'POST /project/{project_id}/chart/{id}/chart-dataset-config',
      'PUT /project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}',
      'DELETE /project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}',
    ]) {
      expect(routes).toContain(route);
    }
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    const put = doc.paths['/team/{team_id}'].put;
    expect(put.requestBody.content['application/json'].schema.properties.name.type).toBe('string');
    expect(put.responses['403'].content['application/json'].schema.required).toContain('code');
    expect(doc.paths['/user/login'].post.security).toEqual([]);
  });

  it('serves a docs UI at /docs', async () => {
    const res = await t.request({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('unknown routes are a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/nope/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Route GET /nope/nothing not found', code: 'ROUTE_NOT_FOUND' });
  });

  it('a failure inside is a generic 500; details only in the log, with the request id', async () => {
    const res = await t.request({ method: 'GET', url: '/__boom', headers: { 'x-request-id': 'trace-500' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
    expect(res.headers['x-request-id']).toBe('trace-500');
    const line = t.logs.lines.map((l) => JSON.parse(l)).find((l) => l.reqId === 'trace-500' && l.level === 50);
    expect(line?.err?.message).toContain('exploded');
  });

  it('x-request-id: honours a sane incoming id, mints one otherwise, and every log line of a request carries it', async () => {
    const given = await t.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const minted = await t.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces\n' } });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const lines = t.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(typeof line.reqId).toBe('string');
  });

  it('logs never carry passwords, tokens, or authorization headers', async () => {
    const password = 'super-secret-password-77';
    const res = await t.request({ method: 'POST', url: '/user', payload: { name: 'Log', email: 'log@example.com', password } });
    const token = res.json().token as string;
    await t.request({ method: 'GET', url: '/user/me', token });
    await t.request({ method: 'GET', url: `/chart/share/abc?token=${token}&theme=dark` });
    await t.request({ method: 'POST', url: '/user/login', payload: { email: 'log@example.com', password: 'wrong-password-99' } });
    t.app.log.info({ password, token, headers: { authorization: `Bearer ${token}` } }, 'an object with secrets');
    const text = t.logs.text;
    expect(text).not.toContain(password);
    expect(text).not.toContain('wrong-password-99');
    expect(text).not.toContain(token);
    expect(text).toContain('********');
  });

  it('bodies over 1 MiB are a 413; a JSON content type with an empty body is fine', async () => {
    const me = await t.signup('Big');
    const big = await t.request({ method: 'PUT', url: `/team/${me.teamId}`, token: me.token, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('PAYLOAD_TOO_LARGE');
    const empty = await t.request({ method: 'POST', url: '/user/logout', token: me.token, headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(200);
  });
});
