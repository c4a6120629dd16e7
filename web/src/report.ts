import { ApiError, fetchShared, postShared, takeLinkState } from './lib/api.js';
import type { ValueList } from './lib/combobox.js';
import { renderChartCard, placeCard, reportOrder, type CardFilters, type RenderedChart } from './lib/charts/index.js';
import { clear, h, safeUrl } from './lib/dom.js';
import { FILTER_PARAM_PREFIX, filterName } from './lib/filters.js';
import { codeFrame, updateFrameSchemes } from './lib/frames.js';
import { keepCurrent, passingFailure } from './lib/keep-current.js';
import { readFilterState, renderFilterBar, runtimeFilters, type FilterBar, type FilterState } from './lib/report-filters.js';
import { filterErrorText, showError, showLoading, showPasswordForm } from './lib/states.js';
import { applyTheme, onSchemeChange } from './lib/theme.js';
import type { PublicChart, PublicDashboardFilter, SharedDashboard, SharedFilteredCharts } from './lib/types.js';

const root = document.getElementById('app') as HTMLElement;
const link = takeLinkState();
applyTheme(link.theme ?? 'os');
// /report/<brewName>
const brewName = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
const base = `/project/dashboard/${encodeURIComponent(brewName)}`;
let password: string | undefined;
let rendered: RenderedChart[] = [];
let filterState: FilterState = readFilterState(window.location.search);
/** Counts filter runs, so that an answer overtaken by a newer choice is dropped. */
let filterRun = 0;
/** What the page shows now: the dashboard as read, and the parts a new read redraws. */
let current: { dashboard: SharedDashboard; filters: PublicDashboardFilter[]; grid: HTMLElement; bar: FilterBar | undefined } | undefined;
/** Stops the reads of a report left open (keepCurrent), once it started them. */
let stopReading: (() => void) | undefined;

onSchemeChange(() => {
  rendered.forEach((chart) => chart.redraw());
  updateFrameSchemes();
});

function renderDashboard(dashboard: SharedDashboard): void {
  applyTheme(dashboard.theme);
  clear(root);
  root.removeAttribute('aria-busy');
  const title = dashboard.dashboardTitle || dashboard.name;
  document.title = title;

  const header = h('header', { class: 'report-header' });
  if (dashboard.backgroundColor) header.style.setProperty('--header-bg', dashboard.backgroundColor);
  if (dashboard.titleColor) header.style.setProperty('--header-fg', dashboard.titleColor);
  const logoSrc = safeUrl(dashboard.logo, true);
  if (logoSrc) {
    const logo = h('img', { class: 'report-logo', src: logoSrc, alt: `${title} logo` });
    const href = safeUrl(dashboard.logoLink);
    header.append(href ? h('a', { href, target: '_blank', rel: 'noopener noreferrer', class: 'report-logo-link' }, logo) : logo);
  }
  const titles = h('div', { class: 'report-titles' }, h('h1', { class: 'report-title' }, title));
  if (dashboard.description) titles.append(h('p', { class: 'report-description' }, dashboard.description));
  header.append(titles);
  root.append(header);

  if (dashboard.headerCode) root.append(codeFrame(dashboard.headerCode, 'Dashboard header'));

  const filters = [...dashboard.DashboardFilters].sort((a, b) => a.position - b.position);
  const bar =
    filters.length > 0
      ? renderFilterBar({
          filters,
          state: filterState,
          loadValues: (filterId, search) => fetchShared<ValueList>(`${base}/filter/${encodeURIComponent(filterId)}/values`, { ...link, params: [], theme: undefined }, password, [['search', search]]),
          onChange: (state) => {
            filterState = state;
            void applyFilters(dashboard, filters, grid, bar);
          },
        })
      : undefined;
  if (bar) root.append(bar.element);

  const grid = h('section', { class: 'grid', 'aria-label': 'Charts' });
  root.append(grid);
  if (dashboard.footerCode) root.append(codeFrame(dashboard.footerCode, 'Dashboard footer'));
  if (dashboard.showBranding) root.append(h('footer', { class: 'branding' }, 'Made with Plotline'));

  current = { dashboard, filters, grid, bar };
  if (runtimeFilters(filters, filterState).filters.length > 0) void applyFilters(dashboard, filters, grid, bar);
  else {
    drawCharts(dashboard, grid, dashboard.Charts);
    if (bar) reportUnknown(filters, bar, 'idle', '');
  }
}

