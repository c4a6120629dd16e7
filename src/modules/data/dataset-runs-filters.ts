import { compileConditions, CONDITION_OPERATORS, InvalidChartConfigError, isDatePreset, isRangeBound, resolveDateRange, ZoneClock } from '../../engine/index.js';
import type { ChartCondition, DatePreset } from '../../engine/index.js';
import { stableHash } from '../../runtime/cache/cache-key.js';
import { ValidationError } from '../../errors/index.js';

/** A condition on a field of the rows (Chartbrew's field filter); `charts` limits it to those chart ids. */
export interface FieldFilter {
  type: 'field';
  field: string;
  /** `is` when left out. */
  operator?: string;
  value?: unknown;
  id?: string;
  charts?: number[];
}

/** A range on the date field of the rows: a preset (resolved in the dashboard's zone) or dates. */
export interface DateFilter {
  type: 'date';
  startDate?: string | null;
  endDate?: string | null;
  preset?: DatePreset;
  id?: string;
  charts?: number[];
}

/** A value for a variable of the datasets, as if given in `variables`. */
export interface VariableFilter {
  type: 'variable';
  variable: string;
  value?: unknown;
  id?: string;
}

/** One item of a runtime filter state. */
export type RuntimeFilter = FieldFilter | DateFilter | VariableFilter;

/** A filter as it changes rows, once resolved for one chart: no ids, no chart lists, no presets. */
export type RowFilter = { type: 'field'; field: string; operator: string; value: unknown } | { type: 'date'; startDate: string | null; endDate: string | null };

/** What a filter state does to one chart's run: its row filters (canonical order) and its variables. */
export interface ChartFilterState {
  filters: RowFilter[];
  variables: Record<string, unknown>;
}

const OPERATORS: ReadonlySet<string> = new Set(CONDITION_OPERATORS);

/**
 * Filter types Chartbrew's client sends for what it does itself (paging, sorting, columns): they
 * never change the server's answer or its cache key, so they are dropped here.
 */
const CLIENT_ONLY = new Set(['pagination', 'page', 'sort', 'localSort', 'local_sort', 'display', 'view', 'columnToggle', 'column_toggle']);

const MAX_ID = 200;

/**
 * `filters` arrives as a JSON string (GET) or a value (POST): an object of `{field: value}`
 * equality filters, or an array of field, date and variable filters (client-only types dropped).
 */
export function parseFilters(raw: unknown, path = 'querystring.filters'): RuntimeFilter[] {
  return parseFilterEntries(raw, path).map((entry) => entry.filter);
}

/** `parseFilters` with each filter's place in the request (`body.filters.3`), for errors about it later. */
export function parseFilterEntries(raw: unknown, path = 'querystring.filters'): { path: string; filter: RuntimeFilter }[] {
  let value = raw;
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw ValidationError.field(path, 'must be JSON: an object of {field: value} or an array of filters');
    }
  }
  if (Array.isArray(value)) {
    const entries: { path: string; filter: RuntimeFilter }[] = [];
    value.forEach((item: unknown, i) => {
      const at = `${path}.${i}`;
      const filter = parseFilter(item, at);
      if (filter) entries.push({ path: at, filter });
    });
    return entries;
  }
  if (isRecord(value)) {
    return Object.entries(value).map(([field, v]) => ({ path: `${path}.${field}`, filter: { type: 'field', field, operator: 'is', value: v } }));
  }
  throw ValidationError.field(path, 'must be an object or an array');
}

/** Whether a filter state item is one of the client-only types (dropped by `parseFilters`). */
export function isClientOnlyFilter(item: unknown): boolean {
  return isRecord(item) && typeof item['type'] === 'string' && CLIENT_ONLY.has(item['type']);
}

