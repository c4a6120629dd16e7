/**
 * `Chart.visualization`, Chartbrew's v2 chart spec, kept in step with what Plotline computes
 * charts from: the chart's dataset configs (CDCs) and its own fields.
 *
 * - Reading: a chart without a saved spec gets one derived from its CDCs, one layer per CDC with
 *   `bindingId` = the CDC's id, as Chartbrew's legacy conversion does (`deriveVisualization`). A
 *   saved spec is answered with every part that maps onto a CDC or chart field read back from
 *   them, so it never disagrees with what the chart computes, whoever changed the CDCs since
 *   (`visualizationOf`).
 * - Writing: a saved spec is validated and written onto the CDCs and the chart
 *   (`applyVisualization`): x (`time`/`category`) → `xAxis` (and `dateField` for time), `value` →
 *   `yAxis` + `yAxisOperation` + `formula`, time unit → `timeInterval`, `filter` transforms →
 *   `conditions`, `sort` → `sort`, `limit` → `maxRecords`, `window cumulativeSum` → the
 *   `AddTimeseries` subType, style → colours, fill and point radius. Chart runs read only those,
 *   so they need no change. What the engine cannot compute is a 400 naming its path and saying why.
 *
 * A key a layer leaves out leaves its fields as they are; a key it sends sets them exactly (a
 * role left out of a sent `encoding` clears its field, sent `transforms` replace every filter,
 * sort and limit of the CDC).
 */
import { CHART_TYPES, CONDITION_OPERATORS, normalizeFieldPath, OPERATIONS, type ChartType } from '../../engine/index.js';
import { ValidationError } from '../../errors/index.js';
import { toIso } from '../../store/columns.js';
import type { ChartVisualizationView, EncodingSlotInput, FieldEncodingInput, LayerInput, SettingsInput, TransformInput, VisualizationInput } from './chart-visualization-schemas.js';
import type { CdcInput, ChartInput } from './charts-schemas.js';

export type Spec = ChartVisualizationView;
export type SpecLayer = Spec['layers'][number] & Record<string, unknown>;
type Obj = Record<string, unknown>;

/** What the spec reads of a chart (its stored fields). */
export interface ChartState {
  type: string | null;
  subType: string | null;
  timeInterval: string;
  includeZeros: boolean;
  startDate: string | null;
  endDate: string | null;
  currentEndDate: boolean;
  fixedStartDate: boolean;
  draft: boolean;
  stacked: boolean;
  horizontal: boolean;
  displayLegend: boolean;
  dataLabels: boolean;
  dashedLastPoint: boolean;
  isLogarithmic: boolean;
  maxValue: number | null;
  minValue: number | null;
  xLabelTicks: string | null;
  content: string | null;
}

/** What the spec reads of a dataset config. */
export interface ConfigState {
  id: string;
  xAxis: string | null;
  xAxisOperation: string | null;
  yAxis: string | null;
  yAxisOperation: string | null;
  dateField: string | null;
  conditions: unknown[];
  formula: string | null;
  sort: string | null;
  maxRecords: number | null;
  goal: number | null;
  datasetColor: string | null;
  fillColor: unknown;
  fill: boolean;
  multiFill: boolean;
  legend: string | null;
  pointRadius: number | null;
  excludedFields: string[];
  columnsOrder: string[];
}

/** Chart fields a spec sets (a subset of the chart body's). */
export type ChartChanges = Pick<
  ChartInput,
  | 'type'
  | 'subType'
  | 'timeInterval'
  | 'includeZeros'
  | 'dataLabels'
  | 'dashedLastPoint'
  | 'isLogarithmic'
  | 'maxValue'
  | 'minValue'
  | 'xLabelTicks'
  | 'displayLegend'
  | 'startDate'
  | 'endDate'
  | 'currentEndDate'
  | 'fixedStartDate'
  | 'stacked'
  | 'horizontal'
  | 'content'
>;

/** CDC fields a spec sets. */
export type ConfigChanges = Pick<
  CdcInput,
  | 'xAxis'
  | 'yAxis'
  | 'yAxisOperation'
  | 'dateField'
  | 'conditions'
  | 'formula'
  | 'sort'
  | 'maxRecords'
  | 'goal'
  | 'datasetColor'
  | 'fillColor'
  | 'fill'
  | 'multiFill'
  | 'legend'
  | 'pointRadius'
  | 'excludedFields'
  | 'columnsOrder'
>;

/** A condition as a CDC stores it. */
type ConditionChange = NonNullable<CdcInput['conditions']>[number];

/** What saving a spec writes: chart fields, CDC fields by CDC id, and the spec to store. */
export interface VisualizationWrite {
  chart: ChartChanges;
  configs: Map<string, ConfigChanges>;
  stored: Spec;
}

// ---------- marks and roles ----------

