import { ApiError, fetchShared, takeLinkState } from './lib/api.js';
import { renderChartCard } from './lib/charts/index.js';
import { clear, h } from './lib/dom.js';
import { showError, showLoading } from './lib/states.js';
import { applyTheme, onSchemeChange } from './lib/theme.js';
import type { SharedChart } from './lib/types.js';

const root = document.getElementById('app') as HTMLElement;
const link = takeLinkState();
applyTheme(link.theme ?? 'os');
// /chart/<share_string>/embedded
const shareString = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');

async function load(): Promise<void> {
  showLoading(root, 'Loading the chart…');
  try {
    const chart = await fetchShared<SharedChart>(`/chart/share/${encodeURIComponent(shareString)}`, link);
    applyTheme(chart.theme);
    clear(root);
    root.removeAttribute('aria-busy');
    document.title = chart.name ?? 'Chart';
    const view = renderChartCard(chart);
    view.card.classList.add('embed-card');
    root.append(view.card);
    if (chart.showBranding) root.append(h('footer', { class: 'branding' }, 'Made with Plotline'));
    view.redraw();
    onSchemeChange(() => view.redraw());
    document.body.dataset['state'] = 'ready';
  } catch (error) {
    showError(root, error, 'chart');
  }
}

if (shareString === '') showError(root, new ApiError(404, 'NOT_FOUND', 'Not found'), 'chart');
else void load();
