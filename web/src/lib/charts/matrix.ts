import { h } from '../dom.js';
import { isDark } from '../theme.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 12;
const GAP = 3;
const DAYS = ['Mon', '', 'Wed', '', 'Fri', '', ''];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Cell {
  x: string;
  v: number | null;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** Monday = 0 … Sunday = 6 for a YYYY-MM-DD label (read as a calendar date, no time zone). */
function weekday(date: Date): number {
  return (date.getUTCDay() + 6) % 7;
}

/** A calendar heatmap: one column per week, one row per weekday, darker for more. */
export function renderMatrix(body: HTMLElement, chartData: unknown, colour = '#4E79A7'): void {
  const datasets = ((chartData as { data?: { datasets?: { label?: string; data?: Cell[] }[] } })?.data?.datasets ?? []).filter((d) => Array.isArray(d.data));
  if (datasets.length === 0 || datasets.every((d) => d.data!.length === 0)) {
    body.append(h('p', { class: 'empty' }, 'No data in this period.'));
    return;
  }
  const empty = isDark() ? '#2a3140' : '#ebedf0';
  for (const dataset of datasets) {
    const cells = dataset.data!.filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c.x));
    if (cells.length === 0) continue;
    const first = new Date(`${cells[0]!.x}T00:00:00Z`);
    const offset = weekday(first);
    const max = Math.max(1, ...cells.map((c) => c.v ?? 0));
    const weeks = Math.ceil((offset + cells.length) / 7);
    const left = 28;
    const top = 16;
    const width = left + weeks * (CELL + GAP);
    const height = top + 7 * (CELL + GAP);
    const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${dataset.label ?? 'Activity'} calendar`, class: 'heatmap' });
    // Grows with the card up to twice its natural size, so a short period still reads well.
    root.style.width = '100%';
    root.style.maxWidth = `${width * 2}px`;
    // A long period keeps readable cells and scrolls inside its card instead.
    root.style.minWidth = `${Math.min(width, 560)}px`;
    DAYS.forEach((day, row) => {
      if (!day) return;
      const text = svg('text', { x: 0, y: top + row * (CELL + GAP) + CELL - 2, class: 'heatmap-label' });
      text.textContent = day;
      root.append(text);
    });
    let lastMonth = -1;
    cells.forEach((c, index) => {
      const position = offset + index;
      const column = Math.floor(position / 7);
      const row = position % 7;
      const date = new Date(`${c.x}T00:00:00Z`);
      if (date.getUTCMonth() !== lastMonth && row <= 1) {
        lastMonth = date.getUTCMonth();
        const text = svg('text', { x: left + column * (CELL + GAP), y: 10, class: 'heatmap-label' });
        text.textContent = MONTHS[lastMonth]!;
        root.append(text);
      }
      const value = c.v ?? 0;
      const level = value <= 0 ? 0 : Math.ceil((value / max) * 4);
      const rect = svg('rect', {
        x: left + column * (CELL + GAP),
        y: top + row * (CELL + GAP),
        width: CELL,
        height: CELL,
        rx: 2,
        fill: level === 0 ? empty : colour,
        'fill-opacity': level === 0 ? 1 : 0.25 + level * 0.1875,
        'data-date': c.x,
        'data-value': value,
      });
      const title = svg('title', {});
      title.textContent = `${c.x}: ${value}`;
      rect.append(title);
      root.append(rect);
    });
    const block = h('div', { class: 'heatmap-block' });
    if (datasets.length > 1) block.append(h('div', { class: 'table-title' }, dataset.label ?? ''));
    block.append(root);
    body.append(block);
  }
}
