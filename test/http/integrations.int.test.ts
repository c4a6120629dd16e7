import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SecretBox } from '../../src/crypto/secrets.js';
import { now } from '../../src/store/columns.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertProject } from '../helpers/fixtures.js';
import { createDashboard, createSourceDb, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

type Json = Record<string, any>;

interface Hook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const MASK = '********';

/**
 * Integrations (alert channels) as Chartbrew's client manages them (client/src/slices/integration.js,
 * WebhookIntegrations.jsx), and alerts that notify them (DatasetAlerts.jsx), against a loopback
 * webhook receiver.
 */
describe.each<StoreKind>(['sqlite', 'postgres'])('integrations and alerts that use them (%s)', (store) => {
  let t: TestApp;
  let source: SourceDb;
  let owner: { token: string; teamId: number; email: string; userId: number };
  let call: Call;
  let receiver: http.Server;
  let origin: string;
  const hooks: Hook[] = [];
  const clock = steppedClock('2026-05-04T12:00:00.000Z');

  const ok = async (method: string, url: string, payload?: unknown, token = owner.token) => {
    const res = await call(method, url, token, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hooks.push({ path: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({ store, env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, scheduler: { clock: clock.now } });
    owner = await t.signup('Owner');
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('CRUD as the client does it: the URL is stored encrypted, answered as its origin, and kept when sent back masked', async () => {
    const base = `/team/${owner.teamId}/integration`;
    const url = `${origin}/services/T000/B000/s3cr3t-path?token=abc`;
    const created = await ok('POST', base, { team_id: owner.teamId, name: 'Ops', type: 'webhook', config: { url, slackMode: false } });
    expect(created).toEqual({
      id: expect.any(Number),
      team_id: owner.teamId,
      name: 'Ops',
      type: 'webhook',
      config: { url: `${origin}/${MASK}`, slackMode: false },
      webhookSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await ok('GET', base);
    expect(listed).toEqual([{ ...created, webhookSecret: MASK }]);
    expect(await ok('GET', `${base}/${created.id}`)).toEqual({ ...created, webhookSecret: MASK });
    const row = await t.container.store.db.selectFrom('integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.url).not.toContain('s3cr3t');
    expect(row.webhook_secret).not.toContain(created.webhookSecret);
    expect(t.container.secrets.decrypt(row.url)).toBe(url);
    for (const body of t.bodies) expect(body).not.toContain('s3cr3t-path');

    // The edit form sends name and config back, the URL as it was shown.
    const renamed = await ok('PUT', `${base}/${created.id}`, { name: 'Ops alerts', config: { url: created.config.url, slackMode: true } });
    expect(renamed).toMatchObject({ name: 'Ops alerts', config: { url: `${origin}/${MASK}`, slackMode: true }, webhookSecret: MASK });
    const kept = await t.container.store.db.selectFrom('integrations').select('url').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(t.container.secrets.decrypt(kept.url)).toBe(url);

    const moved = await ok('PUT', `${base}/${created.id}`, { config: { url: `${origin}/other` } });
    expect(moved.config).toEqual({ url: `${origin}/${MASK}`, slackMode: true });
    const movedRow = await t.container.store.db.selectFrom('integrations').select('url').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(t.container.secrets.decrypt(movedRow.url)).toBe(`${origin}/other`);

    const typeChange = await call('PUT', `${base}/${created.id}`, owner.token, { type: 'slack' });
    expect(typeChange.statusCode).toBe(400);
    expect(typeChange.json().error).toContain('body.type');

    expect(await ok('DELETE', `${base}/${created.id}`)).toEqual({ deleted: true });
    expect((await call('GET', `${base}/${created.id}`, owner.token)).statusCode).toBe(404);
  });

  it('refuses what it cannot deliver: Slack app integrations, other schemes, and addresses the policy blocks', async () => {
    const base = `/team/${owner.teamId}/integration`;
    const slackApp = await call('POST', base, owner.token, { team_id: owner.teamId, name: 'Slack', type: 'slack', config: { url: `${origin}/x` } });
    expect(slackApp.statusCode).toBe(400);
    expect(slackApp.json()).toMatchObject({ code: 'INTEGRATION_TYPE_UNSUPPORTED' });
    const ftp = await call('POST', base, owner.token, { name: 'x', type: 'webhook', config: { url: 'ftp://127.0.0.1/x' } });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().error).toContain('body.config.url');
    for (const blocked of ['http://169.254.169.254/latest/meta-data', 'http://10.20.30.40/hook', 'http://[::ffff:10.0.0.1]/hook']) {
      const res = await call('POST', base, owner.token, { name: 'x', type: 'webhook', config: { url: blocked } });
      expect(res.statusCode, blocked).toBe(400);
      expect(res.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
      expect(res.json().error).toContain('body.config.url');
    }
    const masked = await call('POST', base, owner.token, { name: 'x', type: 'webhook', config: { url: MASK } });
    expect(masked.statusCode).toBe(400);
    expect((await ok('GET', base)).length).toBe(0);
  });

  it('roles: chart editors pick integrations, team owners and admins manage them, others see nothing', async () => {
    const team = await t.signup('Boss');
    const projectId = await insertProject(t, team.teamId);
    const created = await ok('POST', `/team/${team.teamId}/integration`, { name: 'Hook', type: 'webhook', config: { url: `${origin}/r` } }, team.token);
    const people: Record<string, { token: string }> = {};
    for (const role of ['projectEditor', 'projectViewer'] as const) {
      const person = await t.signup(role);
      await ok('POST', `/team/${team.teamId}/members`, { email: person.email, role, projects: [projectId] }, team.token);
      people[role] = person;
    }
    expect((await ok('GET', `/team/${team.teamId}/integration`, undefined, people['projectEditor']!.token)).map((i: Json) => i.id)).toEqual([created.id]);
    expect((await call('POST', `/team/${team.teamId}/integration`, people['projectEditor']!.token, { name: 'x', type: 'webhook', config: { url: `${origin}/x` } })).statusCode).toBe(403);
    expect((await call('DELETE', `/team/${team.teamId}/integration/${created.id}`, people['projectEditor']!.token)).statusCode).toBe(403);
    expect((await call('GET', `/team/${team.teamId}/integration`, people['projectViewer']!.token)).statusCode).toBe(403);
    expect((await call('GET', `/team/${team.teamId}/integration`, owner.token)).statusCode).toBe(403);
    expect((await call('GET', `/team/${owner.teamId}/integration/${created.id}`, owner.token)).statusCode).toBe(404);
  });

  it("an alert saved with Chartbrew's alertIntegrations notifies them (webhook signed, Slack as a message with the chart's picture link), and an edit turns one off", async () => {
    hooks.length = 0;
    await source.exec('delete from metrics; insert into metrics values (1), (2)');
    const d = await createDashboard(call, owner, source.url);
    const webhook = await ok('POST', `/team/${owner.teamId}/integration`, { team_id: owner.teamId, name: 'Hook', type: 'webhook', config: { url: `${origin}/hook?key=k1`, slackMode: false } });
    const slack = await ok('POST', `/team/${owner.teamId}/integration`, { team_id: owner.teamId, name: 'Slack', type: 'webhook', config: { url: `${origin}/services/T1/B1/xyz`, slackMode: true } });
    const chart = await ok('GET', `/project/${d.projectId}/chart/${d.chartId}`);

    // What DatasetAlerts.jsx saves: its initial alert, the type and value typed in, the integrations picked.
    const body = {
      rules: { value: '5' },
      recipients: [owner.email],
      mediums: { email: { enabled: false } },
      chart_id: d.chartId,
      dataset_id: chart.ChartDatasetConfigs[0].dataset_id,
      active: true,
      timeout: 600,
      type: 'threshold_above',
      alertIntegrations: [
        { integration_id: webhook.id, enabled: true },
        { integration_id: slack.id, enabled: true },
      ],
    };
    const alert = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, body);
    expect(alert).toMatchObject({ type: 'threshold_above', rules: { value: 5 }, active: true });
    expect(alert.AlertIntegrations).toEqual([
      { id: expect.any(Number), alert_id: alert.id, integration_id: webhook.id, enabled: true, createdAt: expect.any(String), updatedAt: expect.any(String) },
      { id: expect.any(Number), alert_id: alert.id, integration_id: slack.id, enabled: true, createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);

    await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/query`); // 3: below 5
    expect(hooks).toHaveLength(0);
    await source.exec('insert into metrics values (10)');
    await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/query`); // 13: above

    expect(hooks.map((h) => h.path).sort()).toEqual(['/hook?key=k1', '/services/T1/B1/xyz']);
    const toHook = hooks.find((h) => h.path.startsWith('/hook'))!;
    expect(toHook.headers['x-plotline-signature']).toBe(`sha256=${createHmac('sha256', webhook.webhookSecret).update(toHook.body).digest('hex')}`);
    expect(JSON.parse(toHook.body)).toMatchObject({ event: 'alert.triggered', alert: { id: alert.id }, chart: { id: d.chartId }, value: 13 });
    const toSlack = hooks.find((h) => h.path.startsWith('/services'))!;
    expect(JSON.parse(toSlack.body)).toEqual({
      text: expect.stringContaining('13'),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('13') } },
        { type: 'image', image_url: expect.stringMatching(/\/image\/[\w-]+\.[\w-]+\.[\w-]+/), alt_text: expect.any(String) },
      ],
    });

    const events = (await ok('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`)).events;
    expect(events[0].deliveries).toEqual([
      { medium: 'integration', integration_id: webhook.id, ok: true, detail: 'Hook: HTTP 200' },
      { medium: 'integration', integration_id: slack.id, ok: true, detail: 'Slack: HTTP 200' },
    ]);

    // The edit form sends the alert back with the integration toggled off.
    const read = await ok('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`);
    const edited = await ok('PUT', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`, {
      ...read,
      alertIntegrations: read.AlertIntegrations.map((ai: Json) => ({ id: ai.id, alert_id: ai.alert_id, integration_id: ai.integration_id, enabled: ai.integration_id !== slack.id })),
    });
    expect(edited.AlertIntegrations.map((ai: Json) => [ai.integration_id, ai.enabled])).toEqual([
      [webhook.id, true],
      [slack.id, false],
    ]);
    hooks.length = 0;
    clock.advance(601_000);
    await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/query`);
    expect(hooks.map((h) => h.path)).toEqual(['/hook?key=k1']);

    // A deleted integration leaves the alert.
    await ok('DELETE', `/team/${owner.teamId}/integration/${slack.id}`);
    expect((await ok('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`)).AlertIntegrations.map((ai: Json) => ai.integration_id)).toEqual([webhook.id]);
  });

  it("an alert may not name another team's integration; a stored URL the policy now refuses is refused on use, and recorded", async () => {
    hooks.length = 0;
    await source.exec('delete from metrics; insert into metrics values (100)');
    const d = await createDashboard(call, owner, source.url);
    const other = await t.signup('Other');
    const foreign = await ok('POST', `/team/${other.teamId}/integration`, { name: 'Theirs', type: 'webhook', config: { url: `${origin}/theirs` } }, other.token);
    const refused = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, { type: 'threshold_above', rules: { value: 1 }, alertIntegrations: [{ integration_id: foreign.id, enabled: true }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('body.alertIntegrations.0.integration_id');

    // A row written around the API (as after an address moved): delivery asks the policy again.
    const at = now();
    const { id } = await t.container.store.db
      .insertInto('integrations')
      .values({
        team_id: owner.teamId,
        name: 'Metadata',
        type: 'webhook',
        url: t.container.secrets.encrypt('http://169.254.169.254/latest'),
        slackMode: false,
        webhook_secret: t.container.secrets.encrypt('k'),
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const alert = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, { type: 'threshold_above', rules: { value: 1 }, alertIntegrations: [{ integration_id: id }] });
    await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/query`);
    const events = (await ok('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`)).events;
    expect(events[0].deliveries).toEqual([{ medium: 'integration', integration_id: id, ok: false, detail: expect.stringContaining('TARGET_NOT_ALLOWED') }]);
    expect(hooks).toHaveLength(0);
  });

  // Last: afterwards this app's own key no longer opens the team's integrations.
  it('plotline rotate-key re-encrypts every URL and signing key; a second run changes nothing', async () => {
    const created = await ok('POST', `/team/${owner.teamId}/integration`, { name: 'Rotated', type: 'webhook', config: { url: `${origin}/rotated` } });
    const rows = await t.container.store.db.selectFrom('integrations').select(['id', 'url', 'webhook_secret']).execute();
    const newKey = randomBytes(32);
    expect(await t.container.integrations.rotateEncryptionKey(newKey)).toBe(rows.length * 2);
    const next = new SecretBox(newKey);
    const row = await t.container.store.db.selectFrom('integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(next.decrypt(row.url)).toBe(`${origin}/rotated`);
    expect(next.decrypt(row.webhook_secret)).toBe(created.webhookSecret);
    expect(await t.container.integrations.rotateEncryptionKey(newKey)).toBe(0);
  });
});
