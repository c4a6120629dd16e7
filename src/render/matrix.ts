import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Area } from './area.js';
import { font } from './fonts.js';
import { roundRect } from './text.js';
import type { Colours } from './theme.js';

const CELL = 12;
const GAP = 3;
const DAYS = ['Mon', '', 'Wed', '', 'Fri', '', ''];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Cell {
  x: string;
  v: number | null;
}

function weekday(date: Date): number {
  return (date.getUTCDay() + 6) % 7;
}

/**
 * A calendar heatmap (web/src/lib/charts/matrix.ts): one column per week, one row per weekday,
 * darker for more; scaled to the card's width up to twice its natural size, as on the page.
 */
export function drawMatrix(ctx: SKRSContext2D, chartData: unknown, area: Area, colours: Colours, colour = '#4E79A7'): void {
  const datasets = ((chartData as { data?: { datasets?: { label?: string; data?: Cell[] }[] } })?.data?.datasets ?? []).filter((d) => Array.isArray(d.data));
  ctx.save();
  if (datasets.length === 0 || datasets.every((d) => d.data!.length === 0)) {
    ctx.font = font(14);
    ctx.fillStyle = colours.muted;
    ctx.textAlign = 'center';
    ctx.fillText('No data in this period.', area.x + area.width / 2, area.y + 40);
    ctx.restore();
    return;
  }
  let top = area.y;
  for (const dataset of datasets) {
    const cells = dataset.data!.filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c.x));
    if (cells.length === 0) continue;
    if (datasets.length > 1) {
      ctx.font = font(13, 600);
      ctx.fillStyle = colours.muted;
      ctx.textBaseline = 'top';
      ctx.fillText(dataset.label ?? '', area.x, top);
      top += 20;
    }
    const offset = weekday(new Date(`${cells[0]!.x}T00:00:00Z`));
    const max = Math.max(1, ...cells.map((c) => c.v ?? 0));
    const weeks = Math.ceil((offset + cells.length) / 7);
    const left = 28;
    const head = 16;
    const natural = left + weeks * (CELL + GAP);
    const naturalHeight = head + 7 * (CELL + GAP);
    const scale = Math.max(0.5, Math.min(2, area.width / natural, (area.y + area.height - top) / naturalHeight));
    ctx.save();
    ctx.translate(area.x, top);
    ctx.scale(scale, scale);
    ctx.font = font(9);
    ctx.fillStyle = colours.muted;
    ctx.textBaseline = 'alphabetic';
    DAYS.forEach((day, row) => {
      if (day) ctx.fillText(day, 0, head + row * (CELL + GAP) + CELL - 2);
    });
    let lastMonth = -1;
    cells.forEach((c, index) => {
      const position = offset + index;
      const column = Math.floor(position / 7);
      const row = position % 7;
      const date = new Date(`${c.x}T00:00:00Z`);
      if (date.getUTCMonth() !== lastMonth && row <= 1) {
        lastMonth = date.getUTCMonth();
        ctx.fillStyle = colours.muted;
        ctx.globalAlpha = 1;
        ctx.fillText(MONTHS[lastMonth]!, left + column * (CELL + GAP), 10);
      }
      const value = c.v ?? 0;
      const level = value <= 0 ? 0 : Math.ceil((value / max) * 4);
      roundRect(ctx, left + column * (CELL + GAP), head + row * (CELL + GAP), CELL, CELL, 2);
      ctx.fillStyle = level === 0 ? colours.emptyCell : colour;
      ctx.globalAlpha = level === 0 ? 1 : 0.25 + level * 0.1875;
      ctx.fill();
      ctx.globalAlpha = 1;
    });
    ctx.restore();
    top += naturalHeight * scale + 12;
  }
  ctx.restore();
}
