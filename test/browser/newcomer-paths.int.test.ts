import type { ParsedMail } from 'mailparser';
import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHookReceiver, startMailbox, type HookReceiver, type Mailbox } from '../helpers/loopback-peers.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable } from './share-seed.js';

const WAIT = { timeout: 30_000 };
const PASSWORD = 'correct horse battery';

/**
 * A newcomer's two paths through the editor, screens only, in Chromium against a real Postgres, each
 * on an instance where nobody has signed up: Connections -> Datasets -> Dashboards, and Dashboards
 * first (the empty dashboard leads to the connection and the dataset, whose page leads back). Both
 * build a bar chart by country, a line chart by month, a KPI of a dataset whose SQL has a
 * `{{country}}` variable given its value in the chart's settings (first path) or by a dashboard
 * variable filter (second), and end at a share link
 * opened in a fresh browser where every chart has data. Both set an alert from the KPI card's menu
 * whose test send reaches a loopback webhook; then a chart's own delivery, from the card's
 * menu, is sent now to a loopback SMTP server. axe-core finds no violation; no console error.
 */
describe.skipIf(!browserAvailable())("a newcomer's paths through the editor (Chromium)", () => {
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let mailbox: Mailbox;
  let receiver: HookReceiver;
  let hookUrl: string;
  let smtpUrl: string;
  let frSum = 0;
  const lives: LiveApp[] = [];
  let mails: ParsedMail[];
  const problems: string[] = [];
  const timings: string[] = [];
  /** The first path's instance and dashboard, for the chart delivery. */
  let first: { live: LiveApp; page: Page; dashboardId: number } | null = null;

  function watch(p: Page) {
    p.on('console', (message) => {
      const text = message.text();
      // "Who am I?" before sign-up is a failed load Chromium logs.
      if (/status of 401/.test(text) && /\/user\/me$/.test(message.location().url)) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`${text} @ ${message.location().url}`);
    });
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    p.on('response', (r) => {
      if (r.status() >= 500) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
  }

  const shot = (p: Page, name: string) => p.screenshot({ path: screenshotPath(`path-${name}`), fullPage: true });

  async function typeSql(editor: Locator, text: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      await editor.click();
      await editor.page().locator('.cm-focused').waitFor(WAIT);
      await editor.page().keyboard.press('ControlOrMeta+a');
      await editor.page().keyboard.press('Delete');
      await editor.page().keyboard.insertText(text);
      if ((await editor.textContent()) === text) return;
    }
    expect(await editor.textContent()).toBe(text);
  }

  async function freshInstance() {
    const live = await startLiveApp({ PLOTLINE_SMTP_URL: smtpUrl, PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    lives.push(live);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watch(page);
    return { live, page };
  }

  async function signUp(page: Page, live: LiveApp, name: string) {
    await page.goto(`${live.url}/app/`);
    await page.getByRole('heading', { name: 'Welcome: create the first account' }).waitFor(WAIT);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Email', { exact: true }).fill(`${name.toLowerCase()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByTestId('getting-started').waitFor(WAIT);
  }

  /** On the Connections screen: the form, filled field by field, tested, saved. */
  async function addConnection(page: Page) {
    const u = new URL(db.url);
    await page.getByRole('button', { name: 'Add a connection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shop');
    await page.getByLabel('Host', { exact: true }).fill(u.hostname);
    await page.getByLabel('Port', { exact: true }).fill(u.port || '5432');
    await page.getByLabel('Database', { exact: true }).fill(u.pathname.slice(1));
    await page.getByLabel('User', { exact: true }).fill(decodeURIComponent(u.username) || 'postgres');
    if (u.password) await page.getByLabel('Password', { exact: true }).fill(decodeURIComponent(u.password));
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connected: the credentials work (not saved yet).').waitFor(WAIT);
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('heading', { name: 'Connection: Shop' }).waitFor(WAIT);
  }

  /** On the Datasets screen: a dataset with its SQL, run and saved. */
  async function addDataset(page: Page, name: string, sql: string, rows: RegExp) {
    await page.getByLabel('New dataset name').fill(name);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name }).waitFor(WAIT);
    const editor = page.locator('.cm-content');
    await typeSql(editor, sql);
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByTestId('run-meta').textContent(), WAIT).toMatch(rows);
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await page.getByText('Saved: the query ran.').waitFor(WAIT);
  }

  /** In the chart form (already open): name, type, dataset, axes; saved, back on the dashboard. */
  async function addChart(page: Page, dashboard: string, chart: { name: string; type: string; dataset: string; x?: string; y: string; op: string; month?: boolean; country?: string }) {
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    await page.getByLabel('Chart name', { exact: true }).fill(chart.name);
    await page.getByLabel('Chart type', { exact: true }).selectOption(chart.type);
    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: chart.dataset });
    await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', ...WAIT });
    if (chart.x) await page.getByLabel('X axis', { exact: true }).selectOption(chart.x);
    if (chart.month) {
      expect(await page.getByLabel('The X axis is a date (group by time)').isChecked()).toBe(true);
      await page.getByLabel('Time interval', { exact: true }).selectOption('month');
    }
    await page.getByLabel('Y axis', { exact: true }).selectOption(chart.y);
    await page.getByLabel('Operation', { exact: true }).selectOption(chart.op);
    await page.locator('.preview[data-preview-state="ready"] .card[data-rendered]').waitFor(WAIT);
    if (chart.country) {
      // Without a value for {{country}} the preview says why it is empty; with one, it has the country's data.
      // (Polled: the preview of the form before its last choice may still be the one on show.)
      await expect.poll(() => page.locator('.preview[data-preview-state="ready"] .card').getAttribute('data-empty-reason'), WAIT).toBe('VARIABLE_MISSING');
      await page.getByLabel('Value of country', { exact: true }).fill(chart.country);
      await expect.poll(() => page.locator('.preview[data-preview-state="ready"] .card').getAttribute('data-empty-reason'), WAIT).toBeNull();
      await axe(page, 'chart form with a variable');
      await shot(page, 'chart-variable');
    }
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: dashboard }).waitFor(WAIT);
    await page.locator('.board-item', { has: page.getByRole('button', { name: `Menu of ${chart.name}` }) }).waitFor(WAIT);
  }

  /** The three charts of the path, from the dashboard (the bar chart's form is already open). */
  async function addThreeCharts(page: Page, dashboard: string, dashboardId: number, live: LiveApp, country?: string) {
    await addChart(page, dashboard, { name: 'Revenue by country', type: 'bar', dataset: 'Orders', x: 'country', y: 'amount', op: 'sum' });
    await page.getByRole('link', { name: 'Add a chart' }).click();
    await addChart(page, dashboard, { name: 'Orders by month', type: 'line', dataset: 'Orders', x: 'created_at', y: 'id', op: 'count', month: true });
    await page.getByRole('link', { name: 'Add a chart' }).click();
    await addChart(page, dashboard, { name: 'Revenue in the country', type: 'kpi', dataset: 'Orders in a country', y: 'amount', op: 'sum', ...(country ? { country } : {}) });
    expect(page.url()).toBe(`${live.url}/app/dashboards/${dashboardId}`);
  }

  async function kpiShowsFrance(page: Page) {
    const kpi = page.locator('.board-item', { has: page.getByRole('button', { name: 'Menu of Revenue in the country' }) });
    await expect.poll(async () => Number(((await kpi.locator('[data-kpi-value]').textContent()) ?? '').replace(/[^\d.]/g, '')), WAIT).toBeCloseTo(frSum, 0);
  }

  /** A dashboard filter on the {{country}} variable, FR, shown on the report: the KPI shows FR's revenue. */
  async function countryFilter(page: Page) {
    await page.getByRole('button', { name: 'Add a filter' }).click();
    const form = page.locator('form.filter-form');
    await form.getByLabel('Filter on', { exact: true }).selectOption('variable');
    await form.getByLabel('Label', { exact: true }).fill('Country');
    await form.getByLabel('Variable', { exact: true }).fill('country');
    await form.getByLabel('Default value', { exact: true }).fill('FR');
    await form.getByLabel('Show on the report').check();
    await form.getByRole('button', { name: 'Add filter' }).click();
    await form.waitFor({ state: 'detached', ...WAIT });
    await kpiShowsFrance(page);
  }

  /** Share the dashboard, open the link in a fresh browser: every chart drawn, the KPI's value FR's. */
  async function shareAndOpen(page: Page, tag: string) {
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('button', { name: 'New share policy' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const report = await stranger.newPage();
      watch(report);
      await report.goto(link);
      await report.waitForSelector('body[data-state="ready"]', WAIT);
      const cards = report.locator('[data-chart-id]');
      await expect.poll(() => cards.count(), WAIT).toBe(3);
      for (let i = 0; i < 3; i++) {
        await expect.poll(() => cards.nth(i).getAttribute('data-rendered'), WAIT).toBe('true');
        expect(await cards.nth(i).getAttribute('data-empty-reason')).toBeNull();
      }
      await expect.poll(async () => Number(((await report.locator('[data-kpi-value]').textContent()) ?? '').replace(/[^\d.]/g, '')), WAIT).toBeCloseTo(frSum, 0);
      await axe(report, `${tag} report`);
      await report.screenshot({ path: screenshotPath(`path-${tag}-report`), fullPage: true });
    } finally {
      await stranger.close();
    }
  }

  beforeAll(async () => {
    mailbox = await startMailbox();
    mails = mailbox.mails;
    smtpUrl = mailbox.url;
    receiver = await startHookReceiver();
    hookUrl = `${receiver.origin}/alerts`;
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      frSum = Number((await client.query("select sum(amount)::float as s from orders where country = 'FR'")).rows[0].s);
    } finally {
      await client.end();
    }
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    if (problems.length > 0) process.stdout.write(`[paths] console: ${problems.join('\n')}\n`);
    if (timings.length > 0) process.stdout.write(`[paths] ${timings.join('; ')}\n`);
    await browser?.close();
    for (const live of lives) await live.close();
    await db?.drop();
    await receiver?.close();
    await mailbox?.close();
  });

  /** An alert from the KPI's card menu, to the loopback webhook; its test send arrives there. */
  async function alertFromMenu(page: Page) {
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Menu of Revenue in the country' }).click();
    await page.getByRole('menuitem', { name: 'Alerts' }).click();
    const alerts = page.getByRole('region', { name: 'Alerts of Revenue in the country' });
    await alerts.getByLabel('When the value is').selectOption('threshold_above');
    await alerts.getByLabel('Value', { exact: true }).fill('100000');
    await alerts.getByLabel('Webhook URL').fill(hookUrl);
    await alerts.getByRole('button', { name: 'Create alert' }).click();
    await alerts.getByText(/^Alert created\./).waitFor(WAIT);
    await alerts.getByRole('button', { name: /^Send a test of alert/ }).click();
    await alerts.getByText('Test sent: webhook delivered.').waitFor(WAIT);
    expect(receiver.received).toHaveLength(before + 1);
    expect(receiver.received[before]!.body).toContain('Revenue in the country');
  }

  it('Connections -> Datasets -> Dashboards: a bar, a line by month, a KPI given its variable in the chart form, an alert whose test arrives, a share link', async () => {
    const { live, page } = await freshInstance();
    const started = Date.now();
    await signUp(page, live, 'Nia');
    await shot(page, 'getting-started');

    await page.getByTestId('getting-started').getByRole('link', { name: 'Add a connection' }).click();
    await addConnection(page);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await addDataset(page, 'Orders', 'select id, country, amount, created_at from orders order by id', /^120 rows in/);
    // Before any dashboard, the dataset's page says where the next step is.
    await page.getByTestId('next-chart').getByRole('link', { name: 'create a dashboard' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await addDataset(page, 'Orders in a country', 'select id, amount, created_at from orders where country = {{country}} order by id', /^0 rows in/);
    await page.getByTestId('variables-without-value').waitFor(WAIT);
    await page.getByLabel('Run value of country').fill('FR');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByTestId('run-meta').textContent(), WAIT).toMatch(/^30 rows in/);
    await axe(page, 'dataset with a variable');
    await shot(page, 'dataset-variable');

    await page.getByRole('link', { name: 'Dashboards' }).first().click();
    await page.getByLabel('New dashboard name').fill('Sales');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor(WAIT);
    const dashboardId = Number(/\/app\/dashboards\/(\d+)/.exec(page.url())![1]);
    await page.getByRole('link', { name: 'Add the first chart' }).click();
    // The KPI gives {{country}} its value in the chart's own settings.
    await addThreeCharts(page, 'Sales', dashboardId, live, 'FR');
    await kpiShowsFrance(page);
    await axe(page, 'dashboard');
    await shot(page, 'dashboard');

    await alertFromMenu(page);
    await axe(page, 'alert');
    await shot(page, 'alert');
    await page.getByRole('region', { name: 'Alerts of Revenue in the country' }).getByRole('button', { name: 'Close' }).click();

    await shareAndOpen(page, 'connections-first');
    const seconds = (Date.now() - started) / 1000;
    timings.push(`Connections first: ${seconds.toFixed(1)} s`);
    process.stdout.write(`[paths] Connections -> Datasets -> Dashboards -> share link in ${seconds.toFixed(1)} s\n`);
    first = { live, page, dashboardId };
    expect(problems).toEqual([]);
  }, 300_000);

  it('Dashboards first: the empty dashboard leads to the connection and the dataset, and back; the KPI takes its variable from a dashboard filter; an alert from its menu; the same share link', async () => {
    const { live, page } = await freshInstance();
    const started = Date.now();
    await signUp(page, live, 'Omar');
    await page.getByLabel('New dashboard name').fill('Sales');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor(WAIT);
    const dashboardId = Number(/\/app\/dashboards\/(\d+)/.exec(page.url())![1]);
    // No dataset yet: the empty dashboard says what a chart needs, with the links.
    const needs = page.getByTestId('needs-dataset');
    await needs.waitFor(WAIT);
    await axe(page, 'empty dashboard');
    await shot(page, 'empty-dashboard');
    await needs.getByRole('link', { name: 'connection' }).click();
    await addConnection(page);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await addDataset(page, 'Orders', 'select id, country, amount, created_at from orders order by id', /^120 rows in/);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await addDataset(page, 'Orders in a country', 'select id, amount, created_at from orders where country = {{country}} order by id', /^0 rows in/);
    // The dataset's page leads back to the dashboard's chart form.
    await page.getByTestId('next-chart').getByRole('link', { name: 'Sales' }).click();
    await addThreeCharts(page, 'Sales', dashboardId, live);
    await countryFilter(page);
    await alertFromMenu(page);
    await page.getByRole('region', { name: 'Alerts of Revenue in the country' }).getByRole('button', { name: 'Close' }).click();
    await shareAndOpen(page, 'dashboards-first');
    const seconds = (Date.now() - started) / 1000;
    timings.push(`Dashboards first: ${seconds.toFixed(1)} s`);
    process.stdout.write(`[paths] Dashboards first -> connection -> datasets -> back -> share link in ${seconds.toFixed(1)} s\n`);
    expect(problems).toEqual([]);
  }, 300_000);

  it("a chart's own delivery from its card menu: created, sent now by email, in its history", async () => {
    expect(first).not.toBeNull();
    const { live, page, dashboardId } = first!;
    await page.goto(`${live.url}/app/dashboards/${dashboardId}`);
    await page.getByRole('button', { name: 'Menu of Revenue by country' }).click();
    await page.getByRole('menuitem', { name: 'Deliveries' }).click();
    const panel = page.getByRole('region', { name: 'Deliveries of Revenue by country' });
    await panel.getByTestId('email-status').filter({ hasText: 'Email: ready' }).waitFor(WAIT);
    await panel.getByText('No delivery yet.').waitFor(WAIT);
    await panel.getByRole('button', { name: 'New delivery' }).click();
    await panel.getByLabel('Name', { exact: true }).fill('Countries every morning');
    await panel.getByLabel('Send', { exact: true }).selectOption('daily');
    await panel.getByLabel('Email recipients', { exact: true }).fill('nia@example.com');
    await axe(page, 'chart delivery form');
    await panel.getByRole('button', { name: 'Create delivery' }).click();
    await panel.getByText('Delivery created.').waitFor(WAIT);
    const row = panel.getByRole('listitem').filter({ hasText: 'Countries every morning' });
    await row.getByText('(one chart)').waitFor(WAIT);
    await row.getByRole('button', { name: 'Send now' }).click();
    await panel.getByText('Sent.').waitFor(WAIT);
    await panel.getByTestId('run-status').filter({ hasText: 'sent' }).waitFor(WAIT);
    expect(await panel.getByRole('table', { name: 'History of Countries every morning' }).textContent()).toContain('email nia@example.com: sent');
    await axe(page, 'chart delivery history');
    await page.screenshot({ path: screenshotPath('path-chart-delivery') });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Revenue by country');
    // The dashboard's own panel lists it too.
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Deliveries', exact: true }).click();
    await page.locator('.panel.deliveries').getByText('Countries every morning').waitFor(WAIT);
    expect(problems).toEqual([]);
  }, 120_000);
});
