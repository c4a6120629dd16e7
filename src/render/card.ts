import type { Canvas, SKRSContext2D, SvgCanvas } from '@napi-rs/canvas';
import { CHARTJS_TYPES, drawAxisChart, drawGauge, type AxisData, type Box } from './chartjs.js';
import { font } from './fonts.js';
import { cutDataText, emptyReasonOf, emptyReasonText, filteredByText, notFilteredByText, refreshMark } from './card-notes.js';
import { drawMarkdown } from './markdown.js';
import { drawMatrix } from './matrix.js';
import { drawMetrics } from './metric.js';
import { drawTables } from './table.js';
import { fitText, formatTime, roundRect, wrapText } from './text.js';
import type { Colours } from './theme.js';
import type { ChartView } from './types.js';

/** The card of the report page (.card in web/src/styles.css): padding, radius, header sizes, the band of a refresh mark. */
export const CARD = { padTop: 14, padX: 16, padBottom: 16, radius: 10, titleSize: 15, headerGap: 10, headerHeight: 20, markHeight: 20, markGap: 6 } as const;

function isAxisData(value: unknown): value is AxisData {
  const data = (value as AxisData | null)?.data;
  return typeof data === 'object' && data !== null && Array.isArray(data.datasets);
}

function growthText(view: ChartView): { text: string; status: string } | null {
  if (!view.showGrowth || !isAxisData(view.chartData) || view.type === 'kpi' || view.type === 'avg') return null;
  const growth = (view.chartData as { growth?: { percent: number | null; status: string }[] }).growth?.[0];
  if (!growth || growth.percent === null) return null;
  const arrow = growth.percent > 0 ? '▲' : growth.percent < 0 ? '▼' : '';
  return { text: `${arrow} ${Math.abs(growth.percent)}%`.trim(), status: growth.status };
}


export function statusColour(status: string, colours: Colours): string {
  return status === 'positive' ? colours.positive : status === 'negative' ? colours.negative : colours.muted;
}

interface Mark {
  /** failed: a refresh failed; warning: overdue data, or set filters that do not reach the card; plain: the filters that narrow it. */
  tone: 'failed' | 'warning' | 'plain';
  text: string;
}

/**
 * The card's one line under its header, in the report page's words: a failed or overdue refresh
 * of saved data (.card-stale, .card-overdue), else, drawn for a filter state, which filters narrow
 * the card and which do not reach it (.card-filters).
 */
function markOf(view: ChartView, timezone: string | undefined): Mark | null {
  const refresh = refreshMark(view, (iso) => formatTime(iso, timezone));
  if (refresh) return { tone: refresh.kind === 'failed' ? 'failed' : 'warning', text: refresh.text };
  if (!view.filters || view.type === 'markdown' || view.error) return null;
  const notBy = notFilteredByText(view.filters.notBy);
  const text = [filteredByText(view.filters.by), notBy].filter((part): part is string => part !== null).join(' · ');
  return text ? { tone: notBy ? 'warning' : 'plain', text } : null;
}

/** A band across the card under its header: the mark's text on its colour, with a coloured edge on the left (plain: the text alone). */
function paintMark(ctx: SKRSContext2D, mark: Mark, colours: Colours, width: number): void {
  const top = CARD.padTop + CARD.headerHeight + CARD.markGap;
  const w = width - 2 * CARD.padX;
  const failed = mark.tone === 'failed';
  if (mark.tone !== 'plain') {
    roundRect(ctx, CARD.padX, top, w, CARD.markHeight, 4);
    ctx.fillStyle = failed ? colours.failedBg : colours.warningBg;
    ctx.fill();
    ctx.fillStyle = failed ? colours.failedEdge : colours.warningEdge;
    ctx.fillRect(CARD.padX, top, 3, CARD.markHeight);
  }
  ctx.font = font(11);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = mark.tone === 'plain' ? colours.muted : failed ? colours.failedFg : colours.warningFg;
  const x = mark.tone === 'plain' ? CARD.padX : CARD.padX + 9;
  ctx.fillText(fitText(ctx, mark.text, w - (x - CARD.padX) - 7), x, top + CARD.markHeight / 2 + 0.5);
}

