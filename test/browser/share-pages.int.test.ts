import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { ShareTokens } from '../../src/modules/dashboards/share-tokens.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, SECRETS, seedDashboard, type Requester, type SeededDashboard } from './share-seed.js';

type Json = Record<string, any>;

/** Canvas pixels that are not fully transparent, read in the page (getImageData). */
const PAINTED = `(selector) => {
  const canvas = document.querySelector(selector);
  if (!canvas) return -1;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted += 1;
  return painted;
}`;

async function painted(page: Page, selector: string): Promise<number> {
  return page.evaluate(`(${PAINTED})(${JSON.stringify(selector)})`);
}

/** A computed style property of the first element matching `selector`. */
async function style(page: Page, selector: string, property: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`);
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"], body[data-state="password"]', { timeout: 20_000 });
}

describe.skipIf(!browserAvailable())('report and embed pages in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let api: Requester;
  let seed: SeededDashboard;
  let reportUrl: string;
  let reportToken: string;
  let reportPolicyId: number;
  const consoleErrors: string[] = [];

  async function open(url: string, options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {}) {
    const page = await context.newPage();
    if (options.viewport) await page.setViewportSize(options.viewport);
    if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
    page.on('console', (message) => {
      const text = message.text();
      // Chrome reports the hostile markdown's onerror= when DOMPurify parses it in an inert document:
      // the CSP refusing it is expected; any other error or CSP report is a bug.
      if (/inline event handler/.test(text)) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(text)) consoleErrors.push(`${text} @ ${message.location().url}`);
    });
    page.on('dialog', (dialog) => {
      consoleErrors.push(`dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    const response = await page.goto(url);
    await ready(page);
    return { page, response };
  }

  const owner = () => seed.ownerToken;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    live = await startLiveApp();
    api = fetchRequester(live.url);
    seed = await seedDashboard(api, db.url);
    // Header code runs in the sandboxed frame; it tries to reach the page and reports what it saw.
    await api({
      method: 'PUT',
      url: `/project/${seed.projectId}`,
      token: owner(),
      payload: {
        headerCode:
          '<div id="hc">header code</div><script>var r; try { r = "reached " + parent.document.title; } catch (e) { r = "no access to the page"; } document.getElementById("hc").textContent = r;</script>',
      },
    });
    await api({ method: 'POST', url: `/project/${seed.projectId}/share/policy`, token: owner() });
    const issued = (await api({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner() })).json();
    reportUrl = issued.url;
    reportToken = issued.token;
    reportPolicyId = issued.sharePolicy.id;
    expect(reportUrl.startsWith(`${live.url}/report/${seed.brewName}?token=`)).toBe(true);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await live?.close();
    // pg's pool.end() resolves before its sockets are closed; give them a moment before the forced drop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db?.drop();
  });

  it('draws every chart of the report, with strict headers and the token gone from the address bar', async () => {
    const { page, response } = await open(`${reportUrl}&theme=light`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("connect-src 'self'");
    expect(headers['content-security-policy']).toContain(`frame-src ${live.url}/share-frame`);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');

    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    expect(page.url()).not.toContain('token=');
    expect(page.url()).toContain('theme=light');
    expect(await page.textContent('.report-title')).toBe('Sales overview');
    expect(await style(page, '.report-header', 'backgroundColor')).toBe('rgb(16, 55, 81)');

    for (const [type, id] of Object.entries(seed.charts)) {
      expect(await page.getAttribute(`[data-chart-id="${id}"]`, 'data-rendered'), type).toBe('true');
    }
    for (const type of ['line', 'bar', 'pie', 'doughnut']) {
      expect(await painted(page, `[data-chart-id="${seed.charts[type as 'line']}"] canvas`), type).toBeGreaterThan(500);
    }

    // The KPI shows the very number the API computed.
    const apiView = (await api({ method: 'GET', url: `/project/dashboard/${seed.brewName}?token=${reportToken}` })).json();
    const kpi = apiView.Charts.find((c: Json) => c.id === seed.charts.kpi).chartData.values[0];
    expect(kpi.value).toBe(96);
    expect(await page.textContent(`[data-chart-id="${seed.charts.kpi}"] [data-kpi-value]`)).toBe(kpi.formatted);

    // Tables are paged HTML tables read by plain keys.
    const table = `[data-chart-id="${seed.charts.table}"]`;
    expect(await page.$$eval(`${table} tbody tr`, (rows) => rows.length)).toBe(5);
    expect(await page.$$eval(`${table} thead th`, (cells) => cells.map((c) => c.textContent))).toEqual(['id', 'country', 'status', 'amount']);
    const firstPage = await page.$$eval(`${table} tbody tr td:first-child`, (cells) => cells.map((c) => c.textContent));
    await page.click(`${table} button[aria-label="Next page"]`);
    const secondPage = await page.$$eval(`${table} tbody tr td:first-child`, (cells) => cells.map((c) => c.textContent));
    expect(secondPage).not.toEqual(firstPage);
    expect(await page.textContent(`${table} .pager`)).toContain('Page 2 of 8');

    // Markdown is rendered and sanitised; the calendar heatmap has one cell per day.
    const markdown = `[data-chart-id="${seed.charts.markdown}"]`;
    expect(await page.textContent(`${markdown} strong`)).toBe('euros');
    expect(await page.$$eval(`${markdown} [onerror]`, (els) => els.length)).toBe(0);
    expect(await page.getAttribute(`${markdown} a`, 'rel')).toBe('noopener noreferrer');
    expect(await page.$$eval(`[data-chart-id="${seed.charts.matrix}"] rect`, (els) => els.length)).toBeGreaterThan(50);

    // Header code ran, but only inside its sandbox.
    const frame = page.frameLocator('iframe[data-code-frame="Dashboard header"]');
    await expect.poll(async () => frame.locator('#hc').textContent(), { timeout: 10_000 }).toBe('no access to the page');
    expect(await page.$('#hc')).toBeNull();
    expect(await page.getAttribute('iframe.code-frame', 'sandbox')).toBe('allow-scripts');

    await axe(page, 'report, light');
    await page.screenshot({ path: screenshotPath('report-light'), fullPage: true });
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('applies the dark theme, and follows the OS when asked to', async () => {
    const dark = await open(`${reportUrl}&theme=dark`);
    expect(await dark.page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await style(dark.page, 'body', 'backgroundColor')).toBe('rgb(15, 20, 28)');
    expect(await painted(dark.page, `[data-chart-id="${seed.charts.bar}"] canvas`)).toBeGreaterThan(500);
    await axe(dark.page, 'report, dark');
    await dark.page.screenshot({ path: screenshotPath('report-dark'), fullPage: true });
    await dark.page.close();

    const os = await open(reportUrl, { colorScheme: 'dark' });
    expect(await os.page.getAttribute('html', 'data-theme')).toBe('os');
    expect(await style(os.page, 'body', 'backgroundColor')).toBe('rgb(15, 20, 28)');
    await os.page.emulateMedia({ colorScheme: 'light' });
    expect(await style(os.page, 'body', 'backgroundColor')).toBe('rgb(245, 246, 248)');
    await os.page.close();
  });

  it('fits a phone screen (375 px) without sideways scrolling', async () => {
    const { page } = await open(reportUrl, { viewport: { width: 375, height: 812 } });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const widths = await page.$$eval('.chart-card', (cards) => cards.map((c) => Math.round(c.getBoundingClientRect().width)));
    expect(new Set(widths).size).toBe(1);
    expect(await painted(page, `[data-chart-id="${seed.charts.line}"] canvas`)).toBeGreaterThan(200);
    await axe(page, 'report, phone');
    await page.screenshot({ path: screenshotPath('report-phone'), fullPage: true });
    await page.close();
  });

  it('embeds a single chart, framable by other sites', async () => {
    await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.line}/share/policy`, token: owner() });
    const { url } = (await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.line}/share/token`, token: owner() })).json();
    expect(url).toMatch(new RegExp(`^${live.url}/chart/[\\w-]+/embedded\\?token=`));
    const { page, response } = await open(`${url}&theme=dark`, { viewport: { width: 640, height: 360 } });
    expect(response!.headers()['content-security-policy']).toContain('frame-ancestors *');
    expect(response!.headers()['x-frame-options']).toBeUndefined();
    expect(page.url()).not.toContain('token=');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.getAttribute(`[data-chart-id="${seed.charts.line}"]`, 'data-rendered')).toBe('true');
    expect(await painted(page, 'canvas')).toBeGreaterThan(500);
    await axe(page, 'embed, dark');
    await page.screenshot({ path: screenshotPath('embed-line-dark') });
    await page.close();
  });

  it('explains a tampered, expired or revoked link instead of drawing anything', async () => {
    const [h, p, s] = reportToken.split('.') as [string, string, string];
    const tampered = `${h}.${p}.${s.slice(0, 5)}${s[5] === 'A' ? 'B' : 'A'}${s.slice(6)}`;
    let view = await open(`${live.url}/report/${seed.brewName}?token=${tampered}`);
    expect(await view.page.getAttribute('body', 'data-error-code')).toBe('SHARE_TOKEN_INVALID');
    expect(await view.page.textContent('h1')).toBe('This link is not valid');
    expect(await view.page.$('canvas')).toBeNull();
    await axe(view.page, 'tampered link');
    await view.page.screenshot({ path: screenshotPath('error-tampered') });
    await view.page.close();

    const policy = (await api({ method: 'GET', url: `/project/${seed.projectId}/share/policy`, token: owner() })).json()[0];
    const now = Math.floor(Date.now() / 1000);
    const expired = await new ShareTokens(live.config.shareSecret).issue({ subject: { type: 'Project', id: seed.projectId }, policyId: policy.id, version: 1, expiresAt: now - 1 }, now - 60);
    view = await open(`${live.url}/report/${seed.brewName}?token=${expired}`);
    expect(await view.page.textContent('h1')).toBe('This link has expired');
    await view.page.close();

    const extra = (await api({ method: 'POST', url: `/project/${seed.projectId}/share/policy`, token: owner() })).json();
    const doomed = (await api({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner(), payload: { sharePolicyId: extra.id } })).json();
    await api({ method: 'POST', url: `/project/${seed.projectId}/share/policy/${extra.id}/revoke`, token: owner() });
    view = await open(doomed.url);
    expect(await view.page.textContent('h1')).toBe('This link has been revoked');
    await view.page.screenshot({ path: screenshotPath('error-revoked') });
    await view.page.close();

    view = await open(`${live.url}/report/no-such-dashboard?token=${reportToken}`);
    expect(await view.page.textContent('h1')).toBe('Not found');
    await view.page.close();
  });

  it('asks for the password of a protected dashboard, and says when it is wrong', async () => {
    await api({ method: 'PUT', url: `/project/${seed.projectId}`, token: owner(), payload: { passwordProtected: true, password: SECRETS.dashboardPassword } });
    try {
      const { page } = await open(reportUrl, { viewport: { width: 375, height: 700 } });
      expect(await page.getAttribute('body', 'data-state')).toBe('password');
      await axe(page, 'password form');
      await page.screenshot({ path: screenshotPath('password-form') });
      await page.fill('#share-password', 'not the password');
      await page.click('form.password-form button[type="submit"]');
      await page.waitForSelector('#password-error');
      expect(await page.textContent('#password-error')).toContain('not correct');
      await page.screenshot({ path: screenshotPath('password-wrong') });
      await page.fill('#share-password', SECRETS.dashboardPassword);
      await page.click('form.password-form button[type="submit"]');
      await page.waitForSelector('body[data-state="ready"]');
      expect(await painted(page, `[data-chart-id="${seed.charts.bar}"] canvas`)).toBeGreaterThan(200);
      // The password never went into the address bar.
      expect(page.url()).not.toContain(encodeURIComponent(SECRETS.dashboardPassword));
      await page.close();
    } finally {
      await api({ method: 'PUT', url: `/project/${seed.projectId}`, token: owner(), payload: { passwordProtected: false } });
    }
  });

  // Last: it revokes the report's link.
  it('a report left open keeps itself current: a refresh of the saved data shows at the next read, nothing is redrawn without one, a revoked link says so', async () => {
    // The KPI embedded too. The minute between reads runs on a clock the test moves (the context's:
    // both pages' at once).
    await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}/share/policy`, token: owner() });
    const embedUrl = (await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}/share/token`, token: owner() })).json().url as string;
    const embed = await context.newPage();
    await embed.clock.install();
    await embed.goto(embedUrl);
    await ready(embed);
    const embedValue = () => embed.locator('[data-kpi-value]').getAttribute('data-kpi-value');

    const page = await context.newPage();
    // Reads of the dashboard (GET /project/dashboard/<brewName>?token=…).
    let reads = 0;
    page.on('request', (request) => {
      if (request.method() === 'GET' && /\/project\/dashboard\/[^/?]+\?/.test(request.url())) reads += 1;
    });
    await page.goto(reportUrl);
    await ready(page);
    const kpi = page.locator(`[data-chart-id="${seed.charts.kpi}"]`);
    const value = () => kpi.locator('[data-kpi-value]').getAttribute('data-kpi-value');
    const before = Number((await value())!.replace(/\D/g, ''));
    // Unchanged data: the cards stay the very same elements.
    await kpi.evaluate((el) => el.setAttribute('data-marker', 'first draw'));
    const readsBefore = reads;
    expect(readsBefore).toBeGreaterThan(0);
    await page.clock.runFor(61_000);
    await expect.poll(() => reads, { timeout: 20_000 }).toBe(readsBefore + 1);
    expect(await kpi.getAttribute('data-marker')).toBe('first draw');

    // A new order, and the chart refreshed (as a schedule would): the open report shows it after its next read.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(`insert into orders values (100001, 'FR', 'paid', 10, now())`);
    } finally {
      await client.end();
    }
    expect((await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}/query`, token: owner() })).statusCode).toBe(200);
    await page.clock.runFor(61_000);
    await expect.poll(async () => Number(((await value()) ?? '').replace(/\D/g, '')), { timeout: 20_000 }).toBe(before + 1);
    await expect.poll(async () => Number(((await embedValue()) ?? '').replace(/\D/g, '')), { timeout: 20_000 }).toBe(before + 1);
    await embed.close();

    // The link revoked: the next read says so instead of leaving the old numbers up.
    expect((await api({ method: 'POST', url: `/project/${seed.projectId}/share/policy/${reportPolicyId}/revoke`, token: owner() })).statusCode).toBe(200);
    await page.clock.runFor(61_000);
    await page.waitForSelector('body[data-state="error"]', { timeout: 20_000 });
    expect(await page.locator('body').textContent()).toMatch(/revoked|no longer|invalid/i);
    await page.close();
  });
});
