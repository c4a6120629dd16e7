import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { Person } from '../helpers/fixtures.js';

/*
 * What an alert form asks before it offers e-mail (`GET …/chart/{id}/alert-mediums`), and who may
 * manage alerts: the editors of the chart, with a session or with an API key of a project role.
 * A test send goes through the alert's webhook (a loopback server) and says what it reached.
 */
describe('alert mediums, alert access and test sends', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let chartId: number;
  let hookServer: http.Server;
  const received: { body: any; signature: string | undefined }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    hookServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ body: JSON.parse(body), signature: req.headers['x-plotline-signature'] as string | undefined });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
    t = await buildTestApp({ env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    owner = await t.signup('Owner');
    projectId = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Sales', team_id: owner.teamId } })).json<{ id: number }>().id;
    const chart = await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: owner.token, payload: { name: 'Revenue', type: 'kpi' } });
    expect(chart.statusCode, chart.body).toBe(200);
    chartId = chart.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => hookServer?.close(resolve));
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

  it('a test send goes through the webhook, signed and marked as a test, and is not kept as an event', async () => {
    const port = (hookServer.address() as { port: number }).port;
    const created = await t.request({
      method: 'POST',
      url: `/project/${projectId}/chart/${chartId}/alert`,
      token: owner.token,
      payload: { type: 'milestone', rules: { value: 5 }, mediums: { webhook: { enabled: true, url: `http://127.0.0.1:${port}/hook` } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const alertId = created.json<{ id: number }>().id;
    const sent = await t.request({ method: 'POST', url: `/project/${projectId}/chart/${chartId}/alert/${alertId}/test`, token: owner.token });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<{ deliveries: { medium: string; ok: boolean }[] }>().deliveries).toEqual([expect.objectContaining({ medium: 'webhook', ok: true })]);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toMatchObject({ event: 'alert.test', value: null, run_id: null, alert: { id: alertId, type: 'milestone' } });
    expect(received[0]!.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    const events = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${chartId}/alert/${alertId}`, token: owner.token })).json<{ events: unknown[] }>().events;
    expect(events).toEqual([]);
    expect((await t.request({ method: 'POST', url: `/project/${projectId}/chart/${chartId}/alert/999999/test`, token: owner.token })).statusCode).toBe(404);
  });
});
