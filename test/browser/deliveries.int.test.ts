import type { ParsedMail } from 'mailparser';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DeliveriesRepository } from '../../src/modules/automation/deliveries-repository.js';
import { targetKey } from '../../src/modules/automation/deliveries-runner.js';
import { deliveryDue } from '../../src/modules/automation/deliveries-schedule.js';
import { startHookReceiver, startMailbox, type HookReceiver, type Mailbox } from '../helpers/loopback-peers.js';
import { createDashboard, createSourceDb, type Dashboard, type SourceDb } from '../helpers/refresh-fixture.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, watchProblems, type LiveApp } from './browser-env.js';
import { fetchRequester, type Requester } from './share-seed.js';

const WAIT = { timeout: 30_000 };

/**
 * The dashboard's Deliveries panel in Chromium against the real server, a real SMTP server and a
 * loopback Slack stand-in: create a weekly delivery, send it now (the email's picture decodes,
 * Slack receives its message), read its history, pause it. axe-core finds no violation.
 */
describe.skipIf(!browserAvailable())('the Deliveries panel in Chromium', () => {
  let live: LiveApp;
  let source: SourceDb;
  let browser: Browser;
  let page: Page;
  let api: Requester;
  let seeded: Dashboard & { ownerToken: string };
  let email: string;
  let mailbox: Mailbox;
  let slack: HookReceiver;
  let slackUrl: string;
  let mails: ParsedMail[];
  const problems: string[] = [];


  beforeAll(async () => {
    mailbox = await startMailbox();
    mails = mailbox.mails;
    slack = await startHookReceiver();
    slackUrl = `${slack.origin}/services/T1/B1/secret`;
    source = await createSourceDb(inject('postgresUrl'));
    live = await startLiveApp({
      PLOTLINE_SMTP_URL: mailbox.url,
      PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    });
    api = fetchRequester(live.url);
    email = `deliveries-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const user = await api({ method: 'POST', url: '/user', payload: { name: 'Ada', email, password: 'correct horse battery' } });
    expect(user.statusCode, user.body).toBe(200);
    const token: string = user.json().token;
    const teamId: number = (await api({ method: 'GET', url: '/team', token })).json()[0].id;
    const call = (method: string, url: string, t?: string, payload?: unknown) => api({ method, url, ...(t ? { token: t } : {}), ...(payload === undefined ? {} : { payload }) });
    seeded = { ...(await createDashboard(call, { token, teamId }, source.url, { project: { name: 'Weekly numbers' } })), ownerToken: token };
    browser = await launchBrowser();
    const context = await signedInContext(browser, live.url, { email, password: 'correct horse battery' }, { width: 1280, height: 900 });
    page = await context.newPage();
    watchProblems(page, problems);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('deliveries-last'), fullPage: true }).catch(() => undefined);
    await browser?.close();
    await live?.close();
    await source?.drop();
    await slack?.close();
    await mailbox?.close();
  });

  it('creates a weekly delivery, sends it now, shows its history, pauses it', async () => {
    await page.goto(`${live.url}/app/dashboards/${seeded.projectId}`);
    await page.getByRole('heading', { name: 'Weekly numbers' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByTestId('email-status').filter({ hasText: 'Email: ready' }).waitFor(WAIT);
    await page.getByText('No delivery yet.').waitFor(WAIT);

    await page.getByRole('button', { name: 'New delivery' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Monday numbers');
    await page.getByLabel('Send', { exact: true }).selectOption('weekly');
    await page.getByLabel('On', { exact: true }).selectOption('1');
    await page.getByLabel('At', { exact: true }).fill('09:30');
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Paris');
    await page.getByLabel('Email recipients', { exact: true }).fill(email);
    await page.getByLabel('Slack incoming webhooks', { exact: true }).fill(slackUrl);
    await axe(page, 'deliveries-form');
    await page.getByRole('button', { name: 'Create delivery' }).click();
    await page.getByText('Delivery created.').waitFor(WAIT);
    const row = page.getByRole('listitem').filter({ hasText: 'Monday numbers' });
    await row.getByText('Every Monday at 09:30 (Europe/Paris)').waitFor(WAIT);
    // The next delivery on the schedule's own clock, not the reader's.
    await row.getByText(/· 2 recipients · next Mon.* 09:30 Europe\/Paris$/).waitFor(WAIT);
    const [created] = (await api({ method: 'GET', url: `/project/${seeded.projectId}/subscriptions`, token: seeded.ownerToken })).json();
    expect(created).toMatchObject({ name: 'Monday numbers', format: 'png', recipients: [email], schedule: { frequency: 'weekly', dayOfWeek: 1, time: { hour: 9, minute: 30 }, timezone: 'Europe/Paris' } });
    expect(created.slackWebhooks).toEqual([`${new URL(slackUrl).origin}/********`]);

    await row.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Sent.').waitFor(WAIT);
    await page.getByTestId('run-status').filter({ hasText: 'sent' }).waitFor(WAIT);
    await axe(page, 'deliveries-history');
    await page.screenshot({ path: screenshotPath('editor-deliveries'), fullPage: true });
    expect(mails).toHaveLength(1);
    const picture = PNG.sync.read(mails[0]!.attachments.find((a) => a.contentType === 'image/png')!.content);
    expect(picture.width).toBe(1280);
    expect(slack.received).toHaveLength(1);
    expect(JSON.parse(slack.received[0]!.body).blocks[0].text.text).toContain('Weekly numbers');

    await row.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Delivery paused.').waitFor(WAIT);
    await row.getByRole('button', { name: 'Resume' }).waitFor(WAIT);
    await row.getByText(/paused$/).waitFor(WAIT);
    expect((await api({ method: 'GET', url: `/project/${seeded.projectId}/subscriptions/${created.id}`, token: seeded.ownerToken })).json().active).toBe(false);
    expect(problems).toEqual([]);
  }, 120_000);

  it('creates a delivery every N hours: a number instead of a time of day, listed in words', async () => {
    await page.goto(`${live.url}/app/dashboards/${seeded.projectId}`);
    await page.getByRole('heading', { name: 'Weekly numbers' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('button', { name: 'New delivery' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'New delivery' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Every six hours');
    // Minutes first: the number moves up to their floor, which the form says.
    await page.getByLabel('Send', { exact: true }).selectOption('every_x_minutes');
    const minutes = page.getByLabel('Every how many minutes', { exact: true });
    await minutes.waitFor(WAIT);
    await expect.poll(() => minutes.inputValue(), WAIT).toBe('15');
    await page.getByText('From 15 to 1440, counted from the last delivery').waitFor(WAIT);
    await page.getByLabel('Send', { exact: true }).selectOption('every_x_hours');
    const hours = page.getByLabel('Every how many hours', { exact: true });
    await hours.waitFor(WAIT);
    await hours.fill('6');
    // Elapsed time has no time of day.
    await page.getByLabel('At', { exact: true }).waitFor({ state: 'detached', ...WAIT });
    await page.getByLabel('Email recipients', { exact: true }).fill(email);
    await axe(page, 'deliveries-form-every');
    await page.getByRole('button', { name: 'Create delivery' }).click();
    await page.getByText('Delivery created.').waitFor(WAIT);
    const row = page.getByRole('listitem').filter({ hasText: 'Every six hours' });
    await row.getByText(/^Every 6 hours · PNG · 1 recipient · next /).waitFor(WAIT);
    await axe(page, 'deliveries-list-every');
    const listed = (await api({ method: 'GET', url: `/project/${seeded.projectId}/subscriptions`, token: seeded.ownerToken })).json() as { id: number; name: string; schedule: unknown }[];
    const created = listed.find((s) => s.name === 'Every six hours')!;
    expect(created.schedule).toEqual({ frequency: 'every_x_hours', frequencyNumber: 6, timezone: expect.any(String) });
    // Not left to deliver during the other tests.
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delivery deleted.').waitFor(WAIT);
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows a delivery in progress, and one whose server stopped mid-way and that another resumed', async () => {
    const token = seeded.ownerToken;
    const teamId: number = (await api({ method: 'GET', url: '/team', token })).json()[0].id;
    const otherSlack = `${slack.origin}/services/T2/B2/other`;
    const created = await api({
      method: 'POST',
      url: `/project/${seeded.projectId}/subscriptions`,
      token,
      payload: { name: 'Daily numbers', schedule: { frequency: 'daily', time: { hour: 6, minute: 0 }, timezone: 'UTC' }, recipients: [email], slackWebhooks: [otherSlack] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sub = created.json();
    // What a server that died after the e-mail leaves behind: the period claimed twenty minutes ago,
    // its run `running` with the e-mail recorded, and no word from it since.
    const { container } = live.server;
    const repo = new DeliveriesRepository(container.store.db);
    const now = Date.now();
    const period = deliveryDue(sub.schedule, { lastSentAt: new Date(now - 3 * 86_400_000).toISOString(), createdAt: sub.createdAt, now: new Date(now) }).period!;
    const stopped = new Date(now - 20 * 60_000).toISOString();
    const runId = (await repo.claim({ id: sub.id, teamId }, period, stopped))!;
    const sentBefore = { medium: 'email' as const, target: email, ok: true, attempts: 1, detail: '250 OK', key: targetKey('email', email) };
    expect(await repo.recordProgress(runId, { deliveries: [sentBefore], durationMs: 900, dataUpdatedAt: null }, stopped)).toBe(true);
    const mailsBefore = mails.length;
    await container.deliveryScheduler.tick();
    await container.deliveryScheduler.idle();
    // And a send now still under way on another server: it said it is alive a moment ago.
    const going = await repo.startRun(teamId, { subscription_id: sub.id, trigger: 'manual', period: null }, new Date().toISOString());
    expect(await repo.recordProgress(going, { deliveries: [sentBefore], durationMs: 400, dataUpdatedAt: null }, new Date().toISOString())).toBe(true);

    await page.goto(`${live.url}/app/dashboards/${seeded.projectId}`);
    await page.getByRole('heading', { name: 'Weekly numbers' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Daily numbers' });
    await row.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('table', { name: 'History of Daily numbers' });
    const runRow = (status: string) => history.getByRole('row').filter({ has: page.getByTestId('run-status').filter({ hasText: new RegExp(`^${status}$`) }) });
    await runRow('interrupted').getByText(`email ${email}: sent`).waitFor(WAIT);
    await runRow('interrupted').getByText(/Interrupted: the process delivering it stopped .*the next run resumed it for the targets it had not reached/).waitFor(WAIT);
    // The instant the server names is written in the reader's time, not as ISO 8601.
    expect(await runRow('interrupted').textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    await runRow('sent').getByText(`Resumed an interrupted delivery. email ${email}: sent before the interruption; slack ${slack.origin}: sent`).waitFor(WAIT);
    await runRow('sending…').getByText(`email ${email}: sent …`).waitFor(WAIT);
    await axe(page, 'deliveries-history-interrupted');
    await history.screenshot({ path: screenshotPath('deliveries-history-interrupted') });
    // The resumed run sent the Slack message only: the e-mail had gone before the stop.
    expect(slack.received.filter((r) => r.path === '/services/T2/B2/other')).toHaveLength(1);
    expect(mails.length).toBe(mailsBefore);
    expect(problems).toEqual([]);
  }, 120_000);
});
