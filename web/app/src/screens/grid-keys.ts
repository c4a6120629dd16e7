import type { Layout } from 'react-grid-layout';

const MIN = 2;
const MAX_H = 12;

/**
 * A grid layout after one key on a card: an arrow moves it by a cell, Shift+arrow resizes it by a
 * cell (at least 2 × 2, within the columns). The grid packs cards upwards, so a card moves up or
 * down by taking the place of the card above or below it: the other cards follow. Null for any
 * other key, or when the card cannot go further.
 */
export function keyboardLayout(layout: readonly Layout[], id: string, key: string, shift: boolean, cols: number): { layout: Layout[]; item: Layout } | null {
  const current = layout.find((l) => l.i === id);
  if (!current) return null;
  const others = layout.filter((l) => l.i !== id);
  let next: Layout;
  if (shift) {
    const w = key === 'ArrowRight' ? current.w + 1 : key === 'ArrowLeft' ? current.w - 1 : current.w;
    const h = key === 'ArrowDown' ? current.h + 1 : key === 'ArrowUp' ? current.h - 1 : current.h;
    if (!['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'].includes(key)) return null;
    if (w < MIN || h < MIN || h > MAX_H || current.x + w > cols) return null;
    next = { ...current, w, h };
  } else if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const x = current.x + (key === 'ArrowRight' ? 1 : -1);
    if (x < 0 || x + current.w > cols) return null;
    next = { ...current, x };
  } else if (key === 'ArrowUp' || key === 'ArrowDown') {
    // The nearest card above (or below) that shares a column: this card goes to its row, and it below (above).
    const overlaps = (l: Layout) => l.x < current.x + current.w && current.x < l.x + l.w;
    const candidates = others.filter((l) => overlaps(l) && (key === 'ArrowUp' ? l.y < current.y : l.y > current.y));
    if (candidates.length === 0) return null;
    const target = candidates.reduce((a, b) => (key === 'ArrowUp' ? (b.y > a.y ? b : a) : b.y < a.y ? b : a));
    // Packing keeps the order of the rows: one row apart is enough to put one card before the other.
    next = key === 'ArrowUp' ? { ...current, y: target.y } : { ...current, y: current.y + 1 };
    const moved = key === 'ArrowUp' ? { ...target, y: target.y + 1 } : { ...target, y: current.y };
    return pack([...others.map((l) => (l.i === target.i ? moved : l)), next], next);
  } else {
    return null;
  }
  return pack([...others, next], next);
}

/** Packs the cards upwards as the grid does (none passes another), the changed card first among equals, and finds it again. */
function pack(layout: Layout[], changed: Layout): { layout: Layout[]; item: Layout } {
  const sorted = [...layout].sort((a, b) => a.y - b.y || (a.i === changed.i ? -1 : b.i === changed.i ? 1 : a.x - b.x));
  const placed: Layout[] = [];
  for (const l of sorted) {
    const hitAt = (y: number) => placed.find((p) => p.x < l.x + l.w && l.x < p.x + p.w && p.y < y + l.h && y < p.y + p.h);
    // Up while nothing is in the way, then below whatever it still overlaps.
    let y = l.y;
    while (y > 0 && !hitAt(y - 1)) y -= 1;
    for (let hit = hitAt(y); hit; hit = hitAt(y)) y = hit.y + hit.h;
    placed.push({ ...l, y });
  }
  return { layout: placed, item: placed.find((l) => l.i === changed.i)! };
}
