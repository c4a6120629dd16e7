import { h } from '../dom.js';
import type { AxisChartData, PublicChart } from '../types.js';

/** KPI and average charts: the number, large, with its growth and goal. */
export function renderMetric(body: HTMLElement, chart: PublicChart, data: AxisChartData): void {
  const values = data.values ?? [];
  if (values.length === 0) {
    body.append(h('p', { class: 'empty' }, 'No value yet.'));
    return;
  }
  const list = h('div', { class: `metrics metrics-${Math.min(values.length, 3)}` });
  for (const value of values) {
    const item = h('div', { class: 'metric' });
    item.append(h('div', { class: 'metric-value', 'data-kpi-value': value.formatted }, value.formatted));
    if (values.length > 1 || value.label) item.append(h('div', { class: 'metric-label' }, value.label));
    const growth = value.growth;
    if (chart.showGrowth && growth) {
      const arrow = growth.percent === null ? '' : growth.percent > 0 ? '▲ ' : growth.percent < 0 ? '▼ ' : '';
      const text = growth.percent === null ? 'no previous value' : `${arrow}${Math.abs(growth.percent)}%`;
      item.append(h('div', { class: `metric-growth growth-${growth.status}`, 'data-growth': growth.status }, text, h('span', { class: 'muted' }, ' vs previous')));
    }
    if (value.goal !== null && value.value !== null && value.goal !== 0) {
      const percent = Math.max(0, Math.min(100, Math.round((value.value / value.goal) * 100)));
      const bar = h('div', { class: 'goal-bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent });
      const fill = h('div', { class: 'goal-fill' });
      fill.style.width = `${percent}%`;
      bar.append(fill);
      item.append(bar, h('div', { class: 'goal-text muted' }, `${percent}% of goal ${value.goal}`));
    }
    list.append(item);
  }
  body.append(list);
}
