import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SecretBox } from '../../src/crypto/secrets.js';
import { pino } from 'pino';
import { createContainer, type Container } from '../../src/container.js';
import { DeliveriesRepository } from '../../src/modules/automation/deliveries-repository.js';
import { MAX_STARTS } from '../../src/modules/automation/deliveries-scheduler.js';
import { loggerOptions } from '../../src/platform/logging.js';
import { createStore } from '../../src/store/index.js';
import { buildTestApp, LogCapture, TEST_PASSWORD_HASHING, type TestApp } from '../helpers/app.js';
import { startHookReceiver, startMailbox, type HookReceiver, type Mailbox } from '../helpers/loopback-peers.js';
import { createDashboard, createSourceDb, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

/** A header as sent (mailparser turns the List-* ones into objects). */
function header(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).trim();
}

/** The chart's series colour (its dataset config's `datasetColor`), looked for in the pictures. */
const RED = [0xe1, 0x57, 0x59];

function decode(body: Buffer): PNG {
  expect([...body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return PNG.sync.read(body);
}

/** Pixels within a few levels of `colour`. */
function count(png: PNG, colour: number[]): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (Math.abs(png.data[i]! - colour[0]!) <= 6 && Math.abs(png.data[i + 1]! - colour[1]!) <= 6 && Math.abs(png.data[i + 2]! - colour[2]!) <= 6) n += 1;
  }
  return n;
}

/** Runs of adjacent columns that hold the series colour: the bars of a bar chart without a legend. */
function redBars(png: PNG): number {
  let bars = 0;
  let inBar = false;
  for (let x = 0; x < png.width; x++) {
    let red = 0;
    for (let y = 0; y < png.height; y++) {
      const i = (png.width * y + x) * 4;
      if (Math.abs(png.data[i]! - RED[0]!) <= 6 && Math.abs(png.data[i + 1]! - RED[1]!) <= 6 && Math.abs(png.data[i + 2]! - RED[2]!) <= 6) red += 1;
    }
    const here = red >= 10;
    if (here && !inBar) bars += 1;
    inBar = here;
  }
  return bars;
}

/** How many different colours: a blank picture has one or two. */
function colours(png: PNG): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) seen.add((png.data[i]! << 16) | (png.data[i + 1]! << 8) | png.data[i + 2]!);
  return seen.size;
}

/** With PLOTLINE_WRITE_EXAMPLES=1, the pictures docs/deliveries.md shows, as the tests received them. */
function example(name: string, body: Buffer): void {
  if (process.env['PLOTLINE_WRITE_EXAMPLES'] !== '1') return;
  const dir = path.resolve('docs/images');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), body);
}

/**
 * Scheduled deliveries against a real SMTP server and HTTP servers on loopback standing in for
 * Slack and webhooks, on both stores: CRUD with roles and tenancy, limits, send now to every
 * medium, the unsubscribe link, retries and the loud give-up, the schedule, Chartbrew's
 * snapshotSchedule.
 */
