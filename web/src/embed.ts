import { ApiError, fetchShared, takeLinkState } from './lib/api.js';
import { renderChartCard, type RenderedChart } from './lib/charts/index.js';
import { clear, h } from './lib/dom.js';
import { keepCurrent, passingFailure } from './lib/keep-current.js';
import { showError, showLoading } from './lib/states.js';
import { applyTheme, onSchemeChange } from './lib/theme.js';
import type { SharedChart } from './lib/types.js';

const root = document.getElementById('app') as HTMLElement;
const link = takeLinkState();
applyTheme(link.theme ?? 'os');
// /chart/<share_string>/embedded
const shareString = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');

const path = `/chart/share/${encodeURIComponent(shareString)}`;
let view: RenderedChart | undefined;
/** The chart as last drawn, to redraw only when a read brings something new. */
let drawn = '';

onSchemeChange(() => view?.redraw());

function draw(chart: SharedChart): void {
  applyTheme(chart.theme);
  clear(root);
  root.removeAttribute('aria-busy');
  document.title = chart.name ?? 'Chart';
  view = renderChartCard(chart, { titleLevel: 'h1' });
  view.card.classList.add('embed-card');
  root.append(view.card);
  if (chart.showBranding) root.append(h('footer', { class: 'branding' }, 'Made with Plotline'));
  view.redraw();
  drawn = JSON.stringify(chart);
  document.body.dataset['state'] = 'ready';
}

async function load(): Promise<void> {
  showLoading(root, 'Loading the chart…');
  try {
    draw(await fetchShared<SharedChart>(path, link));
  } catch (error) {
    showError(root, error, 'chart');
    return;
  }
  // Left open, the chart follows its refreshes (docs/sharing.md); a link revoked since says so.
  const stop = keepCurrent(async () => {
    try {
      const chart = await fetchShared<SharedChart>(path, link);
      if (JSON.stringify(chart) !== drawn) draw(chart);
    } catch (error) {
      if (passingFailure(error)) return;
      stop();
      showError(root, error, 'chart');
    }
  });
}

if (shareString === '') showError(root, new ApiError(404, 'NOT_FOUND', 'Not found'), 'chart');
else void load();
