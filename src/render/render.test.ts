import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { encodeOpaquePng } from './png.js';
import { chartPng, chartSvg, dashboardPdf, dashboardPng, screenHeight, type ChartView, type DashboardView } from './index.js';

/*
 * Pictures decoded and read back pixel by pixel: the chart's colours where the chart draws them,
 * the theme's background, the layout's size, the PDF's pages. `PLOTLINE_WRITE_EXAMPLES=1` also
 * saves the examples docs/deliveries.md shows (docs/images/deliveries-*.png).
 */

const BLUE = [0x4e, 0x79, 0xa7];
const ORANGE = [0xf2, 0x8e, 0x2b];
const axisOptions = { plugins: { legend: { display: false } }, indexAxis: 'x', scales: { x: { stacked: false, grid: { display: false } }, y: { type: 'linear', beginAtZero: true, stacked: false } } };
const updated = '2026-11-28T10:00:00Z';

const CHARTS: Record<string, ChartView> = {
  line: { name: 'Deliveries per day', type: 'line', showGrowth: true, chartDataUpdated: updated, layout: { lg: [0, 0, 6, 3] }, chartData: { data: { labels: ['Nov 1', 'Nov 2', 'Nov 3', 'Nov 4', 'Nov 5'], datasets: [{ label: 'Deliveries', data: [12, 19, 8, 15, 22], borderColor: '#4E79A7', backgroundColor: '#4E79A7', fill: false, pointRadius: 4 }] }, options: axisOptions, growth: [{ label: 'Deliveries', value: 22, previous: 15, percent: 46.67, status: 'positive' }] } },
  bar: { name: 'Deliveries by city', type: 'bar', dataLabels: true, chartDataUpdated: updated, layout: { lg: [6, 0, 6, 3] }, chartData: { data: { labels: ['Lyon', 'Paris', 'Köln', 'Berlin'], datasets: [{ label: 'On time', data: [30, 45, 12, 20], borderColor: '#4E79A7', backgroundColor: '#4E79A7' }, { label: 'Late', data: [5, 8, 2, 6], borderColor: '#F28E2B', backgroundColor: '#F28E2B' }] }, options: { ...axisOptions, plugins: { legend: { display: true } }, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } } } } },
  horizontal: { name: 'Horizontal', type: 'bar', horizontal: true, chartDataUpdated: null, layout: { lg: [0, 3, 3, 3] }, chartData: { data: { labels: ['A', 'B'], datasets: [{ label: 'V', data: [10, 4], backgroundColor: '#F28E2B' }] }, options: { indexAxis: 'y', scales: { x: { beginAtZero: true }, y: {} }, plugins: { legend: { display: false } } } } },
  pie: { name: 'Status', type: 'pie', chartDataUpdated: null, layout: { lg: [3, 3, 3, 3] }, chartData: { data: { labels: ['paid', 'pending', 'refunded'], datasets: [{ label: 'Status', data: [20, 10, 3], backgroundColor: ['#4E79A7', '#F28E2B', '#E15759'] }] }, options: { plugins: { legend: { display: true } } } } },
  doughnut: { name: 'Status', type: 'doughnut', chartDataUpdated: null, layout: { lg: [6, 3, 3, 3] }, chartData: { data: { labels: ['paid', 'pending'], datasets: [{ label: 'Status', data: [20, 10], backgroundColor: ['#4E79A7', '#F28E2B'] }] }, options: { plugins: { legend: { display: true } } } } },
  radar: { name: 'Radar', type: 'radar', chartDataUpdated: null, layout: { lg: [9, 3, 3, 3] }, chartData: { data: { labels: ['A', 'B', 'C', 'D', 'E'], datasets: [{ label: 'R', data: [3, 5, 2, 4, 5], borderColor: '#4E79A7', backgroundColor: '#4E79A7', fill: true }] }, options: { scales: { r: { beginAtZero: true } }, plugins: { legend: { display: false } } } } },
  polar: { name: 'Polar', type: 'polar', chartDataUpdated: null, layout: { lg: [0, 6, 3, 3] }, chartData: { data: { labels: ['DE', 'FR', 'US'], datasets: [{ label: 'Rev', data: [20, 8, 12], backgroundColor: ['#4E79A7', '#F28E2B', '#E15759'] }] }, options: { scales: { r: { beginAtZero: true } }, plugins: { legend: { display: true } } } } },
  kpi: { name: 'Orders', type: 'kpi', showGrowth: true, chartDataUpdated: null, layout: { lg: [3, 6, 3, 2] }, chartData: { data: { labels: ['Total'], datasets: [] }, values: [{ label: 'Orders', value: 1234, formatted: '1,234', goal: 2000, growth: { previous: 1000, percent: 23.4, status: 'positive' } }] } },
  avg: { name: 'Average order', type: 'avg', chartDataUpdated: null, layout: { lg: [6, 6, 3, 2] }, chartData: { data: { labels: ['Total'], datasets: [] }, values: [{ label: 'Average order', value: 11.83, formatted: '€11.83', goal: null, growth: null }] } },
  gauge: { name: 'Revenue gauge', type: 'gauge', chartDataUpdated: null, layout: { lg: [9, 6, 3, 3] }, chartData: { data: { labels: ['Total'], datasets: [{ data: [35.5] }] }, values: [{ label: 'Revenue', value: 35.5, formatted: '35.5', goal: null, growth: null }], ranges: [{ min: 0, max: 20, label: 'low' }, { min: 20, max: 50, label: 'ok' }] }, datasetColor: '#4E79A7' },
  markdown: { name: 'Notes', type: 'markdown', content: '## Notes\nRevenue is in **euros**.\n\n- one [link](http://example.com)\n- two', chartDataUpdated: null, chartData: null, layout: { lg: [0, 9, 3, 3] } },
  table: { name: 'Orders table', type: 'table', chartDataUpdated: null, layout: { lg: [3, 9, 5, 3] }, chartData: { Orders: { columns: [{ Header: 'id', accessor: 'id' }, { Header: 'customer.name', accessor: 'customer.name' }, { Header: 'amount', accessor: 'amount' }], data: Array.from({ length: 14 }, (_, i) => ({ id: i + 1, 'customer.name': ['Ann', 'Bo'][i % 2], amount: i * 3.5 })) } } },
  matrix: { name: 'Activity', type: 'matrix', chartDataUpdated: null, datasetColor: '#4E79A7', layout: { lg: [8, 9, 4, 3] }, chartData: { data: { datasets: [{ label: 'Orders', data: Array.from({ length: 90 }, (_, i) => ({ x: new Date(Date.UTC(2026, 6, 1 + i)).toISOString().slice(0, 10), v: i % 5 === 0 ? 8 : i % 3 })) }] } } },
};

