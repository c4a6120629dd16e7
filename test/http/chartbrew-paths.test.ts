import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/*
 * Every route of Chartbrew's server (/work/shared/reference/chartbrew-server.md, sections 1 and 2,
 * and the calls of its web app that the API contract names), with example ids. Plotline serves web
 * pages beside its API: the editor at /app/ and /app/*, the report and embed pages. None of those
 * page paths may take a request that Chartbrew's client means for the API. A route Plotline does
 * not have answers a JSON 404, which is fine here: what matters is that no page answers instead.
 */
const CHARTBREW_ROUTES: readonly (readonly [string, string])[] = [
  // users and sessions
  ['POST', '/user'],
  ['POST', '/user/login'],
  ['POST', '/user/5/2fa/2/login'],
  ['POST', '/user/relog'],
  ['POST', '/user/invited'],
  ['GET', '/user/5'],
  ['PUT', '/user/5'],
  ['GET', '/user'],
  ['GET', '/app/users'],
  ['GET', '/update'],
  // teams, members, invitations, API keys
  ['GET', '/team'],
  ['GET', '/team/3'],
  ['POST', '/team'],
  ['PUT', '/team/3'],
  ['DELETE', '/team/3'],
  ['PUT', '/team/3/transfer'],
  ['POST', '/team/3/invite'],
  ['POST', '/team/user/5'],
  ['GET', '/team/3/members'],
  ['PUT', '/team/3/role'],
  ['DELETE', '/team/3/member/5'],
  ['POST', '/team/3/apikey'],
  ['GET', '/team/3/apikey'],
  ['DELETE', '/team/3/apikey/abc'],
  ['GET', '/team/3/update-runs'],
  ['GET', '/team/3/update-runs/4'],
  // connections
  ['GET', '/team/3/connections'],
  ['POST', '/team/3/connections'],
  ['GET', '/team/3/connections/4'],
  ['PUT', '/team/3/connections/4'],
  ['DELETE', '/team/3/connections/4'],
  ['POST', '/team/3/connections/4/duplicate'],
  ['POST', '/team/3/connections/4/files'],
  ['GET', '/team/3/connections/4/test'],
  ['POST', '/team/3/connections/4/apiTest'],
  ['POST', '/team/3/connections/postgres/test'],
  ['POST', '/team/3/connections/postgres/test/files'],
  ['POST', '/team/3/connections/4/update-schema'],
  ['POST', '/team/3/connections/4/source-action'],
  ['GET', '/project/7/connection'],
  ['GET', '/connection'],
  // datasets, data requests, variable bindings
  ['GET', '/team/3/datasets'],
  ['POST', '/team/3/datasets'],
  ['GET', '/team/3/datasets/6'],
  ['PUT', '/team/3/datasets/6'],
  ['DELETE', '/team/3/datasets/6'],
  ['DELETE', '/team/3/datasets/drafts'],
  ['POST', '/team/3/datasets/quick-create'],
  ['POST', '/team/3/datasets/6/duplicate'],
  ['GET', '/team/3/datasets/6/request'],
  ['POST', '/team/3/datasets/6/request'],
  ['GET', '/team/3/datasets/6/charts'],
  ['POST', '/team/3/datasets/6/variableBindings'],
  ['PUT', '/team/3/datasets/6/variableBindings/2'],
  ['DELETE', '/team/3/datasets/6/variableBindings/2'],
  ['GET', '/team/3/datasets/6/dataRequests'],
  ['POST', '/team/3/datasets/6/dataRequests'],
  ['GET', '/team/3/datasets/6/dataRequests/8'],
  ['PUT', '/team/3/datasets/6/dataRequests/8'],
  ['DELETE', '/team/3/datasets/6/dataRequests/8'],
  ['GET', '/team/3/datasets/6/dataRequests/8/builder-metadata'],
  ['POST', '/team/3/datasets/6/dataRequests/8/request'],
  ['POST', '/team/3/datasets/6/dataRequests/8/askAi'],
  ['POST', '/team/3/datasets/6/dataRequests/8/variableBindings'],
  ['PUT', '/team/3/datasets/6/dataRequests/8/variableBindings/2'],
  ['DELETE', '/team/3/datasets/6/dataRequests/8/variableBindings/2'],
  // projects (dashboards), filters, variables, sharing
  ['POST', '/project'],
  ['GET', '/project'],
  ['GET', '/project/7'],
  ['PUT', '/project/7'],
  ['DELETE', '/project/7'],
  ['GET', '/project/team/3'],
  ['POST', '/project/7/logo'],
  ['GET', '/project/7/variables'],
  ['POST', '/project/7/variables'],
  ['PUT', '/project/7/variables/2'],
  ['DELETE', '/project/7/variables/2'],
  ['POST', '/project/7/dashboard-filter'],
  ['GET', '/project/7/dashboard-filters'],
  ['PUT', '/project/7/dashboard-filters/order'],
  ['GET', '/project/7/dashboard-filter/0b7a2d4e-6c1f-4a8e-9d3b-2f5e7c9a1b4d'],
  ['PUT', '/project/7/dashboard-filter/0b7a2d4e-6c1f-4a8e-9d3b-2f5e7c9a1b4d'],
  ['DELETE', '/project/7/dashboard-filter/0b7a2d4e-6c1f-4a8e-9d3b-2f5e7c9a1b4d'],
  ['POST', '/project/7/snapshot'],
  ['POST', '/project/7/template/custom'],
  ['GET', '/team/1/template'],
  ['POST', '/team/1/template'],
  ['GET', '/team/1/template/generate/7'],
  ['GET', '/team/1/template/custom/3'],
  ['PUT', '/team/1/template/3'],
  ['DELETE', '/team/1/template/3'],
  ['POST', '/project/7/share/policy'],
  ['GET', '/project/7/share/policy'],
  ['PUT', '/project/7/share/policy/2'],
  ['DELETE', '/project/7/share/policy/2'],
  ['POST', '/project/7/share/token'],
  ['GET', '/project/dashboard/sales_7'],
  ['GET', '/project/sales_7/report'],
  ['GET', '/project/2024/report'],
  // charts, chart dataset configs, alerts, chart sharing
  ['GET', '/project/7/chart'],
  ['POST', '/project/7/chart'],
  ['GET', '/project/7/chart/9'],
  ['PUT', '/project/7/chart/9'],
  ['DELETE', '/project/7/chart/9'],
  ['POST', '/project/7/chart/quick-create'],
  ['PUT', '/project/7/chart/9/order'],
  ['POST', '/project/7/chart/9/query'],
  ['POST', '/project/7/chart/9/filter'],
  ['POST', '/project/7/chart/test'],
  ['POST', '/project/7/chart/preview'],
  ['POST', '/project/7/chart/export'],
  ['POST', '/project/7/chart/export/public/9'],
  ['POST', '/project/7/chart/9/chart-dataset-config'],
  ['PUT', '/project/7/chart/9/chart-dataset-config/0b7a2d4e-6c1f-4a8e-9d3b-2f5e7c9a1b4d'],
  ['DELETE', '/project/7/chart/9/chart-dataset-config/0b7a2d4e-6c1f-4a8e-9d3b-2f5e7c9a1b4d'],
  ['GET', '/project/7/chart/9/alert'],
  ['POST', '/project/7/chart/9/alert'],
  ['PUT', '/project/7/chart/9/alert/2'],
  ['DELETE', '/project/7/chart/9/alert/2'],
  ['POST', '/project/7/chart/9/share/policy'],
  ['GET', '/project/7/chart/9/share/policy'],
  ['PUT', '/project/7/chart/9/share/policy/2'],
  ['DELETE', '/project/7/chart/9/share/policy/2'],
  ['POST', '/project/7/chart/9/share/token'],
  ['POST', '/project/7/chart/9/share'],
  ['DELETE', '/project/7/chart/9/share/2'],
  // public chart routes
  ['GET', '/chart/share/Zm9vYmFyYmF6cXV4cXV1eA'],
  ['GET', '/chart/9'],
  ['POST', '/chart/9/query'],
];