type Role = 'time' | 'category' | 'value' | 'breakdown' | 'row' | 'column' | 'columns';

/** The roles each chart type takes (Chartbrew's mark registry, with `time` on metric charts: Plotline buckets them by time when their x is the date field). */
const ROLES: Record<string, readonly Role[]> = {
  line: ['time', 'category', 'value', 'breakdown'],
  bar: ['time', 'category', 'value', 'breakdown'],
  radar: ['category', 'value', 'breakdown'],
  pie: ['category', 'value'],
  doughnut: ['category', 'value'],
  polar: ['category', 'value'],
  kpi: ['time', 'value'],
  avg: ['time', 'value'],
  gauge: ['time', 'value'],
  matrix: ['time', 'value', 'row', 'column'],
  table: ['columns'],
  markdown: [],
};

/** Other names clients give the roles: `x` is the x axis, `y` the value, `color`/`series` a breakdown. */
const ALIASES: Record<string, Role | 'x'> = { x: 'x', y: 'value', color: 'breakdown', series: 'breakdown' };

const PASSTHROUGH = new Set(['table', 'markdown']);
const CATEGORY_ONLY = new Set(['pie', 'doughnut', 'polar', 'radar']);
const NO_WINDOW = new Set(['table', 'matrix', 'markdown']);

/** Why each refused role cannot be computed. */
const REFUSED: Partial<Record<Role, string>> = {
  breakdown:
    'cannot be computed: Plotline draws one series per dataset config and has no split of a series by the values of a field; add one layer (dataset config) per value, each with a filter on the field',
  row: 'cannot be computed: a matrix is a calendar of days, bucketed by its time field; it has no rows or columns of categories',
  column: 'cannot be computed: a matrix is a calendar of days, bucketed by its time field; it has no rows or columns of categories',
  columns: 'cannot be computed: a table shows every column of its rows; hide columns with options.excludedFields and order them with options.columnsOrder',
};

// Chartbrew's filter operators onto the engine's condition operators (docs/chart-data.md, Conditions).
const FILTER_OPERATORS: Record<string, (typeof CONDITION_OPERATORS)[number]> = {
  is: 'is',
  eq: 'is',
  equals: 'is',
  isNot: 'isNot',
  neq: 'isNot',
  notEquals: 'isNot',
  contains: 'contains',
  notContains: 'notContains',
  gt: 'greaterThan',
  greaterThan: 'greaterThan',
  gte: 'greaterOrEqual',
  greaterOrEqual: 'greaterOrEqual',
  lt: 'lessThan',
  lessThan: 'lessThan',
  lte: 'lessOrEqual',
  lessOrEqual: 'lessOrEqual',
  isNull: 'isNull',
  isNotNull: 'isNotNull',
};
// The engine's operators as a derived spec names them (Chartbrew's names).
const SPEC_OPERATORS: Record<string, string> = { greaterThan: 'gt', greaterOrEqual: 'gte', lessThan: 'lt', lessOrEqual: 'lte' };

const STYLE_KEYS = ['color', 'fill', 'fillColor', 'label', 'multiFill', 'pointRadius'] as const;
const CONDITION_EXTRAS = ['id', 'exposed', 'displayValues', 'items'] as const;
const MAPPED_SETTINGS = ['dataLabels', 'dashedLastPoint', 'dateWindow', 'includeZeros', 'legend', 'logarithmic', 'maxValue', 'minValue', 'missingValues', 'timeInterval', 'xLabelTicks'] as const;

const isChartType = (value: string): value is ChartType => (CHART_TYPES as readonly string[]).includes(value);
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Two field paths name the same field the way the engine reads them (`root[].a` = `a`). */
function sameField(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  try {
    return normalizeFieldPath(a) === normalizeFieldPath(b);
  } catch {
    return a === b;
  }
}