function parseFilter(item: unknown, at: string): RuntimeFilter | undefined {
  if (!isRecord(item)) throw ValidationError.field(at, 'must be an object');
  if (isClientOnlyFilter(item)) return undefined;
  const id = optionalId(item['id'], `${at}.id`);
  const type = item['type'];
  if (type === 'date') {
    const filter: DateFilter = { type: 'date', startDate: rangeBound(item['startDate'], `${at}.startDate`), endDate: rangeBound(item['endDate'], `${at}.endDate`) };
    const preset = item['preset'];
    if (preset !== undefined && preset !== null) {
      if (!isDatePreset(preset)) throw ValidationError.field(`${at}.preset`, 'must be a date preset such as last_30_days, this_month or custom');
      filter.preset = preset;
    }
    if ((filter.preset === undefined || filter.preset === 'custom') && filter.startDate && filter.endDate) {
      // The order of two bounds does not depend on the zone they are read in.
      resolveOrFail({ startDate: filter.startDate, endDate: filter.endDate }, 'UTC', at);
    }
    return withScope(filter, id, item['charts'], `${at}.charts`);
  }
  if (type === 'variable') {
    const variable = item['variable'];
    if (typeof variable !== 'string' || variable === '') throw ValidationError.field(`${at}.variable`, 'is required: the name of a variable');
    return { type: 'variable', variable, value: item['value'], ...(id !== undefined ? { id } : {}) };
  }
  if (type !== undefined && type !== null && type !== 'field') {
    throw ValidationError.field(`${at}.type`, 'must be field, date or variable');
  }
  const field = item['field'];
  if (typeof field !== 'string' || field === '') throw ValidationError.field(`${at}.field`, 'is required');
  const operator = item['operator'];
  if (operator === undefined || operator === null) return withScope({ type: 'field', field, value: item['value'] }, id, item['charts'], `${at}.charts`);
  if (typeof operator !== 'string' || !OPERATORS.has(operator)) throw ValidationError.field(`${at}.operator`, `must be one of ${[...OPERATORS].join(', ')}`);
  return withScope({ type: 'field', field, operator, value: item['value'] }, id, item['charts'], `${at}.charts`);
}

function withScope<T extends FieldFilter | DateFilter>(filter: T, id: string | undefined, charts: unknown, path: string): T {
  if (id !== undefined) filter.id = id;
  if (charts === undefined || charts === null) return filter;
  if (!Array.isArray(charts) || !charts.every((c) => Number.isInteger(c) && c > 0)) throw ValidationError.field(path, 'must be an array of chart ids');
  filter.charts = charts;
  return filter;
}

function optionalId(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== 'string' && typeof value !== 'number') || String(value).length > MAX_ID) throw ValidationError.field(path, `must be a string of at most ${MAX_ID} characters`);
  return String(value);
}

function rangeBound(value: unknown, path: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !isRangeBound(value)) throw ValidationError.field(path, 'must be an ISO 8601 date or date-time');
  return value;
}

function resolveOrFail(input: Parameters<typeof resolveDateRange>[0], timezone: string, at: string) {
  try {
    return resolveDateRange(input, timezone, new Date());
  } catch (error) {
    const detail = error instanceof InvalidChartConfigError ? error.details?.[0] : undefined;
    if (detail) throw ValidationError.field(`${at}.${detail.path}`, detail.message);
    throw error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `variables` of a run body: an object of `{name: value}`; absent, null or `[]` (Chartbrew's
 * client sends an empty array) is none. Copied without a prototype, so no name is special.
 */
export function parseRuntimeVariables(raw: unknown, path = 'body.variables'): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) return variables;
  if (!isRecord(raw)) throw ValidationError.field(path, 'must be an object of {name: value}');
  for (const [name, value] of Object.entries(raw)) variables[name] = value;
  return variables;
}

/**
 * The part of a filter state that applies to one chart, in one canonical form: filters limited to
 * other charts left out, presets resolved to instants in `timezone` at `now`, variable filters
 * moved into variables (a later one wins), ids dropped, duplicates removed and the rest sorted. Two
 * states that filter the chart alike give equal results, and so share one cache entry.
 */
export function filtersForChart(filters: readonly RuntimeFilter[], chartId: number, timezone: string, now: Date = new Date()): ChartFilterState {
  const variables: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const rows = new Map<string, RowFilter>();
  for (const filter of filters) {
    if (filter.type === 'variable') {
      variables[filter.variable] = filter.value;
      continue;
    }
    if (filter.charts !== undefined && !filter.charts.includes(chartId)) continue;
    const row = rowFilter(filter, timezone, now);
    if (row) rows.set(stableHash(row), row);
  }
  const sorted = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { filters: sorted, variables: { ...variables } };
}

/** What a filter may reach of one dataset configuration of a chart: its date field (its own or its dataset's), and the variables its dataset's requests name. */
export interface FilterTarget {
  dateField: string | null;
  variables: ReadonlySet<string>;
}