/** The card's frame and header: title, growth badge, partial-data note, "Updated …" on the right, then its mark (a refresh, or the filters). */
function paintCard(ctx: SKRSContext2D, view: ChartView, colours: Colours, width: number, height: number, timezone: string | undefined): void {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = colours.bg;
  ctx.fillRect(0, 0, width, height);
  roundRect(ctx, 0.5, 0.5, width - 1, height - 1, CARD.radius);
  ctx.fillStyle = colours.card;
  ctx.fill();
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.stroke();

  const baseline = CARD.padTop + 15;
  const right = width - CARD.padX;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'right';
  ctx.font = font(12);
  ctx.fillStyle = colours.muted;
  const updated = formatTime(view.chartDataUpdated, timezone);
  const meta = updated ? fitText(ctx, `Updated ${updated}`, Math.max(0, (width - 2 * CARD.padX) * 0.45)) : '';
  const metaWidth = meta ? ctx.measureText(meta).width + 10 : 0;
  if (meta) ctx.fillText(meta, right, baseline);

  ctx.textAlign = 'left';
  let x = CARD.padX;
  const room = right - metaWidth - x;
  ctx.font = font(CARD.titleSize, 600);
  ctx.fillStyle = colours.fg;
  const title = fitText(ctx, view.name ?? '', room);
  ctx.fillText(title, x, baseline);
  x += ctx.measureText(title).width + 10;
  const growth = growthText(view);
  if (growth) {
    ctx.font = font(12, 600);
    ctx.fillStyle = statusColour(growth.status, colours);
    const text = fitText(ctx, growth.text, right - metaWidth - x);
    ctx.fillText(text, x, baseline);
    x += ctx.measureText(text).width + 10;
  }
  const cut = cutDataText(view.chartData);
  if (cut) {
    ctx.font = font(11);
    const text = fitText(ctx, cut, right - metaWidth - x - 8);
    if (text) {
      const w = ctx.measureText(text).width + 8;
      roundRect(ctx, x, baseline - 12, w, 16, 4);
      ctx.fillStyle = colours.warningBg;
      ctx.fill();
      ctx.fillStyle = colours.warningFg;
      ctx.fillText(text, x + 4, baseline);
    }
  }
  const mark = markOf(view, timezone);
  if (mark) paintMark(ctx, mark, colours, width);
  ctx.restore();
}

/** A message in the body, centred, wrapped over the lines the body holds (the last one cut with an ellipsis). */
function message(ctx: SKRSContext2D, box: Box, width: number, height: number, text: string, colour: string): void {
  ctx.save();
  ctx.font = font(14);
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const w = width - box.left - box.right;
  const room = height - box.top - box.bottom;
  const lineHeight = 20;
  const wrapped = wrapText(ctx, text, w);
  const lines = wrapped.slice(0, Math.max(1, Math.floor(room / lineHeight)));
  if (lines.length < wrapped.length) lines[lines.length - 1] = fitText(ctx, `${lines[lines.length - 1]!} ${wrapped.slice(lines.length).join(' ')}`, w);
  const top = box.top + Math.max(lineHeight / 2, Math.min(48, room / 2) - ((lines.length - 1) * lineHeight) / 2);
  lines.forEach((line, i) => ctx.fillText(line, box.left + w / 2, top + i * lineHeight));
  ctx.restore();
}

export interface DrawnCard {
  /** Frees what Chart.js holds for the chart. */
  destroy(): void;
}

/** The body's box inside a card: below the header, and below the refresh mark when the card has one. */
export function bodyBox(marked = false): Box {
  const mark = marked ? CARD.markGap + CARD.markHeight : 0;
  return { top: CARD.padTop + CARD.headerHeight + mark + CARD.headerGap, right: CARD.padX, bottom: CARD.padBottom, left: CARD.padX };
}

/**
 * One chart card drawn on `canvas` (its whole size), as the report page draws it: which renderer
 * depends on the chart type. Works on a raster canvas and on an SVG canvas alike.
 */
export function drawCard(canvas: Canvas | SvgCanvas, view: ChartView, colours: Colours, timezone?: string): DrawnCard {
  const { width, height } = canvas;
  const ctx = canvas.getContext('2d');
  const box = bodyBox(markOf(view, timezone) !== null);
  const type = view.type ?? 'line';
  const paint = (c: SKRSContext2D) => paintCard(c, view, colours, width, height, timezone);
  const none: DrawnCard = { destroy() {} };
  const data = view.chartData;
  // The server said why the chart has nothing to draw: the card says it too, as the report page does.
  const empty = view.error || type === 'markdown' ? null : emptyReasonOf(data);
  if (!view.error && !empty && type !== 'markdown' && type !== 'table' && data !== null && data !== undefined) {
    if (type === 'gauge' && isAxisData(data)) {
      const chart = drawGauge(canvas, view, data, colours, box, paint);
      return { destroy: () => chart.destroy() };
    }
    if (CHARTJS_TYPES.has(type) && isAxisData(data)) {
      const chart = drawAxisChart(canvas, view, data, colours, box, paint);
      return { destroy: () => chart.destroy() };
    }
  }
  paint(ctx);
  const area = { x: box.left, y: box.top, width: width - box.left - box.right, height: height - box.top - box.bottom };
  if (view.error) message(ctx, box, width, height, view.error, colours.negative);
  else if (empty) message(ctx, box, width, height, emptyReasonText(empty), colours.muted);
  else if (type === 'markdown') drawMarkdown(ctx, view.content ?? (data as { content?: string } | null)?.content ?? '', area, colours);
  else if (type === 'table') drawTables(ctx, view, data, area, colours);
  else if (data === null || data === undefined) message(ctx, box, width, height, 'This chart has no data yet.', colours.muted);
  else if (type === 'kpi' || type === 'avg') drawMetrics(ctx, view, isAxisData(data) ? data : { data: { datasets: [] } }, area, colours);
  else if (type === 'matrix') drawMatrix(ctx, data, area, colours, view.datasetColor ?? undefined);
  else message(ctx, box, width, height, 'This kind of chart cannot be shown here.', colours.muted);
  return none;
}