/** Drops null and undefined entries. */
function compact(value: Obj): Obj {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

function markOf(chart: ChartState): string {
  return chart.type !== null && isChartType(chart.type) ? chart.type : 'line';
}

const cumulativeOf = (chart: ChartState) => (chart.subType ?? '').toLowerCase().includes('addtimeseries');

// ---------- reading: CDCs → spec ----------

function deriveEncoding(mark: string, chart: ChartState, cdc: ConfigState): Obj {
  if (PASSTHROUGH.has(mark)) return {};
  const x = text(cdc.xAxis);
  const y = text(cdc.yAxis);
  const operation = cdc.yAxisOperation ?? 'none';
  const time = (field: string | null) => (field === null ? null : { field, type: 'temporal', timeUnit: mark === 'matrix' ? 'day' : chart.timeInterval });
  let axis: Obj = {};
  if (mark === 'matrix') axis = compact({ time: time(x ?? text(cdc.dateField)) });
  else if (CATEGORY_ONLY.has(mark)) axis = compact({ category: x === null ? null : { field: x, type: 'nominal' } });
  else if (x !== null && sameField(x, cdc.dateField)) axis = { time: time(x) };
  else if (x !== null && !['kpi', 'avg', 'gauge'].includes(mark)) axis = { category: { field: x, type: 'nominal' } };
  let value: Obj | null = null;
  if (y !== null) value = compact({ field: y, type: 'quantitative', aggregate: operation, formula: cdc.formula, title: cdc.legend });
  // Without a value field the engine counts the rows of each group, which are the rows with an x
  // value: the count of the x field. (Where x is no role, the count is of every row: no field says it.)
  else if (x !== null && Object.keys(axis).length > 0 && (operation === 'count' || operation === 'none')) {
    value = compact({ field: x, type: 'quantitative', aggregate: 'count', formula: cdc.formula, title: cdc.legend });
  }
  return compact({ ...axis, value });
}

function deriveTransforms(mark: string, chart: ChartState, cdc: ConfigState): Obj[] {
  const transforms: Obj[] = [];
  for (const condition of cdc.conditions) {
    if (!isObj(condition) || typeof condition['field'] !== 'string') continue;
    const operator = typeof condition['operator'] === 'string' ? condition['operator'] : 'is';
    const extras = Object.fromEntries(CONDITION_EXTRAS.filter((k) => condition[k] !== undefined).map((k) => [k, condition[k]]));
    transforms.push({ type: 'filter', field: condition['field'], operator: SPEC_OPERATORS[operator] ?? operator, ...('value' in condition ? { value: condition['value'] } : {}), ...extras });
  }
  if (mark === 'table' || mark === 'markdown') {
    if (cdc.maxRecords !== null && mark === 'table') transforms.push({ type: 'limit', count: cdc.maxRecords });
    return transforms;
  }
  if (cumulativeOf(chart) && !NO_WINDOW.has(mark)) transforms.push({ type: 'window', operation: 'cumulativeSum', role: 'value' });
  if (mark === 'matrix') return transforms;
  if (cdc.sort === 'asc' || cdc.sort === 'desc') transforms.push({ type: 'sort', role: 'value', direction: cdc.sort });
  if (cdc.maxRecords !== null && cdc.maxRecords > 0) transforms.push({ type: 'limit', count: cdc.maxRecords });
  return transforms;
}

function deriveLayer(chart: ChartState, cdc: ConfigState, index: number): SpecLayer {
  const mark = markOf(chart);
  const legend = text(cdc.legend);
  return {
    id: `legacy-${cdc.id}`,
    bindingId: cdc.id,
    mark,
    // The engine's own label of a config without a legend: saved back, it draws the same.
    name: legend ?? `Dataset ${index + 1}`,
    encoding: deriveEncoding(mark, chart, cdc),
    transforms: deriveTransforms(mark, chart, cdc),
    style: compact({
      color: cdc.datasetColor,
      fill: cdc.fill,
      fillColor: cdc.fillColor ?? null,
      label: legend,
      multiFill: cdc.multiFill,
      pointRadius: cdc.pointRadius,
    }),
    options: mark === 'table' ? { columnsOrder: cdc.columnsOrder, excludedFields: cdc.excludedFields } : {},
    stack: chart.stacked ? 'normal' : 'none',
    orientation: chart.horizontal ? 'horizontal' : 'vertical',
    goal: cdc.goal,
    ...(mark === 'table' ? { rowPath: text(cdc.xAxis) ?? 'root[]' } : {}),
  };
}

function deriveSettings(chart: ChartState): Obj {
  return compact({
    dataLabels: chart.dataLabels,
    dashedLastPoint: chart.dashedLastPoint,
    dateWindow:
      chart.startDate !== null || chart.endDate !== null
        ? compact({ start: chart.startDate, end: chart.endDate, currentEndDate: chart.currentEndDate, fixedStartDate: chart.fixedStartDate })
        : null,
    includeZeros: chart.includeZeros,
    legend: { visible: chart.displayLegend },
    logarithmic: chart.isLogarithmic,
    maxValue: chart.maxValue,
    minValue: chart.minValue,
    // The engine plots a missing point as 0, always.
    missingValues: { policy: 'zero' },
    timeInterval: chart.timeInterval,
    xLabelTicks: chart.xLabelTicks,
  });
}

function markdownLayer(chart: ChartState): SpecLayer {
  return { id: 'legacy-markdown', bindingId: null, mark: 'markdown', content: chart.content ?? '', encoding: {}, transforms: [], style: {}, stack: 'none', orientation: 'vertical' };
}

function statusOf(chart: ChartState, layers: readonly SpecLayer[]): Spec['status'] {
  if (layers.length === 0) return 'orphan';
  const incomplete = layers.some((layer) => {
    if (PASSTHROUGH.has(layer.mark)) return false;
    const roles = Object.keys(layer.encoding);
    if (!roles.includes('value')) return true;
    return ['line', 'bar'].includes(layer.mark) && !roles.includes('time') && !roles.includes('category');
  });
  return chart.draft || incomplete ? 'draft' : 'ready';
}

/** The spec of a chart without a saved one: one layer per CDC, as Chartbrew's legacy conversion makes it. */
export function deriveVisualization(chart: ChartState, configs: readonly ConfigState[]): Spec {
  const layers = markOf(chart) === 'markdown' && configs.length === 0 ? [markdownLayer(chart)] : configs.map((cdc, i) => deriveLayer(chart, cdc, i));
  return { version: 2, status: statusOf(chart, layers), layers, settings: deriveSettings(chart), metadata: { migratedFrom: 'legacy' } };
}

/** A saved layer with every part that maps onto its CDC and chart read back from them. */
function overlay(saved: Obj, derived: SpecLayer): SpecLayer {
  const encoding: Obj = {};
  const savedEncoding = isObj(saved['encoding']) ? saved['encoding'] : {};
  for (const [role, slot] of Object.entries(savedEncoding)) if (!['time', 'category', 'value'].includes(role)) encoding[role] = slot;
  for (const [role, slot] of Object.entries(derived.encoding)) {
    const own = savedEncoding[role];
    encoding[role] = isObj(own) && isObj(slot) ? { ...own, ...slot } : slot;
  }
  const savedStyle = isObj(saved['style']) ? saved['style'] : {};
  const style: Obj = Object.fromEntries(Object.entries(savedStyle).filter(([key]) => !(STYLE_KEYS as readonly string[]).includes(key)));
  const layer: SpecLayer = {
    ...saved,
    ...derived,
    id: typeof saved['id'] === 'string' ? saved['id'] : derived.id,
    encoding,
    style: { ...style, ...derived.style },
  };
  if (derived.mark === 'table') layer['options'] = { ...(isObj(saved['options']) ? saved['options'] : {}), ...(derived['options'] as Obj) };
  else if (isObj(saved['options'])) layer['options'] = saved['options'];
  if (derived.mark !== 'table') delete layer['rowPath'];
  return layer;
}

/**
 * The spec a chart answers: derived when it has none saved; otherwise the saved one, its layers
 * matched to the CDCs by `bindingId`, every mapped part read back from the CDCs and the chart,
 * a layer added for a CDC it lacks and layers of CDCs that are gone left out.
 */
export function visualizationOf(saved: unknown, chart: ChartState, configs: readonly ConfigState[]): Spec {
  const derived = deriveVisualization(chart, configs);
  if (!isObj(saved) || !Array.isArray(saved['layers'])) return derived;
  const byBinding = new Map(derived.layers.filter((l) => l.bindingId !== null).map((l) => [l.bindingId!, l as SpecLayer]));
  const used = new Set<string>();
  const layers: SpecLayer[] = [];
  for (const layer of saved['layers']) {
    if (!isObj(layer)) continue;
    const binding = layer['bindingId'];
    if (binding === null || binding === undefined) {
      if (markOf(chart) === 'markdown') layers.push({ ...markdownLayer(chart), ...layer, content: chart.content ?? '' } as SpecLayer);
      continue;
    }
    const match = byBinding.get(String(binding).toLowerCase());
    if (!match || used.has(match.bindingId!)) continue;
    used.add(match.bindingId!);
    layers.push(overlay(layer, match));
  }
  for (const layer of derived.layers) if (layer.bindingId !== null && !used.has(layer.bindingId)) layers.push(layer as SpecLayer);
  const settings: Obj = { ...(isObj(saved['settings']) ? saved['settings'] : {}) };
  for (const key of MAPPED_SETTINGS) delete settings[key];
  const savedLegend = isObj(saved['settings']) && isObj(saved['settings']['legend']) ? saved['settings']['legend'] : {};
  Object.assign(settings, derived.settings, { legend: { ...savedLegend, ...(derived.settings['legend'] as Obj) } });
  return { version: 2, status: statusOf(chart, layers), layers, settings, metadata: isObj(saved['metadata']) ? saved['metadata'] : {} };
}

/**
 * The spec as share links show it: no filters (their values are a config's conditions, which a
 * link never shows) and no layer `options.configuration` (variable values).
 */
export function publicVisualization(spec: Spec): Spec {
  return {
    ...spec,
    layers: spec.layers.map((layer) => {
      const out: SpecLayer = { ...layer, transforms: layer.transforms.filter((t) => t['type'] !== 'filter') };
      if (isObj(out['options']) && 'configuration' in out['options']) {
        const { configuration: _hidden, ...options } = out['options'];
        out['options'] = options;
      }
      return out;
    }),
  };
}

// ---------- writing: spec → CDCs and chart ----------

interface Canonical {
  role: Role;
  /** The role name as the body sent it, for error paths. */
  sent: string;
  encoding: FieldEncodingInput | null;
}

/** A layer's roles under their canonical names; aliases resolved, lists of one unwrapped, bare paths made encodings. */
function canonicalRoles(mark: string, encoding: Record<string, EncodingSlotInput>, at: string): Map<Role, Canonical> {
  const roles = new Map<Role, Canonical>();
  for (const [sent, slot] of Object.entries(encoding)) {
    const path = `${at}.encoding.${sent}`;
    if (slot === null || (Array.isArray(slot) && slot.length === 0)) continue;
    if (Array.isArray(slot) && slot.length > 1 && sent !== 'columns') throw ValidationError.field(path, 'takes one field: the engine reads one field per role');
    const first = Array.isArray(slot) ? slot[0]! : slot;
    const field: FieldEncodingInput = typeof first === 'string' ? { field: first } : first;
    const alias = ALIASES[sent];
    let role: Role;
    if (alias === 'x') role = field.timeUnit !== undefined || field.type === 'temporal' ? 'time' : 'category';
    else role = alias ?? (sent as Role);
    const allowed = ROLES[mark] ?? [];
    if (!allowed.includes(role)) {
      throw ValidationError.field(path, `is not a role of a ${mark} layer (${allowed.length > 0 ? `roles: ${allowed.join(', ')}` : 'it has none'})`);
    }
    const refused = REFUSED[role];
    if (refused) throw ValidationError.field(path, refused);
    const other = roles.get(role);
    if (other) throw ValidationError.field(path, `names the same role as encoding.${other.sent}`);
    roles.set(role, { role, sent, encoding: field });
  }
  if (roles.has('time') && roles.has('category')) {
    throw ValidationError.field(`${at}.encoding.${roles.get('category')!.sent}`, 'cannot be set with a time role: a chart has one x axis, time or category');
  }
  return roles;
}

function refuseNullPolicy(role: Canonical, at: string): void {
  const policy = role.encoding?.nullPolicy;
  if (policy !== undefined && policy !== 'exclude') {
    throw ValidationError.field(`${at}.encoding.${role.sent}.nullPolicy`, 'cannot be computed: rows whose x value is empty are always left out (exclude)');
  }
}

/** Filter transforms as CDC conditions. */
function conditionOf(transform: TransformInput, at: string): ConditionChange {
  if (transform.field === undefined) throw ValidationError.field(`${at}.field`, 'is required for a filter');
  const sent = transform.operator ?? 'is';
  let operator: (typeof CONDITION_OPERATORS)[number] | undefined = FILTER_OPERATORS[sent];
  let value = transform.value;
  if (sent === 'in' || sent === 'notIn') {
    const list = Array.isArray(value) ? value : [value ?? null];
    if (list.length !== 1) throw ValidationError.field(`${at}.operator`, `cannot be computed with ${list.length} values: a config's conditions all hold at once (AND), so a list can only be one value`);
    operator = sent === 'in' ? 'is' : 'isNot';
    value = list[0];
  }
  if (operator === undefined) throw ValidationError.field(`${at}.operator`, `must be one of ${[...Object.keys(FILTER_OPERATORS), 'in', 'notIn'].join(', ')}`);
  if (Array.isArray(value)) throw ValidationError.field(`${at}.value`, 'takes one value (a list only with in or notIn)');
  const condition: ConditionChange = { field: transform.field, operator };
  if (value !== undefined) condition.value = value;
  const extras: Obj = { ...transform };
  if (typeof extras['id'] === 'string') condition.id = extras['id'];
  if (typeof extras['exposed'] === 'boolean') condition.exposed = extras['exposed'];
  if (typeof extras['displayValues'] === 'boolean') condition.displayValues = extras['displayValues'];
  if (Array.isArray(extras['items'])) condition.items = extras['items'].filter((v): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  return condition;
}

/** Collects chart fields set by several layers, refusing two different values for one field. */
class ChartFields {
  readonly values: ChartChanges = {};

  set<K extends keyof ChartChanges>(key: K, value: ChartChanges[K], path: string, why: string): void {
    if (key in this.values && this.values[key] !== value) throw ValidationError.field(path, `must be the same in every layer: ${why}`);
    this.values[key] = value;
  }
}

/**
 * Validates a spec against the chart and its CDCs and computes what saving it writes. Throws a
 * 400 naming the first path that is invalid or cannot be computed.
 */
export function applyVisualization(input: VisualizationInput, chart: ChartState, configs: readonly ConfigState[], at = 'body.visualization'): VisualizationWrite {
  const byId = new Map(configs.map((c) => [c.id.toLowerCase(), c]));
  const fields = new ChartFields();
  const changes = new Map<string, ConfigChanges>();
  const storedLayers: SpecLayer[] = [];
  const layerIds = new Set<string>();
  let cumulative: boolean | undefined;
  let mark: string | undefined;

  input.layers.forEach((layer, i) => {
    const lat = `${at}.layers.${i}`;
    // Chartbrew names a layer without an id by its place, and draws it as the chart's type.
    const id = layer.id ?? `layer-${i + 1}`;
    const kind = layer.mark ?? mark ?? markOf(chart);
    if (layerIds.has(id)) throw ValidationError.field(`${lat}.id`, 'must be unique among the layers');
    layerIds.add(id);
    if (!isChartType(kind)) throw ValidationError.field(`${lat}.mark`, `is not a chart type Plotline computes (${CHART_TYPES.join(', ')})`);
    if (mark !== undefined && kind !== mark) throw ValidationError.field(`${lat}.mark`, `must be the same as the other layers' (${mark}): a chart has one type`);
    mark = kind;
    fields.set('type', kind, `${lat}.mark`, 'a chart has one type');

    const encoding = layer.encoding ?? {};
    const roles = canonicalRoles(kind, encoding, lat);
    const stored: SpecLayer = { ...layer, id, bindingId: null, mark: kind, encoding: {}, transforms: [], style: { ...layer.style } };
    for (const role of roles.values()) stored.encoding[role.role] = role.encoding;
    stored.transforms = (layer.transforms ?? []).map((t) => ({ ...t }));

    if (kind === 'markdown') {
      if (layer.bindingId !== null && layer.bindingId !== undefined) throw ValidationError.field(`${lat}.bindingId`, 'must be null: a markdown chart draws no dataset');
      if (layer.content !== undefined) fields.set('content', layer.content, `${lat}.content`, 'a chart has one text');
      storedLayers.push(stored);
      return;
    }
    if (layer.bindingId === null || layer.bindingId === undefined) throw ValidationError.field(`${lat}.bindingId`, 'is required: the id of the dataset config the layer draws');
    const cdc = byId.get(String(layer.bindingId).toLowerCase());
    if (!cdc) throw ValidationError.field(`${lat}.bindingId`, 'is not a dataset config of this chart');
    if (changes.has(cdc.id)) throw ValidationError.field(`${lat}.bindingId`, 'draws a dataset config another layer draws already: one layer per dataset config');
    stored.bindingId = cdc.id;
    const change: ConfigChanges = {};
    changes.set(cdc.id, change);

    if (layer.rowPath !== undefined && layer.rowPath !== null && kind !== 'table') {
      throw ValidationError.field(`${lat}.rowPath`, 'cannot be computed: outside tables, the rows are those the fields\' own paths walk (root[]…)');
    }
    if (kind === 'table') {
      if (layer.rowPath !== undefined) change.xAxis = text(layer.rowPath) === null || layer.rowPath === 'root[]' ? null : layer.rowPath;
    } else if (layer.encoding !== undefined) {
      applyRoles(kind, roles, cdc, change, fields, lat);
    }

    if (layer.transforms !== undefined) {
      const layerCumulative = applyTransforms(kind, layer.transforms, roles, change, lat);
      if (!NO_WINDOW.has(kind)) {
        if (cumulative !== undefined && cumulative !== layerCumulative) {
          throw ValidationError.field(`${lat}.transforms`, 'must all have a cumulativeSum window or none: the running total is a setting of the chart');
        }
        cumulative = layerCumulative;
      }
    }

    if (layer.stack !== undefined) {
      if (layer.stack === 'percent') throw ValidationError.field(`${lat}.stack`, 'cannot be computed: bars stack their values (normal) or not (none); there is no percent stacking');
      fields.set('stacked', layer.stack === 'normal', `${lat}.stack`, 'stacking is a setting of the chart');
    }
    if (layer.orientation !== undefined) fields.set('horizontal', layer.orientation === 'horizontal', `${lat}.orientation`, 'orientation is a setting of the chart');
    if (layer.goal !== undefined) change.goal = layer.goal;
    if (layer.style !== undefined) applyStyle(layer.style, change);
    if (layer.options !== undefined && kind === 'table') {
      if (layer.options.columnsOrder !== undefined) change.columnsOrder = layer.options.columnsOrder ?? [];
      if (layer.options.excludedFields !== undefined) change.excludedFields = layer.options.excludedFields ?? [];
    }
    const legend = legendOf(layer, roles, cdc);
    if (legend !== undefined) change.legend = legend;
    storedLayers.push(stored);
  });

  if (cumulative !== undefined) {
    const current = chart.subType ?? '';
    const has = cumulativeOf(chart);
    if (cumulative && !has) fields.set('subType', 'AddTimeseries', `${at}.layers`, '');
    if (!cumulative && has) fields.set('subType', current.replace(/addtimeseries/i, '') || 'lcTimeseries', `${at}.layers`, '');
  }
  if (input.settings !== undefined) applySettings(input.settings, fields, `${at}.settings`);

  const stored: Spec = {
    version: 2,
    status: input.status ?? 'ready',
    layers: storedLayers,
    settings: { ...input.settings },
    metadata: { ...input.metadata },
  };
  return { chart: fields.values, configs: changes, stored };
}

function applyRoles(mark: string, roles: Map<Role, Canonical>, cdc: ConfigState, change: ConfigChanges, fields: ChartFields, at: string): void {
  const time = roles.get('time');
  const category = roles.get('category');
  const value = roles.get('value');
  let x: string | null = null;
  if (time) {
    refuseNullPolicy(time, at);
    x = time.encoding!.field;
    change.xAxis = x;
    // The engine draws a time axis when the x field is the date field (docs/chart-data.md, The x axis).
    if (mark !== 'matrix') change.dateField = x;
    const unit = time.encoding!.timeUnit;
    if (unit !== undefined && mark !== 'matrix') fields.set('timeInterval', unit, `${at}.encoding.${time.sent}.timeUnit`, 'the time unit is the interval of the chart');
  } else if (category) {
    refuseNullPolicy(category, at);
    x = category.encoding!.field;
    change.xAxis = x;
    // The same field as the date field would make a time axis: the category axis needs them apart.
    if (!CATEGORY_ONLY.has(mark) && sameField(x, cdc.dateField)) change.dateField = null;
  } else {
    change.xAxis = null;
  }
  if (!value) {
    change.yAxis = null;
    change.yAxisOperation = null;
    return;
  }
  const encoding = value.encoding!;
  const aggregate = encoding.aggregate ?? 'none';
  if (!(OPERATIONS as readonly string[]).includes(aggregate)) throw ValidationError.field(`${at}.encoding.${value.sent}.aggregate`, `must be one of ${OPERATIONS.join(', ')}`);
  // Counting the x field's values counts the group's rows: the engine's count without a value field.
  if (aggregate === 'count' && sameField(encoding.field, x)) {
    change.yAxis = null;
    change.yAxisOperation = 'count';
  } else {
    change.yAxis = encoding.field;
    change.yAxisOperation = aggregate;
  }
  change.formula = text(encoding.formula ?? null);
}

/** Returns whether the layer keeps a running total. */
function applyTransforms(mark: string, transforms: readonly TransformInput[], roles: Map<Role, Canonical>, change: ConfigChanges, at: string): boolean {
  const conditions: ConditionChange[] = [];
  let sort: 'asc' | 'desc' | null = null;
  let limit: number | null = null;
  let cumulative = false;
  transforms.forEach((transform, j) => {
    const tat = `${at}.transforms.${j}`;
    switch (transform.type) {
      case 'filter':
        conditions.push(conditionOf(transform, tat));
        return;
      case 'sort': {
        if (sort !== null) throw ValidationError.field(tat, 'is a second sort: the engine orders the axis once');
        if (mark === 'matrix' || PASSTHROUGH.has(mark)) throw ValidationError.field(tat, `cannot be computed: a ${mark} chart is not sorted by value`);
        const valueField = roles.get('value')?.encoding?.field ?? null;
        const byValue = (transform.role === undefined || transform.role === 'value' || transform.role === 'y') && (transform.field === undefined || sameField(transform.field, valueField));
        if (!byValue) throw ValidationError.field(`${tat}.${transform.role !== undefined ? 'role' : 'field'}`, 'cannot be computed: the engine sorts the axis by value only (role value); without a sort, labels keep their axis order');
        sort = transform.direction ?? 'asc';
        return;
      }
      case 'limit':
        if (limit !== null) throw ValidationError.field(tat, 'is a second limit: a config keeps one maxRecords');
        if (transform.count === undefined) throw ValidationError.field(`${tat}.count`, 'is required for a limit');
        if (mark === 'matrix' || mark === 'markdown') throw ValidationError.field(tat, `cannot be computed: a ${mark} chart keeps every point`);
        limit = transform.count;
        return;
      case 'window':
        if (transform.operation !== 'cumulativeSum') throw ValidationError.field(`${tat}.operation`, 'must be cumulativeSum');
        if (NO_WINDOW.has(mark)) throw ValidationError.field(tat, `cannot be computed: a ${mark} chart has no running total`);
        cumulative = true;
        return;
    }
  });
  change.conditions = conditions;
  if (!PASSTHROUGH.has(mark) && mark !== 'matrix') change.sort = sort;
  if (mark !== 'matrix' && mark !== 'markdown') change.maxRecords = limit;
  return cumulative;
}

function applyStyle(style: NonNullable<LayerInput['style']>, change: ConfigChanges): void {
  change.datasetColor = text(style.color ?? null);
  change.fill = style.fill ?? false;
  change.fillColor = style.fillColor ?? null;
  change.multiFill = style.multiFill ?? false;
  change.pointRadius = style.pointRadius ?? null;
}

/** The series label: the first of the layer's name, style label and value title that differs from the config's legend. */
function legendOf(layer: LayerInput, roles: Map<Role, Canonical>, cdc: ConfigState): string | null | undefined {
  const candidates = [layer.name, layer.style?.label, roles.get('value')?.encoding?.title].filter((c): c is string => typeof c === 'string');
  if (candidates.length === 0) return undefined;
  return candidates.find((c) => c !== cdc.legend) ?? cdc.legend;
}

function applySettings(settings: SettingsInput, fields: ChartFields, at: string): void {
  const why = 'settings are the chart\'s';
  if (settings.timeInterval !== undefined && settings.timeInterval !== null) fields.set('timeInterval', settings.timeInterval, `${at}.timeInterval`, 'the time unit of the layers and settings.timeInterval are the interval of the chart');
  if (settings.includeZeros !== undefined && settings.includeZeros !== null) fields.set('includeZeros', settings.includeZeros, `${at}.includeZeros`, why);
  if (settings.dataLabels !== undefined && settings.dataLabels !== null) fields.set('dataLabels', settings.dataLabels, `${at}.dataLabels`, why);
  if (settings.dashedLastPoint !== undefined && settings.dashedLastPoint !== null) fields.set('dashedLastPoint', settings.dashedLastPoint, `${at}.dashedLastPoint`, why);
  if (settings.logarithmic !== undefined && settings.logarithmic !== null) fields.set('isLogarithmic', settings.logarithmic, `${at}.logarithmic`, why);
  if (settings.maxValue !== undefined) fields.set('maxValue', settings.maxValue, `${at}.maxValue`, why);
  if (settings.minValue !== undefined) fields.set('minValue', settings.minValue, `${at}.minValue`, why);
  if (settings.xLabelTicks !== undefined) fields.set('xLabelTicks', settings.xLabelTicks, `${at}.xLabelTicks`, why);
  const visible = settings.legend?.visible;
  if (visible !== undefined && visible !== null) fields.set('displayLegend', visible, `${at}.legend.visible`, why);
  if (settings.missingValues?.policy === 'preserve') {
    throw ValidationError.field(`${at}.missingValues.policy`, 'cannot be computed: the engine plots a missing point as 0 (zero)');
  }
  const window = settings.dateWindow;
  if (window === null) {
    fields.set('startDate', null, `${at}.dateWindow`, why);
    fields.set('endDate', null, `${at}.dateWindow`, why);
  } else if (window !== undefined) {
    // Stored as ISO UTC, like a body's dates.
    if (window.start !== undefined) fields.set('startDate', toIso(window.start), `${at}.dateWindow.start`, why);
    if (window.end !== undefined) fields.set('endDate', toIso(window.end), `${at}.dateWindow.end`, why);
    if (window.currentEndDate !== undefined && window.currentEndDate !== null) fields.set('currentEndDate', window.currentEndDate, `${at}.dateWindow.currentEndDate`, why);
    if (window.fixedStartDate !== undefined && window.fixedStartDate !== null) fields.set('fixedStartDate', window.fixedStartDate, `${at}.dateWindow.fixedStartDate`, why);
  }
}

// ---------- creating charts with their configs ----------

/** The id a client gave a config it sends with a new chart, which its layers may name as `bindingId`. */
export interface ClientConfigIds {
  id?: string | number | null | undefined;
  bindingId?: string | number | null | undefined;
  templateBindingId?: string | number | null | undefined;
}

/**
 * The spec of a chart created with its configs, its `bindingId`s turned from the client's ids of
 * the configs into the new configs' ids: by `templateBindingId`, `bindingId` or `id` of the config
 * sent at the same index, then the configs no layer named yet, in order (Chartbrew's remapping).
 */
export function remapBindings(spec: VisualizationInput, sent: readonly ClientConfigIds[], created: readonly string[]): VisualizationInput {
  const mapping = new Map<string, string>();
  sent.forEach((config, index) => {
    const own = config.templateBindingId ?? config.bindingId ?? config.id ?? `binding-${index + 1}`;
    if (created[index] !== undefined) mapping.set(String(own), created[index]!);
  });
  const unresolved: string[] = [];
  const resolved = new Set<string>();
  for (const layer of spec.layers) {
    if (layer.bindingId === null || layer.bindingId === undefined) continue;
    const key = String(layer.bindingId);
    if (mapping.has(key)) resolved.add(mapping.get(key)!);
    else if (!unresolved.includes(key)) unresolved.push(key);
  }
  const free = created.filter((id) => !resolved.has(id));
  unresolved.forEach((key, index) => {
    if (free[index] !== undefined) mapping.set(key, free[index]!);
  });
  return {
    ...spec,
    layers: spec.layers.map((layer) => (layer.bindingId === null || layer.bindingId === undefined ? layer : { ...layer, bindingId: mapping.get(String(layer.bindingId)) ?? layer.bindingId })),
  };
}
