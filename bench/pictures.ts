/**
 * Pictures of a 10-chart dashboard drawn on the server (src/render: Chart.js on Skia), against a
 * headless Chromium screenshot of the same dashboard's report page, side by side in one run.
 *
 *   npm run bench:pictures            (PLOTLINE_BENCH_RUNS=10, PLOTLINE_BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres)
 *
 * Measures, each N times: the dashboard as PNG and as PDF (SnapshotsService.dashboardPicture, saved
 * chartData, as a delivery would); Chromium cold (launch, open the report, wait for every chart,
 * full-page screenshot, close) and warm (one open page: reload, wait, screenshot). Time as median
 * and p95; memory as this process's peak RSS above its baseline while drawing, and the summed RSS
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

    // Server-side pictures: one warm-up each, then N timed.
    const measure = async (format: 'png' | 'pdf') => {
      await container.snapshots.dashboardPicture(scope, { format, width: WIDTH });
      const base = process.memoryUsage.rss();
      const peak = new PeakRss(5);
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const started = performance.now();
        const picture = await container.snapshots.dashboardPicture(scope, { format, width: WIDTH });
        ms.push(performance.now() - started);
        bytes = picture.body.length;
      }
      return { ...summary(ms), bytes, peakRssMiB: peak.stop(), extraRssMiB: round(peak.stop() - base / 1048576) };
    };
    const png = await measure('png');
    const pdf = await measure('pdf');

    // Chromium: the same dashboard's report page, full-page screenshot at the same width.
    const waitReady = async (page: import('playwright-core').Page) => {
      // A string: this file is type-checked without the DOM library.
      await page.waitForFunction(`document.body.dataset.state === 'ready' && document.querySelectorAll('[data-rendered="pending"]').length === 0`, undefined, { timeout: 60_000 });
    };
    let chromiumPeak = 0;
    const watch = () => {
      const timer = setInterval(() => {
        chromiumPeak = Math.max(chromiumPeak, treeRss(process.pid));
      }, 20);
      return () => clearInterval(timer);
    };
    const coldMs: number[] = [];
    const stopCold = watch();
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const page = await browser.newPage({ viewport: { width: WIDTH, height: 720 } });
      await page.goto(pageUrl);
      await waitReady(page);
      await page.screenshot({ fullPage: true, type: 'png' });
      await browser.close();
      coldMs.push(performance.now() - started);
    }
    stopCold();
    const coldPeak = chromiumPeak;
    chromiumPeak = 0;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 720 } });
    await page.goto(pageUrl);
    await waitReady(page);
    const warmMs: number[] = [];
    const stopWarm = watch();
    let screenshotBytes = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      await page.reload();
      await waitReady(page);
      screenshotBytes = (await page.screenshot({ fullPage: true, type: 'png' })).length;
      warmMs.push(performance.now() - started);
    }
    stopWarm();
    await browser.close();

    const cold = { ...summary(coldMs), chromiumTreePeakRssMiB: coldPeak };
    const warm = { ...summary(warmMs), chromiumTreePeakRssMiB: chromiumPeak, bytes: screenshotBytes };
    console.log(
      JSON.stringify(
        {
          runs: RUNS,
          width: WIDTH,
          charts: CHARTS.length,
          node: process.version,
          server: { png, pdf },
          chromium: { cold, warm },
          ratios: {
            pngVsChromiumWarm: round(warm.medianMs / png.medianMs),
            pngVsChromiumCold: round(cold.medianMs / png.medianMs),
            pdfVsChromiumWarm: round(warm.medianMs / pdf.medianMs),
          },
          goal: { atLeast10xFaster: warm.medianMs / png.medianMs >= 10, under100MiBExtra: Math.max(png.extraRssMiB, pdf.extraRssMiB) < 100 },
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
