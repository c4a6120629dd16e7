import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, type LiveApp } from './browser-env.js';
import { fetchRequester, type Requester } from './share-seed.js';

const WAIT = { timeout: 30_000 };

/*
 * Orders dated from today back 89 days (UTC), so that the date presets, which the server resolves
 * against today, always find rows: order i is (i % 90) days old, from FR, DE, US or IT, paid or
 * (every fifth) refunded.
 */
const ORDERS_SQL = `
  create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
  insert into orders
    select i,
           (array['FR','DE','US','IT'])[1 + i % 4],
           case when i % 5 = 0 then 'refunded' else 'paid' end,
           ((i * 37) % 90 + 10)::numeric(10,2),
           (((now() at time zone 'UTC')::date - (i % 90))::timestamp + interval '9 hours') at time zone 'UTC'
    from generate_series(1, 120) as i;
`;

type Json = Record<string, any>;

/**
 * Dashboard filters in Chromium against a real Postgres, through the pages people use: in the
 * editor, a date filter (a preset) and a field filter (a value picked from its list) narrow every
 * chart at once, are reordered and removed from the keyboard, and a value is saved only when asked;
 * on the shared report, an anonymous viewer filters, reloads the address and gets the same numbers,
 * and cannot move a parameter the share policy pins. Numbers are checked against SQL over the same
 * table. Every screen passes axe-core without serious or critical violations.
 */
