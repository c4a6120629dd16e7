import { createCombobox, type ValueList } from './combobox.js';
import { h } from './dom.js';
import {
  DATE_PRESETS,
  FILTER_PARAM_PREFIX,
  PRESET_LABELS,
  dayOf,
  decodeRange,
  encodeRange,
  filterName,
  inputTypeOf,
  isListType,
  presetOf,
  runtimeFilter,
  typedValue,
  valueText,
  type DateRange,
  type RuntimeFilter,
} from './filters.js';
import type { PublicDashboardFilter, PublicFilterConfiguration } from './types.js';

/**
 * The report page's filters: the dashboard's `onReport` filters as controls, whose state lives in
 * the page address (`f.<filterId>=…`, see encodeState) so that a filtered view can be linked and
 * reloaded. Only what a viewer may change is offered: date ranges, field values, and variables
 * marked "viewers may change"; the others are shown read-only. The server decides in the end: a
 * value the page would not offer (an edited address) is sent as it is and its refusal shown.
 */

/** What the address says of each filter: its raw values (several for a list), `['']` when cleared. */
export type FilterState = Map<string, string[]>;

export function readFilterState(search: string): FilterState {
  const state: FilterState = new Map();
  for (const [key, value] of new URLSearchParams(search)) {
    if (!key.startsWith(FILTER_PARAM_PREFIX)) continue;
    const id = key.slice(FILTER_PARAM_PREFIX.length);
    state.set(id, [...(state.get(id) ?? []), value]);
  }
  return state;
}

