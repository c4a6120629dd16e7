import type { Canvas, SKRSContext2D, SvgCanvas } from '@napi-rs/canvas';
import { Chart, type ChartConfiguration, type ChartItem, type Plugin } from 'chart.js';
import { applyTickDensity, CHARTJS_PARTS, CHARTJS_TYPE, dashLastSegment, dataLabelsPlugin, gaugeParts, themeOptions, type ChartOptions, type GaugeRange } from './chart-look.js';
import { FONT_FAMILY, font } from './fonts.js';
import type { Colours } from './theme.js';
import type { ChartView } from './types.js';

/*
 * Chart.js as the report page uses it (web/src/lib/charts/chartjs.ts): the same controllers, and
 * the same look (./chart-look.ts: theming of the engine's `options`, x-label density, dashed last
 * segment, data labels, gauge). Drawn on a Skia canvas (@napi-rs/canvas): Chart.js needs no DOM,
 * only a 2D context.
 */

let ready = false;
function setup(): void {
  if (ready) return;
  Chart.register(...CHARTJS_PARTS);
  Chart.defaults.font.family = FONT_FAMILY;
  ready = true;
}

export const CHARTJS_TYPES = new Set(Object.keys(CHARTJS_TYPE));

type Options = ChartOptions;

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
  const out = themeOptions(options, colours);
  out['responsive'] = false;
  out['color'] = colours.muted;
  out['plugins'].tooltip = { enabled: false };
  return out;
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
  const type = CHARTJS_TYPE[view.type ?? 'line'] ?? 'line';
  const options = themed(data.options ?? {}, colours);
  options['layout'] = { padding: box };
  applyTickDensity(options, view.xLabelTicks);
  const datasets = data.data.datasets.map((dataset) => ({ ...dataset }));
  if (type === 'line' && view.dashedLastPoint) dashLastSegment(datasets);
  const plugins: Plugin[] = [background(paint)];
  if (view.dataLabels && (type === 'line' || type === 'bar')) plugins.push(dataLabelsPlugin(() => colours.fg, font(11)));
  const config = { type, data: { labels: data.data.labels ?? [], datasets }, options, plugins } as unknown as ChartConfiguration;
  return new Chart(canvas.getContext('2d') as unknown as ChartItem, config);
}

/** A half doughnut: the value's share of the range, coloured by the range it falls in, the value written under it. */
export function drawGauge(canvas: Canvas | SvgCanvas, view: ChartView, data: AxisData, colours: Colours, box: Box, paint: (ctx: SKRSContext2D) => void): Chart {
  setup();
  const first = data.values?.[0];
  const ranges = Array.isArray(data.ranges) ? data.ranges : Array.isArray(view.ranges) ? (view.ranges as GaugeRange[]) : [];
  const { value, filled, rest, colour, rangeLabel } = gaugeParts(first?.value ?? data.data.datasets[0]?.data[0] ?? 0, ranges, {
    minValue: view.minValue,
    maxValue: view.maxValue,
    colour: view.datasetColor,
  });
  const text = first?.formatted ?? String(value);
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
    data: { labels: ['value', 'rest'], datasets: [{ data: [filled, rest], backgroundColor: [colour, colours.grid], borderWidth: 0 }] },
    options: { responsive: false, animation: false, rotation: -90, circumference: 180, cutout: '70%', layout: { padding: box }, plugins: { legend: { display: false }, tooltip: { enabled: false } } },
    plugins: [background(paint, after)],
  } as unknown as ChartConfiguration;
  return new Chart(canvas.getContext('2d') as unknown as ChartItem, config);
}
