import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Area } from './area.js';
import { statusColour } from './card.js';
import type { AxisData } from './chartjs.js';
import { font } from './fonts.js';
import { fitText, roundRect } from './text.js';
import type { Colours } from './theme.js';
import type { ChartView } from './types.js';

interface MetricValue {
  label: string;
  value: number | null;
  formatted: string;
  goal: number | null;
  growth: { previous: number | null; percent: number | null; status: string } | null;
}

/** KPI and average charts (web/src/lib/charts/metric.ts): the number, large, with its growth and goal. */
export function drawMetrics(ctx: SKRSContext2D, view: ChartView, data: AxisData, area: Area, colours: Colours): void {
  const values = (data.values ?? []) as MetricValue[];
  ctx.save();
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  if (values.length === 0) {
    ctx.font = font(14);
    ctx.fillStyle = colours.muted;
    ctx.textAlign = 'center';
    ctx.fillText('No value yet.', area.x + area.width / 2, area.y + 40);
    ctx.restore();
    return;
  }
  const columns = Math.min(values.length, 3);
  const gap = 12;
  const columnWidth = (area.width - gap * (columns - 1)) / columns;
  const size = columnWidth < 180 ? 28 : columnWidth < 320 ? 36 : 44;
  values.forEach((value, index) => {
    const x = area.x + (index % columns) * (columnWidth + gap);
    let y = area.y + Math.floor(index / columns) * (size + 90);
    y += size;
    ctx.font = font(size, 700);
    ctx.fillStyle = colours.fg;
    ctx.fillText(fitText(ctx, value.formatted, columnWidth), x, y);
    if (values.length > 1 || value.label) {
      y += 22;
      ctx.font = font(14);
      ctx.fillStyle = colours.muted;
      ctx.fillText(fitText(ctx, value.label, columnWidth), x, y);
    }
    const growth = value.growth;
    if (view.showGrowth && growth) {
      y += 26;
      const arrow = growth.percent === null ? '' : growth.percent > 0 ? '▲ ' : growth.percent < 0 ? '▼ ' : '';
      const text = growth.percent === null ? 'no previous value' : `${arrow}${Math.abs(growth.percent)}%`;
      ctx.font = font(14, 600);
      ctx.fillStyle = statusColour(growth.status, colours);
      ctx.fillText(text, x, y);
      const w = ctx.measureText(text).width;
      ctx.font = font(14);
      ctx.fillStyle = colours.muted;
      ctx.fillText(fitText(ctx, ' vs previous', columnWidth - w), x + w, y);
    }
    if (value.goal !== null && value.value !== null && value.goal !== 0) {
      const percent = Math.max(0, Math.min(100, Math.round((value.value / value.goal) * 100)));
      y += 12;
      roundRect(ctx, x, y, columnWidth, 6, 3);
      ctx.fillStyle = colours.grid;
      ctx.fill();
      if (percent > 0) {
        roundRect(ctx, x, y, (columnWidth * percent) / 100, 6, 3);
        ctx.fillStyle = colours.accent;
        ctx.fill();
      }
      y += 22;
      ctx.font = font(12);
      ctx.fillStyle = colours.muted;
      ctx.fillText(fitText(ctx, `${percent}% of goal ${value.goal}`, columnWidth), x, y);
    }
  });
  ctx.restore();
}
