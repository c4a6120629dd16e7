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
 *   (chart-visualization-write.ts). Chart runs read only those, so they need no change.
 *
 * This file holds the reading side and what both sides share: the chart types' roles, and how a
 * field path is compared.
 */
import { CHART_TYPES, normalizeFieldPath, type ChartType } from '../../engine/index.js';
import type { ChartVisualizationView } from './chart-visualization-schemas.js';

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
  /** A bar chart's series as shares of each label's total (100 %). */
  stackPercent: boolean;
  /** `preserve`: a missing point is null (a gap), else 0. */
  missingValues: string;
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
  breakdown: string | null;
  breakdownLimit: number | null;
  breakdownOther: boolean;
  breakdownOtherLabel: string | null;
}

// ---------- marks and roles ----------

export type Role = 'time' | 'category' | 'value' | 'breakdown' | 'row' | 'column' | 'columns';

/** The roles each chart type takes (Chartbrew's mark registry, with `time` on metric charts: Plotline buckets them by time when their x is the date field). */
export const ROLES: Record<string, readonly Role[]> = {
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
export const ALIASES: Record<string, Role | 'x'> = { x: 'x', y: 'value', color: 'breakdown', series: 'breakdown' };

export const PASSTHROUGH = new Set(['table', 'markdown']);
export const CATEGORY_ONLY = new Set(['pie', 'doughnut', 'polar', 'radar']);
export const NO_WINDOW = new Set(['table', 'matrix', 'markdown']);

// The engine's operators as a derived spec names them (Chartbrew's names).
const SPEC_OPERATORS: Record<string, string> = { greaterThan: 'gt', greaterOrEqual: 'gte', lessThan: 'lt', lessOrEqual: 'lte' };

const STYLE_KEYS = ['color', 'fill', 'fillColor', 'label', 'multiFill', 'pointRadius'] as const;
const CONDITION_EXTRAS = ['id', 'exposed', 'displayValues', 'items'] as const;
const MAPPED_SETTINGS = ['dataLabels', 'dashedLastPoint', 'dateWindow', 'includeZeros', 'legend', 'logarithmic', 'maxValue', 'minValue', 'missingValues', 'timeInterval', 'xLabelTicks'] as const;

export const isChartType = (value: string): value is ChartType => (CHART_TYPES as readonly string[]).includes(value);
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Two field paths name the same field the way the engine reads them (`root[].a` = `a`). */
export function sameField(a: string | null, b: string | null): boolean {
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

export function markOf(chart: ChartState): string {
  return chart.type !== null && isChartType(chart.type) ? chart.type : 'line';
}

export const cumulativeOf = (chart: ChartState) => (chart.subType ?? '').toLowerCase().includes('addtimeseries');

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
  const breakdown = text(cdc.breakdown) !== null && (ROLES[mark] ?? []).includes('breakdown') ? { field: cdc.breakdown, type: 'nominal' } : null;
  return compact({ ...axis, value, breakdown });
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
    options: mark === 'table' ? { columnsOrder: cdc.columnsOrder, excludedFields: cdc.excludedFields } : seriesOptionsOf(mark, cdc),
    stack: mark === 'bar' && chart.stackPercent ? 'percent' : chart.stacked ? 'normal' : 'none',
    orientation: chart.horizontal ? 'horizontal' : 'vertical',
    goal: cdc.goal,
    ...(mark === 'table' ? { rowPath: text(cdc.xAxis) ?? 'root[]' } : {}),
  };
}

/** A breakdown layer's `options.series` from its config: the limit, and the "Other" series when it folds one. */
function seriesOptionsOf(mark: string, cdc: ConfigState): Obj {
  if (text(cdc.breakdown) === null || !(ROLES[mark] ?? []).includes('breakdown')) return {};
  // null: the defaults (the largest 20; "Other"), so a spec saved back writes them unchanged.
  return { series: { limit: cdc.breakdownLimit, includeOther: cdc.breakdownOther, otherLabel: cdc.breakdownOtherLabel } };
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
    missingValues: { policy: chart.missingValues === 'preserve' ? 'preserve' : 'zero' },
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
  for (const [role, slot] of Object.entries(savedEncoding)) if (!['time', 'category', 'value', 'breakdown'].includes(role)) encoding[role] = slot;
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
  // The mapped options come from the config; the rest are kept as saved.
  layer['options'] = { ...(isObj(saved['options']) ? saved['options'] : {}), ...(derived['options'] as Obj) };
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

