import { ValidationError } from '../../errors/index.js';
import { isClientOnlyFilter, parseFilterEntries, parseRuntimeVariables, type RuntimeFilter } from '../data/index.js';
import type { DashboardFilter } from './dashboard-filters-repository.js';
import type { FilterConfiguration } from './dashboard-filters-schemas.js';
import { shareErrors } from './sharing-errors.js';
import type { SharePolicyRecord } from './sharing-repository.js';

/*
 * What a viewer of a share link may change, and how: the policy's params are pinned (nothing a
 * viewer sends moves them: 403 SHARE_PARAM_LOCKED); URL parameters become variables only when the
 * policy allows params; on the filter routes, only states of the report's own filters (its
 * `onReport` ones, matched by id) and only their values (400 FILTER_NOT_ALLOWED otherwise).
 */

/**
 * Query parameters that are never variables: the link's own, and the display switches Chartbrew's
 * report page passes on with every parameter of its address (`removeStyling`, `removeHeader`, and
 * its snapshot `accessToken`).
 */
const RESERVED = new Set(['token', 'theme', 'pass', 'accessToken', 'removeStyling', 'removeHeader']);
const MAX_URL_PARAMS = 50;
const MAX_PARAM_KEY = 200;
const MAX_PARAM_VALUE = 2000;

/** A filter state item with its place in the request, for errors that name it. */
interface FilterEntry {
  path: string;
  filter: RuntimeFilter;
}

/** What a caller sent to a filter route: `filters` and `variables` of the body, as they came. */
export interface ViewerFilterRequest {
  filters: unknown;
  variables: unknown;
}

const FILTERS = 'body.filters';
const VARIABLES = 'body.variables';

/** The run inputs a viewer's request comes to once the rules are applied. */
export interface ViewerRunState {
  filters: RuntimeFilter[];
  variables: Record<string, unknown>;
}

/** A pinned param's value as the policy holds it; another value for it is an attempt to move it. */
function pinned(policy: SharePolicyRecord | undefined): Map<string, string> {
  return new Map((policy?.params ?? []).filter((p) => p.key !== '').map((p) => [p.key, p.value]));
}

/** Whether `value` is the pinned value itself (as the text a URL would carry). */
function samePinned(value: unknown, pin: string): boolean {
  return (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && String(value) === pin;
}

/**
 * The variables of a view: the policy's params, then (only when the policy allows it) the URL's
 * parameters other than the reserved ones (token, theme, pass…), which extend them. A URL parameter that would give a
 * pinned param another value is a 403 naming it; one that repeats its value changes nothing.
 */
export function shareVariables(policy: SharePolicyRecord | undefined, query: Record<string, unknown>): Record<string, string> {
  // No prototype: a parameter named __proto__ or constructor is just a (useless) variable name.
  const variables: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!policy) return variables;
  const pins = pinned(policy);
  for (const [key, value] of pins) variables[key] = value;
  if (!policy.allow_params) return variables;
  let count = 0;
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key) || key === '__proto__') continue;
    // A repeated parameter counts once, with its last value.
    const value = Array.isArray(raw) ? raw.at(-1) : raw;
    if (typeof value !== 'string') continue;
    count += 1;
    if (count > MAX_URL_PARAMS) throw new ValidationError(`At most ${MAX_URL_PARAMS} URL parameters may be passed to a shared view`);
    if (key.length > MAX_PARAM_KEY) throw ValidationError.field('querystring', `has a parameter name longer than ${MAX_PARAM_KEY} characters`);
    if (value.length > MAX_PARAM_VALUE) throw ValidationError.field(`querystring.${key}`, `must be at most ${MAX_PARAM_VALUE} characters`);
    const pin = pins.get(key);
    if (pin !== undefined) {
      if (value !== pin) throw shareErrors.paramLocked(`querystring.${key}`, key);
      continue;
    }
    variables[key] = value;
  }
  return variables;
}

/**
 * The run state of a viewer's filter request (each filter keeps the id it was sent with, so the
 * answer can say which of them narrow each chart). Pinned params are checked first, wherever a value
 * for one arrives (a variable, a variable filter); then each filter state must be a state of one
 * of `saved` (the report's filters), and carries only its value (and a date filter its range or
 * preset): field, operator, variable and charts come from the saved filter, and a different one
 * sent along is refused. A variable in `variables` is taken when the policy allows params or a
 * saved variable filter lets viewers change it.
 */
