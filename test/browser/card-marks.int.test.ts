import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, seedDashboard, type Requester, type SeededDashboard } from './share-seed.js';

const WAIT = { timeout: 30_000 };
const HOUR_MS = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What a card says to whoever reads a dashboard, in the editor and on the shared report, in
 * Chromium: a chart that should refresh every hour and has not for hours is marked (a chart whose
 * refresh failed keeps its own mark, one mark only; a fresh chart none); with dashboard filters
 * set, each card names those that narrow it and those that do not reach it, and a card a filter
 * does not reach shows its unfiltered number. The app runs without its scheduler (as when no
 * process refreshes), and the data's age is moved back in the store.
 */
describe.skipIf(!browserAvailable())('card marks in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Requester;
  let seed: SeededDashboard;
  let reportUrl: string;
  const problems: string[] = [];

  async function call<T = Json>(method: string, url: string, payload?: unknown): Promise<T> {
    const res = await api({ method, url, token: seed.ownerToken, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  }
  /** What a page logs as an error or CSP refusal, and its uncaught errors. */
  const watch = (p: Page) => {
    p.on('console', (message) => {
      const text = message.text();
      // Chrome reports the seeded markdown's hostile onerror= when DOMPurify parses it in an inert
      // document (share-pages.int.test.ts): the CSP refusing it is expected; anything else is a bug.
      if (/inline event handler/.test(text)) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`${text} @ ${message.location().url}`);
    });
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  };
  const store = () => live.server.container.store.db;
  /**
   * The window as it is, not the full page: a full-page shot resizes the window, and the editor's
   * grid then slides its cards again while the picture is taken.
   */
  const shot = (p: Page, name: string) => p.screenshot({ path: screenshotPath(`card-marks-${name}`) });
  /** The editor's card of a chart, by its name. */
  const editorCard = (name: string) => page.locator(`.board-item[data-chart-name="${name}"]`);
  const openEditor = async () => {
    await page.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    await expect.poll(() => page.locator('.board-item .card[data-rendered]').count(), WAIT).toBe(8);
  };
  /** Grid items slide into their cells once drawn: shoot once they stay put. */
  const settled = async (p: Page) => {
    const boxes = () => p.locator('.board-item').evaluateAll((items) => JSON.stringify(items.map((i) => i.getBoundingClientRect().toJSON())));
    let previous = '';
    let current = await boxes();
    while (current !== previous) {
      previous = current;
      await p.waitForTimeout(300);
      current = await boxes();
    }
  };

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    live = await startLiveApp({ PLOTLINE_SCHEDULER: 'off' });
    api = fetchRequester(live.url);
    seed = await seedDashboard(api, db.url);
    await call('POST', `/project/${seed.projectId}/share/policy`);
    reportUrl = (await call<{ url: string }>('POST', `/project/${seed.projectId}/share/token`)).url;
    browser = await launchBrowser();
    context = await signedInContext(browser, live.url, { email: seed.ownerEmail, password: 'correct horse battery' }, { width: 1280, height: 1100 });
    page = await context.newPage();
    watch(page);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('card-marks-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[card marks] console: ${problems.join('\n')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  it('a chart overdue by its hourly schedule is marked in the editor and on the report; a failed refresh keeps its own mark; fresh data none', async () => {
    // Every hour, set two days ago; "Revenue by country" computed 3 hours ago, "Orders by status" too, and its refresh since failed.
    await call('PUT', `/project/${seed.projectId}`, { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: 1 } });
    await store().updateTable('projects').set({ updatedAt: ago(48 * HOUR_MS) }).where('id', '=', seed.projectId).execute();
    for (const id of [seed.charts.bar, seed.charts.doughnut]) await store().updateTable('charts').set({ chartDataUpdated: ago(3 * HOUR_MS), updatedAt: ago(4 * HOUR_MS) }).where('id', '=', id).execute();
    await store().updateTable('charts').set({ lastError: JSON.stringify({ code: 'SOURCE_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:5999', at: ago(HOUR_MS) }) }).where('id', '=', seed.charts.doughnut).execute();

    await openEditor();
    const overdue = editorCard('Revenue by country').locator('.card-overdue');
    await overdue.waitFor(WAIT);
    expect(await overdue.textContent()).toMatch(/^⚠ Not refreshed since .+, although it should refresh every hour\.$/);
    expect(await editorCard('Revenue by country').locator('.card').getAttribute('data-overdue')).toBe('true');
    // One mark: the failure, with the source's words for a member.
    const failed = editorCard('Orders by status');
    expect(await failed.locator('.card-stale').textContent()).toMatch(/Refresh failed .*connect ECONNREFUSED.*\(SOURCE_UNREACHABLE\)\. Showing the data of/);
    expect(await failed.locator('.card-overdue').count()).toBe(0);
    // Fresh data, and a markdown card: no mark.
    for (const name of ['Orders', 'Orders per day', 'Notes']) expect(await editorCard(name).locator('.card-overdue, .card-stale').count(), name).toBe(0);
    await axe(page, 'editor, overdue and failed cards');
    await settled(page);
    await shot(page, 'editor-overdue');

    const report = await context.newPage();
    watch(report);
    await report.goto(reportUrl);
    await report.locator('body[data-state="ready"]').waitFor(WAIT);
    const reportOverdue = report.locator(`.card[data-chart-id="${seed.charts.bar}"] .card-overdue`);
    await reportOverdue.waitFor(WAIT);
    expect(await reportOverdue.textContent()).toMatch(/^⚠ Not refreshed since .+, although it should refresh every hour\.$/);
    // The report has the failure's code and time, never the source's words.
    expect(await report.locator(`.card[data-chart-id="${seed.charts.doughnut}"] .card-stale`).textContent()).toMatch(/Refresh failed .*: SOURCE_UNREACHABLE\. Showing the data of/);
    expect(await report.locator(`.card[data-chart-id="${seed.charts.doughnut}"] .card-overdue`).count()).toBe(0);
    expect(await report.locator('.card-overdue').count()).toBe(1);
    expect(await report.locator(`.card[data-chart-id="${seed.charts.kpi}"] .card-overdue, .card[data-chart-id="${seed.charts.kpi}"] .card-stale`).count()).toBe(0);
    await axe(report, 'report, overdue and failed cards');
    await shot(report, 'report-overdue');
    await report.close();

    // Without the schedule, the old data is no longer overdue anywhere.
    await call('PUT', `/project/${seed.projectId}`, { updateSchedule: null });
    await openEditor();
    expect(await page.locator('.card-overdue').count()).toBe(0);
    await store().updateTable('charts').set({ lastError: null }).where('id', '=', seed.charts.doughnut).execute();
    expect(problems).toEqual([]);
  }, 180_000);

  it('with filters set, each card names the filters that narrow it and those that do not reach it, on the report and in the editor', async () => {
    // A date range reaches the charts with a date field; the country filter only the charts it lists.
    await call('POST', `/project/${seed.projectId}/dashboard-filter`, { configuration: { type: 'date', label: 'Order date', preset: 'custom', startDate: '2025-01-01', endDate: '2025-01-31' }, onReport: true });
    await call('POST', `/project/${seed.projectId}/dashboard-filter`, {
      configuration: { type: 'field', label: 'Country', field: 'root[].country', operator: 'is', value: 'FR', charts: [seed.charts.bar, seed.charts.pie, seed.charts.line] },
      onReport: true,
    });
    const savedKpi = (await call('GET', `/project/${seed.projectId}/chart/${seed.charts.kpi}`)).chartData.values[0].formatted as string;
    /** Per chart: the "Filtered by" words and the "Not filtered by" words. */
    const expected: [keyof SeededDashboard['charts'], string | null, string | null][] = [
      ['line', 'Filtered by Order date, Country', null],
      ['matrix', 'Filtered by Order date', 'Not filtered by Country'],
      ['bar', 'Filtered by Country', 'Not filtered by Order date'],
      ['pie', 'Filtered by Country', 'Not filtered by Order date'],
      ['kpi', null, 'Not filtered by Order date, Country'],
      ['table', null, 'Not filtered by Order date, Country'],
    ];

    const report = await context.newPage();
    watch(report);
    await report.goto(reportUrl);
    await report.locator('body[data-filter-state="applied"]').waitFor(WAIT);
    for (const [key, by, notBy] of expected) {
      const note = report.locator(`.card[data-chart-id="${seed.charts[key]}"] .card-filters`);
      await note.waitFor(WAIT);
      expect(await note.locator('.card-filtered-by').allTextContents(), key).toEqual(by ? [by] : []);
      expect(await note.locator('.card-not-filtered-by').allTextContents(), key).toEqual(notBy ? [`⚠ ${notBy}`] : []);
    }
    expect(await report.locator(`.card[data-chart-id="${seed.charts.markdown}"] .card-filters`).count()).toBe(0);
    // What the note says is what was computed: the KPI no filter reaches shows its saved number.
    expect((await report.locator(`.card[data-chart-id="${seed.charts.kpi}"] [data-kpi-value]`).textContent())?.trim()).toBe(savedKpi);
    await axe(report, 'report, filter notes');
    await shot(report, 'report-filters');
    await report.close();

    await openEditor();
    await page.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
    const chips = (name: string) => editorCard(name).locator('.filter-chips li');
    const names: Record<string, string> = { line: 'Orders per day', matrix: 'Daily activity', bar: 'Revenue by country', pie: 'Orders by country', kpi: 'Orders', table: 'Latest orders' };
    for (const [key, by, notBy] of expected) {
      const want = [...(by ? by.replace('Filtered by ', '').split(', ').map((name) => (name === 'Order date' ? 'Order date: 2025-01-01 – 2025-01-31' : 'Country is FR')) : []), ...(notBy ? [`⚠ ${notBy}`] : [])];
      await expect.poll(() => chips(names[key]!).allTextContents(), WAIT).toEqual(want);
    }
    expect(await chips('Notes').count()).toBe(0);
    expect((await editorCard('Orders').locator('[data-kpi-value]').textContent())?.trim()).toBe(savedKpi);
    await axe(page, 'editor, filter chips');
    await settled(page);
    await shot(page, 'editor-filters');
    expect(problems).toEqual([]);
  }, 180_000);
});
