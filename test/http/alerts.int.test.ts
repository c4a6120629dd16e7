import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createDashboard, createSourceDb, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

interface Hook {
  headers: http.IncomingHttpHeaders;
  body: string;
}
interface Mail {
  to: string[];
  raw: string;
}

/** Alerts fire to a loopback webhook and a real SMTP server on loopback exactly when their rule holds. */
describe('chart alerts: webhook and email', () => {
  let t: TestApp;
  let source: SourceDb;
  let owner: { token: string; teamId: number; email: string; userId: number };
  let call: Call;
  const clock = steppedClock('2026-05-04T12:00:00.000Z');
  const hooks: Hook[] = [];
  const mails: Mail[] = [];
  let hookServer: http.Server;
  let smtp: SMTPServer;
  let hookUrl: string;

  beforeAll(async () => {
    hookServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({
      env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1', PLOTLINE_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, PLOTLINE_SMTP_FROM: 'Plotline <alerts@example.com>' },
      scheduler: { clock: clock.now },
    });
    owner = await t.signup('Owner');
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await new Promise((resolve) => hookServer?.close(resolve));
    await new Promise((resolve) => smtp?.close(() => resolve(undefined)));
  });

  const refresh = async (d: { projectId: number; chartId: number }) => {
    const res = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/query`, owner.token);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('threshold_above notifies webhook (signed) and email when the value crosses, not again within timeout, again after it', async () => {
    await source.exec('delete from metrics; insert into metrics values (1), (2)');
    const d = await createDashboard(call, owner, source.url);
    const created = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, {
      name: 'Too many',
      type: 'threshold_above',
      rules: { value: 5 },
      recipients: [owner.email.toUpperCase()],
      mediums: { email: { enabled: true }, webhook: { enabled: true, url: hookUrl } },
      timeout: 600,
    });
    expect(created.statusCode, created.body).toBe(200);
    const alert = created.json();
    expect(alert.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(alert.recipients).toEqual([owner.email.toLowerCase()]);
    const secret = alert.webhookSecret as string;
    const read = (await call('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`, owner.token)).json();
    expect(read.webhookSecret).toBe('********');
    expect(JSON.stringify((await call('GET', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token)).json())).not.toContain(secret);

    await refresh(d); // 3: below the threshold
    expect(hooks).toHaveLength(0);
    expect(mails).toHaveLength(0);

    await source.exec('insert into metrics values (10)');
    await refresh(d); // 13: above
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    expect(hook.headers['x-plotline-signature']).toBe(`sha256=${createHmac('sha256', secret).update(hook.body).digest('hex')}`);
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'alert.triggered', alert: { id: alert.id, type: 'threshold_above' }, chart: { id: d.chartId }, value: 13 });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([owner.email.toLowerCase()]);
    expect(mails[0]!.raw).toMatch(/Subject: \[Plotline\] Too many: The value 13 is above 5/);

    // Within the timeout: the rule still holds, nobody is told again.
    clock.advance(599_000);
    await refresh(d);
    expect(hooks).toHaveLength(1);
    expect(mails).toHaveLength(1);
    clock.advance(2_000);
    await refresh(d);
    expect(hooks).toHaveLength(2);
    expect(mails).toHaveLength(2);

    const events = (await call('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`, owner.token)).json().events;
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ value: 13, deliveries: [{ medium: 'webhook', ok: true, detail: 'HTTP 204' }, { medium: 'email', ok: true }] });
    expect(events[0].run_id).toEqual(expect.any(Number));
  });

  it('a scheduled refresh checks alerts too; a milestone fires once and turns itself off', async () => {
    hooks.length = 0;
    await source.exec('delete from metrics; insert into metrics values (50), (60)');
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '1' } } });
    const alert = (
      await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, { type: 'milestone', rules: { value: 100 }, mediums: { webhook: { enabled: true, url: hookUrl } }, timeout: 0 })
    ).json();
    await t.container.scheduler.tick();
    await t.container.scheduler.dispatcher.idle();
    expect(hooks.filter((h) => JSON.parse(h.body).alert.id === alert.id)).toHaveLength(1);
    clock.advance(60_000);
    await t.container.scheduler.tick();
    await t.container.scheduler.dispatcher.idle();
    expect(hooks.filter((h) => JSON.parse(h.body).alert.id === alert.id)).toHaveLength(1);
    const read = (await call('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`, owner.token)).json();
    expect(read.active).toBe(false);
  });

  it('a webhook to a blocked address is refused by the address policy and recorded', async () => {
    await source.exec('delete from metrics; insert into metrics values (100)');
    const d = await createDashboard(call, owner, source.url);
    const alert = (
      await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, { type: 'threshold_above', rules: { value: 1 }, mediums: { webhook: { enabled: true, url: 'http://169.254.169.254/latest' } } })
    ).json();
    await refresh(d);
    const events = (await call('GET', `/project/${d.projectId}/chart/${d.chartId}/alert/${alert.id}`, owner.token)).json().events;
    expect(events).toHaveLength(1);
    expect(events[0].deliveries[0]).toMatchObject({ medium: 'webhook', ok: false });
  });

  it('validation: recipients must be members, rules need a value, markdown charts take no alerts, PUT and DELETE work', async () => {
    const d = await createDashboard(call, owner, source.url);
    const url = `/project/${d.projectId}/chart/${d.chartId}/alert`;
    const stranger = await t.signup('Stranger');
    let res = await call('POST', url, owner.token, { type: 'threshold_above', rules: { value: 1 }, recipients: [stranger.email], mediums: { email: { enabled: true } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('body.recipients.0');
    res = await call('POST', url, owner.token, { type: 'threshold_below' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('body.rules.value');
    res = await call('POST', url, owner.token, { type: 'sometimes', rules: { value: 1 } });
    expect(res.statusCode).toBe(400);
    const md = (await call('POST', `/project/${d.projectId}/chart`, owner.token, { name: 'n', type: 'markdown', content: 'x' })).json();
    res = await call('POST', `/project/${d.projectId}/chart/${md.id}/alert`, owner.token, { type: 'threshold_above', rules: { value: 1 } });
    expect(res.json()).toMatchObject({ code: 'ALERT_UNSUPPORTED_CHART' });
    expect((await call('GET', url, stranger.token)).statusCode).toBe(404);

    const created = (await call('POST', url, owner.token, { type: 'anomaly' })).json();
    expect(created.webhookSecret).toBeUndefined();
    const updated = await call('PUT', `${url}/${created.id}`, owner.token, { mediums: { webhook: { enabled: true, url: hookUrl } }, timeout: 60 });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(updated.json()).toMatchObject({ timeout: 60, type: 'anomaly' });
    expect((await call('DELETE', `${url}/${created.id}`, owner.token)).json()).toEqual({ deleted: true });
    expect((await call('GET', `${url}/${created.id}`, owner.token)).statusCode).toBe(404);
  });
});

describe('chart alerts without SMTP', () => {
  it('the email medium is refused with a clear 400', async () => {
    const source = await createSourceDb(inject('postgresUrl'));
    const t = await buildTestApp();
    try {
      const owner = await t.signup('Owner');
      const call: Call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
      const d = await createDashboard(call, owner, source.url);
      const res = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, { type: 'threshold_above', rules: { value: 1 }, recipients: [owner.email], mediums: { email: { enabled: true } } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'SMTP_NOT_CONFIGURED' });
      expect(res.json().error).toContain('PLOTLINE_SMTP_URL');

      // An alert that e-mails, set up while the server had SMTP: it can still be paused and
      // changed elsewhere; turning its email on again, or its recipients, needs the server.
      const made = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/alert`, owner.token, { type: 'threshold_above', rules: { value: 1 }, mediums: { webhook: { enabled: true, url: 'http://127.0.0.1:9/hook' } } });
      expect(made.statusCode, made.body).toBe(200);
      await t.container.store.db
        .updateTable('alerts')
        .set({ recipients: JSON.stringify([owner.email]), mediums: JSON.stringify({ email: { enabled: true }, webhook: { enabled: true, url: 'http://127.0.0.1:9/hook' } }) })
        .where('id', '=', made.json().id)
        .execute();
      const alertUrl = `/project/${d.projectId}/chart/${d.chartId}/alert/${made.json().id}`;
      const paused = await call('PUT', alertUrl, owner.token, { active: false });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json()).toMatchObject({ active: false, recipients: [owner.email], mediums: { email: { enabled: true } } });
      expect((await call('PUT', alertUrl, owner.token, { rules: { value: 5 }, timeout: 60 })).statusCode).toBe(200);
      expect((await call('PUT', alertUrl, owner.token, { recipients: [owner.email] })).json()).toMatchObject({ code: 'SMTP_NOT_CONFIGURED' });
      expect((await call('PUT', alertUrl, owner.token, { mediums: { email: { enabled: true } } })).json()).toMatchObject({ code: 'SMTP_NOT_CONFIGURED' });
      // Turning it off is always allowed.
      expect((await call('PUT', alertUrl, owner.token, { mediums: { email: { enabled: false } } })).json()).toMatchObject({ mediums: { email: { enabled: false } } });
    } finally {
      await t.close();
      await source.drop();
    }
  });
});
