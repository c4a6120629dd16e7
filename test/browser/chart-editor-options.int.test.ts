import type { ParsedMail } from 'mailparser';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHookReceiver, startMailbox, type HookReceiver, type Mailbox } from '../helpers/loopback-peers.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, signedInContext, startLiveApp, watchProblems, type LiveApp } from './browser-env.js';
import { createOrdersTable, fetchRequester, seedDashboard, type Requester, type SeededDashboard } from './share-seed.js';

const WAIT = { timeout: 30_000 };

/**
 * The chart editor and the cards, in Chromium against a real Postgres: date grouping offered only
 * for a date column; an empty chart says why (editor, dashboard card, report page); a chart whose
 * refresh failed is marked stale with the reason and the time of its data; Refresh all goes past a
 * failure and lists it; every chart type and display option is in the form, with series of their
 * own colour; markdown cards are sanitised; unsaved edits are asked about before they are lost,
 * through the editor's links, a reload, and the browser's Back and Forward; a chart's alerts are
 * changed, paused and resumed from its card (a loopback SMTP server and webhook receive them).
 * Each screen passes axe-core with no violation at all.
 */
describe.skipIf(!browserAvailable())('chart editor and cards in Chromium', () => {
  let live: LiveApp;
  let db: { url: string; drop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Requester;
  let seed: SeededDashboard;
  let mailbox: Mailbox;
  let receiver: HookReceiver;
  let hookUrl: string;
  let mails: ParsedMail[];
  const problems: string[] = [];

  async function call<T = any>(method: string, url: string, payload?: unknown): Promise<T> {
    const res = await api({ method, url, token: seed.ownerToken, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  }
  const sql = async (text: string) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  const shot = (p: Page, name: string) => p.screenshot({ path: screenshotPath(`chart-editor-${name}`), fullPage: true, animations: 'disabled' });

  beforeAll(async () => {
    mailbox = await startMailbox();
    mails = mailbox.mails;
    receiver = await startHookReceiver();
    hookUrl = `${receiver.origin}/alerts`;
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    live = await startLiveApp({ PLOTLINE_SMTP_URL: mailbox.url, PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    api = fetchRequester(live.url);
    seed = await seedDashboard(api, db.url);
    browser = await launchBrowser();
    context = await signedInContext(browser, live.url, { email: seed.ownerEmail, password: 'correct horse battery' }, { width: 1280, height: 900 });
    page = await context.newPage();
    watchProblems(page, problems);
  }, 180_000);

  afterAll(async () => {
    await page?.screenshot({ path: screenshotPath('chart-editor-last'), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) process.stdout.write(`[chart editor] console: ${problems.join('\n')}\n`);
    await browser?.close();
    await live?.close();
    await db?.drop();
    await receiver?.close();
    await mailbox?.close();
  });

  const newChart = async () => {
    await page.goto(`${live.url}/app/dashboards/${seed.projectId}/charts/new`);
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', ...WAIT });
  };
  const previewCard = () => page.locator('.preview .card');

  it('offers date grouping only for a date column, and an empty preview says why', async () => {
    await newChart();
    await page.getByLabel('Chart name', { exact: true }).fill('By country');
    await page.getByLabel('Chart type', { exact: true }).selectOption('bar');
    const isDate = page.getByLabel('The X axis is a date (group by time)');
    await page.getByLabel('X axis', { exact: true }).selectOption('country');
    expect(await isDate.isChecked()).toBe(false);
    expect(await isDate.isDisabled()).toBe(true);
    await page.getByText('“country” holds no dates').waitFor(WAIT);
    await page.getByLabel('X axis', { exact: true }).selectOption('created_at');
    expect(await isDate.isChecked()).toBe(true);
    expect(await isDate.isDisabled()).toBe(false);
    await page.getByLabel('X axis', { exact: true }).selectOption('country');
    await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    await page.locator('.preview[data-preview-state="ready"] .card[data-rendered="true"]').waitFor(WAIT);
    const labels = await call<{ chartData: { data: { labels: string[] } } }>('POST', `/project/${seed.projectId}/chart/preview`, {
      type: 'bar',
      chartDatasetConfigs: [{ dataset_id: seed.datasetId, xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum' }],
    });
    expect(labels.chartData.data.labels.sort()).toEqual(['DE', 'FR', 'IT', 'US']);

    // A condition that nothing matches: the preview says the conditions leave no rows.
    await page.getByRole('button', { name: 'Add a condition' }).click();
    await page.getByLabel('Condition field').selectOption('status');
    await page.getByLabel('Condition value').fill('lost');
    await expect.poll(() => previewCard().getAttribute('data-empty-reason'), WAIT).toBe('FILTERED');
    expect(await previewCard().textContent()).toContain('the conditions or filters leave no rows');
    await axe(page, 'chart editor, empty preview');
    await shot(page, 'empty-reason');
  });

  it('has every chart type and display option, with a colour per series, and saves them', async () => {
    await newChart();
    const types = await page.getByLabel('Chart type', { exact: true }).locator('option').allTextContents();
    expect(types).toEqual(['Line', 'Bar', 'Table', 'KPI (one number)', 'Pie', 'Doughnut', 'Average (one number)', 'Radar', 'Polar area', 'Gauge', 'Calendar heatmap', 'Text (Markdown)']);
    // Each type previews from the server (markdown in the page).
    const drawn: Record<string, string | null> = {};
    for (const [type, x] of [
      ['radar', 'country'],
      ['polar', 'country'],
      ['gauge', null],
      ['matrix', 'created_at'],
    ] as const) {
      await page.getByLabel('Chart type', { exact: true }).selectOption(type);
      if (x) await page.getByLabel(type === 'matrix' ? 'X axis (a date column)' : 'X axis', { exact: true }).selectOption(x);
      await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
      await page.locator(`.preview[data-preview-state="ready"] .card[data-chart-type="${type}"][data-rendered]`).waitFor(WAIT);
      drawn[type] = await page.locator('.preview .card').getAttribute('data-rendered');
    }
    expect(drawn).toEqual({ radar: 'true', polar: 'true', gauge: 'true', matrix: 'true' });

    await page.getByLabel('Chart type', { exact: true }).selectOption('bar');
    await page.getByLabel('Chart name', { exact: true }).fill('Revenue and orders');
    await page.getByLabel('X axis', { exact: true }).selectOption('country');
    await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    await page.getByLabel('Series 1 name').fill('Revenue');
    await page.getByLabel('Colour', { exact: true }).fill('#112233');
    await page.getByRole('button', { name: 'Add a series' }).click();
    await page.getByLabel('Series 2 name').fill('Orders');
    await page.getByLabel('Y axis of series 2').selectOption('id');
    await page.getByLabel('Operation of series 2').selectOption('count');
    await page.getByLabel('Colour of series 2').fill('#cc5500');
    await page.getByLabel('Goal', { exact: true }).fill('2000');
    await page.getByLabel('Number format', { exact: true }).fill('€{val}');
    await page.getByLabel('Stacking').selectOption('percent');
    for (const label of ['Show the legend', 'Write the values on the chart (data labels)', 'Horizontal bars', 'Show growth (last value against the one before)']) {
      await page.getByLabel(label).check();
    }
    await page.getByLabel('X axis labels').selectOption('showAll');
    await page.locator('.preview[data-preview-state="ready"] .card[data-chart-type="bar"][data-rendered="true"]').waitFor(WAIT);
    await expect.poll(() => page.locator('.preview .card canvas').count(), WAIT).toBe(1);
    await axe(page, 'chart editor, options');
    await shot(page, 'options');
    // Down at the form's last options, the preview is still in view beside them.
    await page.getByRole('button', { name: 'Add a condition' }).scrollIntoViewIfNeeded();
    const viewport = page.viewportSize()!;
    await expect
      .poll(async () => {
        const box = await page.locator('.preview').boundingBox();
        return box !== null && box.y >= 0 && box.y < viewport.height / 2;
      }, WAIT)
      .toBe(true);
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);

    const charts = await call<any[]>('GET', `/project/${seed.projectId}/chart`);
    const saved = charts.find((c) => c.name === 'Revenue and orders');
    expect(saved).toMatchObject({ type: 'bar', displayLegend: true, dataLabels: true, stacked: true, stackPercent: true, horizontal: true, showGrowth: true, xLabelTicks: 'showAll' });
    // Stacked to 100 %: the two series of each country add up to 100.
    const [revenue, orders] = saved.chartData.data.datasets.map((d: any) => d.data as number[]);
    revenue.forEach((share: number, i: number) => expect(share + orders[i]).toBeCloseTo(100, 1));
    expect(saved.ChartDatasetConfigs.map((c: any) => [c.legend, c.datasetColor, c.yAxisOperation, c.goal, c.formula])).toEqual([
      ['Revenue', '#112233', 'sum', 2000, '€{val}'],
      ['Orders', '#cc5500', 'count', null, null],
    ]);
    expect(saved.chartData.data.datasets.map((d: any) => d.borderColor)).toEqual(['#112233', '#cc5500']);
  });

  it("splits a series by a column's values: the largest drawn, the rest summed into one, or left out and said on the card", async () => {
    await newChart();
    await page.getByLabel('Chart name', { exact: true }).fill('Revenue split by country');
    await page.getByLabel('Chart type', { exact: true }).selectOption('bar');
    await page.getByLabel('X axis', { exact: true }).selectOption('status');
    await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    await page.getByLabel('Split by', { exact: true }).selectOption('country');
    // Its series are told apart by their names: the legend comes on with the split.
    await expect(page.getByLabel('Show the legend').isChecked()).resolves.toBe(true);
    await page.getByLabel('Largest series shown', { exact: true }).fill('2');
    // Left out: the card says how many are drawn.
    await expect.poll(() => previewCard().locator('.card-truncated').textContent(), WAIT).toBe('Showing the 2 largest of 4 series');
    // Summed: nothing is left out, so no note; an average cannot be summed, and the box says why.
    await page.getByLabel('Sum the rest into one series').check();
    await page.getByLabel('Name of that series').fill('Elsewhere');
    await page.locator('.preview[data-preview-state="ready"] .card[data-chart-type="bar"][data-rendered="true"]').waitFor(WAIT);
    await expect.poll(() => previewCard().locator('.card-truncated').count(), WAIT).toBe(0);
    await page.getByLabel('Operation', { exact: true }).selectOption('avg');
    await expect(page.getByLabel('Sum the rest into one series').isDisabled()).resolves.toBe(true);
    await page.getByText('Only a count or a sum adds up').waitFor(WAIT);
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    await axe(page, 'chart editor, split');
    await shot(page, 'split');
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);

    const saved = (await call<any[]>('GET', `/project/${seed.projectId}/chart`)).find((c) => c.name === 'Revenue split by country');
    expect(saved.ChartDatasetConfigs[0]).toMatchObject({ breakdown: 'root[].country', breakdownLimit: 2, breakdownOther: true, breakdownOtherLabel: 'Elsewhere' });
    expect(saved.displayLegend).toBe(true);
    const datasets = saved.chartData.data.datasets as { label: string; data: number[] }[];
    expect(datasets.map((d) => d.label).slice(-1)).toEqual(['Elsewhere']);
    expect(datasets).toHaveLength(3);
    // Every status's total is still all four countries': nothing was left out.
    const totals = await call<any>('POST', `/project/${seed.projectId}/chart/preview`, {
      name: 'check',
      type: 'bar',
      chartDatasetConfigs: [{ dataset_id: saved.ChartDatasetConfigs[0].dataset_id, xAxis: 'root[].status', yAxis: 'root[].amount', yAxisOperation: 'sum' }],
    });
    const whole = totals.chartData.data.datasets[0].data as number[];
    whole.forEach((total, i) => expect(datasets.reduce((sum, d) => sum + d.data[i]!, 0)).toBeCloseTo(total, 6));
  });

  it('leaves a gap where a series has no point when asked, and saves the choice', async () => {
    await newChart();
    await page.getByLabel('Chart name', { exact: true }).fill('Revenue per day and country');
    await page.getByLabel('Chart type', { exact: true }).selectOption('pie');
    await expect.poll(() => page.getByLabel('Missing points').count(), WAIT).toBe(0);
    await page.getByLabel('Chart type', { exact: true }).selectOption('line');
    await page.getByLabel('X axis', { exact: true }).selectOption('created_at');
    await page.getByLabel('Y axis', { exact: true }).selectOption('amount');
    await page.getByLabel('Operation', { exact: true }).selectOption('sum');
    // A day's orders come from one or two countries: the other series have no point that day.
    await page.getByLabel('Split by', { exact: true }).selectOption('country');
    await expect(page.getByLabel('Missing points').inputValue()).resolves.toBe('zero');
    await page.getByLabel('Missing points').selectOption({ label: 'Leave a gap' });
    await page.locator('.preview[data-preview-state="ready"] .card[data-chart-type="line"][data-rendered="true"]').waitFor(WAIT);
    await shot(page, 'gaps');
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);

    const saved = (await call<any[]>('GET', `/project/${seed.projectId}/chart`)).find((c) => c.name === 'Revenue per day and country');
    expect(saved.missingValues).toBe('preserve');
    const datasets = saved.chartData.data.datasets as { data: Array<number | null> }[];
    expect(datasets).toHaveLength(4);
    // A day without a country's orders is a gap in its series, not a 0.
    for (const d of datasets) {
      expect(d.data.filter((v) => v === null).length).toBeGreaterThan(0);
      expect(d.data.filter((v) => v !== null).length).toBeGreaterThan(0);
      expect(d.data).not.toContain(0);
    }
  });

  it('writes a markdown card, sanitised, and asks before unsaved edits are lost', async () => {
    await newChart();
    await page.getByLabel('Chart name', { exact: true }).fill('Read me');
    await page.getByLabel('Chart type', { exact: true }).selectOption('markdown');
    await page.getByLabel('Text (Markdown)').fill('## Heads up\nNumbers are **net**. <img src=x onerror="document.title=1"> [Docs](https://example.com)');
    await page.locator('.preview .markdown h2').waitFor(WAIT);
    expect(await page.locator('.preview .markdown img[onerror]').count()).toBe(0);
    expect(await page.locator('.preview .markdown strong').textContent()).toBe('net');

    // Leaving through the editor's own links asks; "stay" keeps the form as it is.
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Datasets' }).click();
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toContain('Leave without saving?');
    expect(await page.getByLabel('Chart name', { exact: true }).inputValue()).toBe('Read me');
    // Closing or reloading the tab asks too (beforeunload).
    page.once('dialog', (dialog) => {
      questions.push(dialog.type());
      void dialog.dismiss();
    });
    await page.reload({ timeout: 3_000 }).catch(() => undefined);
    await expect.poll(() => questions.length).toBe(2);
    expect(questions[1]).toBe('beforeunload');
    expect(await page.getByLabel('Chart name', { exact: true }).inputValue()).toBe('Read me');
    await axe(page, 'chart editor, markdown');

    // Saving moves on without asking.
    await page.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    expect(questions).toHaveLength(2);
    await page.locator('.board-item[data-chart-name="Read me"] .markdown h2').waitFor(WAIT);
  });

  it("asks before the browser's Back or Forward leaves unsaved edits; staying keeps the screen and its address", async () => {
    // Reached through the editor's own links, so Back and Forward stay inside the page.
    await page.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    const dashboardUrl = page.url();
    await page.getByRole('link', { name: 'Add a chart' }).click();
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', ...WAIT });
    const editorUrl = page.url();
    await page.getByLabel('Chart name', { exact: true }).fill('Not kept');

    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goBack();
    await expect.poll(() => questions.length, WAIT).toBe(1);
    expect(questions[0]).toContain('Leave without saving?');
    await expect.poll(() => page.url(), WAIT).toBe(editorUrl);
    expect(await page.getByLabel('Chart name', { exact: true }).inputValue()).toBe('Not kept');
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    await axe(page, 'chart editor, Back refused');

    // Back again, and leave: the dashboard.
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await page.goBack();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    expect(questions).toHaveLength(2);
    expect(page.url()).toBe(dashboardUrl);

    // Forward from unsaved dashboard settings: asked too; staying keeps the edit and the address.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Sales overview (draft)');
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goForward();
    await expect.poll(() => questions.length, WAIT).toBe(3);
    expect(questions[2]).toContain('Leave without saving the dashboard settings?');
    await expect.poll(() => page.url(), WAIT).toBe(dashboardUrl);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Sales overview (draft)');
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await page.goForward();
    await page.getByRole('heading', { name: 'New chart' }).waitFor(WAIT);
    expect(questions).toHaveLength(4);
    expect(page.url()).toBe(editorUrl);
    // The chart form opens anew: nothing was kept, nothing is asked.
    expect(await page.getByLabel('Chart name', { exact: true }).inputValue()).toBe('');
    await page.getByText("Reading the dataset's columns…").waitFor({ state: 'detached', ...WAIT });
    await page.goBack();
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    expect(questions).toHaveLength(4);
  });

  it('cards say why they are empty and mark a failed refresh; Refresh all goes on past failures; the report page shows both', async () => {
    // An empty chart (a date range with no row) and a chart whose source then goes away.
    const empty = await call<{ id: number }>('POST', `/project/${seed.projectId}/chart/quick-create`, {
      name: 'Nothing in 2031',
      type: 'bar',
      startDate: '2031-01-01T00:00:00Z',
      endDate: '2031-02-01T00:00:00Z',
      layout: { lg: [0, 20, 6, 3] },
      chartDatasetConfigs: [{ dataset_id: seed.datasetId, xAxis: 'root[].country', dateField: 'root[].created_at', yAxisOperation: 'count' }],
    });
    await call('POST', `/project/${seed.projectId}/chart/${empty.id}/query`);
    const other = await call<{ id: number }>('POST', `/team/${seed.teamId}/datasets/quick-create`, {
      name: 'Archive',
      project_ids: [seed.projectId],
      dataRequests: [{ connection_id: (await call<{ id: number }[]>('GET', `/team/${seed.teamId}/connections`))[0]!.id, query: 'select * from archive' }],
    });
    await sql(`create table archive as select * from orders`);
    const stale = await call<{ id: number }>('POST', `/project/${seed.projectId}/chart/quick-create`, {
      name: 'Archived orders',
      type: 'kpi',
      layout: { lg: [6, 20, 3, 2] },
      chartDatasetConfigs: [{ dataset_id: other.id, yAxisOperation: 'count' }],
    });
    await call('POST', `/project/${seed.projectId}/chart/${stale.id}/query`);
    await sql('drop table archive');

    await page.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Refresh all' }).click();
    await page.getByText(/charts refreshed; 1 failed\./).waitFor(WAIT);
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toContain('Archived orders');
    // Every other chart was refreshed: each has data newer than the click.
    const after = await call<any[]>('GET', `/project/${seed.projectId}/chart`);
    const failed = after.filter((c) => c.lastError !== null).map((c) => c.name);
    expect(failed).toEqual(['Archived orders']);

    const staleCard = page.locator('.board-item[data-chart-name="Archived orders"] .card');
    await staleCard.locator('.card-stale').waitFor(WAIT);
    expect(await staleCard.locator('.card-stale').textContent()).toMatch(/Refresh failed .*Showing the data of/);
    expect(await staleCard.locator('.metric-value').textContent()).toMatch(/120/);
    const emptyCard = page.locator('.board-item[data-chart-name="Nothing in 2031"] .card');
    expect(await emptyCard.getAttribute('data-empty-reason')).toBe('FILTERED');
    expect(await emptyCard.textContent()).toContain('no row falls in the chart’s date range');
    await staleCard.scrollIntoViewIfNeeded();
    // Grid items slide into their cells after the charts are read again: shoot once they stay put.
    const boxes = () => page.locator('.board-item').evaluateAll((items) => JSON.stringify(items.map((i) => i.getBoundingClientRect().toJSON())));
    let previous = '';
    let current = await boxes();
    while (current !== previous) {
      previous = current;
      await page.waitForTimeout(300);
      current = await boxes();
    }
    await axe(page, 'dashboard, stale and empty cards');
    await shot(page, 'dashboard-stale');

    // The report page: the same marks, without the source's words.
    await call('POST', `/project/${seed.projectId}/share/policy`);
    const issued = await call<{ url: string }>('POST', `/project/${seed.projectId}/share/token`);
    const report = await context.newPage();
    await report.goto(issued.url);
    await report.locator('body[data-state="ready"]').waitFor(WAIT);
    const reportStale = report.locator(`.card[data-chart-id="${stale.id}"] .card-stale`);
    await reportStale.waitFor(WAIT);
    expect(await reportStale.textContent()).toMatch(/Refresh failed .*: [A-Z_]+\. Showing the data of/);
    expect(await report.locator(`.card[data-chart-id="${empty.id}"]`).getAttribute('data-empty-reason')).toBe('FILTERED');
    await report.locator(`.card[data-chart-id="${stale.id}"]`).scrollIntoViewIfNeeded();
    await axe(report, 'report, stale and empty cards');
    await report.screenshot({ path: screenshotPath('chart-editor-report-stale'), fullPage: true });
    await report.close();
  });

  it("changes a chart's alert from its card, pauses and resumes it; the list says when it last triggered", async () => {
    const integration = await call<{ id: number }>('POST', `/team/${seed.teamId}/integration`, { name: 'Ops channel', type: 'webhook', config: { url: hookUrl } });
    const alertsUrl = `/project/${seed.projectId}/chart/${seed.charts.bar}/alert`;
    await page.goto(`${live.url}/app/dashboards/${seed.projectId}`);
    await page.getByRole('heading', { name: 'Sales overview' }).waitFor(WAIT);
    const openAlerts = async () => {
      await page.getByRole('button', { name: 'Menu of Revenue by country' }).click();
      await page.getByRole('menuitem', { name: 'Alerts' }).click();
      const panel = page.getByRole('region', { name: 'Alerts of Revenue by country' });
      await expect.poll(() => panel.getByTestId('smtp-status').textContent(), WAIT).toContain('E-mail: available');
      return panel;
    };
    let panel = await openAlerts();
    await panel.getByLabel('When the value is').selectOption('threshold_above');
    await panel.getByLabel('Value', { exact: true }).fill('100000');
    await panel.getByLabel('Webhook URL').fill(hookUrl);
    await panel.getByLabel('Notify Ops channel (webhook)').check();
    await panel.getByRole('button', { name: 'Create alert' }).click();
    await panel.getByText(/^Alert created\. The webhook's signing key, shown this once: [0-9a-f]{64}$/).waitFor(WAIT);
    const [created] = await call<any[]>('GET', alertsUrl);
    const id: number = created.id;
    const before = await call('GET', `${alertsUrl}/${id}`);
    const item = panel.locator(`li[data-alert-id="${id}"]`);
    await item.waitFor(WAIT);
    // The form is empty again for the next alert: a second press would not make the same one.
    await expect.poll(() => panel.getByLabel('Value', { exact: true }).inputValue(), WAIT).toBe('');
    expect(await panel.getByLabel('Webhook URL').inputValue()).toBe('');

    // Edit: the form takes the alert's own values, then the threshold and the recipients change.
    await panel.getByRole('button', { name: `Edit alert ${id}` }).click();
    await panel.getByRole('heading', { name: `Edit alert ${id}` }).waitFor(WAIT);
    await expect.poll(() => page.evaluate('document.activeElement?.textContent'), WAIT).toBe(`Edit alert ${id}`);
    expect(await panel.getByLabel('When the value is').inputValue()).toBe('threshold_above');
    expect(await panel.getByLabel('Value', { exact: true }).inputValue()).toBe('100000');
    expect(await panel.getByLabel('Webhook URL').inputValue()).toBe(hookUrl);
    expect(await panel.getByLabel('Email recipients').inputValue()).toBe('');
    expect(await panel.getByLabel('Notify Ops channel (webhook)').isChecked()).toBe(true);
    await panel.getByLabel('Value', { exact: true }).fill('500');
    await panel.getByLabel('Email recipients').fill(seed.ownerEmail);
    await axe(page, 'chart alerts, editing');
    await shot(page, 'alert-editing');
    await panel.getByRole('button', { name: 'Save alert' }).click();
    await panel.getByText(`Alert ${id} saved.`).waitFor(WAIT);
    await panel.getByRole('button', { name: 'Create alert' }).waitFor(WAIT);
    expect(await panel.getByLabel('Value', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => item.textContent(), WAIT).toContain(`500 → ${seed.ownerEmail}`);
    const edited = await call('GET', `${alertsUrl}/${id}`);
    expect(edited).toMatchObject({ rules: { value: 500 }, recipients: [seed.ownerEmail], mediums: { email: { enabled: true } } });
    // Nothing else moved: the webhook, its key, the integration, the timeout, the name, active.
    const rest = ({ rules: _r, recipients: _e, mediums: { email: _m, ...mediums }, updatedAt: _u, ...other }: any) => ({ mediums, ...other });
    expect(rest(edited)).toEqual(rest(before));
    expect(edited.webhookSecret).toBe('********');

    // Paused: marked so, and a refresh above the threshold notifies nobody.
    await panel.getByRole('button', { name: `Pause alert ${id}` }).click();
    await panel.getByText(`Alert ${id} paused.`).waitFor(WAIT);
    await item.locator('.alert-paused').waitFor(WAIT);
    expect(await item.getAttribute('data-active')).toBe('false');
    const paused = await call('GET', `${alertsUrl}/${id}`);
    expect(paused.active).toBe(false);
    expect({ ...paused, active: true, updatedAt: null }).toEqual({ ...edited, updatedAt: null });
    await call('POST', `/project/${seed.projectId}/chart/${seed.charts.bar}/query`);
    expect((await call('GET', `${alertsUrl}/${id}`)).lastTriggeredAt).toBeNull();
    await axe(page, 'chart alerts, paused');
    await shot(page, 'alert-paused');

    // Resumed: the next refresh notifies the webhook, the integration and the recipient.
    await panel.getByRole('button', { name: `Resume alert ${id}` }).click();
    await panel.getByText(`Alert ${id} resumed.`).waitFor(WAIT);
    await item.locator('.alert-paused').waitFor({ state: 'detached', ...WAIT });
    expect((await call('GET', `${alertsUrl}/${id}`)).active).toBe(true);
    const hooksBefore = receiver.received.length;
    await call('POST', `/project/${seed.projectId}/chart/${seed.charts.bar}/query`);
    const triggered = await call('GET', `${alertsUrl}/${id}`);
    expect(triggered.lastTriggeredAt).not.toBeNull();
    expect(triggered.events[0].deliveries.map((d: { medium: string; ok: boolean }) => `${d.medium}:${d.ok}`).sort()).toEqual(['email:true', 'integration:true', 'webhook:true']);
    expect(receiver.received.slice(hooksBefore).map(({ body }) => JSON.parse(body).event)).toEqual(['alert.triggered', 'alert.triggered']);
    await expect.poll(() => mails.map((m) => m.subject ?? ''), WAIT).toContainEqual(expect.stringContaining('[Plotline]'));
    await panel.getByRole('button', { name: 'Close' }).click();
    panel = await openAlerts();
    await expect.poll(() => panel.locator(`li[data-alert-id="${id}"]`).textContent(), WAIT).toMatch(/last triggered \S/);

    // Emptied fields turn their medium off; an unticked integration stays linked, turned off.
    await panel.getByRole('button', { name: `Edit alert ${id}` }).click();
    expect(await panel.getByLabel('Email recipients').inputValue()).toBe(seed.ownerEmail);
    await panel.getByLabel('Email recipients').fill('');
    await panel.getByLabel('Webhook URL').fill('');
    await panel.getByLabel('Notify Ops channel (webhook)').uncheck();
    await panel.getByRole('button', { name: 'Save alert' }).click();
    await panel.getByText(`Alert ${id} saved.`).waitFor(WAIT);
    const emptied = await call('GET', `${alertsUrl}/${id}`);
    expect(emptied).toMatchObject({ recipients: [], mediums: { email: { enabled: false }, webhook: { enabled: false, url: hookUrl } }, rules: { value: 500 }, active: true });
    expect(emptied.AlertIntegrations.map((l: { integration_id: number; enabled: boolean }) => [l.integration_id, l.enabled])).toEqual([[integration.id, false]]);

    // Cancel editing: back to a new alert, nothing sent.
    await panel.getByRole('button', { name: `Edit alert ${id}` }).click();
    await panel.getByLabel('Value', { exact: true }).fill('42');
    await panel.getByRole('button', { name: 'Cancel editing' }).click();
    await panel.getByRole('heading', { name: 'New alert' }).waitFor(WAIT);
    await expect.poll(() => page.evaluate('document.activeElement?.textContent'), WAIT).toBe('New alert');
    expect(await panel.getByLabel('Value', { exact: true }).inputValue()).toBe('');
    expect((await call('GET', `${alertsUrl}/${id}`)).rules).toEqual({ value: 500 });
    await axe(page, 'chart alerts, list');
  });
});
