/**
 * Pictures of a 10-chart dashboard drawn on the server (src/render: Chart.js on Skia), against a
 * headless Chromium screenshot of the same dashboard's report page, side by side in one run.
 *
 *   npm run bench:pictures            (PLOTLINE_BENCH_RUNS=10, PLOTLINE_BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres)
 *
 * Measures, each N times, in two turns of blocks: the dashboard as PNG and as PDF
 * (SnapshotsService.dashboardPicture, saved chartData, as a delivery would), then Chromium warm (a
 * page already open: navigate to the report, wait for every chart, full-page screenshot); then Chromium
 * cold (launch, open the report, wait, screenshot, close). Time as median and p95, and the ratios of
 * both; memory as this process's peak RSS while it draws above the RSS each block of drawing starts from, and the summed RSS
 * of the Chromium process tree (from /proc) while it works. Prints JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { ensureBuilt } from './lib/server-process.js';
import { PeakRss } from './lib/peak-rss.js';
import { startBenchService } from './lib/service.js';

const RUNS = Number(process.env['PLOTLINE_BENCH_RUNS'] ?? 10);
const SERVER = process.env['PLOTLINE_BENCH_PG'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'plotline_pictures_bench';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const WIDTH = 1280;

const CHARTS: { name: string; type: string; lg: number[]; config: Record<string, unknown>; extra?: Record<string, unknown> }[] = [
  { name: 'Deliveries per day', type: 'line', lg: [0, 0, 6, 3], config: { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxisOperation: 'count', legend: 'Deliveries' }, extra: { timeInterval: 'day', includeZeros: true } },
  { name: 'By city', type: 'bar', lg: [6, 0, 6, 3], config: { xAxis: 'root[].city', yAxisOperation: 'count', legend: 'Deliveries' }, extra: { dataLabels: true } },
  { name: 'By country', type: 'pie', lg: [0, 3, 3, 3], config: { xAxis: 'root[].country', yAxisOperation: 'count', legend: 'Country' } },
  { name: 'Late or not', type: 'doughnut', lg: [3, 3, 3, 3], config: { xAxis: 'root[].late', yAxisOperation: 'count', legend: 'Late' } },
  { name: 'Weight by city', type: 'radar', lg: [6, 3, 3, 3], config: { xAxis: 'root[].city', yAxis: 'root[].weight', yAxisOperation: 'avg', legend: 'Weight' } },
  { name: 'Weight by country', type: 'polar', lg: [9, 3, 3, 3], config: { xAxis: 'root[].country', yAxis: 'root[].weight', yAxisOperation: 'sum', legend: 'Weight' } },
  { name: 'Deliveries', type: 'kpi', lg: [0, 6, 3, 2], config: { xAxis: 'root[].id', yAxisOperation: 'count', legend: 'Deliveries', goal: 20000 } },
  { name: 'Average weight', type: 'avg', lg: [3, 6, 3, 2], config: { yAxis: 'root[].weight', legend: 'Average weight' } },
  { name: 'Total weight', type: 'gauge', lg: [6, 6, 6, 3], config: { yAxis: 'root[].weight', yAxisOperation: 'sum', legend: 'Weight' }, extra: { ranges: [{ min: 0, max: 200000, label: 'low' }, { min: 200000, max: 400000, label: 'high' }] } },
  { name: 'Latest deliveries', type: 'table', lg: [0, 8, 12, 4], config: { legend: 'Deliveries', maxRecords: 50 } },
];

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
const round = (n: number) => Math.round(n * 10) / 10;
const summary = (ms: number[]) => ({ medianMs: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)), runs: ms.length });

/** RSS (MiB) summed over the processes below `root` (Chromium's browser, renderer, GPU and utility processes). */
function treeRss(root: number): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * 4096);
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return round(total / 1048576);
}

