import pg from 'pg';
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
 * step announced; the layout is saved either way. An open dashboard follows what the server saves,
 * once a minute, without undoing what the person is doing.
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
  /** A paid order of `country` added to the source, and the KPI refreshed as a schedule would: behind the open page's back. */
  const newOrderRefreshed = async (id: number, country: string) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(`insert into orders values ($1, $2, 'paid', 10, now())`, [id, country]);
    } finally {
      await client.end();
    }
    const refreshed = await api({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}/query`, token: seed.ownerToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  };
  /**
   * A page of its own, signed in, whose clock the test moves (page.clock: the minute between reads
   * passes at once), counting its reads of the dashboard (`GET /project/{id}`).
   */
  const clockedPage = async () => {
    const own = await signedInContext(browser, live.url, { email: seed.ownerEmail, password: 'correct horse battery' }, { width: 1280, height: 800 });
    const board = await own.newPage();
    await board.clock.install();
    const counted = { reads: 0 };
    board.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === `/project/${seed.projectId}`) counted.reads += 1;
    });
    await board.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await board.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    await expect.poll(() => board.locator('.board-item .card[data-rendered]').count(), WAIT).toBe(8);
    const kpi = board.locator('.board-item[data-chart-name="Orders"]');
    const count = async () => Number(((await kpi.locator('[data-kpi-value]').textContent()) ?? '').replace(/\D/g, ''));
    /** The next minute, and its read of the dashboard answered. */
    const nextMinute = async () => {
      const read = board.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname === `/project/${seed.projectId}`, WAIT);
      await board.clock.runFor(61_000);
      await read;
    };
    return { own, board, counted, kpi, count, nextMinute };
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

  it('an open dashboard follows the server: a refresh behind its back shows at the next minute with its time and marks; the other cards are not drawn again; a layout not saved yet stays', async () => {
    // The KPI's saved data as a failed refresh left it: an old time, and the failure's mark.
    await live.server.container.store.db
      .updateTable('charts')
      .set({ chartDataUpdated: '2025-01-02T03:04:00.000Z', lastError: JSON.stringify({ code: 'SOURCE_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:5999', at: '2025-01-02T04:00:00.000Z' }) })
      .where('id', '=', seed.charts.kpi)
      .execute();
    const { own, board, counted, kpi, count, nextMinute } = await clockedPage();
    try {
      const updated = () => kpi.locator('.card-meta').textContent();
      await kpi.locator('.card-stale').waitFor(WAIT);
      const before = await count();
      const oldTime = await updated();
      // A card drawn again is a new element: the mark set on each card now goes with it.
      await board.locator('.board-item .card').evaluateAll((cards) => cards.forEach((card) => card.setAttribute('data-marker', 'first draw')));

      // A minute in which nothing changed: read again, nothing to take.
      const readsBefore = counted.reads;
      await nextMinute();
      expect(counted.reads).toBe(readsBefore + 1);

      // A new order, the KPI refreshed: the next minute shows its number, its time, and no failure any more.
      await newOrderRefreshed(100001, 'FR');
      await nextMinute();
      await expect.poll(count, WAIT).toBe(before + 1);
      await expect.poll(updated, WAIT).not.toBe(oldTime);
      expect(await updated()).toMatch(/^Updated /);
      await expect.poll(() => kpi.locator('.card-stale').count(), WAIT).toBe(0);
      // Only the KPI was drawn again, in both minutes.
      const others = Object.entries(seed.charts).filter(([key]) => key !== 'kpi').map(([, id]) => String(id)).sort();
      expect((await board.locator('.board-item .card[data-marker="first draw"]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-chart-id')))).sort()).toEqual(others);

      // One row higher with the keyboard, its save held on the way: the next minute brings the
      // KPI's new number into the card as the person left it, not the saved cells.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await board.route(`**/project/${seed.projectId}/chart/*`, async (route) => {
        if (route.request().method() === 'PUT') await held;
        await route.fallback();
      });
      const [x, y, w, h] = (await layoutOf(seed.charts.kpi)) as [number, number, number, number];
      // The cell's height as the grid sets it (not the box, which slides to it).
      const height = async () => /(?:^|;)\s*height:\s*([\d.]+px)/.exec((await kpi.getAttribute('style')) ?? '')?.[1];
      const savedHeight = await height();
      await kpi.focus();
      await board.keyboard.press('Shift+ArrowDown');
      await expect.poll(() => board.getByTestId('layout-announcement').textContent(), WAIT).toBe(`Orders: column ${x + 1}, row ${y + 1}, ${w} columns wide, ${h + 1} rows high.`);
      await board.getByText('Saving the layout…').waitFor(WAIT);
      await expect.poll(height, WAIT).not.toBe(savedHeight);
      const grown = await height();
      expect(await layoutOf(seed.charts.kpi)).toEqual([x, y, w, h]);
      await newOrderRefreshed(100002, 'DE');
      await nextMinute();
      await expect.poll(count, WAIT).toBe(before + 2);
      expect(await height()).toBe(grown);
      // The save comes back: the cells saved are the person's.
      release();
      await board.getByText('Layout saved.').waitFor(WAIT);
      await expect.poll(() => layoutOf(seed.charts.kpi), WAIT).toEqual([x, y, w, h + 1]);
      expect(await height()).toBe(grown);
    } finally {
      await own.close();
    }
  }, 180_000);

  it('with a filter value being tried, the next minutes keep the filtered view: run again with that value when the saved data moved, never replaced by the saved data', async () => {
    const filter = await api({
      method: 'POST',
      url: `/project/${seed.projectId}/dashboard-filter`,
      token: seed.ownerToken,
      payload: { configuration: { type: 'field', label: 'Country', field: 'root[].country', operator: 'is', charts: [seed.charts.kpi] } },
    });
    expect(filter.statusCode, filter.body).toBe(200);
    const { own, board, kpi, count, nextMinute } = await clockedPage();
    try {
      // Filtered runs (`POST /project/{id}/filter`), as sent.
      const runs: unknown[] = [];
      board.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === `/project/${seed.projectId}/filter`) runs.push(request.postDataJSON());
      });
      const ran = () => board.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === `/project/${seed.projectId}/filter`, WAIT);
      await board.locator('.filter-bar[data-run-state="idle"]').waitFor(WAIT);
      const saved = await count();
      const first = ran();
      await board.getByLabel('Country (is)').fill('FR');
      await board.keyboard.press('Enter');
      await first;
      await board.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
      await expect.poll(count, WAIT).not.toBe(saved);
      const fr = await count();
      expect(await kpi.locator('.filter-chips li').allTextContents()).toEqual(['Country is FR']);
      const runsBefore = runs.length;

      // A minute in which nothing changed: read again, not run again.
      await nextMinute();
      // The saved data moved (a new order, the KPI refreshed): the next minute runs the view again
      // with the value being tried. The run goes through the result cache, so the number is the
      // cached one until it expires; what matters is that it is the filtered number.
      await newOrderRefreshed(100003, 'FR');
      const again = ran();
      await nextMinute();
      await again;
      expect(runs.length).toBe(runsBefore + 1);
      expect(runs.at(-1)).toEqual({ filters: [expect.objectContaining({ type: 'field', field: 'root[].country', operator: 'is', value: 'FR' })] });
      await board.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
      expect([fr, fr + 1]).toContain(await count());
      expect(await count()).not.toBe(saved + 2);
      expect(await board.getByLabel('Country (is)').inputValue()).toBe('FR');
      expect(await board.locator('.filter-item .badge-changed').textContent()).toBe('Not saved');
      expect(await kpi.locator('.filter-chips li').allTextContents()).toEqual(['Country is FR']);
    } finally {
      await own.close();
    }
  }, 180_000);
});