describe.each(['sqlite', 'postgres'] as const)('scheduled deliveries (%s store)', { timeout: 120_000 }, (store) => {
  let t: TestApp;
  let source: SourceDb;
  let owner: { token: string; teamId: number; email: string; userId: number };
  let viewer: { token: string; teamId: number; email: string; userId: number };
  let outsider: { token: string; teamId: number; email: string; userId: number };
  let call: Call;
  const clock = steppedClock('2026-03-02T08:00:00.000Z'); // a Monday
  let receiver: HookReceiver;
  let mailbox: Mailbox;
  let mails: ParsedMail[];
  let base: string;

  beforeAll(async () => {
    // `/flaky/<n>/…` fails its first n calls; `/down/…` always fails.
    const failures = new Map<string, number>();
    receiver = await startHookReceiver(({ path }) => {
      const flaky = /^\/flaky\/(\d+)\//.exec(path);
      const seen = (failures.get(path) ?? 0) + 1;
      failures.set(path, seen);
      return path.startsWith('/down/') || (flaky && seen <= Number(flaky[1])) ? 500 : 200;
    });
    base = receiver.origin;
    mailbox = await startMailbox();
    mails = mailbox.mails;
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({
      store,
      env: {
        PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        PLOTLINE_SMTP_URL: mailbox.url,
        PLOTLINE_SMTP_FROM: 'Plotline <deliveries@example.com>',
        PLOTLINE_DELIVERY_ATTEMPTS: '3',
        PLOTLINE_DELIVERY_BACKOFF_MS: '5',
        PLOTLINE_SUBSCRIPTION_MAX_RECIPIENTS: '4',
        PLOTLINE_TEAM_MAX_SUBSCRIPTIONS: '25',
        BASE_URL: 'http://plotline.test',
      },
      scheduler: { clock: clock.now },
    });
    owner = await t.signup('Owner');
    viewer = await t.signup('Viewer');
    outsider = await t.signup('Outsider');
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await receiver?.close();
    await mailbox?.close();
  });

  const ok = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await call(method, url, token, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const tableDashboard = () => createDashboard(call, owner, source.url, { chart: { type: 'table', name: 'Metrics table' } });
  const csvSubscription = (extra: Record<string, unknown> = {}) => ({
    name: 'Table every morning',
    schedule: { frequency: 'daily', time: { hour: 9, minute: 0 }, timezone: 'UTC' },
    format: 'csv',
    ...extra,
  });
  const hooksAt = (prefix: string) => receiver.received.filter((h) => h.path.startsWith(prefix));
  /** One series of `/metrics` (0 while it has no sample). */
  const metric = async (series: string) => {
    const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((l) => l.startsWith(series + ' '));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  /** A dashboard with a red bar chart (two bars) beside the fixture's KPI. */
  const barDashboard = async () => {
    const d = await createDashboard(call, owner, source.url);
    const dataset = await ok('POST', `/team/${owner.teamId}/datasets/quick-create`, owner.token, {
      name: 'Labelled',
      project_ids: [d.projectId],
      dataRequests: [{ connection_id: d.connectionId, query: "select v, 'bar ' || v as label from metrics" }],
    });
    const bar = await ok('POST', `/project/${d.projectId}/chart/quick-create`, owner.token, {
      name: 'Red bars',
      type: 'bar',
      layout: { lg: [6, 0, 6, 3] },
      chartDatasetConfigs: [{ dataset_id: dataset.id, xAxis: 'root[].label', yAxis: 'root[].v', yAxisOperation: 'sum', legend: 'V', datasetColor: '#E15759' }],
    });
    return { ...d, barId: bar.id as number };
  };

  it('editors write, viewers read, other teams get 404; secrets are answered masked and the webhook key once', async () => {
    const d = await tableDashboard();
    await ok('POST', `/team/${owner.teamId}/members`, owner.token, { email: viewer.email, role: 'projectViewer', projects: [d.projectId] });
    const created = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, owner.token, csvSubscription({
      recipients: [owner.email.toUpperCase()],
      slackWebhooks: [`${base}/slack/T000/B000/secretpart`],
      webhook: { url: `${base}/hook/secret-token` },
    }));
    expect(created).toMatchObject({ chart_id: d.chartId, project_id: d.projectId, format: 'csv', recipients: [owner.email.toLowerCase()], active: true, origin: 'api' });
    expect(created.slackWebhooks).toEqual([`${base}/********`]);
    expect(created.webhook).toEqual({ url: `${base}/********` });
    expect(created.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.nextAt).toBe('2026-03-02T09:00:00.000Z');
    const one = `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${created.id}`;

    const read = await ok('GET', one, viewer.token);
    expect(read.webhookSecret).toBe('********');
    const listed = await ok('GET', `/project/${d.projectId}/subscriptions`, viewer.token);
    expect(listed.map((s: { id: number }) => s.id)).toContain(created.id);
    const answers = JSON.stringify([read, listed, created]);
    expect(answers).not.toContain('secretpart');
    expect(answers).not.toContain('secret-token');

    expect(await ok('GET', `/project/${d.projectId}/delivery-status`, viewer.token)).toEqual({ email: true, slack: true, allowExternalRecipients: false, maxRecipients: 4 });
    expect((await call('GET', `/project/${d.projectId}/delivery-status`, outsider.token)).statusCode).toBe(404);
    // The viewer may not write; the outsider sees nothing at all.
    expect((await call('PUT', one, viewer.token, { active: false })).statusCode).toBe(403);
    expect((await call('POST', `/project/${d.projectId}/subscriptions`, viewer.token, csvSubscription({ recipients: [viewer.email] }))).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', one],
      ['GET', `/project/${d.projectId}/subscriptions`],
      ['PUT', one],
      ['DELETE', one],
      ['POST', `${one}/send`],
      ['GET', `${one}/runs`],
    ] as const) {
      const res = await call(method, url, outsider.token, method === 'PUT' ? { active: false } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // The outsider's own dashboard does not reach this subscription either.
    const theirs = await createDashboard(call, outsider, source.url, { chart: { type: 'table' } });
    expect((await call('GET', `/project/${theirs.projectId}/subscriptions/${created.id}`, outsider.token)).statusCode).toBe(404);
    expect((await call('GET', `/project/${theirs.projectId}/chart/${theirs.chartId}/subscriptions/${created.id}`, outsider.token)).statusCode).toBe(404);

    // Pause and resume; the masked URLs sent back keep the stored ones.
    const paused = await ok('PUT', one, owner.token, { active: false, slackWebhooks: created.slackWebhooks, webhook: created.webhook });
    expect(paused).toMatchObject({ active: false, nextAt: null, slackWebhooks: [`${base}/********`] });
    expect((await ok('PUT', one, owner.token, { active: true })).active).toBe(true);
    const run = await ok('POST', `${one}/send`, owner.token);
    expect(hooksAt('/slack/T000/B000/secretpart')).toHaveLength(1);
    expect(run.deliveries.map((x: { medium: string }) => x.medium).sort()).toEqual(['email', 'slack', 'webhook']);
    expect(t.logs.text).not.toContain('secretpart');
    expect(t.logs.text).not.toContain('secret-token');
    expect(await ok('DELETE', one, owner.token)).toEqual({ deleted: true });
    expect((await call('GET', one, owner.token)).statusCode).toBe(404);
  });


  it("a viewer sees only their own address among the recipients: the subscription, its runs and the dashboard's snapshotSchedule", async () => {
    const d = await tableDashboard();
    const added = await call('POST', `/team/${owner.teamId}/members`, owner.token, { email: viewer.email, role: 'projectViewer', projects: [d.projectId] });
    if (added.statusCode === 409) await ok('PUT', `/team/${owner.teamId}/members/${viewer.userId}`, owner.token, { projects: [d.projectId] });
    else expect(added.statusCode, added.body).toBe(200);
    const both = [owner.email.toLowerCase(), viewer.email.toLowerCase()];
    const sub = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, owner.token, csvSubscription({ recipients: both }));
    const one = `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${sub.id}`;
    expect((await ok('POST', `${one}/send`, owner.token)).status).toBe('sent');

    expect((await ok('GET', one, owner.token)).recipients).toEqual(both);
    expect((await ok('GET', one, viewer.token)).recipients).toEqual([viewer.email.toLowerCase()]);
    expect((await ok('GET', `/project/${d.projectId}/subscriptions`, viewer.token)).find((s: { id: number }) => s.id === sub.id).recipients).toEqual([viewer.email.toLowerCase()]);
    const targets = async (token: string) => (await ok('GET', `${one}/runs`, token)).runs[0].deliveries.map((o: { target: string }) => o.target).sort();
    expect(await targets(owner.token)).toEqual([...both].sort());
    expect(await targets(viewer.token)).toEqual(['another recipient', viewer.email.toLowerCase()].sort());

    await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { frequency: 'daily', time: { hour: 8, minute: 0 }, mediums: { email: { enabled: true } }, customEmails: both } });
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule.customEmails).toEqual(both);
    const seen = (await ok('GET', `/project/${d.projectId}`, viewer.token)).snapshotSchedule;
    expect(seen).toMatchObject({ customEmails: [viewer.email.toLowerCase()], mediums: { email: { enabled: true } } });
    expect(JSON.stringify(seen)).not.toContain(owner.email.toLowerCase());
  });
  it('refuses what it cannot deliver: strangers unless the team allows them, private addresses, formats, limits', async () => {
    const d = await tableDashboard();
    const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
    const stranger = await call('POST', url, owner.token, csvSubscription({ recipients: ['someone@elsewhere.example'] }));
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().error).toMatch(/recipients\.0.*not the e-mail of a member/);
    const team = `/team/${owner.teamId}`;
    expect((await ok('PUT', team, owner.token, { allowExternalRecipients: true })).allowExternalRecipients).toBe(true);
    const allowed = await ok('POST', url, owner.token, csvSubscription({ recipients: ['someone@elsewhere.example'] }));
    await ok('PUT', team, owner.token, { allowExternalRecipients: false });
    await ok('DELETE', `${url}/${allowed.id}`, owner.token);

    const blocked = await call('POST', url, owner.token, csvSubscription({ webhook: { url: 'http://169.254.169.254/latest' } }));
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().code).toBe('TARGET_NOT_ALLOWED');
    expect((await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], format: 'pdf' }))).json().error).toMatch(/pdf is for a dashboard/);
    const kpi = await createDashboard(call, owner, source.url, { connectionId: d.connectionId });
    expect((await call('POST', `/project/${kpi.projectId}/chart/${kpi.chartId}/subscriptions`, owner.token, csvSubscription({ recipients: [owner.email] }))).json().error).toMatch(/csv is for a table chart/);
    expect((await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], schedule: { frequency: 'hourly' } }))).json().error).toMatch(/frequency.*daily, weekdays, weekly, monthly/);
    expect((await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], schedule: { frequency: 'monthly' } }))).json().error).toMatch(/dayOfMonth.*required/);
    // More often than every 15 minutes is not a delivery.
    const tooOften = await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], schedule: { frequency: 'every_x_minutes', frequencyNumber: 5 } }));
    expect(tooOften.statusCode).toBe(400);
    expect(tooOften.json().error).toMatch(/body\.schedule\.frequencyNumber.*at least 15: a delivery is sent at most every 15 minutes/);
    expect((await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], schedule: { frequency: 'every_x_hours' } }))).json().error).toMatch(/body\.schedule\.frequencyNumber.*required/);
    expect((await call('POST', url, owner.token, csvSubscription())).json().error).toMatch(/at least one recipient/);
    const filters = await call('POST', `/project/${d.projectId}/subscriptions`, owner.token, { ...csvSubscription({ recipients: [owner.email] }), format: 'png', filters: { filters: [{ field: 'v', operator: 'bogus', value: 1 }] } });
    expect(filters.statusCode).toBe(400);
    expect(filters.json().error).toMatch(/filters\.filters/);

    // Five targets where four are allowed.
    const many = await call('POST', url, owner.token, csvSubscription({ recipients: [owner.email], slackWebhooks: [`${base}/s/1`, `${base}/s/2`, `${base}/s/3`], webhook: { url: `${base}/hook/x` } }));
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ code: 'SUBSCRIPTION_RECIPIENT_LIMIT' });
    expect(many.json().error).toMatch(/at most 4 recipients.*would have 5/);
    // Twenty-five subscriptions per team: a fresh team fills them, one more is refused.
    const fresh = await t.signup('Fresh');
    const fd = await createDashboard(call, fresh, source.url, { chart: { type: 'table' } });
    const furl = `/project/${fd.projectId}/chart/${fd.chartId}/subscriptions`;
    for (let i = 0; i < 25; i++) await ok('POST', furl, fresh.token, csvSubscription({ recipients: [fresh.email] }));
    const seventh = await call('POST', furl, fresh.token, csvSubscription({ recipients: [fresh.email] }));
    expect(seventh.statusCode).toBe(400);
    expect(seventh.json()).toMatchObject({ code: 'SUBSCRIPTION_LIMIT' });
  });

  it('without SMTP: email recipients are refused, Slack and webhooks work, the status says so', async () => {
    const bare = await buildTestApp({ store, env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    try {
      const person = await bare.signup('NoMail');
      const bareCall: Call = (method, url, token, payload) => bare.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
      const d = await createDashboard(bareCall, person, source.url, { chart: { type: 'table' } });
      const status = await bareCall('GET', `/project/${d.projectId}/delivery-status`, person.token);
      expect(status.json()).toMatchObject({ email: false, slack: true });
      const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
      const refused = await bareCall('POST', url, person.token, csvSubscription({ recipients: [person.email] }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'SMTP_NOT_CONFIGURED' });
      const slackOnly = await bareCall('POST', url, person.token, csvSubscription({ slackWebhooks: [`${base}/slack/no-smtp-${store}`] }));
      expect(slackOnly.statusCode, slackOnly.body).toBe(200);
      const run = await bareCall('POST', `${url}/${slackOnly.json().id}/send`, person.token);
      expect(run.json()).toMatchObject({ status: 'sent', deliveries: [{ medium: 'slack', ok: true }] });
      expect(hooksAt(`/slack/no-smtp-${store}`)).toHaveLength(1);
    } finally {
      await bare.close();
    }
  });

  it('send now: the CSV by e-mail with a one-click unsubscribe, Slack blocks and a signed webhook; the run records each target', async () => {
    const d = await tableDashboard();
    const created = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, owner.token, csvSubscription({
      recipients: [owner.email],
      slackWebhooks: [`${base}/slack/send-now`],
      webhook: { url: `${base}/hook/send-now` },
    }));
    const before = mails.length;
    const run = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${created.id}/send`, owner.token);
    expect(run).toMatchObject({ subscription_id: created.id, trigger: 'manual', status: 'sent', error: null });
    expect(run.deliveries).toEqual([
      expect.objectContaining({ medium: 'email', target: owner.email, ok: true, attempts: 1 }),
      expect.objectContaining({ medium: 'slack', target: base, ok: true, attempts: 1 }),
      expect.objectContaining({ medium: 'webhook', target: base, ok: true, attempts: 1 }),
    ]);

    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe(`[Plotline] Metrics table (${(await ok('GET', `/project/${d.projectId}`, owner.token)).name})`);
    const csv = mail.attachments.find((a) => a.contentType === 'text/csv');
    expect(csv?.filename).toBe('Metrics_table.csv');
    expect(csv!.content.toString('utf8').trim().split(/\r?\n/)).toEqual(['v', '1', '2']);
    const unsubscribe = header(mail, 'list-unsubscribe');
    expect(unsubscribe).toMatch(/^<http:\/\/plotline\.test\/subscription\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Data as of');

    const slack = JSON.parse(hooksAt('/slack/send-now')[0]!.body);
    expect(slack.blocks[0].text.text).toMatch(/\*Metrics table/);
    const hook = hooksAt('/hook/send-now')[0]!;
    expect(hook.headers['x-plotline-signature']).toBe(`sha256=${createHmac('sha256', created.webhookSecret).update(hook.body).digest('hex')}`);
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'subscription.delivered', subscription: { id: created.id }, chart_id: d.chartId, format: 'csv' });

    const history = await ok('GET', `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${created.id}/runs`, owner.token);
    expect(history).toMatchObject({ total: 1, runs: [{ id: run.id, status: 'sent' }] });
  });

  it("an unsubscribe link stops its one recipient of its one subscription: GET asks, POST (one-click) does it", async () => {
    const member = await t.signup('Member');
    await ok('POST', `/team/${owner.teamId}/members`, owner.token, { email: member.email, role: 'teamAdmin' });
    const d = await tableDashboard();
    const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
    const a = await ok('POST', url, owner.token, csvSubscription({ recipients: [owner.email, member.email] }));
    const b = await ok('POST', url, owner.token, csvSubscription({ recipients: [owner.email] }));
    const before = mails.length;
    await ok('POST', `${url}/${a.id}/send`, owner.token);
    const sent = mails.slice(before);
    expect(sent.map((m) => (m.to as { text: string }).text).sort()).toEqual([owner.email, member.email].sort());
    const ownerMail = sent.find((m) => (m.to as { text: string }).text === owner.email)!;
    const link = new URL(header(ownerMail, 'list-unsubscribe').slice(1, -1));
    const path = `${link.pathname}${link.search}`;

    const page = await t.request({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain(owner.email);
    expect(page.body).toContain('<form method="post"');
    expect((await ok('GET', `${url}/${a.id}`, owner.token)).recipients).toHaveLength(2); // GET changed nothing

    const done = await t.request({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('will no longer receive');
    expect((await ok('GET', `${url}/${a.id}`, owner.token)).recipients).toEqual([member.email]);
    expect((await ok('GET', `${url}/${b.id}`, owner.token)).recipients).toEqual([owner.email]);

    const after = mails.length;
    await ok('POST', `${url}/${a.id}/send`, owner.token);
    expect(mails.slice(after).map((m) => (m.to as { text: string }).text)).toEqual([member.email]);

    // Someone who leaves the team receives nothing more, and the run says why.
    await ok('DELETE', `/team/${owner.teamId}/members/${member.userId}`, owner.token);
    const left = await ok('POST', `${url}/${a.id}/send`, owner.token);
    expect(left).toMatchObject({ status: 'failed', deliveries: [{ medium: 'email', target: member.email, ok: false, attempts: 0, detail: 'Not sent: no longer a member of the team' }] });
    expect(mails.length).toBe(after + 1);

    // A token with a changed payload or signature is not ours.
    const [payload, signature] = link.searchParams.get('token')!.split('.');
    const forged = Buffer.from(JSON.stringify([b.id, owner.email])).toString('base64url');
    expect((await t.request({ method: 'POST', url: `/subscription/unsubscribe?token=${forged}.${signature}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/subscription/unsubscribe?token=${payload}.AAAA` })).statusCode).toBe(404);
    expect((await ok('GET', `${url}/${b.id}`, owner.token)).recipients).toEqual([owner.email]);
  });

  it('a scheduled delivery retries a failed send with backoff, then gives up loudly: run failed, an error log line, a metric; send now tries once', async () => {
    const failedSends = 'plotline_delivery_sends_total{medium="webhook",outcome="failed"}';
    const retriedSends = 'plotline_delivery_sends_total{medium="webhook",outcome="retried"}';
    const failedRuns = 'plotline_delivery_runs_total{trigger="schedule",status="failed"}';
    const before = { failed: await metric(failedSends), retried: await metric(retriedSends), runs: await metric(failedRuns) };
    const d = await tableDashboard();
    const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
    // Monthly on the 2nd at 08:30 UTC: due half an hour from now (Monday 2 March, 08:00), and alone to be.
    const schedule = { frequency: 'monthly', dayOfMonth: 2, time: { hour: 8, minute: 30 }, timezone: 'UTC' };
    const flaky = await ok('POST', url, owner.token, csvSubscription({ schedule, webhook: { url: `${base}/flaky/2/${store}` } }));
    const down = await ok('POST', url, owner.token, csvSubscription({ schedule, recipients: [owner.email], webhook: { url: `${base}/down/${store}` } }));
    const onlyDown = await ok('POST', url, owner.token, csvSubscription({ schedule, webhook: { url: `${base}/down/only-${store}` } }));

    // Send now is interactive: one try per target, the answer says what happened.
    const once = await ok('POST', `${url}/${onlyDown.id}/send`, owner.token);
    expect(once).toMatchObject({ trigger: 'manual', status: 'failed', deliveries: [{ medium: 'webhook', ok: false, attempts: 1, detail: 'HTTP 500' }] });
    expect(hooksAt(`/down/only-${store}`)).toHaveLength(1);

    clock.advance(30 * 60_000);
    expect(await t.container.deliveryScheduler.tick()).toBe(3);
    await t.container.deliveryScheduler.idle();
    const lastRun = async (sid: number) => (await ok('GET', `${url}/${sid}/runs`, owner.token)).runs[0];
    expect(await lastRun(flaky.id)).toMatchObject({ trigger: 'schedule', status: 'sent', deliveries: [{ medium: 'webhook', ok: true, attempts: 3, detail: 'HTTP 200' }] });
    expect(hooksAt(`/flaky/2/${store}`)).toHaveLength(3);
    const partial = await lastRun(down.id);
    expect(partial.status).toBe('partial');
    expect(partial.deliveries).toEqual([
      expect.objectContaining({ medium: 'email', ok: true, attempts: 1 }),
      expect.objectContaining({ medium: 'webhook', ok: false, attempts: 3, detail: 'HTTP 500' }),
    ]);
    expect(hooksAt(`/down/${store}`)).toHaveLength(3);
    expect(await lastRun(onlyDown.id)).toMatchObject({ status: 'failed', error: 'No target received the delivery' });
    expect(hooksAt(`/down/only-${store}`)).toHaveLength(1 + 3);
    const lines = t.logs.lines.map((l) => JSON.parse(l) as { msg: string; level: number; subscriptionId?: number });
    expect(lines.some((l) => l.msg === 'delivery gave up on a target' && l.level >= 50 && l.subscriptionId === onlyDown.id)).toBe(true);
    expect(lines.some((l) => l.msg === 'delivery failed' && l.level >= 50 && l.subscriptionId === onlyDown.id)).toBe(true);
    // Send now's one try failed; then two targets gave up after three tries (two retries each), one recovered on its third (two retries).
    expect(await metric(failedSends)).toBe(before.failed + 1 + 2);
    expect(await metric(retriedSends)).toBe(before.retried + 6);
    expect(await metric(failedRuns)).toBe(before.runs + 1);
    // The claims of the period end `done` or `failed` as their runs did.
    const claims = await t.container.store.db.selectFrom('refresh_claims').select(['entity_id', 'state']).where('entity_type', '=', 'subscription').where('entity_id', 'in', [flaky.id, down.id, onlyDown.id]).execute();
    expect(Object.fromEntries(claims.map((c) => [c.entity_id, c.state]))).toEqual({ [flaky.id]: 'done', [down.id]: 'done', [onlyDown.id]: 'failed' });
  });

  it('delivers on its schedule: nothing before the first slot, once per slot, paused means nothing', async () => {
    const d = await tableDashboard();
    const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
    // Created on Monday 08:30 UTC; weekdays at 09:00 in New York (14:00 UTC in March before DST).
    const sub = await ok('POST', url, owner.token, csvSubscription({ webhook: { url: `${base}/hook/schedule-${store}` }, schedule: { frequency: 'weekdays', time: { hour: 9, minute: 0 }, timezone: 'America/New_York' } }));
    expect(sub.nextAt).toBe('2026-03-02T14:00:00.000Z');
    const scheduler = t.container.deliveryScheduler;
    const tick = async () => {
      const claimed = await scheduler.tick();
      await scheduler.idle();
      return claimed;
    };
    const delivered = () => hooksAt(`/hook/schedule-${store}`).length;
    // Other subscriptions of this suite may be due too: only this one's deliveries are counted.
    await tick();
    expect(delivered()).toBe(0);
    clock.advance(6 * 3_600_000); // Monday 14:30 UTC
    await tick();
    expect(delivered()).toBe(1);
    await tick();
    expect(delivered()).toBe(1);
    clock.advance(24 * 3_600_000); // Tuesday
    await tick();
    expect(delivered()).toBe(2);
    await ok('PUT', `${url}/${sub.id}`, owner.token, { active: false });
    clock.advance(24 * 3_600_000); // Wednesday, paused
    await tick();
    expect(delivered()).toBe(2);
    await ok('PUT', `${url}/${sub.id}`, owner.token, { active: true });
    await tick(); // Wednesday's slot, missed while paused: one catch-up
    expect(delivered()).toBe(3);
    clock.advance(3 * 24 * 3_600_000); // Saturday: no weekday slot since Friday's
    await tick();
    expect(delivered()).toBe(4); // Friday's, once
    clock.advance(24 * 3_600_000); // Sunday
    await tick();
    expect(delivered()).toBe(4);
    const runs = await ok('GET', `${url}/${sub.id}/runs`, owner.token);
    expect(runs.total).toBe(4);
    expect(runs.runs.every((r: { trigger: string; status: string; period: string }) => r.trigger === 'schedule' && r.status === 'sent' && r.period.startsWith('slot:'))).toBe(true);
    // A month later (a Wednesday): that day's delivery, and the history older than PLOTLINE_RUN_HISTORY_DAYS (30) is gone.
    clock.advance(31 * 24 * 3_600_000);
    await tick();
    expect(delivered()).toBe(5);
    const kept = await ok('GET', `${url}/${sub.id}/runs`, owner.token);
    expect(kept.total).toBe(1);
  });

  it('every_x_hours: the first delivery one interval after its creation, then once per interval after the last, never before', async () => {
    const d = await tableDashboard();
    const url = `/project/${d.projectId}/chart/${d.chartId}/subscriptions`;
    const hook = `/hook/every-6-hours-${store}`;
    // Chartbrew sends the number as a string at times: it is stored as a number.
    const sub = await ok('POST', url, owner.token, csvSubscription({ webhook: { url: base + hook }, schedule: { frequency: 'every_x_hours', frequencyNumber: '6', time: { hour: 3, minute: 0 } } }));
    expect(sub.schedule).toEqual({ frequency: 'every_x_hours', frequencyNumber: 6, timezone: 'UTC' });
    const created = Date.parse(sub.createdAt);
    expect(sub.nextAt).toBe(new Date(created + 6 * 3_600_000).toISOString());
    const scheduler = t.container.deliveryScheduler;
    const tick = async () => {
      await scheduler.tick();
      await scheduler.idle();
    };
    const delivered = () => hooksAt(hook).length;
    await tick();
    expect(delivered()).toBe(0);
    clock.advance(6 * 3_600_000 - 60_000); // a minute short of six hours
    await tick();
    expect(delivered()).toBe(0);
    clock.advance(60_000);
    await tick();
    expect(delivered()).toBe(1);
    const first = await ok('GET', `${url}/${sub.id}`, owner.token);
    expect(first.lastSentAt).toBe(clock.now().toISOString());
    expect(first.nextAt).toBe(new Date(clock.now().getTime() + 6 * 3_600_000).toISOString());
    await tick();
    expect(delivered()).toBe(1);
    clock.advance(5 * 3_600_000);
    await tick();
    expect(delivered()).toBe(1);
    clock.advance(3_600_000);
    await tick();
    expect(delivered()).toBe(2);
    // A day without ticks: one catch-up, not four.
    clock.advance(24 * 3_600_000);
    await tick();
    await tick();
    expect(delivered()).toBe(3);
    const runs = (await ok('GET', `${url}/${sub.id}/runs`, owner.token)).runs as { period: string; status: string }[];
    expect(runs.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    // Each period is named by the delivery it follows (the first by the creation): one claim each, across instances.
    expect(runs.at(-1)!.period).toBe(`after:${sub.createdAt}`);
    expect(new Set(runs.map((r) => r.period)).size).toBe(3);
    expect(runs.every((r) => r.period.startsWith('after:'))).toBe(true);
    await ok('DELETE', `${url}/${sub.id}`, owner.token);
  });

  it("Chartbrew's snapshotSchedule on PUT /project/{id} is the dashboard's subscription of that origin", async () => {
    const d = await tableDashboard();
    const snapshot = { frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 9, minute: 30 }, timezone: 'Europe/Paris', mediums: { email: { enabled: true } }, customEmails: [owner.email] };
    const written = await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, theme: 'dark', viewport: { width: 1920, height: 1080 } } });
    let subs = await ok('GET', `/project/${d.projectId}/subscriptions`, owner.token);
    expect(subs).toEqual([expect.objectContaining({ origin: 'snapshotSchedule', chart_id: null, format: 'png', theme: 'dark', recipients: [owner.email], schedule: { frequency: 'weekly', dayOfWeek: 1, time: { hour: 9, minute: 30 }, timezone: 'Europe/Paris' } })]);
    // Read back in the shape the client's schedule dialog fills itself from, on the write's answer and on GET.
    const echoed = {
      frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 9, minute: 30 }, timezone: 'Europe/Paris', theme: 'dark',
      mediums: { email: { enabled: true } }, customEmails: [owner.email], integrations: [], active: true, subscription_id: subs[0].id,
    };
    expect(written.snapshotSchedule).toEqual(echoed);
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule).toEqual(echoed);
    // Chartbrew keeps an integration switched off in its list: it is not notified.
    const integration = await ok('POST', `/team/${owner.teamId}/integration`, owner.token, { name: 'Ops hook', type: 'webhook', config: { url: `${base}/hook/integration-${store}` } });
    const both = await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, integrations: [{ integration_id: integration.id, enabled: true }, { integration_id: 999_999, enabled: false }] } });
    expect(both.snapshotSchedule.integrations).toEqual([{ integration_id: integration.id, enabled: true }]);
    await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, frequency: 'daily', daysOfWeek: [1, 3] } });
    subs = await ok('GET', `/project/${d.projectId}/subscriptions`, owner.token);
    expect(subs).toHaveLength(1);
    expect(subs[0].schedule).toEqual({ frequency: 'daily', daysOfWeek: [1, 3], time: { hour: 9, minute: 30 }, timezone: 'Europe/Paris' });
    // Every X days, as the dialog sends it (the number as a string, a time it asks for too): elapsed
    // days count from the last delivery, so the time is not kept, and the dialog reads that back.
    const everyTwoDays = await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, frequency: 'every_x_days', frequencyNumber: '2' } });
    subs = await ok('GET', `/project/${d.projectId}/subscriptions`, owner.token);
    expect(subs).toHaveLength(1);
    expect(subs[0].schedule).toEqual({ frequency: 'every_x_days', frequencyNumber: 2, timezone: 'Europe/Paris' });
    expect(subs[0].nextAt).toBe(new Date(Date.parse(subs[0].lastSentAt ?? subs[0].createdAt) + 2 * 86_400_000).toISOString());
    const everyTwoDaysEchoed = {
      frequency: 'every_x_days', frequencyNumber: 2, timezone: 'Europe/Paris', theme: 'dark',
      mediums: { email: { enabled: true } }, customEmails: [owner.email], integrations: [], active: true, subscription_id: subs[0].id,
    };
    expect(everyTwoDays.snapshotSchedule).toEqual(everyTwoDaysEchoed);
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule).toEqual(everyTwoDaysEchoed);
    await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, frequency: 'every_x_hours', frequencyNumber: 12 } });
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule).toMatchObject({ frequency: 'every_x_hours', frequencyNumber: 12 });
    // Below the floor, the field is named as Chartbrew's dialog has it; a frequency the dialog does not have is refused.
    const tooOften = await call('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, frequency: 'every_x_minutes', frequencyNumber: '10' } });
    expect(tooOften.statusCode).toBe(400);
    expect(tooOften.json().error).toMatch(/^body\.snapshotSchedule\.frequencyNumber.*at least 15/);
    const bad = await call('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: { ...snapshot, frequency: 'monthly' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/snapshotSchedule\.frequency/);
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule).toMatchObject({ frequency: 'every_x_hours', frequencyNumber: 12 });
    await ok('PUT', `/project/${d.projectId}`, owner.token, { snapshotSchedule: null });
    expect(await ok('GET', `/project/${d.projectId}/subscriptions`, owner.token)).toEqual([]);
    expect((await ok('GET', `/project/${d.projectId}`, owner.token)).snapshotSchedule).toBeNull();
  });

  it('pictures: a dashboard PNG inline, a chart PNG inline, a dashboard PDF attached; Slack gets the signed link of the same picture', async () => {
    const d = await barDashboard();
    const base0 = `/project/${d.projectId}/subscriptions`;
    const png = await ok('POST', base0, owner.token, { schedule: { frequency: 'daily' }, format: 'png', recipients: [owner.email], slackWebhooks: [`${base}/slack/pictures-${store}`] });
    let before = mails.length;
    expect((await ok('POST', `${base0}/${png.id}/send`, owner.token)).status).toBe('sent');
    const dashboardMail = mails[before]!;
    const inline = dashboardMail.attachments.find((a) => a.contentId === 'picture' || a.cid === 'picture');
    expect(inline?.contentType).toBe('image/png');
    // mailparser turns the cid: reference to the related part into a data: URI.
    expect(dashboardMail.html).toMatch(/<img src="(cid:picture|data:image\/png;base64,)/);
    expect(inline!.related).toBe(true);
    const dashboardPng = decode(inline!.content);
    expect(dashboardPng.width).toBe(1280);
    expect(dashboardPng.height).toBeGreaterThan(200);
    expect(colours(dashboardPng)).toBeGreaterThan(20);
    expect(count(dashboardPng, RED), 'the bar chart in its colour').toBeGreaterThan(500);
    example('deliveries-email-dashboard.png', inline!.content);

    // Slack's message points at the same picture, signed and public.
    const slack = JSON.parse(hooksAt(`/slack/pictures-${store}`)[0]!.body);
    const image = slack.blocks.find((b: { type: string }) => b.type === 'image');
    const link = new URL(image.image_url);
    expect(link.origin).toBe('http://plotline.test');
    const fetched = await t.request({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(fetched.statusCode).toBe(200);
    expect(count(decode(fetched.rawPayload), RED)).toBeGreaterThan(500);

    const chart = await ok('POST', `/project/${d.projectId}/chart/${d.barId}/subscriptions`, owner.token, { schedule: { frequency: 'daily' }, format: 'png', theme: 'dark', recipients: [owner.email] });
    before = mails.length;
    await ok('POST', `/project/${d.projectId}/chart/${d.barId}/subscriptions/${chart.id}/send`, owner.token);
    const chartPng = decode(mails[before]!.attachments.find((a) => a.contentType === 'image/png')!.content);
    expect([chartPng.width, chartPng.height]).toEqual([800, 450]);
    expect(count(chartPng, RED)).toBeGreaterThan(500);
    // Dark theme: the corner is dark.
    expect(chartPng.data[0]! + chartPng.data[1]! + chartPng.data[2]!).toBeLessThan(200);
    example('deliveries-email-chart-dark.png', mails[before]!.attachments.find((a) => a.contentType === 'image/png')!.content);

    // With a filter state: drawn through the filter runs (v = 2 only: one bar), nothing saved.
    const filtered = await ok('POST', base0, owner.token, { schedule: { frequency: 'daily' }, format: 'png', recipients: [owner.email], filters: { filters: [{ field: 'v', operator: 'is', value: 2 }] } });
    before = mails.length;
    expect((await ok('POST', `${base0}/${filtered.id}/send`, owner.token)).status).toBe('sent');
    const filteredPng = decode(mails[before]!.attachments.find((a) => a.contentType === 'image/png')!.content);
    expect(redBars(dashboardPng)).toBe(2);
    expect(redBars(filteredPng)).toBe(1);
    // A stored state that names a saved filter of the dashboard by its id keeps the id, so what the
    // delivery draws (the picture of the stored state) calls that filter by its label.
    const saved = await ok('POST', `/project/${d.projectId}/dashboard-filter`, owner.token, { configuration: { type: 'field', field: 'v', operator: 'is', label: 'Value' } });
    const labelled = await ok('POST', base0, owner.token, { schedule: { frequency: 'daily' }, format: 'png', recipients: [owner.email], filters: { filters: [{ id: saved.id, field: 'v', operator: 'is', value: 2 }] } });
    const stored = await ok('GET', `${base0}/${labelled.id}`, owner.token);
    expect(stored.filters.filters).toEqual([{ id: saved.id, field: 'v', operator: 'is', value: 2 }]);
    const drawn = await t.container.snapshots.dashboardView({ teamId: owner.teamId, projectId: d.projectId }, stored.filters);
    expect(drawn.filters).toEqual(['Value is 2']);
    expect(drawn.charts.find((c) => c.id === d.barId)?.filters).toEqual({ by: ['Value'], notBy: [] });
    before = mails.length;
    expect((await ok('POST', `${base0}/${labelled.id}/send`, owner.token)).status).toBe('sent');
    expect(redBars(decode(mails[before]!.attachments.find((a) => a.contentType === 'image/png')!.content))).toBe(1);

    const pdf = await ok('POST', base0, owner.token, { schedule: { frequency: 'weekly', dayOfWeek: 1 }, format: 'pdf', recipients: [owner.email] });
    before = mails.length;
    await ok('POST', `${base0}/${pdf.id}/send`, owner.token);
    const attached = mails[before]!.attachments.find((a) => a.contentType === 'application/pdf');
    expect(attached?.filename).toMatch(/\.pdf$/);
    const expected = await t.container.snapshots.dashboardPicture({ teamId: owner.teamId, projectId: d.projectId }, { format: 'pdf', pages: 'screens' });
    const doc = await PDFDocument.load(attached!.content);
    expect(doc.getPageCount()).toBe(expected.pages);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getPage(0).getWidth()).toBeGreaterThan(100);
  });

  it("an alert's email carries the chart's picture inline, its webhook the signed link", async () => {
    const d = await barDashboard();
    const created = await ok('POST', `/project/${d.projectId}/chart/${d.barId}/alert`, owner.token, {
      name: 'Bars up',
      type: 'threshold_above',
      rules: { value: 0 },
      recipients: [owner.email],
      mediums: { email: { enabled: true }, webhook: { enabled: true, url: `${base}/hook/alert-${store}` } },
    });
    const before = mails.length;
    await ok('POST', `/project/${d.projectId}/chart/${d.barId}/query`, owner.token);
    const mail = mails.slice(before).find((m) => m.subject?.startsWith('[Plotline] Bars up'))!;
    const picture = mail.attachments.find((a) => a.contentType === 'image/png')!;
    expect(mail.html).toMatch(/<img src="(cid:chart|data:image\/png;base64,)/);
    expect(picture.related).toBe(true);
    const png = decode(picture.content);
    expect([png.width, png.height]).toEqual([800, 450]);
    expect(count(png, RED)).toBeGreaterThan(500);
    example('deliveries-alert-email.png', picture.content);
    const hook = hooksAt(`/hook/alert-${store}`)[0]!;
    const body = JSON.parse(hook.body);
    expect(body).toMatchObject({ event: 'alert.triggered', alert: { id: created.id } });
    const link = new URL(body.imageUrl);
    const fetched = await t.request({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(fetched.statusCode).toBe(200);
    expect(count(decode(fetched.rawPayload), RED)).toBeGreaterThan(500);
  });

  it('plotline rotate-key re-encrypts Slack URLs, webhook URLs and keys of subscriptions; a second run changes nothing', async () => {
    const d = await tableDashboard();
    const created = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, owner.token, csvSubscription({ slackWebhooks: [`${base}/slack/rotate`], webhook: { url: `${base}/hook/rotate` } }));
    const newKey = randomBytes(32);
    const stored = await t.container.store.db.selectFrom('subscriptions').select(['slack_urls', 'webhook_url', 'webhook_secret']).where('id', '=', created.id).executeTakeFirstOrThrow();
    const changed = await t.container.deliveries.rotateEncryptionKey(newKey);
    expect(changed).toBeGreaterThanOrEqual(3);
    expect(await t.container.deliveries.rotateEncryptionKey(newKey)).toBe(0);
    const after = await t.container.store.db.selectFrom('subscriptions').select(['slack_urls', 'webhook_url', 'webhook_secret']).where('id', '=', created.id).executeTakeFirstOrThrow();
    const box = new SecretBox(newKey);
    expect(box.decrypt(after.webhook_url!)).toBe(`${base}/hook/rotate`);
    expect(box.decrypt(after.webhook_secret!)).toBe(created.webhookSecret);
    expect(JSON.parse(box.decrypt(after.slack_urls!))).toEqual([`${base}/slack/rotate`]);
    expect(after.webhook_url).not.toBe(stored.webhook_url);
  });

  /**
   * Another process on the same store (its own schedulers and runner), as a second instance of the
   * server. Its deliveries report that it is alive only at each send and each of its ticks (no
   * timer), so once a test stops ticking it and holds one of its sends, it falls silent as a
   * process that died would.
   */
  const anotherProcess = async (): Promise<{ container: Container; logs: LogCapture }> => {
    const logs = new LogCapture();
    const container = await createContainer(t.config, {
      store: createStore(t.config.database),
      migrate: false,
      logger: pino(loggerOptions('info'), logs),
      passwordHashing: TEST_PASSWORD_HASHING,
      scheduler: { clock: clock.now, deliveryHeartbeatMs: 0 },
    });
    return { container, logs };
  };

  /** A table chart's subscription whose slot comes one minute from now; the clock is moved onto it. */
  const dueSoon = async (name: string, targets: Record<string, unknown>) => {
    const d = await createDashboard(call, owner, source.url, { chart: { type: 'table', name } });
    const slot = new Date(Math.floor(clock.now().getTime() / 60_000) * 60_000 + 60_000);
    const sub = await ok('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, owner.token, {
      name,
      format: 'csv',
      schedule: { frequency: 'daily', time: { hour: slot.getUTCHours(), minute: slot.getUTCMinutes() }, timezone: 'UTC' },
      ...targets,
    });
    clock.advance(slot.getTime() - clock.now().getTime());
    return { sub, period: `slot:${slot.toISOString()}`, url: `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${sub.id as number}` };
  };

  const claimOf = (subscriptionId: number) =>
    t.container.store.db.selectFrom('refresh_claims').select(['period', 'state', 'attempts']).where('entity_type', '=', 'subscription').where('entity_id', '=', subscriptionId).orderBy('claimedAt').execute();

  it('a delivery whose process died mid-way is taken over after the lease by another: only the targets it had not reached get it; the history says so', async () => {
    const name = `Resumed table ${store}`;
    const paths = { s1: `/slack/resume-1-${store}`, s2: `/slack/resume-2-${store}`, hook: `/hook/resume-${store}` };
    const resumedSeries = 'plotline_delivery_interrupted_total{outcome="resumed"}';
    const resumedBefore = await metric(resumedSeries);
    // Two Slack webhooks share one origin: the run tells them apart all the same.
    const { sub, url } = await dueSoon(name, { recipients: [owner.email], slackWebhooks: [base + paths.s1, base + paths.s2], webhook: { url: base + paths.hook } });
    const mailsOf = () => mails.filter((m) => m.subject?.startsWith(`[Plotline] ${name}`));
    const held = receiver.hold(paths.s2);
    const doomed = await anotherProcess();
    try {
      const claimedAt = clock.now().toISOString();
      expect(await doomed.container.deliveryScheduler.tick()).toBeGreaterThanOrEqual(1);
      // The e-mail and the first Slack message go out and are recorded; the second Slack send hangs,
      // and the process is not heard from again.
      await expect.poll(() => held.arrived, { timeout: 30_000 }).toBe(true);
      const inProgress = await ok('GET', `${url}/runs`, owner.token);
      expect(inProgress.runs).toHaveLength(1);
      expect(inProgress.runs[0]).toMatchObject({ status: 'running', trigger: 'schedule', resumed_from: null, error: null });
      expect(inProgress.runs[0].deliveries).toEqual([
        expect.objectContaining({ medium: 'email', target: owner.email, ok: true }),
        { medium: 'slack', target: base, ok: true, attempts: 1, detail: 'HTTP 200' },
      ]);

      // Within the lease (10 minutes) nobody takes it over.
      clock.advance(9 * 60_000);
      await t.container.deliveryScheduler.tick();
      expect((await ok('GET', `${url}/runs`, owner.token)).runs[0].status).toBe('running');
      // Past it, this instance's tick does.
      clock.advance(2 * 60_000);
      expect(await t.container.deliveryScheduler.tick()).toBeGreaterThanOrEqual(1);
      await t.container.deliveryScheduler.idle();

      expect(mailsOf()).toHaveLength(1);
      expect(hooksAt(paths.s1)).toHaveLength(1);
      expect(hooksAt(paths.hook)).toHaveLength(1);
      // The one send in flight when the process stopped was sent again: at least once, never lost.
      expect(hooksAt(paths.s2)).toHaveLength(2);
      const runs = (await ok('GET', `${url}/runs`, owner.token)).runs;
      expect(runs).toHaveLength(2);
      const [resumed, interrupted] = runs;
      expect(interrupted).toMatchObject({ status: 'interrupted', resumed_from: null });
      expect(interrupted.error).toMatch(/^Interrupted: the process delivering it stopped \(nothing heard from it since .+\); the next run resumed it for the targets it had not reached$/);
      expect(interrupted.deliveries.map((d: { medium: string }) => d.medium)).toEqual(['email', 'slack']);
      expect(resumed).toMatchObject({ status: 'sent', trigger: 'schedule', period: interrupted.period, resumed_from: interrupted.id, error: null });
      expect(resumed.deliveries).toEqual([
        expect.objectContaining({ medium: 'email', target: owner.email, ok: true, attempts: 1, sentInRun: interrupted.id }),
        { medium: 'slack', target: base, ok: true, attempts: 1, detail: 'HTTP 200', sentInRun: interrupted.id },
        { medium: 'slack', target: base, ok: true, attempts: 1, detail: 'HTTP 200' },
        { medium: 'webhook', target: base, ok: true, attempts: 1, detail: 'HTTP 200' },
      ]);
      expect(JSON.stringify(runs)).not.toContain('"key"');
      // One claim for the period, started twice, done; `lastSentAt` stays when the period was claimed.
      expect(await claimOf(sub.id)).toEqual([{ period: interrupted.period, state: 'done', attempts: 2 }]);
      expect((await ok('GET', url, owner.token)).lastSentAt).toBe(claimedAt);
      expect(await metric(resumedSeries)).toBe(resumedBefore + 1);
      const taken = t.logs.lines.map((l) => JSON.parse(l) as { msg: string; level: number; subscriptionId?: number; interruptedRun?: number; sentBefore?: number });
      expect(taken.some((l) => l.msg === 'interrupted delivery taken over (its process stopped); sending to the targets it had not reached' && l.level === 40 && l.subscriptionId === sub.id && l.interruptedRun === interrupted.id && l.sentBefore === 2)).toBe(true);

      // The stalled process wakes up: it finds its run taken over and sends nothing more.
      held.release();
      await doomed.container.deliveryScheduler.idle();
      expect(hooksAt(paths.hook)).toHaveLength(1);
      expect(hooksAt(paths.s2)).toHaveLength(2);
      expect(doomed.logs.text).toContain('delivery stopped: another process took it over');
      expect((await ok('GET', `${url}/runs`, owner.token)).runs.map((r: { status: string }) => r.status)).toEqual(['sent', 'interrupted']);
      expect(await claimOf(sub.id)).toEqual([{ period: interrupted.period, state: 'done', attempts: 2 }]);
    } finally {
      held.release();
      await doomed.container.close();
    }
  });

  it('a delivery still under way, whose process keeps reporting, is not taken over however long it takes', async () => {
    const paths = { slack: `/slack/live-${store}`, hook: `/hook/live-${store}` };
    const resumedBefore = await metric('plotline_delivery_interrupted_total{outcome="resumed"}');
    const { sub, url } = await dueSoon(`Live table ${store}`, { recipients: [owner.email], slackWebhooks: [base + paths.slack], webhook: { url: base + paths.hook } });
    const held = receiver.hold(paths.slack);
    const live = await anotherProcess();
    try {
      await live.container.deliveryScheduler.tick();
      await expect.poll(() => held.arrived, { timeout: 30_000 }).toBe(true);
      // Twenty minutes on one send, twice the lease: each tick of its process says it is still at it.
      for (let minutes = 5; minutes <= 20; minutes += 5) {
        clock.advance(5 * 60_000);
        await live.container.deliveryScheduler.tick();
        await t.container.deliveryScheduler.tick();
        const runs = (await ok('GET', `${url}/runs`, owner.token)).runs;
        expect(runs, `after ${minutes} minutes`).toHaveLength(1);
        expect(runs[0]).toMatchObject({ status: 'running', deliveries: [expect.objectContaining({ medium: 'email', ok: true })] });
      }
      held.release();
      await live.container.deliveryScheduler.idle();
      const runs = (await ok('GET', `${url}/runs`, owner.token)).runs;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'sent', resumed_from: null });
      expect(runs[0].deliveries.map((d: { medium: string; ok: boolean }) => `${d.medium}:${d.ok}`)).toEqual(['email:true', 'slack:true', 'webhook:true']);
      expect(hooksAt(paths.slack)).toHaveLength(1);
      expect(hooksAt(paths.hook)).toHaveLength(1);
      expect(await claimOf(sub.id)).toEqual([expect.objectContaining({ state: 'done', attempts: 1 })]);
      expect(await metric('plotline_delivery_interrupted_total{outcome="resumed"}')).toBe(resumedBefore);
    } finally {
      held.release();
      await live.container.close();
    }
  });

  it('an interrupted delivery is not resumed after a later slot came, while paused, for a send now, or after three starts; each run says why', async () => {
    // What dead processes leave behind: a claimed period with its run `running`, or a send now's run.
    const repo = new DeliveriesRepository(t.container.store.db);
    const series = 'plotline_delivery_interrupted_total{outcome="not_resumed"}';
    const before = await metric(series);
    const later = await dueSoon(`Superseded table ${store}`, { webhook: { url: `${base}/hook/superseded-${store}` } });
    await repo.claim({ id: later.sub.id, teamId: owner.teamId }, later.period, clock.now().toISOString());
    const paused = await dueSoon(`Paused table ${store}`, { webhook: { url: `${base}/hook/paused-${store}` } });
    await repo.claim({ id: paused.sub.id, teamId: owner.teamId }, paused.period, clock.now().toISOString());
    await ok('PUT', paused.url, owner.token, { active: false });
    const manual = await dueSoon(`Manual table ${store}`, { webhook: { url: `${base}/hook/manual-${store}` } });
    await ok('PUT', manual.url, owner.token, { active: false });
    await repo.startRun(owner.teamId, { subscription_id: manual.sub.id, trigger: 'manual', period: null }, clock.now().toISOString());
    const often = await dueSoon(`Often table ${store}`, { webhook: { url: `${base}/hook/often-${store}` } });
    await repo.claim({ id: often.sub.id, teamId: owner.teamId }, often.period, clock.now().toISOString());
    await t.container.store.db.updateTable('refresh_claims').set({ attempts: MAX_STARTS }).where('entity_type', '=', 'subscription').where('entity_id', '=', often.sub.id).execute();
    // Elapsed time: the period after its creation, claimed when due (an hour on); a day later, more than its interval has passed since.
    const hourlyBoard = await createDashboard(call, owner, source.url, { chart: { type: 'table', name: `Hourly table ${store}` } });
    const hourlyUrl = `/project/${hourlyBoard.projectId}/chart/${hourlyBoard.chartId}/subscriptions`;
    const hourly = await ok('POST', hourlyUrl, owner.token, { format: 'csv', schedule: { frequency: 'every_x_hours', frequencyNumber: 1 }, webhook: { url: `${base}/hook/hourly-superseded-${store}` } });
    const hourlyPeriod = `after:${hourly.createdAt as string}`;
    clock.advance(3_600_000);
    await repo.claim({ id: hourly.id, teamId: owner.teamId }, hourlyPeriod, clock.now().toISOString());

    // A day later: each slot has come again.
    clock.advance(86_400_000);
    await t.container.deliveryScheduler.tick();
    await t.container.deliveryScheduler.idle();
    const runsOf = async (u: string) => (await ok('GET', `${u}/runs`, owner.token)).runs as { status: string; error: string | null; period: string | null }[];
    const reason = (run: { error: string | null } | undefined) => run?.error?.replace(/^Interrupted: the process delivering it stopped \(nothing heard from it since [^)]+\); /, '');
    const [fresh, superseded] = await runsOf(later.url);
    expect(superseded).toMatchObject({ status: 'interrupted', period: later.period });
    expect(reason(superseded)).toBe('not resumed: a later slot is due, and that delivery goes to every target');
    // That later slot is delivered to every target, once.
    expect(fresh).toMatchObject({ status: 'sent', resumed_from: null });
    expect(fresh!.period).not.toBe(later.period);
    expect(hooksAt(`/hook/superseded-${store}`)).toHaveLength(1);
    expect(await claimOf(later.sub.id)).toEqual([
      { period: later.period, state: 'failed', attempts: 1 },
      { period: fresh!.period, state: 'done', attempts: 1 },
    ]);

    expect((await runsOf(paused.url)).map(reason)).toEqual(['not resumed: the subscription is paused']);
    expect(await claimOf(paused.sub.id)).toEqual([{ period: paused.period, state: 'failed', attempts: 1 }]);
    expect((await runsOf(manual.url)).map(reason)).toEqual(['not resumed: a send now is not resumed']);
    const oftenRuns = await runsOf(often.url);
    expect(reason(oftenRuns.find((r) => r.period === often.period))).toBe(`not resumed: interrupted ${MAX_STARTS} times (the delivery itself may be what stops its process; see the server log)`);
    expect(hooksAt(`/hook/paused-${store}`)).toHaveLength(0);
    expect(hooksAt(`/hook/manual-${store}`)).toHaveLength(0);
    const [hourlyFresh, hourlySuperseded] = await runsOf(`${hourlyUrl}/${hourly.id as number}`);
    expect(hourlySuperseded).toMatchObject({ status: 'interrupted', period: hourlyPeriod });
    expect(reason(hourlySuperseded)).toBe('not resumed: a later slot is due, and that delivery goes to every target');
    expect(hourlyFresh).toMatchObject({ status: 'sent', resumed_from: null });
    expect(hourlyFresh!.period).toMatch(/^after:/);
    expect(hourlyFresh!.period).not.toBe(hourlyPeriod);
    expect(hooksAt(`/hook/hourly-superseded-${store}`)).toHaveLength(1);
    await ok('PUT', `${hourlyUrl}/${hourly.id as number}`, owner.token, { active: false });
    expect(await metric(series)).toBe(before + 5);
    // Taken over once: a later tick finds nothing more to take.
    clock.advance(11 * 60_000);
    await t.container.deliveryScheduler.tick();
    await t.container.deliveryScheduler.idle();
    expect(await metric(series)).toBe(before + 5);
  });
});
