import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable } from './share-seed.js';

/**
 * The main job through the editor in Chromium, against a real Postgres: sign up -> connection ->
 * dataset with a variable -> line, bar, table and KPI charts -> dashboard layout saved and restored
 * after a reload -> share link in a fresh context with the same numbers -> revoke -> link fails.
 * Every screen passes axe-core without serious or critical violations; no CSP report or console error.
 */
describe.skipIf(!browserAvailable())('the editor in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  function watch(p: Page) {
    p.on('console', (message) => {
      const text = message.text();
      const at = message.location();
      // The app's first question, "who am I?", is a 401 before sign-up: Chromium logs it as a failed load.
      if (/status of 401/.test(text) && at.url.endsWith('/user/me')) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`${text} @ ${at.url}:${at.lineNumber}:${at.columnNumber}`);
    });
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  }


  async function shot(p: Page, name: string) {
    await p.screenshot({ path: screenshotPath(`editor-${name}`), fullPage: true });
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
    // The last state of the main page, for a person to look at when a step failed.
    await page?.screenshot({ path: screenshotPath('editor-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[editor] console: ${problems.join('\n')}\n`);
    if (process.env['PLOTLINE_DEBUG_EDITOR']) process.stdout.write(`[editor] preview: ${await page?.evaluate("document.querySelector('.preview')?.outerHTML.slice(0, 3000)").catch(() => '')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  it('does the main job: connect, query, chart, lay out, share, revoke', async () => {
    const started = Date.now();
    const dbUrl = new URL(db.url);

    // GET / redirects to the editor; on this new instance it opens on sign-up, and offers to log in.
    const first = await page.goto(live.url + '/');
    expect(first?.url()).toBe(live.url + '/app/');
    expect(first?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(first?.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await page.getByRole('heading', { name: 'Welcome: create the first account' }).waitFor();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await axe(page, 'login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await shot(page, 'signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Dashboards' }).waitFor();

    // The session is an HttpOnly, SameSite=Strict cookie that page script cannot read.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'plotline_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('plotline_session');
    await page.getByText('No dashboard yet').waitFor();
    await axe(page, 'dashboards-empty');

    await page.getByLabel('New dashboard name').fill('Sales');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor();
    const projectId = Number(/\/app\/dashboards\/(\d+)/.exec(page.url())![1]);

    // Connection: the Postgres form, saved, then tested with the source's answer.
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByText('No connection yet').waitFor();
    await page.getByRole('button', { name: 'Add a connection' }).click();
    await page.getByLabel('Type', { exact: true }).selectOption('postgres');
    await page.getByLabel('Name', { exact: true }).fill('Shop');
    await page.getByLabel('Host', { exact: true }).fill(dbUrl.hostname);
    await page.getByLabel('Port', { exact: true }).fill(dbUrl.port || '5432');
    await page.getByLabel('Database', { exact: true }).fill(dbUrl.pathname.slice(1));
    await page.getByLabel('User', { exact: true }).fill(decodeURIComponent(dbUrl.username) || 'postgres');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('heading', { name: 'Connection: Shop' }).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connected: the credentials work.').waitFor();
    await axe(page, 'connection');
    await shot(page, 'connection');

    // Dataset with a {{status}} variable whose default is "paid".
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByLabel('New dataset name').fill('Orders');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    // The SQL editor loads on demand: type once it has taken focus, and again if the first keys
    // arrived before it was ready (on a loaded machine they can).
    const query = 'select id, country, amount, created_at from orders where status = {{status}} order by id';
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.locator('.cm-content').click();
      await page.locator('.cm-focused').waitFor();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(query);
      if ((await page.locator('.cm-content').textContent()) === query) break;
    }
    await page.getByLabel('Default of status').fill('paid');
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await page.getByText('Saved: the query ran.').waitFor();
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByTestId('run-meta').textContent(), { timeout: 20_000 }).toMatch(/^96 rows in \d+ ms$/);
    await page.getByLabel('Run value of status').fill('refunded');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByTestId('run-meta').textContent(), { timeout: 20_000 }).toMatch(/^24 rows in/);
    await axe(page, 'dataset');
    await shot(page, 'dataset');

    // Four charts, each through the chart form, previewed by the server, then saved.
    const charts: { name: string; type: string; x?: string; date?: boolean; y?: string; op: string }[] = [
      { name: 'Orders per month', type: 'line', x: 'created_at', date: true, y: 'id', op: 'count' },
      { name: 'Revenue by country', type: 'bar', x: 'country', date: false, y: 'amount', op: 'sum' },
      { name: 'Order list', type: 'table', op: 'count' },
      { name: 'Total revenue', type: 'kpi', y: 'amount', op: 'sum' },
    ];
    for (const [index, chart] of charts.entries()) {
      await page.goto(`${live.url}/app/dashboards/${projectId}/charts/new`);
      await page.getByRole('heading', { name: 'New chart' }).waitFor();
      await page.getByLabel('Chart name', { exact: true }).fill(chart.name);
      await page.getByLabel('Chart type', { exact: true }).selectOption(chart.type);
      await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached' });
      if (chart.x) {
        await page.getByLabel('X axis', { exact: true }).selectOption(chart.x);
        await page.getByLabel('The X axis is a date').setChecked(chart.date === true);
        if (chart.date) await page.getByLabel('Time interval', { exact: true }).selectOption('month');
      }
      if (chart.y) {
        await page.getByLabel('Y axis', { exact: true }).selectOption(chart.y);
        await page.getByLabel('Operation', { exact: true }).selectOption(chart.op);
      }
      if (index === 0) {
        // The preview follows the form on its own (computed by the server, nothing saved).
        await page.locator('.preview[data-preview-state="ready"] .card[data-chart-type="line"][data-rendered="true"]').waitFor({ timeout: 30_000 });
        await axe(page, 'chart-editor');
        await shot(page, 'chart-editor');
      }
      await page.getByRole('button', { name: 'Save chart' }).click();
      await page.getByRole('heading', { name: 'Sales' }).waitFor();
    }

    // The dashboard draws all four.
    const items = page.locator('.board-item');
    await expect.poll(() => page.locator('.board-item .card[data-rendered="true"]').count(), { timeout: 30_000 }).toBe(4);
    const kpiText = (await page.locator('.board-item[data-chart-name="Total revenue"] .metric-value').textContent())!.trim();
    expect(kpiText).toMatch(/\d/);
    await axe(page, 'dashboard');
    await shot(page, 'dashboard');

    // Move the bar chart below the others by its handle; the layout is saved and survives a reload.
    // Each chart's box relative to the grid (status lines above it may come and go).
    const positions = async () => {
      const grid = (await page.locator('.board').boundingBox())!;
      return Object.fromEntries(
        await Promise.all(
          (await items.all()).map(async (item) => {
            const box = (await item.boundingBox())!;
            return [await item.getAttribute('data-chart-name'), [Math.round(box.x - grid.x), Math.round(box.y - grid.y), Math.round(box.width), Math.round(box.height)]] as const;
          }),
        ),
      );
    };
    // Grid items slide into their cells (a 200 ms transition): read the boxes once they stay put.
    const settledPositions = async () => {
      let previous = '';
      let current = JSON.stringify(await positions());
      while (current !== previous) {
        previous = current;
        await page.waitForTimeout(300);
        current = JSON.stringify(await positions());
      }
      return JSON.parse(current) as Record<string, number[]>;
    };
    const handle = page.getByRole('button', { name: 'Move Revenue by country' });
    // The handle's box once the cards have slid into their cells: read during the slide, the press
    // would land beside the handle on a loaded machine, and nothing would move.
    await settledPositions();
    const from = (await handle.boundingBox())!;
    await page.mouse.move(from.x + 5, from.y + 5);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 200, { steps: 8 });
    await page.mouse.move(from.x + 60, from.y + 700, { steps: 8 });
    await page.mouse.up();
    await page.getByText('Layout saved.').waitFor({ timeout: 20_000 });
    const before = await settledPositions();
    expect(new Set(Object.values(before).map((p) => (p as number[]).join(','))).size).toBe(4);
    await page.reload();
    await expect.poll(() => page.locator('.board-item .card[data-rendered="true"]').count(), { timeout: 30_000 }).toBe(4);
    // The same grid cells after the reload (rows are 90 px + 12 px margin): a few pixels of render
    // difference is not a move, a cell is.
    const after = await settledPositions();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [name, box] of Object.entries(after)) {
      (box as number[]).forEach((value, i) => expect(Math.abs(value - (before[name] as number[])[i]!), `${name}[${i}]`).toBeLessThanOrEqual(20));
    }
    const saved = await (await page.request.get(`${live.url}/project/${projectId}`)).json();
    expect(saved.Charts.every((c: { layout: { lg: number[] } }) => Array.isArray(c.layout.lg) && c.layout.lg.length === 4)).toBe(true);

    // Phone width and dark mode.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate('getComputedStyle(document.body).backgroundColor'), { timeout: 15_000 }).toBe('rgb(15, 20, 28)');
    await expect.poll(() => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'), { timeout: 15_000 }).toBe(true);
    await axe(page, 'dashboard-phone-dark');
    await shot(page, 'dashboard-phone-dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });

    // Share: a policy, a link, opened in a fresh context (no cookie) with the same numbers.
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByText('No share policy yet.').waitFor();
    await page.getByRole('button', { name: 'New share policy' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    expect(link).toContain(`/report/${saved.brewName}?token=`);
    await axe(page, 'share');
    await shot(page, 'share');

    // The team allows exports from shared reports (a cookie write: it carries the page's Origin).
    const team = (await (await page.request.get(`${live.url}/team`)).json())[0];
    const allow = await page.request.put(`${live.url}/team/${team.id}`, { data: { allowReportExport: true }, headers: { origin: live.url } });
    expect(allow.status()).toBe(200);
    const refused = await page.request.put(`${live.url}/team/${team.id}`, { data: { allowReportExport: true }, headers: { origin: 'https://evil.example.net' } });
    expect(refused.status()).toBe(403);

    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    try {
      const report = await stranger.newPage();
      watch(report);
      await report.goto(link);
      await report.waitForSelector('body[data-state="ready"]', { timeout: 30_000 });
      expect(await report.locator('.card').count()).toBe(4);
      const download = report.waitForEvent('download');
      await report.getByRole('button', { name: 'Download Revenue by country as CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('Revenue by country.csv');
      const csv = readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
      expect(csv.split(/\r?\n/)[0]).toBe('label,Revenue by country');
      expect(csv.split(/\r?\n/).filter(Boolean)).toHaveLength(5);
      const shared = (await report.locator('.card[data-chart-type="kpi"] .metric-value').textContent())!.trim();
      expect(shared).toBe(kpiText);
      await report.screenshot({ path: screenshotPath('editor-shared-report'), fullPage: true });

      // Revoke: the same link now fails.
      await page.getByRole('button', { name: 'Revoke links' }).click();
      await page.getByLabel('Share link').waitFor({ state: 'detached' });
      const again = await stranger.newPage();
      await again.goto(link);
      await again.waitForSelector('body[data-state="error"]', { timeout: 30_000 });
      expect(await again.locator('body').textContent()).toMatch(/revoked|no longer|invalid/i);
      await again.screenshot({ path: screenshotPath('editor-revoked-link') });
    } finally {
      await stranger.close();
    }

    // Members and API keys (team keys beside personal ones): the key is shown once.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('cell', { name: 'Ada', exact: true }).waitFor();
    await axe(page, 'members');
    await shot(page, 'members');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('No API key yet.').waitFor();
    await page.getByLabel('Key name', { exact: true }).fill('reporting');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Copy this key now; it is shown only once.').waitFor();
    expect(await page.locator('code.secret').textContent()).toMatch(/^plk_/);
    await axe(page, 'api-keys');
    await shot(page, 'api-keys');

    // Log out ends the session: the app is back at the login form.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'plotline_session')).toBeUndefined();

    expect(problems).toEqual([]);
    process.stdout.write(`\n[editor main job] ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 180_000);

  it('a reload of any editor route serves the editor, and API paths stay the API', async () => {
    const anonymous = await browser.newContext();
    const res = await anonymous.request.get(`${live.url}/app/dashboards/1/charts/new`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/html');
    expect(res.headers()['x-frame-options']).toBe('DENY');
    const api = await anonymous.request.get(`${live.url}/project/1`);
    expect(api.headers()['content-type']).toContain('application/json');
    expect(api.status()).toBe(401);
    await anonymous.close();
  });
});