export function viewerFilterState(saved: readonly DashboardFilter[], policy: SharePolicyRecord | undefined, query: Record<string, unknown>, request: ViewerFilterRequest): ViewerRunState {
  const pins = pinned(policy);
  const variables: Record<string, unknown> = shareVariables(policy, query);
  const changeable = new Set(
    saved.flatMap((f) => (f.configuration.type === 'variable' && f.configuration.allowValueChange !== false ? [f.configuration.variable] : [])),
  );
  for (const [name, value] of Object.entries(parseRuntimeVariables(request.variables, VARIABLES))) {
    const path = `${VARIABLES}.${name}`;
    const pin = pins.get(name);
    if (pin !== undefined) {
      if (!samePinned(value, pin)) throw shareErrors.paramLocked(path, name);
      continue;
    }
    if (!policy?.allow_params && !changeable.has(name)) throw shareErrors.filterNotAllowed(path, 'is not a variable viewers of this report may set');
    variables[name] = value;
  }
  const filters = parseFilterEntries(completed(saved, request.filters), FILTERS).map((entry) => savedState(saved, pins, entry));
  return { filters, variables };
}

/** The report filter a state names: by its row id, or by the id Chartbrew's client put inside its configuration. */
function named(saved: readonly DashboardFilter[], id: string): DashboardFilter | undefined {
  return saved.find((f) => f.id === id.toLowerCase() || f.configuration.id === id);
}

/**
 * Each state names a report filter by id, and may send only its value: what it leaves out (the
 * kind, the field, the variable) is the saved filter's, so that the state parses like any other.
 */
function completed(saved: readonly DashboardFilter[], raw: unknown): unknown {
  if (!Array.isArray(raw)) return raw;
  return raw.map((item: unknown, i) => {
    if (!isRecord(item) || isClientOnlyFilter(item)) return item;
    const id = item['id'];
    if (id === undefined || id === null) throw shareErrors.filterNotAllowed(`${FILTERS}.${i}`, "must name one of the report's filters by id");
    const match = typeof id === 'string' || typeof id === 'number' ? named(saved, String(id)) : undefined;
    if (!match) throw shareErrors.filterNotAllowed(`${FILTERS}.${i}.id`, "is not one of the report's filters");
    const config = match.configuration;
    const filled: Record<string, unknown> = { ...item, type: item['type'] ?? config.type };
    if (config.type === 'field' && filled['field'] === undefined) filled['field'] = config.field;
    if (config.type === 'variable' && filled['variable'] === undefined) filled['variable'] = config.variable;
    return filled;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function savedState(saved: readonly DashboardFilter[], pins: Map<string, string>, { path, filter }: FilterEntry): RuntimeFilter {
  if (filter.id === undefined) throw shareErrors.filterNotAllowed(path, "must name one of the report's filters by id");
  const match = named(saved, filter.id);
  if (!match) throw shareErrors.filterNotAllowed(`${path}.id`, "is not one of the report's filters");
  const config: FilterConfiguration = match.configuration;
  if (config.type !== filter.type) throw shareErrors.filterNotAllowed(`${path}.type`, `must be ${config.type}, as the report's filter is`);
  if (config.type === 'variable' && filter.type === 'variable') {
    if (filter.variable !== config.variable) throw shareErrors.filterNotAllowed(`${path}.variable`, `must be ${config.variable}, as the report's filter is`);
    const pin = pins.get(config.variable);
    if (pin !== undefined && !samePinned(filter.value, pin)) throw shareErrors.paramLocked(`${path}.value`, config.variable);
    if (config.allowValueChange === false && !sameValue(filter.value, config.value)) throw shareErrors.filterNotAllowed(`${path}.value`, 'may not be changed on this report');
    return { type: 'variable', id: filter.id, variable: config.variable, value: filter.value };
  }
  if (config.type === 'field' && filter.type === 'field') {
    if (filter.field !== config.field) throw shareErrors.filterNotAllowed(`${path}.field`, `must be ${config.field}, as the report's filter is`);
    if (filter.operator !== undefined && filter.operator !== config.operator) throw shareErrors.filterNotAllowed(`${path}.operator`, `must be ${config.operator}, as the report's filter is`);
    sameCharts(filter.charts, config.charts, path);
    return { type: 'field', id: filter.id, field: config.field, operator: config.operator, value: filter.value, ...(config.charts ? { charts: config.charts } : {}) };
  }
  if (config.type === 'date' && filter.type === 'date') {
    sameCharts(filter.charts, config.charts, path);
    return {
      type: 'date',
      id: filter.id,
      startDate: filter.startDate ?? null,
      endDate: filter.endDate ?? null,
      ...(filter.preset !== undefined ? { preset: filter.preset } : {}),
      ...(config.charts ? { charts: config.charts } : {}),
    };
  }
  throw shareErrors.filterNotAllowed(`${path}.type`, `must be ${config.type}, as the report's filter is`);
}

/** A chart list sent along must be the saved one (in any order). */
function sameCharts(sent: readonly number[] | undefined, own: readonly number[] | undefined, path: string): void {
  if (sent === undefined) return;
  const key = (ids: readonly number[] | undefined) => (ids === undefined ? 'all' : [...new Set(ids)].sort((a, b) => a - b).join(','));
  if (key(sent) !== key(own)) throw shareErrors.filterNotAllowed(`${path}.charts`, "must be the report's own chart list");
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
