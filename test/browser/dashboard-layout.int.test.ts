import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, seedDashboard, type Requester, type SeededDashboard } from './share-seed.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
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

  async function axe(p: Page, screen: string) {
    await p.evaluate(AXE);
    const violations: { id: string; impact: string; nodes: { target: string[] }[] }[] = await p.evaluate(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) })))`,
    );
    expect(violations.map((v) => `${screen}: ${v.impact} ${v.id} ${JSON.stringify(v.nodes)}`)).toEqual([]);
  }
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
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = await context.request.post(`${live.url}/user/login?session=cookie`, { data: { email: seed.ownerEmail, password: 'correct horse battery' }, headers: { origin: live.url } });
    expect(login.status()).toBe(200);
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
});