describe.skipIf(!browserAvailable())('dashboard filters in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Requester;
  let token: string;
  let teamId: number;
  let projectId: number;
  let datasetId: number;
  const charts: Record<'kpi' | 'bar' | 'line' | 'table', number> = { kpi: 0, bar: 0, line: 0, table: 0 };
  const problems: string[] = [];

  async function call<T = any>(method: string, url: string, payload?: unknown): Promise<T> {
    const res = await api({ method, url, token, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  }

  async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }


  function watch(p: Page) {
    p.on('console', (message) => {
      // The address edited on purpose to move the pinned parameter: Chromium logs its 403 as a failed load.
      if (/status of 403/.test(message.text()) && message.location().url.includes('status=refunded')) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`${message.text()} @ ${message.location().url}`);
    });
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  }

  /** Paid orders (the dataset's default), narrowed like the filters: `days` the last-N-days preset, `country` one country. */
  async function expected(days: number | null, country: string | null) {
    const where = ["status = 'paid'"];
    const values: unknown[] = [];
    if (days !== null) where.push(`created_at >= (((now() at time zone 'UTC')::date - ${days - 1})::timestamp at time zone 'UTC')`);
    if (country !== null) {
      values.push(country);
      where.push(`country = $${values.length}`);
    }
    const clause = where.join(' and ');
    const [total] = await sql<{ n: number }>(`select count(*)::int as n from orders where ${clause}`, values);
    const byCountry = await sql<{ country: string; total: string }>(`select country, sum(amount) as total from orders where ${clause} group by country order by country`, values);
    return { count: total!.n, revenue: Object.fromEntries(byCountry.map((r) => [r.country, Number(r.total)])) };
  }

  /** The numbers the editor's cards show: the KPI's text, the bar chart's labels and sums from its last run. */
  async function kpiText(p: Page) {
    return (await p.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent())?.trim();
  }

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), ORDERS_SQL);
    live = await startLiveApp();
    api = fetchRequester(live.url);
    const email = `filters-${Date.now()}@example.com`;
    const user = await api({ method: 'POST', url: '/user', payload: { name: 'Fay', email, password: 'correct horse battery' } });
    expect(user.statusCode, user.body).toBe(200);
    token = user.json().token;
    teamId = (await call<{ id: number }[]>('GET', '/team'))[0]!.id;
    const url = new URL(db.url);
    const connection = await call<{ id: number }>('POST', `/team/${teamId}/connections`, {
      name: 'Shop',
      type: 'postgres',
      host: url.hostname,
      port: url.port || '5432',
      dbName: url.pathname.slice(1),
      username: decodeURIComponent(url.username) || 'postgres',
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    });
    const project = await call<{ id: number }>('POST', '/project', { name: 'Filtered sales', team_id: teamId, timezone: 'UTC' });
    projectId = project.id;
    const dataset = await call<{ id: number }>('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'Orders',
      project_ids: [projectId],
      dataRequests: [{ connection_id: connection.id, query: 'select id, country, status, amount, created_at from orders where status = {{status}} order by id', variableBindings: [{ name: 'status', default_value: 'paid' }] }],
    });
    datasetId = dataset.id;
    // Every chart has the date field, so a date filter reaches each of them.
    const date = { dateField: 'root[].created_at' };
    const definitions: [keyof typeof charts, Json, Json][] = [
      ['kpi', { name: 'Orders', type: 'kpi', layout: { lg: [0, 0, 4, 2] } }, { ...date, yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' }],
      ['bar', { name: 'Revenue by country', type: 'bar', layout: { lg: [4, 0, 8, 3] } }, { ...date, xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' }],
      ['line', { name: 'Orders per day', type: 'line', timeInterval: 'day', includeZeros: false, layout: { lg: [0, 3, 12, 3] } }, { ...date, xAxis: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' }],
      ['table', { name: 'Order list', type: 'table', defaultRowsPerPage: 5, layout: { lg: [0, 6, 12, 4] } }, { ...date, legend: 'Orders', maxRecords: 200 }],
    ];
    for (const [key, chart, config] of definitions) {
      const created = await call<{ id: number }>('POST', `/project/${projectId}/chart/quick-create`, { ...chart, chartDatasetConfigs: [{ dataset_id: datasetId, ...config }] });
      charts[key] = created.id;
      await call('POST', `/project/${projectId}/chart/${created.id}/query`);
    }

    browser = await launchBrowser();
    context = await signedInContext(browser, live.url, { email, password: 'correct horse battery' }, { width: 1280, height: 1000 });
    page = await context.newPage();
    watch(page);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('filters-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[dashboard filters] console: ${problems.join('\n')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
  });

  it('the editor: a date preset and a field value from its list narrow every chart at once; reorder and remove by keyboard; a value is saved only when asked', async () => {
    const all = await expected(null, null);
    const week = await expected(7, null);
    const weekFr = await expected(7, 'FR');
    expect(week.count).toBeLessThan(all.count);
    expect(weekFr.count).toBeGreaterThan(0);
    expect(weekFr.count).toBeLessThan(week.count);

    // Every run the page makes goes through the batch route; nothing is written to the charts.
    const runs: Json[] = [];
    const writes: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'POST' && path === `/project/${projectId}/filter`) runs.push(request.postDataJSON());
      if (request.method() !== 'GET' && /\/chart(\/|$)/.test(path)) writes.push(`${request.method()} ${path}`);
    });

    await page.goto(`${live.url}/app/dashboards/${projectId}`);
    await page.getByRole('heading', { name: 'Filtered sales' }).waitFor(WAIT);
    await expect.poll(() => page.locator('.board-item .card[data-rendered="true"]').count(), WAIT).toBe(4);
    expect(await kpiText(page)).toBe(String(all.count));
    await page.getByText('No filter yet.').waitFor(WAIT);

    // A date filter, added through the form, then set to a preset in the bar.
    await page.getByRole('button', { name: 'Add a filter' }).click();
    const form = page.locator('form.filter-form');
    await form.getByLabel('Filter on', { exact: true }).selectOption('date');
    await form.getByLabel('Label', { exact: true }).fill('Order date');
    // A saved date filter has a range: the last 90 days (every order), then the last 7 tried in the bar.
    await form.getByLabel('Default range', { exact: true }).selectOption('last_90_days');
    await form.getByLabel('Show on the report').check();
    await axe(page, 'filter-form-date');
    await form.getByRole('button', { name: 'Add filter' }).click();
    await page.getByText('Filter added.').waitFor(WAIT);
    const bar = page.locator('.filter-bar');
    await page.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
    await expect.poll(() => kpiText(page), WAIT).toBe(String(all.count));
    await bar.getByLabel('Order date', { exact: true }).selectOption('last_7_days');
    await page.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
    await expect.poll(() => kpiText(page), WAIT).toBe(String(week.count));
    expect(runs.at(-1)).toEqual({ filters: [expect.objectContaining({ type: 'date', preset: 'last_7_days' })] });

    // A field filter whose values come from the dataset: a list, searched as one types.
    await page.getByRole('button', { name: 'Add a filter' }).click();
    await form.getByLabel('Filter on', { exact: true }).selectOption('field');
    await form.getByLabel('Field', { exact: true }).selectOption('country', WAIT);
    await form.getByLabel('Operator', { exact: true }).selectOption('is');
    expect(await form.getByLabel("Offer the field's values in a list").isChecked()).toBe(true);
    // Before it has a value, the form says which charts the filter will narrow, as the server's rule does.
    const reach = form.getByTestId('filter-reach');
    await expect.poll(() => reach.textContent(), WAIT).toBe('Reaches: Orders, Revenue by country, Orders per day, Order list');
    const onlyKpi = form.locator('.filter-charts').getByLabel('Orders', { exact: true });
    await onlyKpi.check();
    await expect.poll(() => reach.textContent(), WAIT).toBe('Reaches: Orders · Not: Revenue by country, Orders per day, Order list');
    await axe(page, 'filter-form-reach');
    await onlyKpi.uncheck();
    await expect.poll(() => reach.textContent(), WAIT).toBe('Reaches: Orders, Revenue by country, Orders per day, Order list');
    await form.getByLabel('Show on the report').check();
    await form.getByRole('button', { name: 'Add filter' }).click();
    await page.getByText('Filter added.').waitFor(WAIT);
    // The bar says it too, for each saved filter, with or without a value.
    await expect.poll(() => bar.locator('[data-filter-type="field"] [data-testid="filter-reach"]').textContent(), WAIT).toBe('Reaches: Orders, Revenue by country, Orders per day, Order list');
    const country = bar.getByRole('combobox', { name: 'country' });
    await country.click();
    const options = page.getByRole('listbox', { name: 'Values of country' }).getByRole('option');
    await expect.poll(() => options.allTextContents(), WAIT).toEqual(['Any value', 'DE', 'FR', 'IT', 'US']);
    await country.fill('F');
    await expect.poll(() => options.allTextContents(), WAIT).toEqual(['Any value', 'FR']);
    await axe(page, 'filter-value-list');
    await page.screenshot({ path: screenshotPath('filters-editor-value-list'), fullPage: true });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => country.inputValue(), WAIT).toBe('FR');

    // Every chart shows the filtered data, from one batch run.
    await expect.poll(() => kpiText(page), WAIT).toBe(String(weekFr.count));
    await page.locator('.filter-bar[data-run-state="ready"]').waitFor(WAIT);
    expect(runs.at(-1)!['filters']).toEqual([
      expect.objectContaining({ type: 'date', preset: 'last_7_days' }),
      expect.objectContaining({ type: 'field', field: 'root[].country', operator: 'is', value: 'FR' }),
    ]);
    const answer = await call<{ charts: Json[] }>('POST', `/project/${projectId}/filter`, runs.at(-1));
    const byId = new Map(answer.charts.map((c) => [c.id, c]));
    const barData = byId.get(charts.bar)!['chartData'].data;
    expect(Object.fromEntries(barData.labels.map((l: string, i: number) => [l, barData.datasets[0].data[i]]))).toEqual(weekFr.revenue);
    const table = byId.get(charts.table)!['chartData'];
    expect((Object.values(table)[0] as { data: unknown[] }).data).toHaveLength(weekFr.count);
    const line = byId.get(charts.line)!['chartData'].data;
    expect(line.datasets[0].data.reduce((a: number, b: number) => a + b, 0)).toBe(weekFr.count);
    await expect.poll(() => page.locator(`[data-chart-id="${charts.table}"] .pager`).textContent(), WAIT).toContain(`${weekFr.count} row`);

    // Each card lists the filters that reach it.
    for (const id of Object.values(charts)) {
      const chips = page.locator('.board-item', { has: page.locator(`[data-chart-id="${id}"]`) }).locator('.filter-chips li');
      await expect.poll(() => chips.allTextContents(), WAIT).toEqual(['Order date: Last 7 days', 'country is FR']);
    }
    await axe(page, 'dashboard-filtered');
    await page.screenshot({ path: screenshotPath('filters-editor-filtered'), fullPage: true });

    // Tried, not saved: the stored filters have no value yet, and no chart was written.
    let stored = await call<Json[]>('GET', `/project/${projectId}/dashboard-filters`);
    expect(stored.map((f) => f['configuration'].label ?? f['configuration'].field)).toEqual(['Order date', 'root[].country']);
    expect(stored[0]!['configuration'].preset).toBe('last_90_days');
    expect(stored[1]!['configuration'].value).toBeUndefined();
    expect(writes).toEqual([]);

    // A value a filter matches nothing with: the charts say so; the KPI counts 0 orders, which is a value.
    await country.fill('ZZ');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.board-item .card[data-rendered="empty"]').evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-chart-id'))).sort()), WAIT).toEqual(
      [charts.bar, charts.line, charts.table].sort(),
    );
    expect(await kpiText(page)).toBe('0');
    await page.getByText('No data for these filters.').first().waitFor(WAIT);
    await page.screenshot({ path: screenshotPath('filters-editor-empty'), fullPage: true });
    await country.fill('FR');
    await page.keyboard.press('Enter');
    await expect.poll(() => kpiText(page), WAIT).toBe(String(weekFr.count));

    // Saving a value is its own click.
    await bar.getByRole('button', { name: 'Save value of Order date' }).click();
    await page.getByText('Value of “Order date” saved.').waitFor(WAIT);
    stored = await call<Json[]>('GET', `/project/${projectId}/dashboard-filters`);
    expect(stored[0]!['configuration']).toMatchObject({ type: 'date', label: 'Order date', preset: 'last_7_days' });
    await bar.getByRole('button', { name: 'Save value of country' }).click();
    await page.getByText('Value of “country” saved.').waitFor(WAIT);

    // Reorder from the keyboard: the moved filter keeps the focus, and the order is saved.
    await bar.getByRole('button', { name: 'Move country left' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Order saved.').waitFor(WAIT);
    await expect.poll(() => bar.locator('.filter-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-filter-type'))), WAIT).toEqual(['field', 'date']);
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null"), WAIT).toMatch(/^Move country (left|right)$/);
    stored = await call<Json[]>('GET', `/project/${projectId}/dashboard-filters`);
    expect(stored.map((f) => f['configuration'].type)).toEqual(['field', 'date']);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toMatch(/^(Move country right|Edit country)$/);

    // Remove from the keyboard: the date filter goes, the charts follow the one left.
    await bar.getByRole('button', { name: 'Remove Order date' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Filter “Order date” removed.').waitFor(WAIT);
    const fr = await expected(null, 'FR');
    await expect.poll(() => kpiText(page), WAIT).toBe(String(fr.count));
    stored = await call<Json[]>('GET', `/project/${projectId}/dashboard-filters`);
    expect(stored).toHaveLength(1);
    // Put back for the report test: a date filter on the report.
    await call('POST', `/project/${projectId}/dashboard-filter`, { configuration: { type: 'date', label: 'Order date', preset: 'last_90_days' }, onReport: true });
    await axe(page, 'dashboard-after-remove');
    expect(writes).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it('the report: an anonymous viewer filters, reloads the address and gets the same numbers; a pinned parameter cannot be moved', async () => {
    // A variable filter on the dataset's {{status}}, which the share policy pins to "paid".
    await call('POST', `/project/${projectId}/dashboard-filter`, { configuration: { type: 'variable', variable: 'status', dataType: 'string', label: 'Status', allowValueChange: true }, onReport: true });
    const policy = await call<{ id: number }>('POST', `/project/${projectId}/share/policy`);
    await call('PUT', `/project/${projectId}/share/policy/${policy.id}`, { params: [{ key: 'status', value: 'paid' }], allow_params: true });
    const link = (await call<{ url: string }>('POST', `/project/${projectId}/share/token`, { sharePolicyId: policy.id })).url;
    const filters = await call<Json[]>('GET', `/project/${projectId}/dashboard-filters`);
    const countryFilter = filters.find((f) => f['configuration'].type === 'field')!;
    const dateFilter = filters.find((f) => f['configuration'].type === 'date')!;
    const statusFilter = filters.find((f) => f['configuration'].type === 'variable')!;

    const stranger = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const report = await stranger.newPage();
      watch(report);
      await report.goto(link);
      await report.waitForSelector('body[data-state="ready"]', WAIT);
      const filterBar = report.locator('.report-filters');
      await filterBar.waitFor(WAIT);
      // The saved values apply at once: FR over the last 90 days.
      const saved = await expected(90, 'FR');
      await expect.poll(() => report.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent(), WAIT).toBe(String(saved.count));
      // The report's filters in the dashboard's order; the one on the pinned parameter is not offered.
      expect(await filterBar.locator('[data-filter-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-filter-id')))).toEqual([countryFilter['id'], dateFilter['id']]);
      await axe(report, 'report-filters');

      // The viewer picks the last 30 days and DE from the list.
      await filterBar.getByLabel('Order date', { exact: true }).selectOption('last_30_days');
      await report.waitForSelector('body[data-filter-state="applied"]', WAIT);
      const combo = filterBar.getByRole('combobox', { name: 'country' });
      await combo.click();
      await report.getByRole('option', { name: 'DE', exact: true }).waitFor(WAIT);
      await report.screenshot({ path: screenshotPath('filters-report-value-list'), fullPage: true });
      await report.getByRole('option', { name: 'DE', exact: true }).click();
      const de = await expected(30, 'DE');
      await expect.poll(() => report.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent(), WAIT).toBe(String(de.count));
      const address = new URL(report.url());
      expect(address.searchParams.get(`f.${dateFilter['id']}`)).toBe('last_30_days');
      expect(address.searchParams.get(`f.${countryFilter['id']}`)).toBe('DE');
      expect(address.searchParams.has('token')).toBe(false);
      const table = await report.locator(`[data-chart-id="${charts.table}"] .pager`).textContent();
      await axe(report, 'report-filtered');
      await report.screenshot({ path: screenshotPath('filters-report-filtered'), fullPage: true });

      // A reload of the address shows the same view: same controls, same numbers.
      await report.reload();
      await report.waitForSelector('body[data-state="ready"]', WAIT);
      await report.waitForSelector('body[data-filter-state="applied"]', WAIT);
      expect(await report.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent()).toBe(String(de.count));
      expect(await report.locator(`[data-chart-id="${charts.table}"] .pager`).textContent()).toBe(table);
      expect(await filterBar.getByLabel('Order date', { exact: true }).inputValue()).toBe('last_30_days');
      expect(await filterBar.getByRole('combobox', { name: 'country' }).inputValue()).toBe('DE');

      // The same address in another tab (no token kept there) is not enough on its own; the link plus the filters is.
      const linked = await stranger.newPage();
      await linked.goto(`${link}&${address.searchParams.toString()}`);
      await linked.waitForSelector('body[data-filter-state="applied"]', WAIT);
      expect(await linked.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent()).toBe(String(de.count));
      await linked.close();

      // An address edited by hand to move the pinned parameter, through its filter: not offered,
      // so the page leaves it out and says so; the numbers stay the link's.
      const edited = new URL(report.url());
      edited.searchParams.set(`f.${statusFilter['id']}`, 'refunded');
      await report.goto(edited.toString());
      await report.waitForSelector('body[data-filter-state="error"]', WAIT);
      expect(await report.locator('.report-filter-error').textContent()).toContain(`f.${statusFilter['id']}`);
      expect(await report.locator(`[data-chart-id="${charts.kpi}"] [data-kpi-value]`).textContent()).toBe(String(de.count));
      await axe(report, 'report-unknown-filter');

      // …and as the parameter itself: the server refuses it, and the page says why.
      edited.searchParams.delete(`f.${statusFilter['id']}`);
      edited.searchParams.set('status', 'refunded');
      await report.goto(edited.toString());
      await report.waitForSelector('body[data-state="error"]', WAIT);
      expect(await report.getAttribute('body', 'data-error-code')).toBe('SHARE_PARAM_LOCKED');
      expect(await report.textContent('h1')).toBe('This link fixes that value');
      expect(await report.locator('[role="alert"]').textContent()).toContain('status');
      expect(await report.$('canvas')).toBeNull();
      await axe(report, 'report-pinned-error');
      await report.screenshot({ path: screenshotPath('filters-report-pinned'), fullPage: true });
    } finally {
      await stranger.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
