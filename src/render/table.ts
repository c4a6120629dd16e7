import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Area } from './area.js';
import { font } from './fonts.js';
import { fitText, roundRect } from './text.js';
import type { Colours } from './theme.js';
import type { ChartView } from './types.js';

interface TableData {
  columns: { Header: string; accessor: string }[];
  data: Record<string, unknown>[];
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const ROW = 32;
const PAD = 10;
const MAX_COLUMN = 320;

/** Table charts (web/src/lib/charts/table.ts): the first page of each table, as many rows as fit, and the row count. */
export function drawTables(ctx: SKRSContext2D, view: ChartView, chartData: unknown, area: Area, colours: Colours): void {
  const tables = Object.entries((chartData ?? {}) as Record<string, TableData>).filter(([, t]) => t && Array.isArray(t.columns) && Array.isArray(t.data));
  ctx.save();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  if (tables.length === 0) {
    ctx.font = font(14);
    ctx.fillStyle = colours.muted;
    ctx.textAlign = 'center';
    ctx.fillText('No rows to show.', area.x + area.width / 2, area.y + 40);
    ctx.restore();
    return;
  }
  const perPage = Math.max(1, view.defaultRowsPerPage ?? 10);
  let y = area.y;
  const bottom = area.y + area.height;
  for (const [legend, table] of tables) {
    if (y + ROW * 2 > bottom) break;
    if (tables.length > 1) {
      ctx.font = font(13, 600);
      ctx.fillStyle = colours.muted;
      ctx.fillText(fitText(ctx, legend, area.width), area.x, y + 10);
      y += 26;
    }
    // Rows that fit above the pager line, at most one page.
    const fit = Math.max(0, Math.floor((bottom - y - 24) / ROW) - 1);
    const rows = table.data.slice(0, Math.min(perPage, fit));
    const texts = rows.map((row) => table.columns.map((column) => cell(row[column.accessor])));
    ctx.font = font(13);
    const widths = table.columns.map((column, i) => {
      ctx.font = font(13, 600);
      let w = ctx.measureText(column.Header).width;
      ctx.font = font(13);
      for (const row of texts) w = Math.max(w, ctx.measureText(row[i]!).width);
      return Math.min(MAX_COLUMN, w + 2 * PAD);
    });
    const total = widths.reduce((a, b) => a + b, 0);
    // A wider table than the card is cut at the right, as the page's scroller would show it.
    const scale = total < area.width ? area.width / total : 1;
    const columnsWidth = widths.map((w) => w * scale);
    const height = ROW * (rows.length + 1);
    ctx.save();
    roundRect(ctx, area.x + 0.5, y + 0.5, area.width - 1, height - 1, 6);
    ctx.clip();
    ctx.fillStyle = colours.bg;
    ctx.fillRect(area.x, y, area.width, ROW);
    ctx.strokeStyle = colours.border;
    ctx.lineWidth = 1;
    for (let r = 1; r <= rows.length; r += 1) {
      ctx.beginPath();
      ctx.moveTo(area.x, Math.round(y + r * ROW) + 0.5);
      ctx.lineTo(area.x + area.width, Math.round(y + r * ROW) + 0.5);
      ctx.stroke();
    }
    let x = area.x;
    table.columns.forEach((column, i) => {
      const w = columnsWidth[i]!;
      if (x < area.x + area.width) {
        ctx.font = font(13, 600);
        ctx.fillStyle = colours.fg;
        ctx.fillText(fitText(ctx, column.Header, w - 2 * PAD), x + PAD, y + ROW / 2);
        ctx.font = font(13);
        texts.forEach((row, r) => ctx.fillText(fitText(ctx, row[i]!, w - 2 * PAD), x + PAD, y + (r + 1.5) * ROW));
      }
      x += w;
    });
    ctx.restore();
    roundRect(ctx, area.x + 0.5, y + 0.5, area.width - 1, height - 1, 6);
    ctx.strokeStyle = colours.border;
    ctx.stroke();
    y += height + 8;
    const count = table.data.length;
    const pages = Math.max(1, Math.ceil(count / perPage));
    const pager = pages === 1 ? `${count} row${count === 1 ? '' : 's'}` : `Page 1 of ${pages} · ${count} rows`;
    const shown = rows.length < Math.min(perPage, count) ? `${rows.length} of ${count} rows shown` : pager;
    ctx.font = font(12);
    ctx.fillStyle = colours.muted;
    ctx.textAlign = 'right';
    ctx.fillText(shown, area.x + area.width, y + 8);
    ctx.textAlign = 'left';
    y += 24;
  }
  ctx.restore();
}
