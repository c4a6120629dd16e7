import type { ChartView } from './types.js';

/** The editor's grid (web/app/src/screens/Dashboard.tsx): 12 columns, rows of 90 px, 12 px between cards. */
export const GRID = { columns: 12, rowHeight: 90, margin: 12 } as const;

export interface Cell {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedCard {
  chart: ChartView;
  cell: Cell;
  /** Pixels, relative to the grid's top left corner. */
  left: number;
  top: number;
  width: number;
  height: number;
}

function cellOf(layout: unknown): Cell | null {
  const lg = typeof layout === 'object' && layout !== null ? (layout as { lg?: unknown }).lg : undefined;
  if (!Array.isArray(lg) || lg.length < 4 || !lg.slice(0, 4).every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  const [x, y, w, h] = lg as number[];
  const width = Math.min(GRID.columns, Math.max(1, Math.round(w!)));
  return { x: Math.min(GRID.columns - width, Math.max(0, Math.round(x!))), y: Math.max(0, Math.round(y!)), w: width, h: Math.min(40, Math.max(1, Math.round(h!))) };
}

const collides = (a: Cell, b: Cell) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Cards where the editor shows them: each chart's saved cell (`layout.lg`), a chart without one
 * below the others (two per row, as the editor places it), then compacted upwards as the editor's
 * grid (react-grid-layout, vertical compaction) does.
 */
export function placeCards(charts: readonly ChartView[], gridWidth: number): { cards: PlacedCard[]; height: number } {
  const items = charts.map((chart, index) => ({ chart, cell: cellOf(chart.layout) ?? { x: (index % 2) * 6, y: 1000 + index, w: 6, h: 3 }, index }));
  items.sort((a, b) => a.cell.y - b.cell.y || a.cell.x - b.cell.x || a.index - b.index);
  const placed: Cell[] = [];
  for (const item of items) {
    const cell = { ...item.cell };
    while (cell.y > 0 && !placed.some((p) => collides(p, { ...cell, y: cell.y - 1 }))) cell.y -= 1;
    for (let hit = placed.find((p) => collides(p, cell)); hit; hit = placed.find((p) => collides(p, cell))) cell.y = hit.y + hit.h;
    placed.push(cell);
    item.cell = cell;
  }
  const column = (gridWidth - GRID.margin * (GRID.columns - 1)) / GRID.columns;
  const cards = items.map(({ chart, cell }) => ({
    chart,
    cell,
    left: Math.round(cell.x * (column + GRID.margin)),
    top: cell.y * (GRID.rowHeight + GRID.margin),
    width: Math.round(cell.w * column + (cell.w - 1) * GRID.margin),
    height: cell.h * GRID.rowHeight + (cell.h - 1) * GRID.margin,
  }));
  const rows = placed.reduce((max, c) => Math.max(max, c.y + c.h), 0);
  return { cards, height: rows === 0 ? 0 : rows * (GRID.rowHeight + GRID.margin) - GRID.margin };
}

/**
 * Where pages may end: between grid rows that no card crosses. Pages of `screen` pixels, each as
 * full as the breaks allow; a card taller than a screen gets a page of its own height.
 */
export function pageBreaks(cards: readonly PlacedCard[], gridTop: number, total: number, screen: number): [number, number][] {
  const candidates = new Set<number>([total]);
  for (const card of cards) {
    const top = gridTop + card.top - GRID.margin / 2;
    if (!cards.some((other) => gridTop + other.top < top && gridTop + other.top + other.height > top)) candidates.add(Math.round(top));
  }
  const breaks = [...candidates].filter((y) => y > 0).sort((a, b) => a - b);
  const pages: [number, number][] = [];
  let start = 0;
  while (start < total) {
    const fitting = breaks.filter((y) => y > start && y - start <= screen);
    const end = fitting.length > 0 ? fitting.at(-1)! : (breaks.find((y) => y > start) ?? total);
    pages.push([start, end]);
    start = end;
  }
  return pages;
}