/** Writes the state into the address bar (replaceState: choosing values does not pile up history). */
export function writeFilterState(state: FilterState): void {
  const url = new URL(window.location.href);
  for (const key of [...url.searchParams.keys()]) if (key.startsWith(FILTER_PARAM_PREFIX)) url.searchParams.delete(key);
  for (const [id, values] of state) for (const value of values) url.searchParams.append(`${FILTER_PARAM_PREFIX}${id}`, value);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** Whether a viewer may change this filter's value on the page. */
export function viewerMayChange(config: PublicFilterConfiguration): boolean {
  return config.type !== 'variable' || config.allowValueChange !== false;
}

/** The filter as the viewer sees it: the saved configuration, with the address's value over it. */
export function viewedConfiguration(config: PublicFilterConfiguration, raw: string[] | undefined): PublicFilterConfiguration {
  if (raw === undefined) return config;
  const text = raw.join(',');
  if (config.type === 'date') {
    const range = text === '' ? {} : decodeRange(text);
    // A value that is no range is left out rather than guessed at.
    return range ? { ...config, preset: range.preset, startDate: range.startDate, endDate: range.endDate } : config;
  }
  if (config.type === 'field') return { ...config, value: raw.length > 1 ? raw : text === '' ? undefined : text };
  return { ...config, value: typedValue(config.dataType, text) };
}

/** A configuration's value as address values ('' when it has none). */
function encodeValue(config: PublicFilterConfiguration): string[] {
  if (config.type === 'date') return [encodeRange(config) ?? ''];
  if (Array.isArray(config.value)) return config.value.map(valueText);
  return [valueText(config.value)];
}

/**
 * The filters the page sends: every filter the address sets (as set, so the server judges an edited
 * address), and the saved values of those a viewer may change. A variable a viewer may not change
 * keeps the value the server applies itself. `unknown`: filter ids of the address that the
 * dashboard does not show on its report, left out (the page says so).
 */
export function runtimeFilters(filters: PublicDashboardFilter[], state: FilterState): { filters: RuntimeFilter[]; unknown: string[] } {
  const out: RuntimeFilter[] = [];
  for (const filter of filters) {
    const raw = state.get(filter.id);
    if (raw === undefined && !viewerMayChange(filter.configuration)) continue;
    const item = runtimeFilter(filter.id, viewedConfiguration(filter.configuration, raw));
    if (item) out.push(item);
  }
  return { filters: out, unknown: [...state.keys()].filter((id) => !filters.some((f) => f.id === id)) };
}

export interface FilterBarOptions {
  filters: PublicDashboardFilter[];
  state: FilterState;
  loadValues(filterId: string, search: string, signal: AbortSignal): Promise<ValueList>;
  /** The state changed (already written to the address): apply it. */
  onChange(state: FilterState): void;
}

export interface FilterBar {
  element: HTMLElement;
  /** "Applying…", "Filtered", an error: said in the bar and announced. */
  setStatus(kind: 'idle' | 'applying' | 'applied' | 'error', text: string): void;
}

let nextId = 0;

export function renderFilterBar(options: FilterBarOptions): FilterBar {
  const state: FilterState = new Map(options.state);
  const controls = h('div', { class: 'report-filter-list' });
  const status = h('p', { class: 'report-filter-status muted', role: 'status' });
  const error = h('div', { class: 'report-filter-error', role: 'alert', hidden: true });
  const reset = h('button', { type: 'button', class: 'report-filter-reset' }, 'Reset filters');
  const element = h(
    'section',
    { class: 'report-filters', 'aria-labelledby': 'report-filters-title' },
    h('h2', { id: 'report-filters-title', class: 'sr-only' }, 'Filters'),
    controls,
    h('div', { class: 'report-filter-footer' }, reset, status),
    error,
  );

  const changed = (id: string, values: string[] | undefined) => {
    if (values === undefined) state.delete(id);
    else state.set(id, values);
    writeFilterState(state);
    reset.disabled = state.size === 0;
    options.onChange(new Map(state));
  };
  reset.disabled = state.size === 0;
  reset.addEventListener('click', () => {
    state.clear();
    writeFilterState(state);
    reset.disabled = true;
    // The controls go back to the saved values.
    controls.replaceChildren(...options.filters.map((filter) => control(filter)));
    options.onChange(new Map(state));
  });

  const control = (filter: PublicDashboardFilter): HTMLElement => {
    const config = viewedConfiguration(filter.configuration, state.get(filter.id));
    const name = filterName(config);
    const id = `report-filter-${++nextId}`;
    const box = h('div', { class: `report-filter report-filter-${config.type}`, 'data-filter-id': filter.id });
    if (config.type === 'variable' && !viewerMayChange(filter.configuration)) {
      box.classList.add('report-filter-fixed');
      box.append(h('span', { class: 'report-filter-label' }, name), h('span', { class: 'report-filter-value', 'data-fixed-value': '' }, valueText(config.value) || 'Not set'));
      return box;
    }
    if (config.type === 'date') {
      box.append(dateControl(id, name, config, (range) => changed(filter.id, [encodeRange(range) ?? ''])));
      return box;
    }
    const label = h('label', { class: 'report-filter-label', for: id }, name);
    const value = encodeValue(config).join(',');
    if (config.valuesFrom) {
      const combo = createCombobox({ label: name, id, value, load: (search, signal) => options.loadValues(filter.id, search, signal), onChange: (text) => changed(filter.id, [text]) });
      box.append(label, combo.element);
      return box;
    }
    const type = config.type === 'variable' ? inputTypeOf(config.dataType) : 'text';
    const input = h('input', { id, type, value, placeholder: config.type === 'variable' && isListType(config.dataType) ? 'a, b, c' : 'Any value' });
    input.addEventListener('change', () => changed(filter.id, [input.value.trim()]));
    box.append(label, input);
    return box;
  };

  controls.append(...options.filters.map((filter) => control(filter)));
  return {
    element,
    setStatus(kind, text) {
      element.dataset['filterState'] = kind;
      document.body.dataset['filterState'] = kind;
      if (kind === 'error') {
        error.hidden = false;
        error.textContent = text;
        status.textContent = '';
      } else {
        error.hidden = true;
        error.textContent = '';
        status.textContent = text;
      }
    },
  };
}

/** A preset list ("Any time", the presets, "Custom range") and, for a custom range, two day fields. */
function dateControl(id: string, name: string, range: DateRange, onChange: (range: DateRange) => void): HTMLElement {
  const select = h('select', { id }, h('option', { value: '' }, 'Any time'), ...DATE_PRESETS.map((preset) => h('option', { value: preset }, PRESET_LABELS[preset])));
  select.value = range.preset ?? (dayOf(range.startDate) || dayOf(range.endDate) ? 'custom' : '');
  const from = h('input', { type: 'date', id: `${id}-from`, value: dayOf(range.startDate) });
  const to = h('input', { type: 'date', id: `${id}-to`, value: dayOf(range.endDate) });
  const custom = h(
    'div',
    { class: 'report-filter-range' },
    h('label', { for: `${id}-from` }, 'From'),
    from,
    h('label', { for: `${id}-to` }, 'To'),
    to,
  );
  const sync = () => {
    custom.hidden = select.value !== 'custom';
  };
  sync();
  select.addEventListener('change', () => {
    sync();
    const preset = presetOf(select.value);
    // A custom range waits for a day to be chosen; a preset or "Any time" applies at once.
    if (preset === 'custom') {
      if (from.value !== '' || to.value !== '') onChange({ preset, startDate: from.value || undefined, endDate: to.value || undefined });
      return;
    }
    onChange(preset ? { preset } : {});
  });
  const dayChanged = () => onChange({ preset: 'custom', startDate: from.value || undefined, endDate: to.value || undefined });
  from.addEventListener('change', dayChanged);
  to.addEventListener('change', dayChanged);
  return h('div', { class: 'report-filter-date' }, h('label', { class: 'report-filter-label', for: id }, name), select, custom);
}
