import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, seedDashboard, type Requester, type SeededDashboard } from './share-seed.js';

const WAIT = { timeout: 30_000 };
/** Grid rows are 90 px with 12 px between them. */
const ROW = 102;

/**
 * The dashboard grid in Chromium: a card resized by its corner near the bottom of the window grows
 * by what the mouse moved (no runaway), and cards move and resize with the keyboard alone, each
 * step announced; the layout is saved either way.
 */
describe.skipIf(!browserAvailable())('dashboard layout in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Requester;
  let seed: SeededDashboard;

  const layoutOf = async (chartId: number): Promise<number[]> => {
    const res = await api({ method: 'GET', url: `/project/${seed.projectId}/chart/${chartId}`, token: seed.ownerToken });
    return res.json().layout.lg;
  };

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    live = await startLiveApp();
    api = fetchRequester(live.url);
    seed = await seedDashboard(api, db.url);
    browser = await launchBrowser();
    context = await signedInContext(browser, live.url, { email: seed.ownerEmail, password: 'correct horse battery' }, { width: 1280, height: 800 });
    page = await context.newPage();
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('dashboard-layout-last'), fullPage: true }).catch(() => undefined);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  const open = async () => {
    await page.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    await expect.poll(() => page.locator('.board-item .card[data-rendered]').count(), WAIT).toBe(8);
  };
  const itemOf = (name: string) => page.locator(`.board-item[data-chart-name="${name}"]`);
  /** The item's height once its slide into place has ended. */
  const settledHeight = async (name: string) => {
    let previous = -1;
    let current = (await itemOf(name).boundingBox())!.height;
    while (current !== previous) {
      previous = current;
      await page.waitForTimeout(250);
      current = (await itemOf(name).boundingBox())!.height;
    }
    return current;
  };

  it('a corner dragged 200 px down near the bottom of the window grows the card by about 200 px', async () => {
    await open();
    const item = itemOf('Revenue by country');
    const before = await settledHeight('Revenue by country');
    const handle = item.locator('.react-resizable-handle');
    // Scroll so that the corner sits 40 px above the bottom of the window.
    await handle.scrollIntoViewIfNeeded();
    const box0 = (await handle.boundingBox())!;
    await page.mouse.wheel(0, box0.y - (800 - 40 - box0.height));
    await expect.poll(async () => Math.round((await handle.boundingBox())!.y + box0.height), WAIT).toBeGreaterThan(700);
    const from = (await handle.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 100, { steps: 10 });
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 200, { steps: 10 });
    const during = (await item.boundingBox())!.height;
    await page.mouse.up();
    await page.getByText('Layout saved.').waitFor(WAIT);
    const after = await settledHeight('Revenue by country');
    // The grid snaps to whole rows: 200 px is about two rows.
    expect(during - before, `while dragging: ${before} -> ${during}`).toBeLessThan(260);
    expect(after - before).toBeGreaterThanOrEqual(ROW);
    expect(after - before).toBeLessThanOrEqual(3 * ROW);
    const [, , , h] = await layoutOf(seed.charts.bar);
    expect(h).toBeGreaterThanOrEqual(4);
    expect(h).toBeLessThanOrEqual(6);
  });

  it('moves and resizes a card with the keyboard alone, announcing each step, and saves the layout', async () => {
    await open();
    const card = itemOf('Orders by country');
    const [x0, y0, w0, h0] = (await layoutOf(seed.charts.pie)) as [number, number, number, number];
    await card.focus();
    const announced = page.getByTestId('layout-announcement');
    // Narrower by one column, one row higher, then a column to the right.
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => announced.textContent()).toBe(`Orders by country: column ${x0 + 1}, row ${y0 + 1}, ${w0 - 1} columns wide, ${h0} rows high.`);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => announced.textContent()).toBe(`Orders by country: column ${x0 + 2}, row ${y0 + 1}, ${w0 - 1} columns wide, ${h0 + 1} rows high.`);
    await page.getByText('Layout saved.').waitFor(WAIT);
    await expect.poll(() => layoutOf(seed.charts.pie), WAIT).toEqual([x0 + 1, y0, w0 - 1, h0 + 1]);
    // Up: the card takes the place of the one above it, which goes below.
    const lineBefore = await layoutOf(seed.charts.line);
    await card.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => announced.textContent()).toMatch(/^Orders by country: column \d+, row 1,/);
    await expect.poll(async () => (await layoutOf(seed.charts.pie))[1], WAIT).toBe(0);
    await expect.poll(async () => (await layoutOf(seed.charts.line))[1]!, WAIT).toBeGreaterThan(lineBefore[1]!);
    expect(await page.evaluate("document.activeElement?.getAttribute('data-chart-name')")).toBe('Orders by country');
    await axe(page, 'dashboard, card focused');
    await page.screenshot({ path: screenshotPath('dashboard-keyboard'), fullPage: false });
  });

  it("opens a card's menu with the keyboard: run history and alerts", async () => {
    await open();
    const menuButton = page.getByRole('button', { name: 'Menu of Revenue by country' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Menu of Revenue by country' });
    await menu.waitFor(WAIT);
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Edit');
    await axe(page, 'dashboard, card menu open');
    await page.screenshot({ path: screenshotPath('dashboard-card-menu'), fullPage: false });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached', ...WAIT });
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Menu of Revenue by country');

    // ↓ opens on the first item; End goes to the last; ↑ to "Run history".
    await page.keyboard.press('ArrowDown');
    await menu.waitFor(WAIT);
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Run history');
    await page.keyboard.press('Enter');
    const history = page.getByRole('region', { name: 'Run history of Revenue by country' });
    await history.waitFor(WAIT);
    await history.locator('tbody tr').first().waitFor(WAIT);
    expect(await history.locator('tbody tr').first().textContent()).toContain('Revenue by country: success');
    await axe(page, 'dashboard, chart run history');

    const integration = await api({ method: 'POST', url: `/team/${seed.teamId}/integration`, token: seed.ownerToken, payload: { name: 'Ops channel', type: 'webhook', config: { url: 'https://hooks.example.com/ops' } } });
    expect(integration.statusCode, integration.body).toBe(200);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Alerts');
    await page.keyboard.press('Enter');
    const alerts = page.getByRole('region', { name: 'Alerts of Revenue by country' });
    await alerts.getByText('No alert on this chart yet.').waitFor(WAIT);
    await alerts.getByLabel('When the value is').selectOption('threshold_above');
    await alerts.getByLabel('Value', { exact: true }).fill('1000');
    await expect.poll(() => alerts.getByTestId('smtp-status').textContent(), WAIT).toContain('this server has no SMTP server');
    expect(await alerts.getByLabel('Email recipients').isDisabled()).toBe(true);
    await alerts.getByLabel('Webhook URL').fill('https://hooks.example.com/plotline');
    await alerts.getByLabel('Notify Ops channel (webhook)').check();
    await alerts.getByRole('button', { name: 'Create alert' }).click();
    await alerts.getByText(/^Alert created\. The webhook's signing key, shown this once: [0-9a-f]{64}$/).waitFor(WAIT);
    await expect.poll(() => alerts.locator('.alerts li').first().textContent(), WAIT).toContain('Above a threshold');
    const saved = (await api({ method: 'GET', url: `/project/${seed.projectId}/chart/${seed.charts.bar}/alert`, token: seed.ownerToken })).json();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ type: 'threshold_above', rules: { value: 1000 }, mediums: { webhook: { enabled: true, url: 'https://hooks.example.com/plotline' } } });
    expect(saved[0].AlertIntegrations.map((l: { integration_id: number }) => l.integration_id)).toEqual([integration.json().id]);
    // A test send: the webhook's host is not reachable from here, and the answer says so.
    await alerts.getByRole('button', { name: /^Send a test of alert/ }).click();
    await expect.poll(() => alerts.getByText(/^Test sent: webhook /).textContent(), WAIT).toMatch(/^Test sent: webhook (delivered|failed \(.+\)); integration (delivered|failed \(.+\))\.$/);
    await axe(page, 'dashboard, chart alerts');
    await page.screenshot({ path: screenshotPath('dashboard-alerts'), fullPage: false });

    // Share and embed: a link and its iframe code, which shows the chart in a page of its own.
    await menuButton.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Share and embed');
    await page.keyboard.press('Enter');
    const share = page.getByRole('region', { name: 'Share and embed of Revenue by country' });
    await share.getByRole('button', { name: 'Create link' }).click();
    const code = await share.getByLabel('Embed code').inputValue();
    const link = await share.getByLabel('Chart link').inputValue();
    expect(code).toBe(`<iframe src="${link}" title="Revenue by country" width="600" height="400" style="border:0" loading="lazy"></iframe>`);
    expect(link).toMatch(/\/chart\/[^/]+\/embedded\?token=/);
    await axe(page, 'dashboard, share and embed');
    await page.screenshot({ path: screenshotPath('dashboard-share-embed'), fullPage: false });
    const embedded = await context.newPage();
    await embedded.goto(link);
    await embedded.locator('.card[data-rendered="true"]').waitFor(WAIT);
    await embedded.close();

    // The dashboard's own history.
    await page.getByRole('button', { name: 'Run history', exact: true }).click();
    await page.getByRole('region', { name: 'Run history of the dashboard' }).locator('tbody tr').first().waitFor(WAIT);
  });

  it("team settings: share-page downloads and branding, saved and followed by the report page", async () => {
    await page.goto(`${live.url}/app/`);
    await page.getByRole('link', { name: 'Team settings' }).click();
    await page.getByRole('heading', { name: /^Team settings/ }).waitFor(WAIT);
    await page.getByLabel('Viewers of a share link may download each chart as CSV or XLSX').setChecked(true);
    await page.getByLabel('Show “Made with Plotline” at the bottom of shared reports').setChecked(false);
    await page.getByRole('button', { name: 'Save team settings' }).click();
    await page.getByText('Team settings saved.').waitFor(WAIT);
    await axe(page, 'team settings');
    await page.screenshot({ path: screenshotPath('team-settings'), fullPage: false });
    const team = (await api({ method: 'GET', url: `/team/${seed.teamId}`, token: seed.ownerToken })).json();
    expect(team).toMatchObject({ allowReportExport: true, showBranding: false });

    await api({ method: 'POST', url: `/project/${seed.projectId}/share/policy`, token: seed.ownerToken });
    const issued = (await api({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: seed.ownerToken })).json();
    const report = await context.newPage();
    await report.goto(issued.url);
    await report.locator('body[data-state="ready"]').waitFor(WAIT);
    await report.getByRole('button', { name: 'Download Revenue by country as CSV' }).waitFor(WAIT);
    expect(await report.locator('.branding').count()).toBe(0);
    await report.close();
  });

  it('asks before unsaved dashboard settings are lost; not once the form is back to what is saved', async () => {
    await open();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Sales overview (draft)');
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Datasets' }).click();
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toContain('Leave without saving the dashboard settings?');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Sales overview (draft)');
    await page.getByLabel('Title', { exact: true }).fill('Sales overview');
    // Back to what is saved: nothing to lose, nothing asked.
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('heading', { name: 'Datasets' }).waitFor(WAIT);
    expect(questions).toHaveLength(1);
  });
});