/**
 * Reads the dashboard again: charts whose data moved are drawn again (with the filters set, run
 * again), anything else that changed (title, filters, layout) draws the page again; the filter
 * state, the address and the scroll position stay. A link since revoked, expired or given a new
 * password says so; a failed read (the network) keeps the page as it is until the next one.
 */
async function readAgain(): Promise<void> {
  if (!current) return;
  let next: SharedDashboard;
  try {
    next = await fetchShared<SharedDashboard>(base, link, password);
  } catch (error) {
    if (!(error instanceof ApiError) || passingFailure(error)) return;
    stopReading?.();
    stopReading = undefined;
    if (error.code === 'PASSWORD_REQUIRED' || error.code === 'PASSWORD_INVALID') {
      password = undefined;
      void load();
    } else showError(root, error, 'dashboard');
    return;
  }
  const shown = current.dashboard;
  const sameCharts = JSON.stringify(next.Charts) === JSON.stringify(shown.Charts);
  if (sameCharts) return;
  const scroll = window.scrollY;
  if (JSON.stringify({ ...next, Charts: null }) !== JSON.stringify({ ...shown, Charts: null })) renderDashboard(next);
  else {
    current = { ...current, dashboard: next };
    const { filters, grid, bar } = current;
    if (runtimeFilters(filters, filterState).filters.length > 0) await applyFilters(next, filters, grid, bar);
    else drawCharts(next, grid, next.Charts);
  }
  window.scrollTo({ top: scroll });
}



/**
 * The charts in the grid. Filtered (`filters`: each chart's filter notes, by chart id), a chart
 * with nothing to show says so, and each card says which of the filters set narrow it and which
 * do not reach it.
 */
function drawCharts(dashboard: SharedDashboard, grid: HTMLElement, charts: PublicChart[], filters?: Map<number, CardFilters>): void {
  clear(grid);
  rendered = [];
  const ordered = reportOrder(charts);
  if (ordered.length === 0) grid.append(h('p', { class: 'empty wide' }, 'This dashboard has no charts to show yet.'));
  for (const chart of ordered) {
    const notes = filters?.get(chart.id);
    const view = renderChartCard(chart, filters ? { emptyText: 'No data for these filters.', ...(notes ? { filters: notes } : {}) } : {});
    placeCard(view.card, chart);
    if (dashboard.allowExport) view.card.querySelector('.card-header')?.append(exportButtons(chart.id, chart.name ?? 'chart'));
    grid.append(view.card);
    rendered.push(view);
  }
  // Drawn once the cards are in the page, so canvases know their size.
  for (const view of rendered) view.redraw();
  document.body.dataset['state'] = 'ready';
}

/**
 * Runs the dashboard's charts for the filters as the page holds them (one request for all), then
 * draws them. Without any filter to apply, the charts show their saved data again. A refusal (a
 * pinned parameter, a filter a viewer may not change, a bad value) is said in the filter bar, and
 * the charts show the dashboard without filters rather than a view that does not match the address.
 */
