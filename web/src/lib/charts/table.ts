import { clear, h } from '../dom.js';
import type { PublicChart, TableData } from '../types.js';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One paged HTML table per dataset. Accessors are plain keys (`customer.name`), not paths. */
export function renderTables(body: HTMLElement, chart: PublicChart, chartData: unknown): void {
  const tables = Object.entries((chartData ?? {}) as Record<string, TableData>).filter(
    ([, table]) => table && Array.isArray(table.columns) && Array.isArray(table.data),
  );
  if (tables.length === 0) {
    body.append(h('p', { class: 'empty' }, 'No rows to show.'));
    return;
  }
  const perPage = Math.max(1, chart.defaultRowsPerPage ?? 10);
  for (const [legend, table] of tables) {
    const section = h('div', { class: 'table-block' });
    if (tables.length > 1) section.append(h('h3', { class: 'table-title' }, legend));
    const tbody = h('tbody');
    const pager = h('div', { class: 'pager' });
    const scroller = h(
      'div',
      { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `${legend} table` },
      h('table', { class: 'data-table' }, h('thead', {}, h('tr', {}, ...table.columns.map((column) => h('th', { scope: 'col' }, column.Header)))), tbody),
    );
    section.append(scroller, pager);
    body.append(section);

    const pages = Math.max(1, Math.ceil(table.data.length / perPage));
    const show = (page: number) => {
      clear(tbody);
      for (const row of table.data.slice(page * perPage, (page + 1) * perPage)) {
        tbody.append(h('tr', {}, ...table.columns.map((column) => h('td', {}, cell(row[column.accessor])))));
      }
      clear(pager);
      if (pages === 1) {
        pager.append(h('span', { class: 'muted' }, `${table.data.length} row${table.data.length === 1 ? '' : 's'}`));
        return;
      }
      const previous = h('button', { type: 'button', disabled: page === 0, 'aria-label': 'Previous page' }, '‹');
      const next = h('button', { type: 'button', disabled: page === pages - 1, 'aria-label': 'Next page' }, '›');
      previous.addEventListener('click', () => show(page - 1));
      next.addEventListener('click', () => show(page + 1));
      pager.append(previous, h('span', { class: 'muted' }, `Page ${page + 1} of ${pages} · ${table.data.length} rows`), next);
    };
    show(0);
  }
}
