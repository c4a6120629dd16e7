import type { Chart } from 'chart.js';
import { cutDataText, filteredByText, notFilteredByText, refreshMark } from '../../../../src/render/card-notes.js';
import { clear, h } from '../dom.js';
import type { AxisChartData, PublicChart } from '../types.js';
import { renderChartJs, renderGauge } from './chartjs.js';
import { emptyReasonOf, emptyReasonText, isEmptyChartData } from './empty.js';
import { renderMarkdown } from './markdown.js';
import { renderMatrix } from './matrix.js';
import { renderMetric } from './metric.js';
import { renderTables } from './table.js';

export interface RenderedChart {
  card: HTMLElement;
  /** Draws again (theme change); canvases read the theme's colours when they are created. */
  redraw(): void;
}

const AXIS_TYPES = new Set(['line', 'bar', 'pie', 'doughnut', 'radar', 'polar']);

function isAxisData(value: unknown): value is AxisChartData {
  const data = (value as AxisChartData | null)?.data;
  return typeof data === 'object' && data !== null && Array.isArray(data.datasets);
}

function growthBadge(chart: PublicChart, data: unknown): HTMLElement | null {
  if (!chart.showGrowth || !isAxisData(data) || chart.type === 'kpi' || chart.type === 'avg') return null;
  const growth = data.growth?.[0];
  if (!growth || growth.percent === null) return null;
  const arrow = growth.percent > 0 ? '▲' : growth.percent < 0 ? '▼' : '';
  return h('span', { class: `growth-badge growth-${growth.status}` }, `${arrow} ${Math.abs(growth.percent)}%`);
}

/** A time as the cards write it, in the viewer's locale and zone. */
function when(iso: string | null): string | null {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : null;
}

function updatedText(iso: string | null): string | null {
  const time = when(iso);
  return time ? `Updated ${time}` : null;
}

/** A chart as a card reads it: members' charts carry the failure's message too. */
type CardChart = PublicChart & { lastError?: { code: string; message?: string; at: string } | null };

/** The filters set on the page, by name: those that narrow this card, and those that do not reach it. */
export interface CardFilters {
  by: string[];
  notBy: string[];
}

export interface CardOptions {
  /** Shown instead of an empty frame when the chart has nothing to show (a filtered chart says so). */
  emptyText?: string;
  /** Said under the title when filters are set: which narrow the card, and which do not reach it. */
  filters?: CardFilters;
  /** The title's heading level: h1 where the card is the whole page (the embed), else h2 under the dashboard's h1. */
  titleLevel?: 'h1' | 'h2';
}

/** "Filtered by …" and "Not filtered by …" under the title; nothing for markdown, which filters never change. */
function filterNote(type: string, filters: CardFilters | undefined): HTMLElement | null {
  if (!filters || type === 'markdown') return null;
  const by = filteredByText(filters.by);
  const notBy = notFilteredByText(filters.notBy);
  if (!by && !notBy) return null;
  return h(
    'p',
    { class: 'card-filters', role: 'note' },
    by ? h('span', { class: 'card-filtered-by' }, by) : null,
    notBy ? h('span', { class: 'card-not-filtered-by' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), notBy) : null,
  );
}