async function applyFilters(dashboard: SharedDashboard, filters: PublicDashboardFilter[], grid: HTMLElement, bar: FilterBar | undefined): Promise<void> {
  const run = ++filterRun;
  const { filters: state } = runtimeFilters(filters, filterState);
  if (state.length === 0) {
    drawCharts(dashboard, grid, dashboard.Charts);
    if (bar) reportUnknown(filters, bar, 'idle', '');
    return;
  }
  bar?.setStatus('applying', 'Applying the filters…');
  grid.setAttribute('aria-busy', 'true');
  try {
    const answer = await postShared<SharedFilteredCharts>(`${base}/filter`, link, { filters: state }, password);
    if (run !== filterRun) return;
    const byId = new Map(answer.charts.map((chart) => [chart.id, chart]));
    // The filters sent, by name; the server says which of them narrow each chart (`filteredBy`).
    const names = new Map(state.map((item) => [item.id, filterName(filters.find((f) => f.id === item.id)!.configuration)]));
    const notes = new Map<number, CardFilters>();
    const charts = dashboard.Charts.map((chart): PublicChart => {
      const computed = byId.get(chart.id);
      if (!computed) return chart;
      if (!('chartData' in computed)) return { ...chart, chartData: null, error: computed.error };
      const by = new Set(computed.filteredBy);
      notes.set(chart.id, { by: [...names].filter(([id]) => by.has(id)).map(([, name]) => name), notBy: [...names].filter(([id]) => !by.has(id)).map(([, name]) => name) });
      // Computed now (or from the result cache): not the saved data a schedule may leave overdue
      // or a failed refresh left.
      return { ...chart, chartData: computed.chartData, chartDataUpdated: computed.chartDataUpdated, refreshOverdue: null, lastError: null, error: undefined };
    });
    drawCharts(dashboard, grid, charts, notes);
    if (bar) reportUnknown(filters, bar, 'applied', `Filtered by ${state.length} filter${state.length === 1 ? '' : 's'}.`);
  } catch (error) {
    if (run !== filterRun) return;
    if (error instanceof ApiError && (error.code === 'PASSWORD_REQUIRED' || error.code === 'PASSWORD_INVALID')) {
      password = undefined;
      void load();
      return;
    }
    drawCharts(dashboard, grid, dashboard.Charts);
    bar?.setStatus('error', `${filterErrorText(error)} The charts show the dashboard without filters.`);
  } finally {
    if (run === filterRun) grid.removeAttribute('aria-busy');
  }
}

/** An address naming a filter this report does not show: said, instead of ignored in silence. */
function reportUnknown(filters: PublicDashboardFilter[], bar: FilterBar, kind: 'idle' | 'applied', text: string): void {
  const unknown = runtimeFilters(filters, filterState).unknown;
  if (unknown.length === 0) bar.setStatus(kind, text);
  else {
    const names = unknown.map((id) => `${FILTER_PARAM_PREFIX}${id}`).join(', ');
    bar.setStatus('error', `The address sets ${names}, which is no filter a viewer of this link may set (the link fixes it, or it left the report); it was left out.`);
  }
}

/**
 * CSV/XLSX of one chart, when the team allows report exports. Fetched with the in-memory token (and
 * the password header), then saved from a blob: the token never goes into a link in the page.
 */
function exportButtons(chartId: number, name: string): HTMLElement {
  const button = (format: 'csv' | 'xlsx') => {
    const el = h('button', { type: 'button', class: 'export-button', 'aria-label': `Download ${name} as ${format.toUpperCase()}` }, format.toUpperCase());
    el.addEventListener('click', () => {
      void (async () => {
        const query = new URLSearchParams(link.params);
        query.set('format', format);
        if (link.token) query.set('token', link.token);
        const headers: Record<string, string> = password !== undefined ? { pass: password } : {};
        const response = await fetch(`${base}/chart/${chartId}/export?${query.toString()}`, { headers, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as { error?: string } | null;
          el.title = body?.error ?? `The export failed (${response.status})`;
          el.dataset['state'] = 'error';
          return;
        }
        const url = URL.createObjectURL(await response.blob());
        const a = h('a', { href: url, download: `${name}.${format}` });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      })();
    });
    return el;
  };
  return h('span', { class: 'export-buttons' }, button('csv'), button('xlsx'));
}

async function load(): Promise<void> {
  showLoading(root, password === undefined ? 'Loading the dashboard…' : 'Checking the password…');
  try {
    renderDashboard(await fetchShared<SharedDashboard>(base, link, password));
    stopReading ??= keepCurrent(readAgain);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'PASSWORD_REQUIRED' || error.code === 'PASSWORD_INVALID')) {
      showPasswordForm(root, error.code === 'PASSWORD_INVALID', (value) => {
        password = value;
        void load();
      });
      return;
    }
    showError(root, error, 'dashboard');
  }
}

if (brewName === '') showError(root, new ApiError(404, 'NOT_FOUND', 'Not found'), 'dashboard');
else void load();
