import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sharedUser, type Person } from '../helpers/fixtures.js';

type Json = Record<string, any>;

/**
 * A report's filters as a share link's viewers receive them: a variable filter on a parameter the
 * link's policy pins is left out (the report page never offers it, and the pinned value stays
 * private); other links of the same dashboard, and its other filters, are not affected.
 */
describe('report filters of a link with pinned params', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let brewName: string;
  const ids: Record<string, string> = {};

  async function ok(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json): Promise<Json> {
    const res = await t.request({ method, url, token: owner.token, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function link(params: { key: string; value: string }[]): Promise<string> {
    const policy = await ok('POST', `/project/${projectId}/share/policy`);
    await ok('PUT', `/project/${projectId}/share/policy/${policy.id}`, { params });
    return (await ok('POST', `/project/${projectId}/share/token`, { sharePolicyId: policy.id })).token;
  }
  async function reportFilters(token: string): Promise<Json[]> {
    const res = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${token}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().DashboardFilters;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await sharedUser(t, 'pinned-filters-owner');
    const project = await ok('POST', '/project', { name: 'Pinned', team_id: owner.teamId });
    projectId = project.id;
    brewName = project.brewName;
    const add = async (name: string, configuration: Json) => (ids[name] = (await ok('POST', `/project/${projectId}/dashboard-filter`, { configuration, onReport: true })).id);
    await add('period', { type: 'date', preset: 'last_30_days' });
    await add('tenant', { type: 'variable', variable: 'tenant', dataType: 'string', value: 'acme', allowValueChange: true });
    await add('region', { type: 'variable', variable: 'region', dataType: 'string', allowValueChange: true });
  });
  afterAll(() => t?.close());

  it('leaves out the filters of pinned variables, and only those', async () => {
    const pinned = await link([{ key: 'tenant', value: 'secret-tenant-7' }]);
    const res = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${pinned}` });
    expect(res.json().DashboardFilters.map((f: Json) => f.id)).toEqual([ids['period'], ids['region']]);
    expect(res.body).not.toContain('secret-tenant-7');
    expect(res.body).not.toContain('"tenant"');

    const open = await link([]);
    expect((await reportFilters(open)).map((f) => f.id)).toEqual([ids['period'], ids['tenant'], ids['region']]);
  });

  it('a state sent for a pinned filter anyway is refused, naming the parameter', async () => {
    const pinned = await link([{ key: 'tenant', value: 'acme' }]);
    const res = await t.request({ method: 'POST', url: `/project/dashboard/${brewName}/filter?token=${pinned}`, payload: { filters: [{ id: ids['tenant'], type: 'variable', variable: 'tenant', value: 'other' }] } });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('SHARE_PARAM_LOCKED');
    expect(res.json().error).toContain('tenant');
  });
});
