import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PieController,
  PointElement,
  PolarAreaController,
  RadarController,
  RadialLinearScale,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
  type Plugin,
} from 'chart.js';
import { h } from '../dom.js';
import { cssVar } from '../theme.js';
import type { AxisChartData, PublicChart } from '../types.js';

// Only what the report draws is registered, so the bundle carries nothing else of Chart.js.
Chart.register(
  LineController,
  BarController,
  PieController,
  DoughnutController,
  RadarController,
  PolarAreaController,
  LineElement,
  PointElement,
  BarElement,
  ArcElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  RadialLinearScale,
  Tooltip,
  Legend,
  Filler,
);

const TYPE: Record<string, ChartType> = { line: 'line', bar: 'bar', pie: 'pie', doughnut: 'doughnut', radar: 'radar', polar: 'polarArea' };

type Options = Record<string, any>;

function themed(options: Options): Options {
  const text = cssVar('--muted', '#5b6472');
  const grid = cssVar('--grid', 'rgba(0,0,0,0.08)');
  const out: Options = structuredClone(options);
  out['responsive'] = true;
  out['maintainAspectRatio'] = false;
  out['animation'] = false;
  const plugins = (out['plugins'] ??= {});
  plugins.legend = { ...(plugins.legend ?? {}), labels: { ...(plugins.legend?.labels ?? {}), color: text } };
  for (const [axis, scale] of Object.entries((out['scales'] ?? {}) as Record<string, Options>)) {
    scale['ticks'] = { ...(scale['ticks'] ?? {}), color: text, backdropColor: 'transparent' };
    scale['grid'] = { ...(scale['grid'] ?? {}), color: grid };
    if (axis === 'r') {
      scale['angleLines'] = { ...(scale['angleLines'] ?? {}), color: grid };
      scale['pointLabels'] = { ...(scale['pointLabels'] ?? {}), color: text };
      // The radial values above the areas, on the card's colour (beneath, the areas hide them).
      scale['ticks'] = { ...scale['ticks'], z: 1, showLabelBackdrop: true, backdropColor: cssVar('--card', '#ffffff') };
    }
  }
  return out;
}

/** Every n-th x label, for the chart's xLabelTicks setting. */
function applyTickDensity(options: Options, chart: PublicChart): void {
  const x = options['scales']?.['x'];
  if (!x || !chart.xLabelTicks || chart.xLabelTicks === 'default') return;
  if (chart.xLabelTicks === 'showAll') {
    x.ticks = { ...(x.ticks ?? {}), autoSkip: false };
    return;
  }
  const every = { half: 2, third: 3, fourth: 4 }[chart.xLabelTicks] ?? 1;
  x.ticks = {
    ...(x.ticks ?? {}),
    autoSkip: false,
    callback(this: { getLabelForValue(v: number): string }, value: number, index: number) {
      return index % every === 0 ? this.getLabelForValue(value) : '';
    },
  };
}

interface BarProps {
  x: number;
  y: number;
  base: number;
  width: number;
  height: number;
  horizontal: boolean;
}

/** Dark text on a light segment, white on a dark one (`#rrggbb` colours; others get `fallback`). */
function labelColourOn(background: unknown, fallback: string): string {
  const hex = typeof background === 'string' ? /^#([0-9a-f]{6})$/i.exec(background.trim())?.[1] : undefined;
  if (!hex) return fallback;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.55 ? '#ffffff' : '#1d2433';
}

/**
 * Values written on the points or bars (dataLabels), without another plugin package: above each
 * point or bar; in a stacked bar chart in the middle of each segment, and only when it fits there.
 * The server's pictures draw the same (src/render/chartjs.ts).
 */
