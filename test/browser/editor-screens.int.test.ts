import pg from 'pg';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, watchProblems, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, type Requester } from './share-seed.js';

const WAIT = { timeout: 30_000 };

/**
 * Editor screens beyond the main job, in Chromium against a real Postgres: SSL files on a connection
 * form, the dashboard's update schedule, the join editor, personal API keys, and the chart form's
 * live preview (which saves nothing). Every screen passes axe-core without serious or critical
 * violations. Waits are on UI state (auto-waiting locators, polls), never on time.
 */
describe.skipIf(!browserAvailable())('editor screens in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Requester;
  let token: string;
  let teamId: number;
  let connectionId: number;
  const problems: string[] = [];

  /** The JSON of an API call as the signed-in user (bearer token); fails the test on any non-200. */
  async function call<T = any>(method: string, url: string, payload?: unknown): Promise<T> {
    const res = await api({ method, url, token, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  }


  /** Replaces the text of a CodeMirror editor; again if the first keys came before it was ready. */
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
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // Regions of two of the four countries of the orders: an inner join keeps half the orders.
    await client.query(`create table regions (code text primary key, region text); insert into regions values ('FR', 'Europe West'), ('DE', 'Europe Central');`);
    await client.end();
    live = await startLiveApp();
    api = fetchRequester(live.url);
    const email = `editor-${Date.now()}@example.com`;
    const user = await api({ method: 'POST', url: '/user', payload: { name: 'Eve', email, password: 'correct horse battery' } });
    expect(user.statusCode, user.body).toBe(200);
    token = user.json().token;
    teamId = (await call<{ id: number }[]>('GET', '/team'))[0]!.id;
    const url = new URL(db.url);
    connectionId = (
      await call<{ id: number }>('POST', `/team/${teamId}/connections`, {
        name: 'Shop',
        type: 'postgres',
        host: url.hostname,
        port: url.port || '5432',
        dbName: url.pathname.slice(1),
        username: decodeURIComponent(url.username) || 'postgres',
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      })
    ).id;

    browser = await launchBrowser();
    context = await signedInContext(browser, live.url, { email, password: 'correct horse battery' }, { width: 1280, height: 900 });
    page = await context.newPage();
    watchProblems(page, problems);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('editor-screens-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[editor screens] console: ${problems.join('\n')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  it('a connection form uploads SSL files: their content reaches the stored connection, responses show file names only', async () => {
    const dbUrl = new URL(db.url);
    const ca = `-----BEGIN CERTIFICATE-----\nMIIBca-${Date.now()}-ca-body\n-----END CERTIFICATE-----\n`;
    const key = `-----BEGIN PRIVATE KEY-----\nMIIEkey-${Date.now()}-secret-body\n-----END PRIVATE KEY-----\n`;
    await page.goto(`${live.url}/app/connections`);
    await page.getByRole('heading', { name: 'Connections' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Add a connection' }).click();
    await page.getByLabel('Type', { exact: true }).selectOption('postgres');
    await page.getByLabel('Name', { exact: true }).fill('Secure shop');
    await page.getByLabel('Host', { exact: true }).fill(dbUrl.hostname);
    await page.getByLabel('Port', { exact: true }).fill(dbUrl.port || '5432');
    await page.getByLabel('Database', { exact: true }).fill(dbUrl.pathname.slice(1));
    await page.getByLabel('User', { exact: true }).fill('reader');
    await page.getByLabel('Use SSL').check();
    await page.getByLabel('SSL mode', { exact: true }).selectOption('verify-ca');
    await page.getByLabel('CA certificate', { exact: true }).setInputFiles({ name: 'ca.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(ca) });
    await page.getByLabel('Client key', { exact: true }).setInputFiles({ name: 'client.key', mimeType: 'application/x-pem-file', buffer: Buffer.from(key) });
    await axe(page, 'connection-ssl');
    const uploaded = page.waitForResponse((r) => /\/connections\/\d+\/files$/.test(r.url()) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save connection' }).click();
    const upload = await uploaded;
    expect(upload.status()).toBe(200);
    await page.getByText('Saved with CA certificate, Client key.').waitFor(WAIT);
    await page.getByText('Stored: ca.pem').waitFor(WAIT);
    await page.getByText('Stored: client.key').waitFor(WAIT);
    await page.screenshot({ path: screenshotPath('editor-connection-ssl'), fullPage: true });

    const id = (await upload.json()).id as number;
    // Responses name the files and never carry their content.
    const answers = [await upload.text(), await (await page.request.get(`${live.url}/team/${teamId}/connections/${id}`)).text(), await (await page.request.get(`${live.url}/team/${teamId}/connections`)).text()];
    for (const body of answers) {
      expect(body).not.toContain('ca-body');
      expect(body).not.toContain('secret-body');
    }
    expect(JSON.parse(answers[1]!)).toMatchObject({ ssl: true, sslMode: 'verify-ca', sslCa: 'ca.pem', sslKey: 'client.key', sslCert: null });
    // The stored connection holds the files' content, the key encrypted at rest.
    const stored = await live.server.container.connections.getForRun(teamId, id);
    expect(stored.sslCa).toBe(ca);
    expect(stored.sslKey).toBe(key);
    const row = await live.server.container.store.db.selectFrom('connections').select(['sslCa', 'sslKey']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.sslCa).toBe(ca);
    expect(row.sslKey).not.toContain('secret-body');

    // A reload shows the stored names on the form again.
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Secure shop' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByText('Stored: ca.pem').waitFor(WAIT);
    expect(problems).toEqual([]);
  }, 120_000);

  it('the dashboard update schedule is saved, and shown again after a reload', async () => {
    const project = await call<{ id: number }>('POST', '/project', { name: 'Scheduled', team_id: teamId, timezone: 'UTC' });
    await page.goto(`${live.url}/app/dashboards/${project.id}`);
    await page.getByRole('heading', { name: 'Scheduled' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('next-update').filter({ hasText: 'No schedule' }).waitFor(WAIT);
    await page.getByLabel('Timezone', { exact: true }).fill('Europe/Paris');
    await page.getByLabel('Refresh', { exact: true }).selectOption('weekly');
    await page.getByLabel('On', { exact: true }).selectOption('tuesday');
    await page.getByLabel('At', { exact: true }).fill('07:30');
    await axe(page, 'dashboard-schedule');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor(WAIT);
    const saved = await call<{ updateSchedule: unknown; timezone: string; nextUpdateAt: string | null }>('GET', `/project/${project.id}`);
    expect(saved.timezone).toBe('Europe/Paris');
    expect(saved.updateSchedule).toEqual({ frequency: 'weekly', timezone: 'Europe/Paris', time: { hour: 7, minute: 30 }, dayOfWeek: 'tuesday' });
    expect(saved.nextUpdateAt).not.toBeNull();

    await page.reload();
    await page.getByRole('heading', { name: 'Scheduled' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByLabel('Refresh', { exact: true }).inputValue(), WAIT).toBe('weekly');
    expect(await page.getByLabel('On', { exact: true }).inputValue()).toBe('tuesday');
    expect(await page.getByLabel('At', { exact: true }).inputValue()).toBe('07:30');
    expect(await page.getByLabel('Timezone', { exact: true }).inputValue()).toBe('Europe/Paris');
    await page.getByTestId('next-update').filter({ hasText: 'Next scheduled refresh:' }).waitFor(WAIT);
    await page.screenshot({ path: screenshotPath('editor-dashboard-schedule'), fullPage: true });

    // Every 6 hours: the number is kept, the weekday and time are not sent.
    await page.getByLabel('Refresh', { exact: true }).selectOption('every_x_hours');
    await page.getByLabel('Every how many hours', { exact: true }).fill('6');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await call<{ updateSchedule: unknown }>('GET', `/project/${project.id}`)).updateSchedule, WAIT).toEqual({
      frequency: 'every_x_hours',
      timezone: 'Europe/Paris',
      frequencyNumber: '6',
    });
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByLabel('Every how many hours', { exact: true }).inputValue(), WAIT).toBe('6');
    expect(problems).toEqual([]);
  }, 120_000);

  it('the join editor adds a second request, joins it (inner, then left) and previews the joined rows', async () => {
    const project = await call<{ id: number }>('POST', '/project', { name: 'Joins', team_id: teamId });
    const dataset = await call<{ id: number; DataRequests: { id: number }[] }>('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'Orders by region',
      project_ids: [project.id],
      dataRequests: [{ connection_id: connectionId, query: 'select id, country, amount from orders order by id' }],
    });
    const mainId = dataset.DataRequests[0]!.id;
    await page.goto(`${live.url}/app/datasets/${dataset.id}`);
    await page.getByRole('heading', { name: 'Orders by region' }).waitFor(WAIT);
    await page.getByText('No joined request yet.').waitFor(WAIT);
    await page.getByRole('button', { name: 'Add a request to join' }).click();
    const joined = page.locator('.joined-request');
    await joined.waitFor(WAIT);
    const name = (await joined.getAttribute('aria-label'))!;
    expect(name).toMatch(/^Request 2 \(#\d+\)$/);
    const joinedId = Number(/#(\d+)/.exec(name)![1]);
    await typeSql(joined.locator('.cm-content'), 'select code, region from regions');
    await page.getByRole('button', { name: `Save ${name}` }).click();
    await page.getByText(`${name} saved.`).waitFor(WAIT);

    // The join row: main `country` = joined `code`, inner.
    await page.getByLabel('Field of the main query', { exact: true }).selectOption('country', WAIT);
    await page.getByLabel('Matching field of the joined request', { exact: true }).selectOption('code', WAIT);
    await page.getByLabel('Join type', { exact: true }).selectOption('inner');
    await axe(page, 'dataset-joins');
    await page.getByRole('button', { name: 'Save joins and preview' }).click();
    await page.getByText('Saved the join.').waitFor(WAIT);
    await expect.poll(() => page.getByTestId('joined-result-meta').textContent(), WAIT).toMatch(/^60 rows in \d+ ms$/);
    const table = page.getByRole('table', { name: 'Joined result' });
    await table.getByRole('columnheader', { name: 'region' }).waitFor(WAIT);
    expect(await table.getByRole('row').filter({ hasText: 'Europe West' }).count()).toBeGreaterThan(0);
    expect(await table.getByRole('cell', { name: 'US', exact: true }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('editor-dataset-joins'), fullPage: true });

    const stored = await call<{ joinSettings: { joins: unknown[] } }>('GET', `/team/${teamId}/datasets/${dataset.id}`);
    expect(stored.joinSettings.joins).toEqual([{ dr_id: mainId, join_id: joinedId, dr_field: 'root[].country', join_field: 'root[].code', alias: null, type: 'inner' }]);

    // A left join under an alias keeps every order; the fields go under the alias.
    await page.getByLabel('Join type', { exact: true }).selectOption('left');
    await page.getByLabel('Alias', { exact: true }).fill('geo');
    await page.getByRole('button', { name: 'Save joins and preview' }).click();
    await expect.poll(() => page.getByTestId('joined-result-meta').textContent(), WAIT).toMatch(/^120 rows in/);
    await table.getByRole('columnheader', { name: 'geo' }).waitFor(WAIT);
    const run = await call<{ data: { id: number; geo?: { region: string } }[] }>('POST', `/team/${teamId}/datasets/${dataset.id}/request`, {});
    expect(run.data).toHaveLength(120);
    expect(run.data.filter((r) => r.geo?.region === 'Europe West')).toHaveLength(30);

    // After a reload the saved join is shown as it was saved.
    await page.reload();
    await expect.poll(() => page.getByLabel('Matching field of the joined request', { exact: true }).inputValue(), WAIT).toBe('code');
    expect(await page.getByLabel('Field of the main query', { exact: true }).inputValue()).toBe('country');
    expect(await page.getByLabel('Join type', { exact: true }).inputValue()).toBe('left');
    expect(await page.getByLabel('Alias', { exact: true }).inputValue()).toBe('geo');
    expect(problems).toEqual([]);
  }, 120_000);

  it('personal API keys: created and shown once, listed beside team keys, revoked', async () => {
    await page.goto(`${live.url}/app/keys`);
    await page.getByRole('heading', { name: 'Your personal keys' }).waitFor(WAIT);
    await page.getByRole('heading', { name: /^Team keys of / }).waitFor(WAIT);
    await page.getByText('No personal key yet.').waitFor(WAIT);
    await page.getByLabel('Personal key name', { exact: true }).fill('laptop');
    await page.getByLabel('Ceiling', { exact: true }).selectOption('projectViewer');
    await page.getByRole('button', { name: 'Create personal key' }).click();
    await page.getByText('Copy this key now; it is shown only once.').waitFor(WAIT);
    const secret = (await page.locator('code.secret').textContent())!.trim();
    expect(secret).toMatch(/^plu_/);
    const row = page.getByRole('table', { name: 'Personal keys' }).getByRole('row').filter({ hasText: 'laptop' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('projectViewer');
    await axe(page, 'api-keys-personal');
    await page.screenshot({ path: screenshotPath('editor-personal-keys'), fullPage: true });

    // The key works as its user, capped at its ceiling.
    const me = await api({ method: 'GET', url: '/user/me', token: secret });
    expect(me.statusCode).toBe(200);
    expect(me.json().apiKey).toMatchObject({ type: 'personal', role: 'projectViewer' });
    expect(await call<{ name: string }[]>('GET', '/user/apikey')).toEqual([expect.objectContaining({ name: 'laptop', ceiling: 'projectViewer' })]);

    // Shown once: gone after Done and after a reload, while the key stays listed.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('code.secret').waitFor({ state: 'detached', ...WAIT });
    await page.reload();
    await row.waitFor(WAIT);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByText('No personal key yet.').waitFor(WAIT);
    expect((await api({ method: 'GET', url: '/user/me', token: secret })).statusCode).toBe(401);
    expect(await call<unknown[]>('GET', '/user/apikey')).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);

  it('the chart form previews live from the server and saves nothing until Save chart', async () => {
    const project = await call<{ id: number }>('POST', '/project', { name: 'Live', team_id: teamId, timezone: 'UTC' });
    await call('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'Paid orders',
      project_ids: [project.id],
      dataRequests: [{ connection_id: connectionId, query: "select id, country, amount from orders where status = 'paid' order by id" }],
    });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const sums = await client.query<{ country: string; total: string; n: number }>("select country, sum(amount) as total, count(*)::int as n from orders where status = 'paid' group by country");
    await client.end();
    const expectedSums = Object.fromEntries(sums.rows.map((r) => [r.country, Number(r.total)]));
    const expectedCounts = Object.fromEntries(sums.rows.map((r) => [r.country, r.n]));

    // Every write the page makes to charts is recorded: a preview must make none.
    const writes: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      const url = new URL(request.url());
      if (request.method() !== 'GET' && /^\/project\/\d+\/chart(\/|$)/.test(url.pathname) && !url.pathname.endsWith('/chart/preview')) writes.push(`${request.method()} ${url.pathname}`);
    };
    page.on('request', onRequest);
    const previews: Response[] = [];
    const onResponse = (response: Response) => {
      if (response.url().endsWith(`/project/${project.id}/chart/preview`)) previews.push(response);
    };
    page.on('response', onResponse);
    try {
      await page.goto(`${live.url}/app/dashboards/${project.id}/charts/new`);
      await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
      await page.locator('.preview[data-preview-state="incomplete"]').waitFor(WAIT);
      await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', ...WAIT });
      await page.getByLabel('Chart name', { exact: true }).fill('Revenue by country');
      await page.getByLabel('Chart type', { exact: true }).selectOption('bar');
      await page.getByLabel('X axis', { exact: true }).selectOption('country');
      await page.getByLabel('The X axis is a date').setChecked(false);
      await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
      await page.getByLabel('Operation', { exact: true }).selectOption('sum');

      // The preview settles on the form as it is now: a bar chart of sums per country.
      const lastPreview = async () => {
        const response = previews.at(-1);
        if (!response) return null;
        const body = (await response.json().catch(() => null)) as { chartData: { data: { labels: string[]; datasets: { data: number[] }[] } } } | null;
        const data = body?.chartData?.data;
        return data ? Object.fromEntries(data.labels.map((l, i) => [l, data.datasets[0]!.data[i]])) : null;
      };
      await expect.poll(lastPreview, WAIT).toEqual(expectedSums);
      await page.locator('.preview[data-preview-state="ready"] .card[data-chart-type="bar"][data-rendered="true"]').waitFor(WAIT);
      await axe(page, 'chart-live-preview');
      await page.screenshot({ path: screenshotPath('editor-live-preview'), fullPage: true });

      // Another operation: a new preview with counts; still nothing saved.
      await page.getByLabel('Operation', { exact: true }).selectOption('count');
      await expect.poll(lastPreview, WAIT).toEqual(expectedCounts);
      await page.locator('.preview[data-preview-state="ready"] .card[data-rendered="true"]').waitFor(WAIT);
      expect(writes).toEqual([]);
      expect(await call<unknown[]>('GET', `/project/${project.id}/chart`)).toEqual([]);

      // Saving is its own click: one chart, whose saved data is what the preview showed.
      await page.getByRole('button', { name: 'Save chart' }).click();
      await page.getByRole('heading', { name: 'Live' }).waitFor(WAIT);
      const charts = await call<{ name: string; chartData: { data: { labels: string[]; datasets: { data: number[] }[] } } }[]>('GET', `/project/${project.id}/chart`);
      expect(charts).toHaveLength(1);
      expect(charts[0]!.name).toBe('Revenue by country');
      const saved = charts[0]!.chartData.data;
      expect(Object.fromEntries(saved.labels.map((l, i) => [l, saved.datasets[0]!.data[i]]))).toEqual(expectedCounts);
      expect(writes.some((w) => w.endsWith('/chart/quick-create'))).toBe(true);
    } finally {
      page.off('request', onRequest);
      page.off('response', onResponse);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