async function seed(): Promise<string> {
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE}`);
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${DATABASE}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  await db.query(`create table deliveries (id int primary key, city text, country text, late boolean, weight numeric(8,2), created_at timestamptz);
    insert into deliveries select i, (array['Lyon','Paris','Berlin','Köln','Madrid','Porto'])[1 + i % 6], (array['FR','FR','DE','DE','ES','PT'])[1 + i % 6],
      i % 7 = 0, (i % 50) + 0.5, timestamptz '2026-10-01' + ((i * 37) % (60 * 24) || ' minutes')::interval * 60 from generate_series(1, 10000) i`);
  await db.end();
  return url.toString();
}

async function main(): Promise<void> {
  ensureBuilt();
  const sourceUrl = await seed();
  const bench = await startBenchService({ PLOTLINE_SHARE_RATE_LIMIT: '100000' });
  try {
    const { call, teamId, container } = bench;
    const connectionId = await bench.connect(sourceUrl, DATABASE);
    const project = await call('POST', '/project', { name: 'Deliveries', team_id: teamId, timezone: 'UTC' });
    const projectId = project['id'] as number;
    const dataset = await call('POST', `/team/${teamId}/datasets/quick-create`, { name: 'deliveries', project_ids: [projectId], dataRequests: [{ connection_id: connectionId, query: 'select * from deliveries order by id desc' }] });
    for (const chart of CHARTS) {
      const created = await call('POST', `/project/${projectId}/chart/quick-create`, { name: chart.name, type: chart.type, layout: { lg: chart.lg }, ...chart.extra, chartDatasetConfigs: [{ dataset_id: dataset['id'], ...chart.config }] });
      await call('POST', `/project/${projectId}/chart/${created['id'] as number}/query`);
    }
    await call('POST', `/project/${projectId}/share/policy`);
    const share = await call('POST', `/project/${projectId}/share/token`, {});
    const reportUrl = new URL(share['url'] as string);
    const pageUrl = `${bench.base}${reportUrl.pathname}${reportUrl.search}`;
    const scope = { teamId, projectId };

    // Chromium: the same dashboard's report page, full-page screenshot at the same width.
    const waitReady = async (page: import('playwright-core').Page) => {
      // Selectors, not a predicate: a predicate string is evaluated, which the page's CSP refuses when it polls.
      await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
      await page.waitForSelector('[data-rendered="pending"]', { state: 'detached', timeout: 60_000 });
    };
    let chromiumPeak = 0;
    const watch = () => {
      const timer = setInterval(() => {
        chromiumPeak = Math.max(chromiumPeak, treeRss(process.pid));
      }, 20);
      return () => clearInterval(timer);
    };

    // Warm: what a browser-based renderer costs per picture once its browser and page are open:
    // navigate to the report, wait for every chart, full-page screenshot. The server's PNG and PDF
    // go through SnapshotsService.dashboardPicture from the same saved chartData, as a delivery
    // does.
    const server = (format: 'png' | 'pdf') => container.snapshots.dashboardPicture(scope, { format, width: WIDTH });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 720 } });
    const chromiumPicture = async () => {
      await page.goto(pageUrl);
      await waitReady(page);
      return page.screenshot({ fullPage: true, type: 'png' });
    };
    // One of each first: the drawing code loaded, Chromium's cache filled.
    await server('png');
    await server('pdf');
    await chromiumPicture();
    const base = process.memoryUsage.rss();
    // This process's peak while it draws, and only then: Playwright lives here too, and the
    // screenshots it receives are Chromium's memory, not the server's.
    let peakRss = 0;
    // Memory the drawing takes: each block's peak above the RSS it starts from (the second block
    // starts after Chromium's turn, whose screenshots Playwright received in this process).
    let extraRss = 0;
    const pngMs: number[] = [];
    const pdfMs: number[] = [];
    const warmMs: number[] = [];
    let pngBytes = 0;
    let pdfBytes = 0;
    let pdfPages = 0;
    let screenshotBytes = 0;
    // In blocks, taking turns: the server's pictures, then Chromium's, twice. Chromium goes on
    // working for a while after a screenshot (its compositor, its garbage collector); a picture
    // drawn right after one would pay for that on a two-core machine, which a server without a
    // browser never does. Two turns each still spread a change in the machine's load over both.
    for (let block = 0; block < 2; block += 1) {
      const runs = block === 0 ? Math.ceil(RUNS / 2) : Math.floor(RUNS / 2);
      const blockBase = process.memoryUsage.rss() / 1048576;
      const peak = new PeakRss(5);
      for (let i = 0; i < runs; i += 1) {
        let started = performance.now();
        const png = await server('png');
        pngMs.push(performance.now() - started);
        pngBytes = png.body.length;
        started = performance.now();
        const pdf = await server('pdf');
        pdfMs.push(performance.now() - started);
        pdfBytes = pdf.body.length;
        pdfPages = pdf.pages;
      }
      const blockPeak = peak.stop();
      peakRss = Math.max(peakRss, blockPeak);
      extraRss = Math.max(extraRss, blockPeak - (block === 0 ? base / 1048576 : blockBase));
      // Chromium's memory is read from /proc every 20 ms while it works, and only then: the
      // reads take the event loop for milliseconds, which would land on the server's pictures.
      const stopWarm = watch();
      for (let i = 0; i < runs; i += 1) {
        const started = performance.now();
        screenshotBytes = (await chromiumPicture()).length;
        warmMs.push(performance.now() - started);
      }
      stopWarm();
    }
    const warmPeak = chromiumPeak;
    await browser.close();

    // Cold: launch, open the report, wait for every chart, full-page screenshot, close.
    chromiumPeak = 0;
    const coldMs: number[] = [];
    const stopCold = watch();
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      const coldBrowser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const coldPage = await coldBrowser.newPage({ viewport: { width: WIDTH, height: 720 } });
      await coldPage.goto(pageUrl);
      await waitReady(coldPage);
      await coldPage.screenshot({ fullPage: true, type: 'png' });
      await coldBrowser.close();
      coldMs.push(performance.now() - started);
    }
    stopCold();

    const extraRssMiB = round(extraRss);
    const png = { ...summary(pngMs), bytes: pngBytes };
    const pdf = { ...summary(pdfMs), bytes: pdfBytes, pages: pdfPages };
    const warm = { ...summary(warmMs), chromiumTreePeakRssMiB: warmPeak, bytes: screenshotBytes };
    const cold = { ...summary(coldMs), chromiumTreePeakRssMiB: chromiumPeak };
    const ratio = (slow: { medianMs: number; p95Ms: number }, fast: { medianMs: number; p95Ms: number }) => ({ median: round(slow.medianMs / fast.medianMs), p95: round(slow.p95Ms / fast.p95Ms) });
    console.log(
      JSON.stringify(
        {
          runs: RUNS,
          width: WIDTH,
          charts: CHARTS.length,
          node: process.version,
          server: { png, pdf, peakRssMiB: peakRss, extraRssMiB },
          chromium: { warm, cold },
          ratios: {
            pngVsChromiumWarm: ratio(warm, png),
            pdfVsChromiumWarm: ratio(warm, pdf),
            pngVsChromiumCold: ratio(cold, png),
            pdfVsChromiumCold: ratio(cold, pdf),
          },
          // Two bars: Chromium launched per picture, as Chartbrew's snapshots do (and Superset's
          // workers per task), and a page kept open between pictures, which no peer does.
          goal: {
            atLeast10xFasterPngThanChromiumPerPicture: cold.medianMs / png.medianMs >= 10,
            atLeast10xFasterPdfThanChromiumPerPicture: cold.medianMs / pdf.medianMs >= 10,
            atLeast10xFasterPngThanOpenPage: warm.medianMs / png.medianMs >= 10,
            atLeast10xFasterPdfThanOpenPage: warm.medianMs / pdf.medianMs >= 10,
            under100MiBExtra: extraRssMiB < 100,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await bench.close();
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`drop database if exists ${DATABASE}`);
    await admin.end();
  }
}

await main();