const dataLabels: Plugin = {
  id: 'plotlineDataLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const fg = cssVar('--fg', '#1d2433');
    const stacked = (chart.config as { type?: string }).type === 'bar' && Object.values(chart.scales).some((scale) => Boolean((scale.options as { stacked?: unknown }).stacked));
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    chart.data.datasets.forEach((dataset, i) => {
      const meta = chart.getDatasetMeta(i);
      if (meta.hidden) return;
      meta.data.forEach((element, j) => {
        const value = dataset.data[j];
        if (typeof value !== 'number') return;
        const text = String(value);
        if (stacked) {
          const bar = element.getProps(['x', 'y', 'base', 'width', 'height', 'horizontal'], true) as unknown as BarProps;
          const along = Math.abs(bar.horizontal ? bar.x - bar.base : bar.y - bar.base);
          const across = bar.horizontal ? bar.height : bar.width;
          const textWidth = ctx.measureText(text).width;
          const [needAlong, needAcross] = bar.horizontal ? [textWidth + 4, 13] : [13, textWidth + 2];
          if (along < needAlong || across < needAcross) return;
          ctx.fillStyle = labelColourOn((element.options as { backgroundColor?: unknown }).backgroundColor, fg);
          ctx.textBaseline = 'middle';
          ctx.fillText(text, bar.horizontal ? (bar.x + bar.base) / 2 : bar.x, bar.horizontal ? bar.y : (bar.y + bar.base) / 2);
          return;
        }
        const { x, y } = element.tooltipPosition(true);
        ctx.fillStyle = fg;
        ctx.textBaseline = 'alphabetic';
        if (typeof x === 'number' && typeof y === 'number') ctx.fillText(text, x, y - 6);
      });
    });
    ctx.restore();
  },
};

export function renderChartJs(body: HTMLElement, chart: PublicChart, data: AxisChartData): Chart {
  const type = TYPE[chart.type ?? 'line'] ?? 'line';
  const options = themed(data.options ?? {});
  applyTickDensity(options, chart);
  const datasets = data.data.datasets.map((dataset) => ({ ...dataset }));
  if (type === 'line' && chart.dashedLastPoint) {
    // The last segment is still open (the current bucket): draw it dashed.
    for (const dataset of datasets) {
      const last = dataset.data.length - 1;
      Object.assign(dataset, { segment: { borderDash: (ctx: { p1DataIndex: number }) => (ctx.p1DataIndex === last ? [6, 6] : undefined) } });
    }
  }
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
  const value = data.values?.[0]?.value ?? data.data.datasets[0]?.data[0] ?? 0;
  const numeric = typeof value === 'number' ? value : 0;
  const ranges = Array.isArray(data.ranges) ? data.ranges : Array.isArray(chart.ranges) ? (chart.ranges as { min: number; max: number; label?: string }[]) : [];
  const min = ranges[0]?.min ?? chart.minValue ?? 0;
  const max = ranges.at(-1)?.max ?? chart.maxValue ?? (numeric > 0 ? numeric : 1);
  const span = Math.max(max - min, Number.EPSILON);
  const filled = Math.min(Math.max(numeric - min, 0), span);
  const palette = ['#59A14F', '#EDC948', '#E15759', '#4E79A7', '#B07AA1'];
  const index = ranges.findIndex((range) => numeric >= range.min && numeric <= range.max);
  const colour = chart.ChartDatasetConfigs[0]?.datasetColor ?? palette[index >= 0 ? index % palette.length : 3]!;
  const wrap = h('div', { class: 'gauge' });
  const canvas = h('canvas', { role: 'img', 'aria-label': `${chart.name ?? 'Gauge'}: ${data.values?.[0]?.formatted ?? numeric}` });
  const label = h('div', { class: 'gauge-value', 'data-gauge-value': String(numeric) }, data.values?.[0]?.formatted ?? String(numeric));
  const rangeLabel = index >= 0 && ranges[index]?.label ? h('div', { class: 'gauge-range' }, ranges[index]!.label!) : null;
  wrap.append(canvas, label);
  if (rangeLabel) wrap.append(rangeLabel);
  body.append(wrap);
  return new Chart(canvas, {
    type: 'doughnut',
    data: { labels: ['value', 'rest'], datasets: [{ data: [filled, span - filled], backgroundColor: [colour, cssVar('--grid', 'rgba(0,0,0,0.08)')], borderWidth: 0 }] },
    options: { responsive: true, maintainAspectRatio: false, animation: false, rotation: -90, circumference: 180, cutout: '70%', plugins: { legend: { display: false }, tooltip: { enabled: false } } },
  });
}
