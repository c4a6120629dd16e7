import { Chart, type ChartConfiguration, Tooltip } from 'chart.js';
import { applyTickDensity, CHARTJS_PARTS, CHARTJS_TYPE, dashLastSegment, dataLabelsPlugin, gaugeParts, themeOptions, type ChartOptions, type GaugeRange } from '../../../../src/render/chart-look.js';
import { h } from '../dom.js';
import { cssVar } from '../theme.js';
import type { AxisChartData, PublicChart } from '../types.js';

// Only what the report draws is registered, so the bundle carries nothing else of Chart.js.
Chart.register(...CHARTJS_PARTS, Tooltip);


/** The engine's options in the page's theme (its CSS variables), drawn as the server's pictures are (chart-look). */
function themed(options: ChartOptions): ChartOptions {
  const out = themeOptions(options, { muted: cssVar('--muted', '#5b6472'), grid: cssVar('--grid', 'rgba(0,0,0,0.08)'), card: cssVar('--card', '#ffffff') });
  out['responsive'] = true;
  return out;
}

/** Values on the points or bars, in the page's text colour (read when drawn: the theme may change). */
const dataLabels = dataLabelsPlugin(() => cssVar('--fg', '#1d2433'), '11px system-ui, sans-serif');

export function renderChartJs(body: HTMLElement, chart: PublicChart, data: AxisChartData): Chart {
  const type = CHARTJS_TYPE[chart.type ?? 'line'] ?? 'line';
  const options = themed(data.options ?? {});
  applyTickDensity(options, chart.xLabelTicks);
  const datasets = data.data.datasets.map((dataset) => ({ ...dataset }));
  if (type === 'line' && chart.dashedLastPoint) dashLastSegment(datasets);
  const canvas = h('canvas', { role: 'img', 'aria-label': chart.name ?? 'Chart' });
  body.append(canvas);
  const config: ChartConfiguration = {
    type,
    data: { labels: data.data.labels ?? [], datasets },
    options,
    plugins: chart.dataLabels && (type === 'line' || type === 'bar') ? [dataLabels] : [],
  };
  return new Chart(canvas, config);
}

/** A half doughnut: the value's share of the range, coloured by the range it falls in. */
export function renderGauge(body: HTMLElement, chart: PublicChart, data: AxisChartData): Chart {
  const ranges = Array.isArray(data.ranges) ? data.ranges : Array.isArray(chart.ranges) ? (chart.ranges as GaugeRange[]) : [];
  const { value: numeric, filled, rest, colour, rangeLabel: band } = gaugeParts(data.values?.[0]?.value ?? data.data.datasets[0]?.data[0] ?? 0, ranges, {
    minValue: chart.minValue,
    maxValue: chart.maxValue,
    colour: chart.ChartDatasetConfigs[0]?.datasetColor,
  });
  const wrap = h('div', { class: 'gauge' });
  const canvas = h('canvas', { role: 'img', 'aria-label': `${chart.name ?? 'Gauge'}: ${data.values?.[0]?.formatted ?? numeric}` });
  const label = h('div', { class: 'gauge-value', 'data-gauge-value': String(numeric) }, data.values?.[0]?.formatted ?? String(numeric));
  const rangeLabel = band ? h('div', { class: 'gauge-range' }, band) : null;
  wrap.append(canvas, label);
  if (rangeLabel) wrap.append(rangeLabel);
  body.append(wrap);
  return new Chart(canvas, {
    type: 'doughnut',
    data: { labels: ['value', 'rest'], datasets: [{ data: [filled, rest], backgroundColor: [colour, cssVar('--grid', 'rgba(0,0,0,0.08)')], borderWidth: 0 }] },
    options: { responsive: true, maintainAspectRatio: false, animation: false, rotation: -90, circumference: 180, cutout: '70%', plugins: { legend: { display: false }, tooltip: { enabled: false } } },
  });
}
