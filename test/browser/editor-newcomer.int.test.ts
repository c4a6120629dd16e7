import pg from 'pg';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable } from './share-seed.js';

const WAIT = { timeout: 30_000 };
/** Runs until cancelled (sleep functions are refused by the statement check). */
const SLOW_QUERY = 'select count(*) from (select generate_series(1, 100000000000)) s /* editor_cancel_marker */';

/**
 * A newcomer with the README only, in Chromium against a real Postgres, on an instance where nobody
 * has signed up: sign-up first, the first steps on an empty Dashboards page, then Connections ->
 * Datasets -> Dashboards in that order (a dataset made before any dashboard is offered to the chart
 * editor), to a share link opened in a fresh browser. Then the SQL editor's own behaviour (runs what
 * is on screen, Ctrl+Enter, unsaved mark, a refused save, syntax errors, variables without a value,
 * completion from the schema, cancel, asked before unsaved SQL is lost), each connection type's
 * form, invitations, and a page that does not exist. Every screen passes axe-core with no violation at all; no console error.
 */
describe.skipIf(!browserAvailable())('a newcomer in the editor (Chromium)', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let datasetUrl = '';
  let dashboardId = 0;
  const problems: string[] = [];

  function watch(p: Page) {
    p.on('console', (message) => {
      const text = message.text();
      const at = message.location();
      // "Who am I?" before sign-up, and a run the test refuses or cancels on purpose, are failed loads Chromium logs.
      if (/status of (400|401)/.test(text) && /\/user\/me|\/draft$|\/test$/.test(at.url)) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`${text} @ ${at.url}:${at.lineNumber}`);
    });
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  }

  /** axe-core in the page: no violation of any impact. */

  async function shot(p: Page, name: string) {
    await p.screenshot({ path: screenshotPath(`newcomer-${name}`), fullPage: true });
  }

  /** Replaces the text of the CodeMirror editor; again if the first keys came before it was ready. */
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

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    live = await startLiveApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    watch(page);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('newcomer-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[newcomer] console: ${problems.join('\n')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  it('goes from an empty instance to a shared dashboard: Connections -> Datasets -> Dashboards', async () => {
    const started = Date.now();
    const dbUrl = new URL(db.url);

    // Nobody has signed up: the first screen is sign-up.
    await page.goto(`${live.url}/app/`);
    await page.getByRole('heading', { name: 'Welcome: create the first account' }).waitFor(WAIT);
    await axe(page, 'first-run');
    await shot(page, 'first-run');
    await page.getByLabel('Name', { exact: true }).fill('Nia');
    await page.getByLabel('Email', { exact: true }).fill('nia@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();

    // An empty Dashboards page walks through the steps, none done yet.
    const steps = page.getByTestId('getting-started');
    await steps.waitFor(WAIT);
    expect(await steps.locator('li[data-done="true"]').count()).toBe(0);
    await axe(page, 'getting-started');
    await shot(page, 'getting-started');

    // Connection: a pasted connection string fills the form; tested before it is saved.
    await steps.getByRole('link', { name: 'Add a connection' }).click();
    await page.getByRole('button', { name: 'Add a connection' }).click();
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe('5432');
    await page.getByLabel('Type', { exact: true }).selectOption('mysql');
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe('3306');
    const user = decodeURIComponent(dbUrl.username) || 'postgres';
    const pasted = `postgres://${user}${dbUrl.password ? ':' + dbUrl.password : ''}@${dbUrl.hostname}:${dbUrl.port || '5432'}${dbUrl.pathname}`;
    await page.getByLabel('Paste a connection string (optional)').fill(pasted);
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('postgres');
    expect(await page.getByLabel('Host', { exact: true }).inputValue()).toBe(dbUrl.hostname);
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe(dbUrl.port || '5432');
    expect(await page.getByLabel('Database', { exact: true }).inputValue()).toBe(dbUrl.pathname.slice(1));
    expect(await page.getByLabel('User', { exact: true }).inputValue()).toBe(user);
    await page.getByLabel('Name', { exact: true }).fill('Shop');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connected: the credentials work (not saved yet).').waitFor(WAIT);
    expect((await (await page.request.get(`${live.url}/team`)).json())[0].id).toBeGreaterThan(0);
    await axe(page, 'connection-form');
    await shot(page, 'connection-form');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('heading', { name: 'Connection: Shop' }).waitFor(WAIT);

    // Dataset, made before any dashboard exists.
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByLabel('New dataset name').fill('Orders');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor(WAIT);
    datasetUrl = page.url();
    // Opening it ran nothing on the database: it says so.
    await page.getByTestId('not-run').waitFor(WAIT);
    expect(await page.getByTestId('dataset-summary').textContent()).toContain('no dashboard yet');
    const editor = page.locator('.cm-content');
    await typeSql(editor, 'select id, country, amount, created_at from orders order by id');
    await page.getByTestId('unsaved').waitFor(WAIT);
    // Ctrl+Enter runs the query on screen, unsaved.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect.poll(() => page.getByTestId('run-meta').textContent(), WAIT).toMatch(/^120 rows in \d+ ms$/);
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await page.getByText('Saved: the query ran.').waitFor(WAIT);
    await page.getByTestId('unsaved').waitFor({ state: 'detached' });

    // Dashboard, then a chart drawn from the dataset made before it.
    await page.getByRole('link', { name: 'Dashboards' }).click();
    await page.getByLabel('New dashboard name').fill('Sales');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor(WAIT);
    dashboardId = Number(/\/app\/dashboards\/(\d+)/.exec(page.url())![1]);
    await page.goto(`${live.url}/app/dashboards/${dashboardId}/charts/new`);
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    expect(await page.getByLabel('Dataset', { exact: true }).locator('option').allTextContents()).toEqual(['Orders']);
    await page.getByLabel('Chart name', { exact: true }).fill('Revenue by country');
    await page.getByLabel('Chart type', { exact: true }).selectOption('bar');
    await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByLabel('X axis', { exact: true }).selectOption('country');
    await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor(WAIT);
    await page.locator('.board-item .card[data-rendered="true"]').first().waitFor(WAIT);

    // Using it attached the dataset to the dashboard.
    await page.goto(datasetUrl);
    await expect.poll(() => page.getByTestId('dataset-summary').textContent(), WAIT).toContain('used on 1 dashboard');

    // Share, and open the link where nobody is signed in.
    await page.goto(`${live.url}/app/dashboards/${dashboardId}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: 'New share policy' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const report = await stranger.newPage();
      watch(report);
      await report.goto(link);
      await report.waitForSelector('body[data-state="ready"]', WAIT);
      expect(await report.locator('.card').count()).toBe(1);
      await report.screenshot({ path: screenshotPath('newcomer-shared-report'), fullPage: true });
    } finally {
      await stranger.close();
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`[newcomer] empty instance -> shared dashboard in ${seconds.toFixed(1)} s\n`);

    // Every step is done now: the steps are gone.
    await page.goto(`${live.url}/app/`);
    await page.getByRole('heading', { name: 'Dashboards' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Sales' }).waitFor(WAIT);
    await expect.poll(() => page.getByTestId('getting-started').count(), WAIT).toBe(0);
  }, 240_000);

  it('the SQL editor: what is on screen runs, a broken query is not saved, errors say what and where, tables complete', async () => {
    // Opening a dataset runs nothing on the database behind the screen: it asks the cache only, and says it was not run.
    const runs: string[] = [];
    const onRequest = (request: { method(): string; url(): string; postData(): string | null }) => {
      if (request.method() === 'POST' && /\/(request|draft)$/.test(request.url())) runs.push(`${request.url()} ${request.postData() ?? ''}`);
    };
    page.on('request', onRequest);
    await page.goto(datasetUrl);
    const editor = page.locator('.cm-content');
    await editor.waitFor(WAIT);
    await page.getByTestId('not-run').waitFor(WAIT);
    page.off('request', onRequest);
    expect(runs.filter((r) => !r.includes('"noSource":true'))).toEqual([]);

    // Its connection and dashboards are shown and changed here.
    await page.getByText('Connection and dashboards').click();
    const settings = page.locator('.dataset-settings');
    expect(await settings.getByLabel('Connection', { exact: true }).locator('option:checked').textContent()).toBe('Shop (postgres)');
    await settings.getByLabel('Sales').uncheck();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByTestId('dataset-summary').textContent(), WAIT).toContain('no dashboard yet');
    await settings.getByLabel('Sales').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByTestId('dataset-summary').textContent(), WAIT).toContain('used on 1 dashboard');
    await axe(page, 'dataset-settings');
    await shot(page, 'dataset-settings');
    await page.getByText('Connection and dashboards').click();

    // A plain syntax error is said as one, and is not saved behind a "Saved".
    await typeSql(editor, 'selec id from orders');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Run query' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), WAIT).toContain('syntax error');
    expect(await alert.textContent()).toContain('"Shop"');
    expect(await alert.textContent()).not.toContain('read-only');
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await expect.poll(() => alert.textContent(), WAIT).toMatch(/^Not saved: The SQL query has a syntax error/);
    expect(await page.getByText(/^Saved/).count()).toBe(0);
    await page.getByRole('button', { name: 'Save anyway' }).waitFor(WAIT);
    await page.getByTestId('unsaved').waitFor(WAIT);
    await shot(page, 'sql-syntax-error');

    // A variable without a value: the run says so when it gives no rows.
    await typeSql(editor, 'select id, amount from orders where status = {{status}}');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByTestId('variables-without-value').textContent(), WAIT).toContain('"status" had no value');
    expect(await page.getByTestId('variables-without-value').textContent()).toContain('no rows');
    await page.getByLabel('Run value of status').fill('paid');
    await page.keyboard.press('Tab');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect.poll(() => page.getByTestId('run-meta').textContent(), WAIT).toMatch(/^96 rows in/);
    expect(await page.getByTestId('variables-without-value').count()).toBe(0);

    // The connection's tables: in the side panel and offered as one types.
    await page.getByRole('button', { name: 'Read the tables again' }).click();
    await page.locator('.schema-panel summary', { hasText: 'orders' }).waitFor(WAIT);
    await page.locator('.schema-panel summary', { hasText: 'orders' }).click();
    await page.locator('.schema-panel code', { hasText: 'created_at' }).waitFor(WAIT);
    await typeSql(editor, 'select * from ');
    await page.keyboard.type('ord');
    // Keys typed one by one all land: the editor is never sent its own text back.
    expect(await editor.textContent()).toBe('select * from ord');
    await page.locator('.cm-tooltip-autocomplete').getByText('orders').first().waitFor(WAIT);
    await axe(page, 'sql-editor');
    await page.screenshot({ path: screenshotPath('newcomer-sql-editor') });
    await page.keyboard.press('Escape');
    // Edited after a refused save: its error and "Save anyway" are gone.
    expect(await page.getByRole('button', { name: 'Save anyway' }).count()).toBe(0);

    // A long query is cancelled from the screen, and stops on the database.
    await typeSql(editor, SLOW_QUERY);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const active = async () =>
        (await admin.query("select count(*)::int as n from pg_stat_activity where query like '%editor_cancel_marker%' and state = 'active' and pid <> pg_backend_pid()")).rows[0].n as number;
      await page.getByRole('button', { name: 'Run query' }).click();
      await page.getByTestId('running').waitFor(WAIT);
      await expect.poll(active, WAIT).toBe(1);
      await shot(page, 'sql-running');
      await page.getByRole('button', { name: 'Cancel run' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toContain('The run was cancelled');
      await expect.poll(active, WAIT).toBe(0);
    } finally {
      await admin.end();
    }
    expect(problems.filter((p) => /Maximum update depth|#185/.test(p))).toEqual([]);
  }, 180_000);

  it('asks before unsaved SQL is lost: through a link, Back, or closing the tab; a save ends it', async () => {
    // Opened through the list, so Back stays inside the page.
    await page.goto(`${live.url}/app/datasets`);
    await page.getByRole('link', { name: 'Orders' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor(WAIT);
    const here = page.url();
    const sql = 'select id, country, amount, created_at from orders where amount > 0 order by id';
    await typeSql(editor, sql);
    await page.getByTestId('unsaved').waitFor(WAIT);

    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Dashboards' }).click();
    await expect.poll(() => questions.length, WAIT).toBe(1);
    expect(questions[0]).toContain('Leave without saving the query?');
    expect(await editor.textContent()).toBe(sql);

    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goBack();
    await expect.poll(() => questions.length, WAIT).toBe(2);
    await expect.poll(() => page.url(), WAIT).toBe(here);
    expect(await editor.textContent()).toBe(sql);
    await page.getByTestId('unsaved').waitFor(WAIT);

    // Closing or reloading the tab asks too (beforeunload).
    page.once('dialog', (dialog) => {
      questions.push(dialog.type());
      void dialog.dismiss();
    });
    await page.reload({ timeout: 3_000 }).catch(() => undefined);
    await expect.poll(() => questions.length, WAIT).toBe(3);
    expect(questions[2]).toBe('beforeunload');
    expect(await editor.textContent()).toBe(sql);
    await axe(page, 'dataset, unsaved');

    // Saved: leaving asks nothing.
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await page.getByText('Saved: the query ran.').waitFor(WAIT);
    await page.getByTestId('unsaved').waitFor({ state: 'detached', ...WAIT });
    await page.goBack();
    await page.getByRole('heading', { name: 'Datasets' }).waitFor(WAIT);
    expect(questions).toHaveLength(3);
  }, 120_000);

  it('every connection type shows its own settings', async () => {
    await page.goto(`${live.url}/app/connections`);
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const type = page.getByLabel('Type', { exact: true });
    const expectations: [string, string[]][] = [
      ['firestore', ['Service account key (JSON)', 'Database (optional)']],
      ['realtimedb', ['Database URL', 'Service account key (JSON)', 'Read as user id (optional)']],
      ['googleAnalytics', ['Credentials', 'Service account key (JSON)', 'Property (optional)']],
      ['customerio', ['App API key', 'Region']],
      ['mongodb', ['Connection string', 'Paste a connection string (optional)']],
      ['api', ['Base URL', 'Kind']],
    ];
    for (const [id, labels] of expectations) {
      await type.selectOption(id);
      for (const label of labels) await page.getByLabel(label, { exact: true }).waitFor(WAIT);
    }
    // The HTTP API: headers and authentication.
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 1 name', { exact: true }).fill('X-Api-Key');
    await page.getByLabel('Kind', { exact: true }).selectOption('bearer_token');
    await page.getByLabel('Token', { exact: true }).waitFor(WAIT);
    await axe(page, 'connection-api');
    await shot(page, 'connection-api');
    await page.getByLabel('Type', { exact: true }).selectOption('googleAnalytics');
    await page.getByLabel('Credentials', { exact: true }).selectOption('oauth');
    await page.getByLabel('Refresh token', { exact: true }).waitFor(WAIT);
    await axe(page, 'connection-google-analytics');
  }, 120_000);

  it('invites someone by link: they sign up into the team with the dashboards the link grants', async () => {
    await page.goto(`${live.url}/app/members`);
    await page.getByRole('heading', { name: 'Invitations' }).waitFor(WAIT);
    await expect.poll(() => page.getByTestId('invite-email-state').textContent(), WAIT).toContain('no SMTP server');
    await page.getByLabel('Invited role', { exact: true }).selectOption('projectViewer');
    await page.getByRole('group', { name: 'Dashboards of the invited member' }).getByLabel('Sales').check();
    await page.getByLabel('Link works for', { exact: true }).selectOption('3');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const url = (await page.getByTestId('invite-link').textContent())!.trim();
    expect(url).toContain('/invite?token=');
    await axe(page, 'members-invitations');
    await shot(page, 'members-invitations');

    const invited = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await invited.newPage();
      watch(p);
      await p.goto(url);
      await p.getByRole('heading', { name: 'You are invited: create your account' }).waitFor(WAIT);
      await axe(p, 'invite-signup');
      await shot(p, 'invite-signup');
      await p.getByLabel('Name', { exact: true }).fill('Omar');
      await p.getByLabel('Email', { exact: true }).fill('omar@example.com');
      await p.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await p.getByRole('button', { name: 'Sign up and join' }).click();
      await p.getByRole('link', { name: 'Sales' }).waitFor(WAIT);
    } finally {
      await invited.close();
    }
    // The member is listed with the dashboard, and their dashboards can be changed here.
    await page.reload();
    const row = page.getByRole('row', { name: /Omar/ });
    await row.getByText('1 dashboard').waitFor(WAIT);
    await page.getByRole('cell', { name: 'used' }).waitFor(WAIT);
    await row.getByText('1 dashboard').click();
    const changed = page.waitForResponse((r) => /\/members\/\d+$/.test(r.url()) && r.request().method() === 'PUT');
    // The row changes once a read of the list in flight has been cancelled (it cannot write the old
    // row back): a click, then the state, rather than uncheck()'s look right after the click.
    const sales = row.getByRole('group', { name: 'Dashboards of Omar' }).getByLabel('Sales');
    await sales.click();
    expect((await changed).status()).toBe(200);
    await expect.poll(() => sales.isChecked(), WAIT).toBe(false);
    await row.getByText('None yet').waitFor(WAIT);
    const members = await (await page.request.get(`${live.url}/team/${(await (await page.request.get(`${live.url}/team`)).json())[0].id}/members`)).json();
    expect(members.find((m: { name: string }) => m.name === 'Omar').projects).toEqual([]);
    await axe(page, 'members-dashboards');
  }, 120_000);

  it('lists datasets with their connection and dashboards; a project role key gets its dashboards', async () => {
    await page.goto(`${live.url}/app/datasets`);
    await page.getByRole('link', { name: 'Orders' }).waitFor(WAIT);
    // The dashboards' names come with the list of dashboards, which may answer after the datasets.
    await expect.poll(() => page.locator('.rows li', { hasText: 'Orders' }).textContent(), WAIT).toContain('Shop · Sales');
    await axe(page, 'datasets');

    await page.goto(`${live.url}/app/keys`);
    await page.getByLabel('Key name', { exact: true }).fill('Wall screen');
    await page.getByRole('region', { name: /Team keys/ }).getByLabel('Role', { exact: true }).selectOption('projectViewer');
    await page.getByRole('group', { name: 'Dashboards the key reaches' }).getByLabel('Sales').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Copy this key now').waitFor(WAIT);
    await page.getByRole('list', { name: 'Team keys' }).getByText('(projectViewer, 1 dashboard)').waitFor(WAIT);
    await axe(page, 'api-keys');
  }, 60_000);

  it('an unknown address says so, with the way back', async () => {
    await page.goto(`${live.url}/app/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor(WAIT);
    await axe(page, 'not-found');
    await shot(page, 'not-found');
    await page.getByRole('link', { name: 'Back to your dashboards' }).click();
    await page.getByRole('heading', { name: 'Dashboards' }).waitFor(WAIT);
    expect(problems).toEqual([]);
  }, 60_000);
});
