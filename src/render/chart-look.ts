import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
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
  type ChartType,
  type Plugin,
} from 'chart.js';

/*
 * How Plotline's Chart.js charts look, in one place for the two that draw them: the report and
 * embed pages in a browser (web/src/lib/charts/chartjs.ts) and the server's pictures on Skia
 * (src/render/chartjs.ts). The chart types, the theming of the engine's options, the x-label
 * density, the dashed last segment, the data labels and the gauge's parts. It knows neither the
 * DOM nor Node: both sides import it, each bringing its colours and font.
 */

/**
 * The parts of Chart.js these charts use, for `Chart.register`: only these, so that the page's
 * bundle carries nothing else of Chart.js (the page adds its tooltips).
 */
export const CHARTJS_PARTS = [
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
];

/** The engine's chart types Chart.js draws, by their Chart.js names. */
export const CHARTJS_TYPE: Readonly<Record<string, ChartType>> = { line: 'line', bar: 'bar', pie: 'pie', doughnut: 'doughnut', radar: 'radar', polar: 'polarArea' };

// The engine's Chart.js options are free JSON, themed in place.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChartOptions = Record<string, any>;

export interface LookColours {
  /** Text: legends, ticks, point labels. */
  muted: string;
  /** Grid lines and the gauge's empty part. */
  grid: string;
  /** The card beneath the chart (the radial values sit on it). */
  card: string;
}

/** The engine's options in the theme's colours, without animation, sized by the caller. */
export function themeOptions(options: ChartOptions, colours: LookColours): ChartOptions {
  const out: ChartOptions = structuredClone(options);
  out['maintainAspectRatio'] = false;
  out['animation'] = false;
  const plugins = (out['plugins'] ??= {});
  plugins.legend = { ...(plugins.legend ?? {}), labels: { ...(plugins.legend?.labels ?? {}), color: colours.muted } };
  for (const [axis, scale] of Object.entries((out['scales'] ?? {}) as Record<string, ChartOptions>)) {
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

/** Every n-th x label, for the chart's `xLabelTicks` setting (`default`, `showAll`, `half`, `third`, `fourth`). */
export function applyTickDensity(options: ChartOptions, xLabelTicks: string | null | undefined): void {
  const x = options['scales']?.['x'];
  if (!x || !xLabelTicks || xLabelTicks === 'default') return;
  if (xLabelTicks === 'showAll') {
    x.ticks = { ...(x.ticks ?? {}), autoSkip: false };
    return;
  }
  const every = ({ half: 2, third: 3, fourth: 4 } as Record<string, number>)[xLabelTicks] ?? 1;
  x.ticks = {
    ...(x.ticks ?? {}),
    autoSkip: false,
    callback(this: { getLabelForValue(v: number): string }, value: number, index: number) {
      return index % every === 0 ? this.getLabelForValue(value) : '';
    },
  };
}

/** The last segment of each line dashed: it is still open (the current bucket). */
export function dashLastSegment<D extends { data: unknown[] }>(datasets: D[]): void {
  for (const dataset of datasets) {
    const last = dataset.data.length - 1;
    Object.assign(dataset, { segment: { borderDash: (ctx: { p1DataIndex: number }) => (ctx.p1DataIndex === last ? [6, 6] : undefined) } });
  }
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
export function labelColourOn(background: unknown, fallback: string): string {
  const hex = typeof background === 'string' ? /^#([0-9a-f]{6})$/i.exec(background.trim())?.[1] : undefined;
  if (!hex) return fallback;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.55 ? '#ffffff' : '#1d2433';
}

/**
 * Values written on points and bars (the chart's `dataLabels`), without another plugin package:
 * above each point or bar; in a stacked bar chart in the middle of each segment (above it, a
 * segment's value would sit on the next one), and only when it fits the segment. `fg` is read when
 * the chart draws (the page's theme may change).
 */
export function dataLabelsPlugin(fg: () => string, font: string): Plugin {
  return {
    id: 'plotlineDataLabels',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      const text = fg();
      const stacked = (chart.config as { type?: string }).type === 'bar' && Object.values(chart.scales).some((scale) => Boolean((scale.options as { stacked?: unknown }).stacked));
      ctx.save();
      ctx.font = font;
      ctx.textAlign = 'center';
      chart.data.datasets.forEach((dataset, i) => {
        const meta = chart.getDatasetMeta(i);
        if (meta.hidden) return;
        meta.data.forEach((element, j) => {
          const value = dataset.data[j];
          if (typeof value !== 'number') return;
          const label = String(value);
          if (stacked) {
            const bar = element.getProps(['x', 'y', 'base', 'width', 'height', 'horizontal'], true) as unknown as BarProps;
            const along = Math.abs(bar.horizontal ? bar.x - bar.base : bar.y - bar.base);
            const across = bar.horizontal ? bar.height : bar.width;
            const width = ctx.measureText(label).width;
            const [needAlong, needAcross] = bar.horizontal ? [width + 4, 13] : [13, width + 2];
            if (along < needAlong || across < needAcross) return;
            ctx.fillStyle = labelColourOn((element.options as { backgroundColor?: unknown }).backgroundColor, text);
            ctx.textBaseline = 'middle';
            ctx.fillText(label, bar.horizontal ? (bar.x + bar.base) / 2 : bar.x, bar.horizontal ? bar.y : (bar.y + bar.base) / 2);
            return;
          }
          const { x, y } = element.tooltipPosition(true);
          ctx.fillStyle = text;
          ctx.textBaseline = 'alphabetic';
          if (typeof x === 'number' && typeof y === 'number') ctx.fillText(label, x, y - 6);
        });
      });
      ctx.restore();
    },
  };
}

export interface GaugeRange {
  min: number;
  max: number;
  label?: string;
}

export interface GaugeParts {
  value: number;
  /** The value's part of the half circle, and the rest of it. */
  filled: number;
  rest: number;
  colour: string;
  /** The label of the range the value falls in. */
  rangeLabel: string | undefined;
}

const GAUGE_PALETTE = ['#59A14F', '#EDC948', '#E15759', '#4E79A7', '#B07AA1'];

/**
 * A gauge: the value's share of its range (the chart's bands, else its min and max), coloured by
 * the band it falls in unless the chart has a colour of its own.
 */
export function gaugeParts(
  raw: unknown,
  ranges: readonly GaugeRange[],
  bounds: { minValue?: number | null; maxValue?: number | null; colour?: string | null },
): GaugeParts {
  const value = typeof raw === 'number' ? raw : 0;
  const min = ranges[0]?.min ?? bounds.minValue ?? 0;
  const max = ranges.at(-1)?.max ?? bounds.maxValue ?? (value > 0 ? value : 1);
  const span = Math.max(max - min, Number.EPSILON);
  const filled = Math.min(Math.max(value - min, 0), span);
  const index = ranges.findIndex((range) => value >= range.min && value <= range.max);
  const colour = bounds.colour ?? GAUGE_PALETTE[index >= 0 ? index % GAUGE_PALETTE.length : 3]!;
  return { value, filled, rest: span - filled, colour, rangeLabel: index >= 0 ? ranges[index]?.label : undefined };
}
