import { ApiError, fetchShared, takeLinkState } from './lib/api.js';
import { renderChartCard, placeCard, reportOrder, type RenderedChart } from './lib/charts/index.js';
import { clear, h, safeUrl } from './lib/dom.js';
import { codeFrame, updateFrameSchemes } from './lib/frames.js';
import { showError, showLoading, showPasswordForm } from './lib/states.js';
import { applyTheme, onSchemeChange } from './lib/theme.js';
import type { SharedDashboard } from './lib/types.js';

const root = document.getElementById('app') as HTMLElement;
const link = takeLinkState();
applyTheme(link.theme ?? 'os');
// /report/<brewName>
const brewName = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
let password: string | undefined;
let rendered: RenderedChart[] = [];

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

  const grid = h('section', { class: 'grid', 'aria-label': 'Charts' });
  root.append(grid);
  rendered = [];
  const charts = reportOrder(dashboard.Charts);
  if (charts.length === 0) grid.append(h('p', { class: 'empty wide' }, 'This dashboard has no charts to show yet.'));
  for (const chart of charts) {
    const view = renderChartCard(chart);
    placeCard(view.card, chart);
    if (dashboard.allowExport) view.card.querySelector('.card-header')?.append(exportButtons(chart.id, chart.name ?? 'chart'));
    grid.append(view.card);
    rendered.push(view);
  }
  // Drawn once the cards are in the page, so canvases know their size.
  for (const view of rendered) view.redraw();

  if (dashboard.footerCode) root.append(codeFrame(dashboard.footerCode, 'Dashboard footer'));
  if (dashboard.showBranding) root.append(h('footer', { class: 'branding' }, 'Made with Plotline'));
  document.body.dataset['state'] = 'ready';
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
        const response = await fetch(`/project/dashboard/${encodeURIComponent(brewName)}/chart/${chartId}/export?${query.toString()}`, { headers, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
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
    renderDashboard(await fetchShared<SharedDashboard>(`/project/dashboard/${encodeURIComponent(brewName)}`, link, password));
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
