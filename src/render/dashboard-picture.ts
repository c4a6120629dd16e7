import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { drawCard } from './card.js';
import { GRID, pageBreaks, placeCards, type PlacedCard } from './dashboard-layout.js';
import { ensureFonts, font } from './fonts.js';
import { encodeOpaquePng } from './png.js';
import { fitText, formatTime, roundRect, wrapText } from './text.js';
import { coloursOf, type Colours } from './theme.js';
import type { DashboardDocument, DashboardPictureOptions, DashboardView, Picture } from './types.js';

/** The report page's outer padding and header (.page, .report-header in web/src/styles.css). */
const PAGE = { padding: 16, headerPadding: 20, headerGap: 16, footer: 40 } as const;
/** Tallest page drawn (Skia's raster limit is 32767 pixels a side). */
export const MAX_DASHBOARD_HEIGHT = 30_000;
/** CSS pixels to PDF points (96 dpi to 72). */
const POINTS_PER_PIXEL = 0.75;

export class PictureTooLargeError extends Error {
  constructor(readonly height: number) {
    super(`The dashboard would be ${height} pixels tall; at most ${MAX_DASHBOARD_HEIGHT} can be drawn`);
  }
}

interface HeaderLines {
  title: string;
  description: string[];
  meta: string[];
  height: number;
}

function headerLines(ctx: SKRSContext2D, view: DashboardView, width: number): HeaderLines {
  const inner = width - 2 * PAGE.padding - 2 * PAGE.headerPadding;
  ctx.font = font(24, 700);
  const title = fitText(ctx, view.title, inner);
  ctx.font = font(14);
  const description = view.description ? view.description.split('\n').flatMap((line) => wrapText(ctx, line, inner)).slice(0, 6) : [];
  ctx.font = font(12);
  const meta: string[] = [];
  const updated = formatTime(view.dataUpdatedAt, view.timezone);
  meta.push(updated ? `Data as of ${updated}` : 'No data computed yet');
  if (view.filters.length > 0) meta.push(...wrapText(ctx, `Filters: ${view.filters.join(' · ')}`, inner).slice(0, 4));
  const height = 2 * PAGE.headerPadding + 29 + description.length * 20 + (description.length > 0 ? 6 : 0) + 8 + meta.length * 18;
  return { title, description, meta, height };
}

function drawHeader(ctx: SKRSContext2D, view: DashboardView, lines: HeaderLines, width: number, colours: Colours): void {
  const x = PAGE.padding;
  const y = PAGE.padding;
  roundRect(ctx, x + 0.5, y + 0.5, width - 2 * PAGE.padding - 1, lines.height - 1, 10);
  ctx.fillStyle = view.headerBackground ?? colours.card;
  ctx.fill();
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.stroke();
  const fg = view.headerColour ?? colours.fg;
  let baseline = y + PAGE.headerPadding + 24;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.font = font(24, 700);
  ctx.fillStyle = fg;
  ctx.fillText(lines.title, x + PAGE.headerPadding, baseline);
  baseline += 5;
  if (lines.description.length > 0) baseline += 6;
  ctx.font = font(14);
  ctx.globalAlpha = 0.85;
  for (const line of lines.description) {
    baseline += 20;
    ctx.fillText(line, x + PAGE.headerPadding, baseline);
  }
  ctx.globalAlpha = 1;
  baseline += 8;
  ctx.font = font(12);
  ctx.fillStyle = view.headerColour ?? colours.muted;
  for (const line of lines.meta) {
    baseline += 18;
    ctx.fillText(line, x + PAGE.headerPadding, baseline);
  }
}

interface DrawnPage {
  canvas: Canvas;
  cards: PlacedCard[];
  gridTop: number;
  height: number;
}