/**
 * Where a page of Plotline's takes a path of Chartbrew's API, and why that is right. Chartbrew's
 * `GET /chart/{share_string}/embedded` is its deprecated embed data route (its client reads
 * `GET /chart/share/{share_string}` instead); Plotline serves its embed page there, at the address
 * its share links name.
 */
const PAGES_BY_DESIGN = new Map([['GET /chart/Zm9vYmFyYmF6cXV4cXV1eA/embedded', 'the embed page of Plotline share links']]);

describe("Chartbrew's API paths are never taken by a page", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A page, or the page routes' redirects (`/`, `/app`). */
  const isPage = (res: { statusCode: number; headers: Record<string, unknown> }) =>
    String(res.headers['content-type'] ?? '').startsWith('text/html') || (res.statusCode >= 300 && res.statusCode < 400);

  it.each(CHARTBREW_ROUTES)('%s %s is answered by the API', async (method, url) => {
    const res = await t.request({ method: method as 'GET', url, headers: { accept: 'application/json', 'content-type': 'application/json' } });
    expect(isPage(res), `${method} ${url} -> ${res.statusCode} ${String(res.headers['content-type'])}`).toBe(false);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // The page routes answer this JSON while the pages are not built.
    if (res.statusCode >= 400) expect(res.json().code).not.toBe('PAGES_NOT_BUILT');
  });

  it('the only Chartbrew path under /app/ is GET /app/users, and it is the API answer', () => {
    expect(CHARTBREW_ROUTES.filter(([, url]) => url === '/app' || url.startsWith('/app/'))).toEqual([['GET', '/app/users']]);
  });

  it.each([...PAGES_BY_DESIGN])('%s is a page by design (%s)', async (route) => {
    const [method, url] = route.split(' ') as [string, string];
    const res = await t.request({ method: method as 'GET', url });
    if (res.statusCode === 503) expect(res.json()).toMatchObject({ code: 'PAGES_NOT_BUILT' });
    else expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});
