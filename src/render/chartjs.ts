import type { Canvas, SKRSContext2D, SvgCanvas } from '@napi-rs/canvas';
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
  type ChartConfiguration,
  type ChartItem,
  type ChartType,
  type Plugin,
} from 'chart.js';
import { FONT_FAMILY, font } from './fonts.js';
import type { Colours } from './theme.js';
import type { ChartView } from './types.js';

/*
 * Chart.js as the report page uses it (web/src/lib/charts/chartjs.ts): the same controllers, the
 * same theming of the engine's `options`, the same x-label density, dashed last segment and data
 * labels. Drawn on a Skia canvas (@napi-rs/canvas): Chart.js needs no DOM, only a 2D context.
 */

let ready = false;
function setup(): void {
  if (ready) return;
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
    Legend,
    Filler,
  );
  Chart.defaults.font.family = FONT_FAMILY;
  ready = true;
}

const TYPE: Record<string, ChartType> = { line: 'line', bar: 'bar', pie: 'pie', doughnut: 'doughnut', radar: 'radar', polar: 'polarArea' };
export const CHARTJS_TYPES = new Set(Object.keys(TYPE));

// The engine's Chart.js options are free JSON, themed in place as the report page does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Options = Record<string, any>;

/** Where the chart may draw inside the canvas (the card's body). */
export interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface AxisData {
  data: { labels?: string[]; datasets: { label?: string; data: unknown[]; [key: string]: unknown }[] };
  options?: Options;
  values?: { label: string; value: number | null; formatted: string }[];
  ranges?: { min: number; max: number; label?: string }[];
}

function themed(options: Options, colours: Colours): Options {
  const out: Options = structuredClone(options);
  out['responsive'] = false;
  out['maintainAspectRatio'] = false;
  out['animation'] = false;
  out['color'] = colours.muted;
  const plugins = (out['plugins'] ??= {});
  plugins.tooltip = { enabled: false };
  plugins.legend = { ...(plugins.legend ?? {}), labels: { ...(plugins.legend?.labels ?? {}), color: colours.muted } };
  for (const [axis, scale] of Object.entries((out['scales'] ?? {}) as Record<string, Options>)) {
    scale['ticks'] = { ...(scale['ticks'] ?? {}), color: colours.muted, backdropColor: 'transparent' };
    scale['grid'] = { ...(scale['grid'] ?? {}), color: colours.grid };
    if (axis === 'r') {
      scale['angleLines'] = { ...(scale['angleLines'] ?? {}), color: colours.grid };
      scale['pointLabels'] = { ...(scale['pointLabels'] ?? {}), color: colours.muted };
      // The radial values above the areas (z 1), on the card's colour: drawn beneath, a polar
      // area or a filled radar hides half of each ("20" cut to "2", "15" to "1").
      scale['ticks'] = { ...scale['ticks'], z: 1, showLabelBackdrop: true, backdropColor: colours.card };
    }
  }
  return out;
}

function applyTickDensity(options: Options, view: ChartView): void {
  const x = options['scales']?.['x'];
  if (!x || !view.xLabelTicks || view.xLabelTicks === 'default') return;
  if (view.xLabelTicks === 'showAll') {
    x.ticks = { ...(x.ticks ?? {}), autoSkip: false };
    return;
  }
  const every = ({ half: 2, third: 3, fourth: 4 } as Record<string, number>)[view.xLabelTicks] ?? 1;
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
 * Values written on points and bars. Above each point or bar, as the page always did; in a stacked
 * bar chart, in the middle of each segment (above it, a segment's value would sit on the next
 * one), and only when it fits the segment: a value taller or wider than its segment is left out.
 */
function dataLabels(colours: Colours, font11: string): Plugin {
  return {
    id: 'plotlineDataLabels',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      const stacked = (chart.config as { type?: string }).type === 'bar' && Object.values(chart.scales).some((scale) => Boolean((scale.options as { stacked?: unknown }).stacked));
      ctx.save();
      ctx.font = font11;
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
            ctx.fillStyle = labelColourOn((element.options as { backgroundColor?: unknown }).backgroundColor, colours.fg);
            ctx.textBaseline = 'middle';
            ctx.fillText(text, bar.horizontal ? (bar.x + bar.base) / 2 : bar.x, bar.horizontal ? bar.y : (bar.y + bar.base) / 2);
            return;
          }
          const { x, y } = element.tooltipPosition(true);
          ctx.fillStyle = colours.fg;
          ctx.textBaseline = 'alphabetic';
          if (typeof x === 'number' && typeof y === 'number') ctx.fillText(text, x, y - 6);
        });
      });
      ctx.restore();
    },
  };
}