const VALUELESS_OPERATORS = new Set(['isNull', 'isNotNull']);

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * The ids of a state's filters that narrow one chart, by the rules its run applies them
 * (filtersForChart, filtersToConditions, the datasets' variables): those in reach of it
 * (`filtersInReach`) that have a value. A filter without a value (or a date filter without a
 * range) narrows nothing. Filters sent without an id are not named. In the state's order, each id once.
 */
export function filtersReaching(filters: readonly RuntimeFilter[], chartId: number, targets: readonly FilterTarget[]): string[] {
  return reachingIds(filters, (filter) => hasValue(filter) && inReach(filter, chartId, targets));
}

/**
 * The ids of a state's filters that would narrow one chart once they have a value, whether they
 * have one or not (what the editor says of a filter before a value is set): a field filter reaches
 * every chart computed from a dataset, a date filter one whose configurations have a date field,
 * each unless its `charts` leave the chart out; a variable filter reaches a chart whose datasets
 * name the variable. A chart without a configuration on an existing dataset (`targets` empty) is
 * reached by none. Filters sent without an id are not named. In the state's order, each id once.
 */
export function filtersInReach(filters: readonly RuntimeFilter[], chartId: number, targets: readonly FilterTarget[]): string[] {
  return reachingIds(filters, (filter) => inReach(filter, chartId, targets));
}

function reachingIds(filters: readonly RuntimeFilter[], reaches: (filter: RuntimeFilter) => boolean): string[] {
  const ids: string[] = [];
  for (const filter of filters) {
    if (filter.id === undefined || ids.includes(filter.id)) continue;
    if (reaches(filter)) ids.push(filter.id);
  }
  return ids;
}

/** Whether a filter changes anything once in reach: a value (none needed by isNull, isNotNull), or a date range. */
function hasValue(filter: RuntimeFilter): boolean {
  if (filter.type === 'variable') return !isEmptyValue(filter.value);
  if (filter.type === 'field') return VALUELESS_OPERATORS.has(filter.operator ?? 'is') || !isEmptyValue(filter.value);
  const custom = filter.preset === undefined || filter.preset === 'custom';
  return !custom || Boolean(filter.startDate) || Boolean(filter.endDate);
}

/** Whether a filter with a value would narrow the chart, from its kind, its `charts` and what the chart's configurations hold. */
function inReach(filter: RuntimeFilter, chartId: number, targets: readonly FilterTarget[]): boolean {
  if (filter.type === 'variable') return targets.some((target) => target.variables.has(filter.variable));
  if (filter.charts !== undefined && !filter.charts.includes(chartId)) return false;
  if (filter.type === 'field') return targets.length > 0;
  return targets.some((target) => target.dateField !== null && target.dateField !== '');
}

/** A field or date filter as it changes rows; a date filter without a preset or a bound changes nothing. */
function rowFilter(filter: FieldFilter | DateFilter, timezone: string, now: Date): RowFilter | undefined {
  if (filter.type === 'field') return { type: 'field', field: filter.field, operator: filter.operator ?? 'is', value: filter.value ?? null };
  const custom = filter.preset === undefined || filter.preset === 'custom';
  if (custom && !filter.startDate && !filter.endDate) return undefined;
  const range = resolveDateRange({ preset: filter.preset, startDate: filter.startDate, endDate: filter.endDate }, timezone, now);
  return { type: 'date', startDate: range.startDate, endDate: range.endDate };
}

/**
 * Field filters plus date ranges (on `dateField`, read in `timezone`) as engine conditions;
 * variable filters change no row. Resolving a range already resolved gives it back unchanged.
 */
export function filtersToConditions(filters: readonly RuntimeFilter[], dateField: string | null, timezone = 'UTC', now: Date = new Date()): ChartCondition[] {
  const conditions: ChartCondition[] = [];
  for (const filter of filters) {
    if (filter.type === 'variable') continue;
    if (filter.type === 'field') {
      conditions.push({ field: filter.field, operator: filter.operator ?? 'is', value: filter.value });
      continue;
    }
    const range = dateField ? rowFilter(filter, timezone, now) : undefined;
    if (!dateField || range?.type !== 'date') continue;
    if (range.startDate) conditions.push({ field: dateField, operator: 'greaterOrEqual', value: range.startDate });
    if (range.endDate) conditions.push({ field: dateField, operator: 'lessOrEqual', value: range.endDate });
  }
  return conditions;
}

/** A row predicate for the filters, or null when there is nothing to filter. */
export function filterPredicate(filters: readonly RuntimeFilter[], dateField: string | null, timezone = 'UTC'): ((row: unknown) => boolean) | null {
  const conditions = filtersToConditions(filters, dateField, timezone);
  if (conditions.length === 0) return null;
  return compileConditions(conditions, ZoneClock.of(timezone));
}
