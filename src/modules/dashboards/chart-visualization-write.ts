/**
 * Saving `Chart.visualization`: a spec is validated against the chart and its dataset configs
 * (CDCs) and written onto them (`applyVisualization`): x (`time`/`category`) → `xAxis` (and
 * `dateField` for time), `value` → `yAxis` + `yAxisOperation` + `formula`, time unit →
 * `timeInterval`, `breakdown` → `breakdown`, `filter` transforms → `conditions`, `sort` → `sort`,
 * `limit` → `maxRecords`, `window cumulativeSum` → the `AddTimeseries` subType, style → colours,
 * fill and point radius.
 * What the engine cannot compute is a 400 naming its path and saying why.
 *
 * A key a layer leaves out leaves its fields as they are; a key it sends sets them exactly (a
 * role left out of a sent `encoding` clears its field, sent `transforms` replace every filter,
 * sort and limit of the CDC).
 */
import { CHART_TYPES, CONDITION_OPERATORS, OPERATIONS } from '../../engine/index.js';
import { ValidationError } from '../../errors/index.js';
import { toIso } from '../../store/columns.js';
import type { EncodingSlotInput, FieldEncodingInput, LayerInput, SettingsInput, TransformInput, VisualizationInput } from './chart-visualization-schemas.js';
import {
  ALIASES,
  CATEGORY_ONLY,
  cumulativeOf,
  isChartType,
  markOf,
  NO_WINDOW,
  PASSTHROUGH,
  ROLES,
  sameField,
  text,
  type ChartState,
  type ConfigState,
  type Role,
  type Spec,
  type SpecLayer,
} from './chart-visualization.js';
import type { CdcInput, ChartInput } from './charts-schemas.js';

type Obj = Record<string, unknown>;

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
  | 'stackPercent'
  | 'missingValues'
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
  | 'breakdownLimit'
  | 'breakdownOther'
  | 'breakdownOtherLabel'
  | 'columnsOrder'
  | 'breakdown'
>;

/** A condition as a CDC stores it. */
type ConditionChange = NonNullable<CdcInput['conditions']>[number];

/** What saving a spec writes: chart fields, CDC fields by CDC id, and the spec to store. */
export interface VisualizationWrite {
  chart: ChartChanges;
  configs: Map<string, ConfigChanges>;
  stored: Spec;
}

/** Why each refused role cannot be computed. */
const REFUSED: Partial<Record<Role, string>> = {
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
    const what = role.role === 'breakdown' ? 'breakdown' : 'x';
    throw ValidationError.field(`${at}.encoding.${role.sent}.nullPolicy`, `cannot be computed: rows whose ${what} value is empty are always left out (exclude)`);
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

/** A layer's `options.series`: its breakdown's limit and "Other" series; ordering or hiding series by id is not computed. */
function applySeriesOptions(series: NonNullable<NonNullable<VisualizationInput['layers'][number]['options']>['series']>, change: ConfigChanges, at: string): void {
  if ((series.order ?? []).length > 0) throw ValidationError.field(`${at}.order`, 'cannot be computed: series are ordered by their total, largest first');
  if ((series.hidden ?? []).length > 0) throw ValidationError.field(`${at}.hidden`, 'cannot be computed: series are not hidden one by one; draw the largest with limit');
  if (series.limit !== undefined) change.breakdownLimit = series.limit;
  if (series.includeOther !== undefined) change.breakdownOther = series.includeOther;
  if (series.otherLabel !== undefined) change.breakdownOtherLabel = series.otherLabel;
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
      if (layer.stack === 'percent' && kind !== 'bar') throw ValidationError.field(`${lat}.stack`, `cannot be computed for a ${kind} chart: percent stacking (shares of each label's total) is for bar charts`);
      fields.set('stacked', layer.stack !== 'none', `${lat}.stack`, 'stacking is a setting of the chart');
      fields.set('stackPercent', layer.stack === 'percent', `${lat}.stack`, 'stacking is a setting of the chart');
    }
    if (layer.orientation !== undefined) fields.set('horizontal', layer.orientation === 'horizontal', `${lat}.orientation`, 'orientation is a setting of the chart');
    if (layer.goal !== undefined) change.goal = layer.goal;
    if (layer.style !== undefined) applyStyle(layer.style, change);
    if (layer.options !== undefined && kind === 'table') {
      if (layer.options.columnsOrder !== undefined) change.columnsOrder = layer.options.columnsOrder ?? [];
      if (layer.options.excludedFields !== undefined) change.excludedFields = layer.options.excludedFields ?? [];
    }
    if (layer.options?.series !== undefined) applySeriesOptions(layer.options.series, change, `${lat}.options.series`);
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
  const breakdown = roles.get('breakdown');
  // One series per value of the field (the engine's breakdown); left out, one series.
  if (breakdown) refuseNullPolicy(breakdown, at);
  change.breakdown = breakdown ? breakdown.encoding!.field : null;
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
    // A config without an operation reads as `none`: sent back unchanged, it stays as it was.
    change.yAxisOperation = aggregate === 'none' && cdc.yAxisOperation === null ? null : aggregate;
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
  const policy = settings.missingValues?.policy;
  if (policy !== undefined && policy !== null) fields.set('missingValues', policy, `${at}.missingValues.policy`, why);
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
