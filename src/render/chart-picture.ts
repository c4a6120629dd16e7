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
 * A chart card as SVG: the same drawing on Skia's SVG canvas, text kept as text (labels can be
 * searched and read), naming the pictures' font family with a sans-serif fallback.
 */
export function chartSvg(view: ChartView, options: ChartPictureOptions): Picture {
  ensureFonts();
  const canvas = createCanvas(options.width, options.height, SvgExportFlag.NoPrettyXML);
  const drawn = drawCard(canvas, view, coloursOf(options.theme), options.timezone);
  try {
    const svg = canvas.getContent().toString('utf8').replace(/font-family="([^"]*)"/g, (_m, family: string) => `font-family="${family}, Inter, system-ui, sans-serif"`);
    return { body: Buffer.from(svg, 'utf8'), contentType: 'image/svg+xml', width: options.width, height: options.height };
  } finally {
    drawn.destroy();
  }
}