/** The whole dashboard on one canvas: header, cards in their saved layout, branding. */
function drawPage(view: DashboardView, options: DashboardPictureOptions): DrawnPage {
  ensureFonts();
  const colours = coloursOf(options.theme);
  const width = options.width;
  const measure = createCanvas(1, 1).getContext('2d');
  const header = headerLines(measure, view, width);
  const gridTop = PAGE.padding + header.height + PAGE.headerGap;
  const { cards, height: gridHeight } = placeCards(view.charts, width - 2 * PAGE.padding);
  const empty = cards.length === 0 ? 60 : 0;
  const height = gridTop + gridHeight + empty + (view.showBranding ? PAGE.footer : PAGE.padding);
  if (height > MAX_DASHBOARD_HEIGHT) throw new PictureTooLargeError(height);
  const canvas = createCanvas(width, height);
  // Opaque: the page is painted edge to edge, and an opaque canvas gives its pixels as they are (see png.ts).
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.fillStyle = colours.bg;
  ctx.fillRect(0, 0, width, height);
  drawHeader(ctx, view, header, width, colours);
  ctx.font = font(14);
  ctx.textAlign = 'center';
  ctx.fillStyle = colours.muted;
  if (cards.length === 0) ctx.fillText('This dashboard has no charts to show yet.', width / 2, gridTop + 30);
  // One canvas per card: Chart.js clears the whole canvas it draws on.
  for (const card of cards) {
    const cardCanvas = createCanvas(Math.max(1, card.width), Math.max(1, card.height));
    const drawn = drawCard(cardCanvas, card.chart, colours, view.timezone);
    ctx.drawImage(cardCanvas, PAGE.padding + card.left, gridTop + card.top);
    drawn.destroy();
  }
  if (view.showBranding) {
    ctx.font = font(12);
    ctx.textAlign = 'center';
    ctx.fillStyle = colours.muted;
    ctx.fillText('Made with Plotline', width / 2, height - 16);
  }
  return { canvas, cards, gridTop, height };
}

/** The dashboard as one PNG, `width` wide and as tall as its layout. */
export async function dashboardPng(view: DashboardView, options: DashboardPictureOptions): Promise<Picture> {
  const page = drawPage(view, options);
  return { body: await encodeOpaquePng(page.canvas), contentType: 'image/png', width: options.width, height: page.height };
}

export interface DashboardPdfOptions extends DashboardPictureOptions {
  /** `screens`: pages of one screen (16:9 of the width), ending between rows of cards; `single`: one long page. */
  pages: 'screens' | 'single';
}

/** The height of one screen for a viewport `width` wide (16:9). */
export function screenHeight(width: number): number {
  return Math.round((width * 9) / 16);
}

/** The dashboard as a PDF: each page a picture of part of the layout, cut between rows of cards. */
export async function dashboardPdf(view: DashboardView, options: DashboardPdfOptions): Promise<DashboardDocument> {
  const page = drawPage(view, options);
  const colours = coloursOf(options.theme);
  const screen = screenHeight(options.width);
  const slices = options.pages === 'single' ? [[0, page.height] as [number, number]] : pageBreaks(page.cards, page.gridTop - GRID.margin / 2, page.height, screen);
  const pdf = await PDFDocument.create();
  pdf.setTitle(view.title);
  pdf.setCreator('Plotline');
  pdf.setProducer('Plotline');
  // Every page's JPEG at once: encoding runs on libuv's threads, the pages in parallel.
  const jpegs = await Promise.all(
    slices.map(([start, end]) => {
      const sliceHeight = end - start;
      const pageHeight = options.pages === 'single' ? sliceHeight : Math.max(screen, sliceHeight);
      // JPEG passes into the PDF as it is (DCT); pdf-lib would decode and deflate a PNG again in JavaScript.
      if (start === 0 && pageHeight === page.height) return page.canvas.encode('jpeg', 92);
      const canvas = createCanvas(options.width, pageHeight);
      const ctx = canvas.getContext('2d', { alpha: false });
      ctx.fillStyle = colours.bg;
      ctx.fillRect(0, 0, options.width, pageHeight);
      ctx.drawImage(page.canvas, 0, start, options.width, sliceHeight, 0, 0, options.width, sliceHeight);
      return canvas.encode('jpeg', 92);
    }),
  );
  for (const [i, [start, end]] of slices.entries()) {
    const pageHeight = options.pages === 'single' ? end - start : Math.max(screen, end - start);
    const image = await pdf.embedJpg(jpegs[i]!);
    const pdfPage = pdf.addPage([options.width * POINTS_PER_PIXEL, pageHeight * POINTS_PER_PIXEL]);
    pdfPage.drawImage(image, { x: 0, y: 0, width: options.width * POINTS_PER_PIXEL, height: pageHeight * POINTS_PER_PIXEL });
  }
  const body = Buffer.from(await pdf.save());
  return { body, contentType: 'application/pdf', pages: slices.length };
}