function decode(body: Buffer): PNG {
  expect([...body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return PNG.sync.read(body);
}

function pixel(png: PNG, x: number, y: number): number[] {
  const i = (png.width * Math.round(y) + Math.round(x)) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

const near = (a: number[], b: number[], tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

/** Pixels of `colour` in the rectangle. */
function count(png: PNG, colour: number[], x0 = 0, y0 = 0, x1 = png.width, y1 = png.height): number {
  let n = 0;
  for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) if (near(pixel(png, x, y), colour)) n += 1;
  return n;
}

const luminance = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;

function example(name: string, body: Buffer): void {
  if (process.env['PLOTLINE_WRITE_EXAMPLES'] !== '1') return;
  const dir = path.resolve('docs/images');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), body);
}

describe('chart pictures', () => {
  it.each(Object.keys(CHARTS))('%s: a PNG of the asked size, the card in the theme, the chart drawn in it (light and dark)', async (key) => {
    const view = CHARTS[key]!;
    for (const theme of ['light', 'dark'] as const) {
      const picture = await chartPng(view, { theme, width: 480, height: 300 });
      expect(picture.contentType).toBe('image/png');
      const png = decode(picture.body);
      expect([png.width, png.height]).toEqual([480, 300]);
      // Inside the card, left of the body: the card colour of the theme.
      const card = pixel(png, 6, 150);
      expect(card).toEqual(theme === 'light' ? [255, 255, 255] : [0x17, 0x1e, 0x29]);
      if (theme === 'dark') expect(luminance(card)).toBeLessThan(60);
      // The body holds more than the card colour: something was drawn.
      const body = png.height * png.width - count(png, card, 0, 44, png.width, png.height) - 44 * png.width;
      expect(body, `${key} ${theme}: nothing drawn in the body`).toBeGreaterThan(400);
      if (key === 'bar' || key === 'line' || key === 'pie' || key === 'doughnut' || key === 'polar' || key === 'radar' || key === 'gauge' || key === 'matrix') {
        expect(count(png, BLUE), `${key} ${theme}: the first series colour`).toBeGreaterThan(150);
      }
      if (key === 'horizontal') expect(count(png, ORANGE)).toBeGreaterThan(1000);
      if (key === 'kpi') expect(count(png, theme === 'light' ? [0x2f, 0x6f, 0xed] : [0x6b, 0x9c, 0xff]), 'the goal bar in the accent colour').toBeGreaterThan(100);
    }
  });

  it('bar: each bar in its colour at its place, the stacked "Late" part above the "On time" one', async () => {
    const png = decode((await chartPng(CHARTS['bar']!, { theme: 'light', width: 600, height: 400 })).body);
    // Four bars: the columns where the first series colour reaches down to the axis.
    const axisY = png.height - 50;
    const columns: number[] = [];
    for (let x = 0; x < png.width; x += 1) if (near(pixel(png, x, axisY), BLUE)) columns.push(x);
    const groups = columns.reduce<number[][]>((out, x) => {
      const last = out.at(-1);
      if (last && x - last.at(-1)! <= 1) last.push(x);
      else out.push([x]);
      return out;
    }, []);
    expect(groups.length).toBe(4);
    // Paris (45 + 8) is the tallest: its blue goes highest, with orange right above it.
    const top = (group: number[]) => {
      const x = group[Math.floor(group.length / 2)]!;
      let y = axisY;
      while (y > 0 && near(pixel(png, x, y - 1), BLUE)) y -= 1;
      return { x, y };
    };
    const tops = groups.map(top);
    expect(tops[1]!.y).toBeLessThan(Math.min(tops[0]!.y, tops[2]!.y, tops[3]!.y));
    expect(near(pixel(png, tops[1]!.x, tops[1]!.y - 4), ORANGE)).toBe(true);
    example('deliveries-chart-bar.png', (await chartPng(CHARTS['bar']!, { theme: 'light', width: 600, height: 360 })).body);
    example('deliveries-chart-line-dark.png', (await chartPng(CHARTS['line']!, { theme: 'dark', width: 600, height: 360 })).body);
  });

  it('SVG: well-formed, of the asked size, with the title, labels and legend as text', () => {
    const picture = chartSvg(CHARTS['bar']!, { theme: 'light', width: 500, height: 320 });
    expect(picture.contentType).toBe('image/svg+xml');
    const svg = picture.body.toString('utf8');
    expect(svg).toMatch(/^<\?xml[^>]*\?><svg [^>]*width="500" height="320"/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // Skia writes one <text> per word.
    for (const text of ['Deliveries', 'city', 'Lyon', 'Paris', 'Köln', 'On', 'time', 'Late', '45']) expect(svg).toContain(`>${text}</text>`);
    expect(svg).not.toMatch(/x=""|, "/);
    // Balanced tags: every opened element is closed.
    const opened = [...svg.matchAll(/<([a-zA-Z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== '/' && !m[0].startsWith('<?')).length;
    const closed = [...svg.matchAll(/<\/([a-zA-Z]+)>/g)].length;
    expect(opened).toBe(closed);
    expect(svg).toContain('fill="#4E79A7"');
  });

  it('a split whose smaller series were left out says so on the card, as the report page does', () => {
    const view = { ...CHARTS['bar']!, chartData: { ...(CHARTS['bar']!.chartData as object), seriesTruncated: true, seriesLimit: 2, breakdowns: [{ datasetIndex: 0, label: 'Deliveries', series: 9, shown: 2 }] } };
    const svg = chartSvg(view, { theme: 'light', width: 600, height: 360 }).body.toString('utf8');
    for (const word of ['Showing', 'largest', '9', 'series']) expect(svg, word).toContain(`>${word}</text>`);
  });

  it('stacked bars: each value in its segment, a value its segment cannot hold left out (Köln\'s "2")', () => {
    const svg = chartSvg(CHARTS['bar']!, { theme: 'light', width: 600, height: 360 }).body.toString('utf8');
    for (const value of ['30', '45', '12', '20', '5', '8', '6']) expect(svg, value).toContain(`>${value}</text>`);
    expect(svg).not.toContain('>2</text>');
    // Written on the blue "On time" segments in white, on the orange "Late" ones in the dark text colour.
    expect(svg).toMatch(/fill="(white|#FFFFFF)"[^>]*>45<\/text>/i);
    expect(svg).toMatch(/fill="#1D2433"[^>]*>8<\/text>/i);
  });

  it('a null point (missingValues preserve) is a gap in the line, not a fall to 0, and gets no data label', async () => {
    const line = CHARTS['line']!;
    const withData = (data: Array<number | null>): ChartView => {
      const chartData = line.chartData as { data: { labels: string[]; datasets: object[] } };
      return { ...line, dataLabels: true, showGrowth: false, chartData: { ...chartData, data: { ...chartData.data, datasets: [{ ...chartData.data.datasets[0], data }] } } };
    };
    const blue = async (view: ChartView) => count(decode((await chartPng(view, { theme: 'light', width: 480, height: 300 })).body), BLUE);
    const gaps = await blue(withData([12, null, 8, null, 22]));
    const zeros = await blue(withData([12, 0, 8, 0, 22]));
    // The three points are drawn.
    expect(gaps).toBeGreaterThan(100);
    // Down to 0 and back up twice draws far more line than three lone points.
    expect(gaps).toBeLessThan(zeros / 2);
    const svg = chartSvg(withData([12, null, 8, null, 22]), { theme: 'light', width: 480, height: 300 }).body.toString('utf8');
    for (const value of ['12', '8', '22']) expect(svg, value).toContain(`>${value}</text>`);
    expect(svg).not.toMatch(/>(null|NaN|undefined)<\/text>/);
  });

  it('polar and radar: the radial values are drawn above the areas, on the card colour', () => {
    for (const key of ['polar', 'radar']) {
      const svg = chartSvg(CHARTS[key]!, { theme: 'light', width: 303, height: 294 }).body.toString('utf8');
      const lastArea = svg.lastIndexOf('fill="#4E79A7"');
      const top = key === 'polar' ? '>20</text>' : '>5</text>';
      expect(lastArea, key).toBeGreaterThan(0);
      expect(svg.indexOf(top), `${key}: ${top} after the areas`).toBeGreaterThan(lastArea);
    }
  });

  it('saved data whose refresh failed or is overdue: a band under the header says so, in the report page\'s words; the chart moves below it', async () => {
    const overdue = { ...CHARTS['bar']!, refreshOverdue: { since: updated, everySeconds: 3_600 } };
    const svg = chartSvg(overdue, { theme: 'light', width: 600, height: 360 }).body.toString('utf8');
    for (const word of ['Not', 'refreshed', 'since', 'Nov', '28,', '2026,', 'although', 'every', 'hour.']) expect(svg, word).toContain(`>${word}</text>`);
    const failed = chartSvg({ ...overdue, lastError: { code: 'SOURCE_UNREACHABLE', at: '2026-11-29T10:00:00Z' } }, { theme: 'light', width: 600, height: 360 }).body.toString('utf8');
    // One mark: the failure, with its code, and not the overdue words.
    for (const word of ['Refresh', 'failed', 'Showing']) expect(failed, word).toContain(`>${word}</text>`);
    expect(failed).not.toContain('>although</text>');
    // The bands' colours, and the chart's first bars start lower than on an unmarked card.
    const marked = decode((await chartPng(overdue, { theme: 'light', width: 600, height: 360 })).body);
    const plain = decode((await chartPng(CHARTS['bar']!, { theme: 'light', width: 600, height: 360 })).body);
    expect(count(marked, [0xff, 0xf4, 0xe0], 0, 30, 600, 70)).toBeGreaterThan(2000);
    expect(count(plain, [0xff, 0xf4, 0xe0], 0, 30, 600, 70)).toBe(0);
    const topOf = (png: PNG) => {
      for (let y = 0; y < png.height; y += 1) for (let x = 0; x < png.width; x += 1) if (near(pixel(png, x, y), BLUE)) return y;
      return -1;
    };
    expect(topOf(marked)).toBeGreaterThan(topOf(plain));
    const failedPng = decode((await chartPng({ ...overdue, lastError: { code: 'X', at: updated } }, { theme: 'light', width: 600, height: 360 })).body);
    expect(count(failedPng, [0xfd, 0xec, 0xec], 0, 30, 600, 70)).toBeGreaterThan(2000);
  });

  it('a chart without data and one that failed say so instead of an empty frame', async () => {
    const empty = decode((await chartPng({ name: 'Nothing yet', type: 'bar', chartData: null, chartDataUpdated: null }, { theme: 'light', width: 400, height: 240 })).body);
    const failed = decode((await chartPng({ name: 'Broken', type: 'line', chartData: null, chartDataUpdated: null, error: 'The source timed out' }, { theme: 'light', width: 400, height: 240 })).body);
    expect(count(empty, [0x5b, 0x64, 0x72], 0, 60, 400, 240)).toBeGreaterThan(20);
    expect(count(failed, [0xc6, 0x28, 0x28], 0, 60, 400, 240)).toBeGreaterThan(20);
  });

  it('a card drawn for a filter state names the filters that narrow it, and those that do not reach it', () => {
    const svg = (filters: { by: string[]; notBy: string[] }) => chartSvg({ ...CHARTS['bar']!, filters }, { theme: 'light', width: 600, height: 360 }).body.toString('utf8');
    const some = svg({ by: ['country'], notBy: ['Date'] });
    for (const word of ['Filtered', 'country', '·', 'Not', 'Date']) expect(some, word).toContain(`>${word}</text>`);
    expect(some).toContain('fill="#FFF4E0"');
    const all = svg({ by: ['country'], notBy: [] });
    expect(all).toContain('>Filtered</text>');
    expect(all).not.toContain('>Not</text>');
    expect(all).not.toContain('fill="#FFF4E0"');
  });

  it('a chart that computed to nothing says why, as the report page does, wrapped on a narrow card', () => {
    const chartData = { data: { labels: [], datasets: [{ label: 'Orders', data: [] }] }, empty: { reason: 'FIELD_MISSING', field: 'root[].region', datasetIndex: 0 } };
    const svg = chartSvg({ name: 'By region', type: 'bar', chartData, chartDataUpdated: null }, { theme: 'light', width: 260, height: 240 }).body.toString('utf8');
    // "No data: the field “region” is not in the dataset's rows." over two lines or more.
    for (const word of ['No', 'data:', 'field', '“region”', 'rows.']) expect(svg, word).toContain(`>${word}</text>`);
    const rows = new Set([...svg.matchAll(/<text[^>]*\by="([\d.]+)"[^>]*>(?:No|rows\.)<\/text>/g)].map((m) => m[1]));
    expect(rows.size).toBe(2);
    const two = { data: { labels: [], datasets: [] }, empty: { reason: 'NO_ROWS', datasetIndex: 0, legend: 'Refunds', datasets: [{ reason: 'NO_ROWS', legend: 'Refunds' }, { reason: 'FIELD_MISSING', field: 'region', legend: 'Orders' }] } };
    const both = chartSvg({ name: 'Two', type: 'line', chartData: two, chartDataUpdated: null }, { theme: 'light', width: 600, height: 300 }).body.toString('utf8');
    for (const word of ['Refunds:', 'Orders:', '“region”']) expect(both, word).toContain(`>${word}</text>`);
  });
});

describe('dashboard pictures', () => {
  const dashboard: DashboardView = {
    title: 'Deliveries',
    description: 'Daily deliveries across cities',
    charts: Object.values(CHARTS),
    dataUpdatedAt: updated,
    filters: ['Date: last 30 days', 'country is FR'],
    showBranding: true,
  };

  it('one PNG as wide as asked and as tall as the layout; cards where the layout puts them', async () => {
    const picture = await dashboardPng(dashboard, { theme: 'light', width: 1280 });
    const png = decode(picture.body);
    expect(png.width).toBe(1280);
    // 12 grid rows (0..11) of 90 px with 12 px between, under the header, above the branding.
    const grid = 12 * 90 + 11 * 12;
    expect(png.height).toBeGreaterThan(grid + 100);
    expect(png.height).toBeLessThan(grid + 400);
    expect(picture.height).toBe(png.height);
    // The line chart (x 0-5) is on the left half, the bar chart (x 6-11) on the right half: blue on both sides of the first row.
    const firstRow = [png.height - grid - 40, png.height - grid - 40 + 3 * 90];
    expect(count(png, ORANGE, 640, firstRow[0], 1280, firstRow[1])).toBeGreaterThan(200);
    expect(count(png, ORANGE, 0, firstRow[0], 640, firstRow[1])).toBe(0);
    example('deliveries-dashboard.png', picture.body);
    const dark = decode((await dashboardPng(dashboard, { theme: 'dark', width: 1000 })).body);
    expect(dark.width).toBe(1000);
    expect(luminance(pixel(dark, 3, 3))).toBeLessThan(40);
    example('deliveries-dashboard-dark.png', (await dashboardPng(dashboard, { theme: 'dark', width: 1280 })).body);
  });

  it('a wider viewport keeps the layout: same rows, wider cards', async () => {
    const narrow = decode((await dashboardPng(dashboard, { theme: 'light', width: 900 })).body);
    const wide = decode((await dashboardPng(dashboard, { theme: 'light', width: 1600 })).body);
    expect([narrow.width, wide.width]).toEqual([900, 1600]);
    expect(Math.abs(narrow.height - wide.height)).toBeLessThan(60);
  });

  it('PDF: parses; one page per screen of the layout (16:9 pages), or one long page', async () => {
    const screens = await dashboardPdf(dashboard, { theme: 'light', width: 1280, pages: 'screens' });
    expect(screens.contentType).toBe('application/pdf');
    const doc = await PDFDocument.load(screens.body);
    expect(doc.getPageCount()).toBe(screens.pages);
    const total = decode((await dashboardPng(dashboard, { theme: 'light', width: 1280 })).body).height;
    expect(screens.pages).toBeGreaterThanOrEqual(Math.ceil(total / screenHeight(1280)));
    expect(screens.pages).toBeLessThanOrEqual(Math.ceil(total / screenHeight(1280)) + 2);
    for (const page of doc.getPages()) expect(Math.round(page.getWidth())).toBe(960);
    expect(doc.getTitle()).toBe('Deliveries');

    const single = await dashboardPdf(dashboard, { theme: 'light', width: 1280, pages: 'single' });
    const one = await PDFDocument.load(single.body);
    expect(one.getPageCount()).toBe(1);
    expect(Math.round(one.getPage(0).getHeight())).toBe(Math.round(total * 0.75));
  });

  it('the PNG encoder gives the same pixels as Skia\'s', async () => {
    const canvas = createCanvas(320, 200);
    const ctx = canvas.getContext('2d', { alpha: false });
    ctx.fillStyle = '#f5f6f8';
    ctx.fillRect(0, 0, 320, 200);
    ctx.fillStyle = 'rgba(78, 121, 167, 0.5)';
    ctx.beginPath();
    ctx.arc(160, 100, 80, 0, 6);
    ctx.fill();
    ctx.fillStyle = '#E15759';
    ctx.fillRect(10, 10, 40, 3);
    const ours = decode(await encodeOpaquePng(canvas));
    const skia = decode(await canvas.encode('png'));
    expect([ours.width, ours.height]).toEqual([320, 200]);
    expect(Buffer.compare(ours.data, skia.data)).toBe(0);
    expect(pixel(ours, 20, 11)).toEqual([0xe1, 0x57, 0x59]);
  });

  it('an empty dashboard is a picture that says so', async () => {
    const png = decode((await dashboardPng({ ...dashboard, charts: [] }, { theme: 'light', width: 800 })).body);
    expect(png.width).toBe(800);
    expect(png.height).toBeLessThan(400);
  });
});