/** Paints what lies under the chart (the card) after Chart.js clears the canvas. */
function background(paint: (ctx: SKRSContext2D) => void, after?: (ctx: SKRSContext2D) => void): Plugin {
  return {
    id: 'plotlineCard',
    beforeDraw(chart) {
      paint(chart.ctx as unknown as SKRSContext2D);
    },
    afterDraw(chart) {
      after?.(chart.ctx as unknown as SKRSContext2D);
    },
  };
}

/** A line, bar, pie, doughnut, radar or polar chart in `box`; `paint` draws the card beneath it. */
export function drawAxisChart(canvas: Canvas | SvgCanvas, view: ChartView, data: AxisData, colours: Colours, box: Box, paint: (ctx: SKRSContext2D) => void): Chart {
  setup();
  const type = TYPE[view.type ?? 'line'] ?? 'line';
  const options = themed(data.options ?? {}, colours);
  options['layout'] = { padding: box };
  applyTickDensity(options, view);
  const datasets = data.data.datasets.map((dataset) => ({ ...dataset }));
  if (type === 'line' && view.dashedLastPoint) {
    for (const dataset of datasets) {
      const last = dataset.data.length - 1;
      Object.assign(dataset, { segment: { borderDash: (ctx: { p1DataIndex: number }) => (ctx.p1DataIndex === last ? [6, 6] : undefined) } });
    }
  }
  const plugins: Plugin[] = [background(paint)];
  if (view.dataLabels && (type === 'line' || type === 'bar')) plugins.push(dataLabels(colours, font(11)));
  const config = { type, data: { labels: data.data.labels ?? [], datasets }, options, plugins } as unknown as ChartConfiguration;
  return new Chart(canvas.getContext('2d') as unknown as ChartItem, config);
}

/** A half doughnut: the value's share of the range, coloured by the range it falls in, the value written under it. */
export function drawGauge(canvas: Canvas | SvgCanvas, view: ChartView, data: AxisData, colours: Colours, box: Box, paint: (ctx: SKRSContext2D) => void): Chart {
  setup();
  const first = data.values?.[0];
  const raw = first?.value ?? data.data.datasets[0]?.data[0] ?? 0;
  const value = typeof raw === 'number' ? raw : 0;
  const ranges = Array.isArray(data.ranges) ? data.ranges : Array.isArray(view.ranges) ? (view.ranges as { min: number; max: number; label?: string }[]) : [];
  const min = ranges[0]?.min ?? view.minValue ?? 0;
  const max = ranges.at(-1)?.max ?? view.maxValue ?? (value > 0 ? value : 1);
  const span = Math.max(max - min, Number.EPSILON);
  const filled = Math.min(Math.max(value - min, 0), span);
  const palette = ['#59A14F', '#EDC948', '#E15759', '#4E79A7', '#B07AA1'];
  const index = ranges.findIndex((range) => value >= range.min && value <= range.max);
  const colour = view.datasetColor ?? palette[index >= 0 ? index % palette.length : 3]!;
  const text = first?.formatted ?? String(value);
  const rangeLabel = index >= 0 ? ranges[index]?.label : undefined;
  const width = canvas.width;
  const height = canvas.height;
  const after = (ctx: SKRSContext2D) => {
    const bodyHeight = height - box.top - box.bottom;
    ctx.save();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = colours.fg;
    ctx.font = font(28, 700);
    const centre = box.left + (width - box.left - box.right) / 2;
    ctx.fillText(text, centre, height - box.bottom - bodyHeight * 0.12);
    if (rangeLabel) {
      ctx.fillStyle = colours.muted;
      ctx.font = font(14);
      ctx.fillText(rangeLabel, centre, height - box.bottom - bodyHeight * 0.02);
    }
    ctx.restore();
  };
  const config = {
    type: 'doughnut',
    data: { labels: ['value', 'rest'], datasets: [{ data: [filled, span - filled], backgroundColor: [colour, colours.grid], borderWidth: 0 }] },
    options: { responsive: false, animation: false, rotation: -90, circumference: 180, cutout: '70%', layout: { padding: box }, plugins: { legend: { display: false }, tooltip: { enabled: false } } },
    plugins: [background(paint, after)],
  } as unknown as ChartConfiguration;
  return new Chart(canvas.getContext('2d') as unknown as ChartItem, config);
}
