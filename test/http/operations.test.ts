import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

  it('/readyz warns, with its status unchanged, when /metrics is reachable from other machines without a token', async () => {
    const readyz = async (env: Record<string, string>) => {
      const app = await buildTestApp({ env });
      try {
        const res = await app.request({ method: 'GET', url: '/readyz' });
        expect(res.statusCode).toBe(200);
        return res.json();
      } finally {
        await app.close();
      }
    };
    const exposed = await readyz({ HOST: '0.0.0.0' });
    expect(exposed).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'disabled' }, warnings: [expect.stringContaining('PLOTLINE_METRICS_TOKEN')] });
    expect(exposed.warnings[0]).toContain('HOST=0.0.0.0');
    expect(await readyz({ HOST: '0.0.0.0', PLOTLINE_METRICS_TOKEN: 'k3y-for-scrapers-91' })).not.toHaveProperty('warnings');
    for (const HOST of ['localhost', '::1', '127.0.0.1']) expect(await readyz({ HOST })).not.toHaveProperty('warnings');
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
    expect(put.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UpdateTeam' });
    expect(doc.components.schemas.UpdateTeam.properties.name.type).toBe('string');
    // Every failure status refers to the one shared error response and its schema.
    expect(put.responses['403']).toEqual({ $ref: '#/components/responses/Error' });
    expect(doc.components.responses.Error.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error.required).toEqual(['error', 'code']);
    expect(doc.components.schemas.Error.properties.details.items.required).toEqual(['path', 'message']);
    expect(doc.paths['/user/login'].post.security).toEqual([]);
  });

  it('serves a docs UI at /docs: one script and one stylesheet, cached for good under their hash, the spec preloaded', async () => {
    for (const url of ['/docs', '/docs/']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const html = (await t.request({ method: 'GET', url: '/docs/' })).body;
    expect(html).toContain('<link rel="preload" href="/openapi.json" as="fetch" crossorigin="anonymous">');
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.map((s) => s.split('/').pop())).toEqual(['swagger-ui-bundle.js', 'docs.js']);
    expect(styles.map((s) => s.split('/').pop())).toEqual(['swagger-ui.css']);
    expect(html).not.toContain('standalone-preset');
    for (const url of [...scripts, ...styles]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['vary']).toBe('accept-encoding');
    }
    const initializer = (await t.request({ method: 'GET', url: scripts[1]! })).body;
    expect(initializer).toContain("url: '/openapi.json'");
    // A path with another hash (an asset changed) is not cached for good; an unknown file is a 404.
    const stale = await t.request({ method: 'GET', url: scripts[0]!.replace(/static\/[^/]+\//, 'static/0000/') });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect((await t.request({ method: 'GET', url: '/docs/static/0000/nope.js' })).statusCode).toBe(404);
  });

  it('sends /docs assets and the spec compressed once ready, and answers a known ETag with 304', async () => {
    const html = (await t.request({ method: 'GET', url: '/docs/' })).body;
    const bundle = /<script src="([^"]+swagger-ui-bundle\.js)"/.exec(html)![1]!;
    const plain = await t.request({ method: 'GET', url: bundle });
    // Compression runs in the background after the first visit: poll until the answer is compressed.
    const until = Date.now() + 30_000;
    let br = await t.request({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    while (br.headers['content-encoding'] !== 'br' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      br = await t.request({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    }
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await t.request({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Each encoding has its own ETag; a known one is a 304 without a body.
    expect(new Set([plain.headers['etag'], br.headers['etag'], gz.headers['etag']]).size).toBe(3);
    const again = await t.request({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const spec = await t.request({ method: 'GET', url: '/openapi.json' });
    expect(spec.headers['cache-control']).toBe('no-cache');
    const specUntil = Date.now() + 30_000;
    let specBr = await t.request({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'br' } });
    while (specBr.headers['content-encoding'] !== 'br' && Date.now() < specUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      specBr = await t.request({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'br' } });
    }
    expect(JSON.parse(brotliDecompressSync(specBr.rawPayload).toString('utf8'))).toEqual(spec.json());
    expect((await t.request({ method: 'GET', url: '/docs/json' })).json()).toEqual(spec.json());
    const unchanged = await t.request({ method: 'GET', url: '/openapi.json', headers: { 'if-none-match': String(spec.headers['etag']) } });
    expect(unchanged.statusCode).toBe(304);
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

  it('one access line per request, when it is answered: method, route with secrets masked, status, time', async () => {
    await t.request({ method: 'GET', url: '/project/1?token=abc-secret-1&theme=dark', headers: { 'x-request-id': 'access-1' } });
    const lines = t.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'access-1' && (l.req || l.res));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/project/1?token=********&theme=dark' }, res: { statusCode: 401 } });
    expect(typeof lines[0].responseTime).toBe('number');
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
