import { createCanvas, SvgExportFlag } from '@napi-rs/canvas';
import { drawCard } from './card.js';
import { ensureFonts } from './fonts.js';
import { coloursOf } from './theme.js';
import type { ChartPictureOptions, ChartView, Picture } from './types.js';

/** A chart card as a PNG of `width` × `height` pixels. */
export async function chartPng(view: ChartView, options: ChartPictureOptions): Promise<Picture> {
  ensureFonts();
  const canvas = createCanvas(options.width, options.height);
  const drawn = drawCard(canvas, view, coloursOf(options.theme), options.timezone);
  try {
    // encode() runs off the main thread; drawing itself is synchronous.
    const body = await canvas.encode('png');
    return { body, contentType: 'image/png', width: options.width, height: options.height };
  } finally {
    drawn.destroy();
  }
}

/**
 * Skia writes each word as a `<text>` with one x per glyph, lists ending in ", ", and an empty
 * `<text x="" y="">` for each space: strict readers refuse both. Kept: the words and their places;
 * added: fallback families after the font's own ("Inter").
 */
function tidySvg(svg: string): string {
  return svg
    .replace(/<text[^>]*x="" y=""[^>]*><\/text>/g, '')
    .replace(/ (x|y)="([^"]*?),\s*"/g, (_m, axis: string, list: string) => ` ${axis}="${list.replace(/,\s*/g, ' ')}"`)
    .replace(/font-family="([^"]*)"/g, (_m, family: string) => `font-family="${family}, system-ui, sans-serif"`);
}

/**
 * A chart card as SVG: the same drawing on Skia's SVG canvas, text kept as text (labels can be
 * searched and read), naming the pictures' font family with a sans-serif fallback.
 */
export function chartSvg(view: ChartView, options: ChartPictureOptions): Picture {
  ensureFonts();
  const canvas = createCanvas(options.width, options.height, SvgExportFlag.NoPrettyXML);
  const drawn = drawCard(canvas, view, coloursOf(options.theme), options.timezone);
  try {
    const svg = tidySvg(canvas.getContent().toString('utf8'));
    return { body: Buffer.from(svg, 'utf8'), contentType: 'image/svg+xml', width: options.width, height: options.height };
  } finally {
    drawn.destroy();
  }
}
