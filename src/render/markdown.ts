import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Area } from './area.js';
import { font } from './fonts.js';
import { wrapText } from './text.js';
import type { Colours } from './theme.js';

/** Inline markdown to plain text: links keep their text, emphasis and code marks go, images go. */
function inline(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(\*|_)(.*?)\1/g, '$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '');
}

const HEADINGS: Record<number, number> = { 1: 22, 2: 19, 3: 16, 4: 15, 5: 14, 6: 14 };

/**
 * A markdown chart as text: headings, paragraphs (a single line break kept, as the page's
 * `breaks: true`), bullet and numbered lists, quotes, code lines. No HTML is interpreted; a picture
 * has no links to follow, so a link is its text.
 */
export function drawMarkdown(ctx: SKRSContext2D, content: string, area: Area, colours: Colours): void {
  ctx.save();
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  let y = area.y;
  const bottom = area.y + area.height;
  let inCode = false;
  let previousBlank = true;
  for (const raw of content.replace(/\r\n?/g, '\n').split('\n')) {
    if (y > bottom) break;
    if (/^```/.test(raw)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      ctx.font = font(13);
      ctx.fillStyle = colours.fg;
      y += 18;
      ctx.fillText(raw, area.x + 8, y);
      continue;
    }
    const line = raw.trimEnd();
    if (line.trim() === '') {
      if (!previousBlank) y += 8;
      previousBlank = true;
      continue;
    }
    previousBlank = false;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    const quote = /^>\s?(.*)$/.exec(line);
    let size = 14;
    let weight: 400 | 600 | 700 = 400;
    let indent = 0;
    let marker = '';
    let text = line;
    let colour = colours.fg;
    if (heading) {
      size = HEADINGS[heading[1]!.length] ?? 14;
      weight = 700;
      text = heading[2]!;
      y += 6;
    } else if (bullet) {
      indent = 22;
      marker = /^\d/.test(bullet[1]!) ? bullet[1]! : '•';
      text = bullet[2]!;
    } else if (quote) {
      indent = 14;
      text = quote[1]!;
      colour = colours.muted;
    } else if (/^(-{3,}|\*{3,})$/.test(line.trim())) {
      y += 10;
      ctx.fillStyle = colours.border;
      ctx.fillRect(area.x, y, area.width, 1);
      y += 6;
      continue;
    }
    ctx.font = font(size, weight);
    ctx.fillStyle = colour;
    const lineHeight = Math.round(size * 1.45);
    const lines = wrapText(ctx, inline(text), area.width - indent);
    lines.forEach((part, i) => {
      y += lineHeight;
      if (y > bottom) return;
      if (i === 0 && marker) ctx.fillText(marker, area.x + 6, y);
      if (quote) ctx.fillRect(area.x, y - lineHeight + 4, 3, lineHeight);
      ctx.fillText(part, area.x + indent, y);
    });
    if (heading) y += 4;
  }
  ctx.restore();
}