/** One chart card; which renderer draws it depends on the chart type. */
export function renderChartCard(chart: CardChart, options: CardOptions = {}): RenderedChart {
  const type = chart.type ?? 'line';
  const title = h(options.titleLevel ?? 'h2', { class: 'card-title' }, chart.name ?? '');
  const meta = updatedText(chart.chartDataUpdated);
  const cut = cutDataText(chart.chartData);
  const header = h(
    'header',
    { class: 'card-header' },
    title,
    growthBadge(chart, chart.chartData),
    meta ? h('span', { class: 'card-meta muted' }, meta) : null,
    cut ? h('span', { class: 'card-truncated', role: 'note', title: cut }, cut) : null,
  );
  // One mark about the data's age: a failed refresh (.card-stale), else an overdue one (.card-overdue).
  const mark = refreshMark(chart, when);
  if (mark) {
    const kind = mark.kind === 'failed' ? 'card-stale' : 'card-overdue';
    header.append(h('p', { class: kind, role: 'note', title: mark.text }, h('span', { 'aria-hidden': 'true' }, '⚠ '), mark.text));
  }
  const filters = filterNote(type, options.filters);
  if (filters) header.append(filters);
  const body = h('div', { class: `card-body type-${type}` });
  const card = h('article', { class: `card chart-card card-${type}`, 'data-chart-id': chart.id, 'data-chart-type': type }, header, body);
  if (mark?.kind === 'failed') card.dataset['stale'] = 'true';
  if (mark?.kind === 'overdue') card.dataset['overdue'] = 'true';
  let instance: Chart | undefined;

  const draw = () => {
    instance?.destroy();
    instance = undefined;
    clear(body);
    card.dataset['rendered'] = 'pending';
    if (chart.error) {
      body.append(h('p', { class: 'chart-error', role: 'status' }, chart.error.message));
      card.dataset['rendered'] = 'error';
      return;
    }
    const data = chart.chartData;
    // The server says why a chart is empty; a filtered chart without a reason says the filters did it.
    const reason = type === 'markdown' ? null : emptyReasonOf(data);
    if (reason || (options.emptyText !== undefined && isEmptyChartData(type, data))) {
      // A filtered run that the filters emptied says so in the caller's words ("No data for these filters.").
      const filteredOut = options.emptyText !== undefined && (!reason || (reason.reason === 'FILTERED' && reason.by === 'conditions'));
      body.append(h('p', { class: 'empty chart-empty', role: 'status' }, filteredOut ? options.emptyText! : emptyReasonText(reason!)));
      card.dataset['rendered'] = 'empty';
      if (reason) card.dataset['emptyReason'] = reason.reason;
      return;
    }
    try {
      if (type === 'markdown') {
        renderMarkdown(body, chart.content ?? (data as { content?: string } | null)?.content ?? '');
      } else if (type === 'table') {
        renderTables(body, chart, data);
      } else if (data === null || data === undefined) {
        body.append(h('p', { class: 'empty' }, 'This chart has no data yet.'));
        card.dataset['rendered'] = 'empty';
        return;
      } else if (type === 'kpi' || type === 'avg') {
        renderMetric(body, chart, isAxisData(data) ? data : { data: { datasets: [] } });
      } else if (type === 'matrix') {
        renderMatrix(body, data, chart.ChartDatasetConfigs[0]?.datasetColor ?? undefined);
      } else if (type === 'gauge' && isAxisData(data)) {
        instance = renderGauge(body, chart, data);
      } else if (AXIS_TYPES.has(type) && isAxisData(data)) {
        instance = renderChartJs(body, chart, data);
      } else {
        body.append(h('p', { class: 'empty' }, 'This kind of chart cannot be shown here.'));
        card.dataset['rendered'] = 'unsupported';
        return;
      }
      card.dataset['rendered'] = 'true';
    } catch {
      clear(body);
      body.append(h('p', { class: 'chart-error', role: 'status' }, 'This chart could not be drawn.'));
      card.dataset['rendered'] = 'error';
    }
  };

  return { card, redraw: draw };
}

/** Grid placement from the chart's `lg` layout ([x, y, w, h] on 12 columns), else by type. */
export function placeCard(card: HTMLElement, chart: PublicChart): void {
  const lg = (chart.layout as { lg?: unknown } | null)?.lg;
  const type = chart.type ?? 'line';
  let width = type === 'kpi' || type === 'avg' || type === 'gauge' ? 3 : type === 'table' || type === 'matrix' ? 12 : 6;
  let height = type === 'kpi' || type === 'avg' ? 2 : 3;
  if (Array.isArray(lg) && lg.length >= 4 && lg.every((n) => typeof n === 'number')) {
    width = Math.min(12, Math.max(1, Math.round(lg[2] as number)));
    height = Math.min(8, Math.max(1, Math.round(lg[3] as number)));
  }
  card.style.setProperty('--span', String(width));
  card.style.setProperty('--rows', String(height));
}

/** Report order: by the layout's row then column when every chart has one, else the server's order. */
export function reportOrder(charts: PublicChart[]): PublicChart[] {
  const position = (chart: PublicChart): [number, number] | undefined => {
    const lg = (chart.layout as { lg?: unknown } | null)?.lg;
    return Array.isArray(lg) && typeof lg[0] === 'number' && typeof lg[1] === 'number' ? [lg[1], lg[0]] : undefined;
  };
  if (!charts.every((chart) => position(chart))) return charts;
  return [...charts].sort((a, b) => {
    const [ay, ax] = position(a)!;
    const [by, bx] = position(b)!;
    return ay - by || ax - bx;
  });
}
