import type { SKRSContext2D } from '@napi-rs/canvas';

/** `text` cut with an ellipsis to fit `max` pixels in the context's current font. */
export function fitText(ctx: SKRSContext2D, text: string, max: number): string {
  if (max <= 0) return '';
  if (ctx.measureText(text).width <= max) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= max) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : `${text.slice(0, low)}…`;
}

/** Words wrapped into lines of at most `max` pixels (a word longer than a line is cut). */
export function wrapText(ctx: SKRSContext2D, text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (ctx.measureText(next).width <= max) line = next;
    else {
      if (line !== '') lines.push(line);
      line = ctx.measureText(word).width <= max ? word : fitText(ctx, word, max);
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

export function roundRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** A date-time as the report page writes it ("Nov 28, 2026, 3:44 PM"), in `timezone`. */
export function formatTime(iso: string | null, timezone = 'UTC'): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const format = timeFormat(timezone);
  return format ? `${format.format(date)} ${timezone === 'UTC' ? 'UTC' : ''}`.trim() : `${timeFormat('UTC')!.format(date)} UTC`;
}

/** One formatter per zone, kept: making one costs more than a card's text (null for an unknown zone). */
const formats = new Map<string, Intl.DateTimeFormat | null>();
function timeFormat(timezone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timezone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone });
    } catch {
      format = null;
    }
    // Zones are a few hundred names (dashboards' zones are checked when saved); kept bounded all the same.
    if (formats.size >= 1000) formats.clear();
    formats.set(timezone, format);
  }
  return format;
}
