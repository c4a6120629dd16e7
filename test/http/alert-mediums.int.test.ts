import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { Person } from '../helpers/fixtures.js';

/*
 * What an alert form asks before it offers e-mail (`GET …/chart/{id}/alert-mediums`), and who may
 * manage alerts: the editors of the chart, with a session or with an API key of a project role.
 */
describe('alert mediums and alert access', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let chartId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    projectId = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Sales', team_id: owner.teamId } })).json<{ id: number }>().id;
    const chart = await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload: { name: 'Revenue', type: 'kpi' } });
    expect(chart.statusCode, chart.body).toBe(200);
    chartId = chart.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const key = async (role: string) => {
    const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: role, role, projects: [projectId] } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  };

  it('says whether e-mail is available (no SMTP server here) and that webhooks are', async () => {
    const res = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert-mediums`, token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: { available: false }, webhook: { available: true } });
  });

  it('a projectEditor or projectAdmin API key manages the alerts of its project; a projectViewer key may not', async () => {
    const editor = await key('projectEditor');
    const list = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert`, token: editor });
    expect(list.statusCode, list.body).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/${chartId}/alert`,
      token: editor,
      payload: { type: 'threshold_above', rules: { value: 10 }, mediums: { webhook: { enabled: true, url: 'https://hooks.example.com/x' } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert-mediums`, token: editor })).statusCode).toBe(200);
    const admin = await key('projectAdmin');
    expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert`, token: admin })).statusCode).toBe(200);
    const viewer = await key('projectViewer');
    expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert`, token: viewer })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert-mediums`, token: viewer })).statusCode).toBe(403);
  });
});
