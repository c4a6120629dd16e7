import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/index.js';
import { deriveVisualization, publicVisualization, visualizationOf, type ChartState, type ConfigState } from './chart-visualization.js';
import { applyVisualization, remapBindings } from './chart-visualization-write.js';
import type { VisualizationInput } from './chart-visualization-schemas.js';
import type { ChartCondition, DatasetConfigInput } from '../../engine/index.js';

const isCondition = (value: unknown): value is ChartCondition => typeof value === 'object' && value !== null && 'field' in value && 'operator' in value;

const CDC = '6f1c1f5e-3b7a-4d7e-9a51-0c2f6c1d2e3a';
const OTHER = '0b8a3c2d-1e4f-4a5b-8c6d-7e8f9a0b1c2d';

function chart(overrides: Partial<ChartState> = {}): ChartState {
  return {
    type: 'line',
    subType: null,
    timeInterval: 'day',
    includeZeros: true,
    startDate: null,
    endDate: null,
    currentEndDate: false,
    fixedStartDate: false,
    draft: false,
    stacked: false,
    stackPercent: false,
    missingValues: 'zero',
    horizontal: false,
    displayLegend: false,
    dataLabels: false,
    dashedLastPoint: false,
    isLogarithmic: false,
    maxValue: null,
    minValue: null,
    xLabelTicks: 'default',
    content: null,
    ...overrides,
  };
}

function config(overrides: Partial<ConfigState> = {}): ConfigState {
  return {
    id: CDC,
    xAxis: null,
    xAxisOperation: null,
    yAxis: null,
    yAxisOperation: null,
    dateField: null,
    conditions: [],
    formula: null,
    sort: null,
    maxRecords: null,
    goal: null,
    datasetColor: null,
    fillColor: null,
    fill: false,
    multiFill: false,
    legend: null,
    pointRadius: null,
    excludedFields: [],
    columnsOrder: [],
    breakdown: null,
    breakdownLimit: null,
    breakdownOther: false,
    breakdownOtherLabel: null,
    ...overrides,
  };
}

/** The error a spec gets, as `{path, message}`. */
function refusal(run: () => unknown): { path: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError && error.details?.[0]) return error.details[0];
    throw error;
  }
  throw new Error('expected a 400');
}

const revenue = config({ xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' });

describe('deriving a spec from the dataset configs (no spec saved)', () => {
  it('a time line: one layer per config, time and value roles, the chart interval as time unit', () => {
    const spec = deriveVisualization(chart({ timeInterval: 'month', subType: 'AddTimeseries' }), [{ ...revenue, sort: 'desc', maxRecords: 5, conditions: [{ field: 'root[].status', operator: 'greaterThan', value: 3, id: 'c1', exposed: true }] }]);
    expect(spec).toMatchObject({ version: 2, status: 'ready', metadata: { migratedFrom: 'legacy' } });
    expect(spec.layers).toHaveLength(1);
    expect(spec.layers[0]).toMatchObject({
      id: `legacy-${CDC}`,
      bindingId: CDC,
      mark: 'line',
      name: 'Revenue',
      encoding: {
        time: { field: 'root[].created_at', type: 'temporal', timeUnit: 'month' },
        value: { field: 'root[].amount', aggregate: 'sum', title: 'Revenue' },
      },
      transforms: [
        { type: 'filter', field: 'root[].status', operator: 'gt', value: 3, id: 'c1', exposed: true },
        { type: 'window', operation: 'cumulativeSum', role: 'value' },
        { type: 'sort', role: 'value', direction: 'desc' },
        { type: 'limit', count: 5 },
      ],
      stack: 'none',
      orientation: 'vertical',
    });
    expect(spec.settings).toMatchObject({ timeInterval: 'month', includeZeros: true, missingValues: { policy: 'zero' }, legend: { visible: false } });
  });

  it('a category axis when the x field is not the date field; a count without a value field counts the x values', () => {
    const spec = deriveVisualization(chart({ type: 'bar' }), [config({ xAxis: 'country', yAxisOperation: 'count' })]);
    expect(spec.layers[0]!.encoding).toEqual({ category: { field: 'country', type: 'nominal' }, value: { field: 'country', type: 'quantitative', aggregate: 'count' } });
  });

  it('orphan without configs, draft for a draft chart or a layer without a value, markdown and table layers', () => {
    expect(deriveVisualization(chart(), []).status).toBe('orphan');
    expect(deriveVisualization(chart({ draft: true }), [revenue]).status).toBe('draft');
    expect(deriveVisualization(chart({ type: 'kpi' }), [config()]).status).toBe('draft');
    // A KPI counting its rows reads no field, so no value role says it (and saving it back keeps the rows counted).
    expect(deriveVisualization(chart({ type: 'kpi' }), [config({ xAxis: 'country', yAxisOperation: 'count' })]).layers[0]!.encoding).toEqual({});
    expect(deriveVisualization(chart({ type: 'markdown', content: '# Hi' }), []).layers).toEqual([expect.objectContaining({ bindingId: null, mark: 'markdown', content: '# Hi' })]);
    const table = deriveVisualization(chart({ type: 'table' }), [config({ xAxis: 'orders[]', excludedFields: ['secret'] })]);
    expect(table.layers[0]).toMatchObject({ rowPath: 'orders[]', encoding: {}, options: { excludedFields: ['secret'], columnsOrder: [] } });
    expect(table.status).toBe('ready');
  });
});

describe('saving a spec: what it writes onto the configs and the chart', () => {
  const v5 = (encoding: Record<string, unknown>, extra: Record<string, unknown> = {}): VisualizationInput => ({
    version: 2,
    layers: [{ id: 'layer-1', bindingId: CDC, mark: 'line', encoding: encoding as never, ...extra }],
  });

  it('time with a unit, value with sum: the config fields the engine reads, and the chart interval', () => {
    const write = applyVisualization(
      v5({ time: { field: 'root[].created_at', type: 'temporal', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } }),
      chart(),
      [config()],
    );
    expect(write.chart).toEqual({ type: 'line', timeInterval: 'month' });
    expect(write.configs.get(CDC)).toEqual({ xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', formula: null, breakdown: null });
  });

  it('a breakdown (or its aliases color and series) is the config\'s breakdown, read back as the breakdown role', () => {
    for (const role of ['breakdown', 'color', 'series']) {
      const write = applyVisualization(v5({ time: { field: 'day', timeUnit: 'day' }, value: { field: 'n', aggregate: 'sum' }, [role]: { field: 'root[].country', type: 'nominal' } }), chart(), [config()]);
      expect(write.configs.get(CDC)).toMatchObject({ xAxis: 'day', yAxis: 'n', yAxisOperation: 'sum', breakdown: 'root[].country' });
      expect(write.stored.layers[0]!.encoding).toHaveProperty('breakdown', { field: 'root[].country', type: 'nominal' });
    }
    // An encoding without it clears it: one series again.
    expect(applyVisualization(v5({ value: 'n' }), chart(), [config({ breakdown: 'country' })]).configs.get(CDC)).toMatchObject({ breakdown: null });
    const derived = deriveVisualization(chart({ type: 'bar' }), [config({ xAxis: 'status', yAxis: 'n', yAxisOperation: 'sum', breakdown: 'root[].country' })]);
    expect(derived.layers[0]!.encoding).toEqual({
      category: { field: 'status', type: 'nominal' },
      value: { field: 'n', type: 'quantitative', aggregate: 'sum' },
      breakdown: { field: 'root[].country', type: 'nominal' },
    });
    // A saved spec's breakdown is read back from the config, whoever changed it since.
    const saved = applyVisualization(v5({ category: 'status', value: 'n', breakdown: 'country' }), chart({ type: 'bar' }), [config()]).stored;
    expect(visualizationOf(saved, chart({ type: 'bar' }), [config({ xAxis: 'status', yAxis: 'n' })]).layers[0]!.encoding).not.toHaveProperty('breakdown');
  });

  it('x and y name the same roles: x with a time unit or a temporal type is time, otherwise category', () => {
    const time = applyVisualization(v5({ x: { field: 'day', timeUnit: 'week' }, y: { field: 'n', aggregate: 'avg' } }), chart(), [config()]);
    expect(time.configs.get(CDC)).toMatchObject({ xAxis: 'day', dateField: 'day', yAxis: 'n', yAxisOperation: 'avg' });
    expect(time.stored.layers[0]!.encoding).toEqual({ time: { field: 'day', timeUnit: 'week' }, value: { field: 'n', aggregate: 'avg' } });
    // A category on the date field moves the date field away, or the engine would draw time.
    const category = applyVisualization(v5({ x: 'country', y: 'amount' }), chart(), [config({ dateField: 'country' })]);
    // No aggregate is `none`, which a config without an operation already reads as: it stays null.
    expect(category.configs.get(CDC)).toMatchObject({ xAxis: 'country', dateField: null, yAxis: 'amount', yAxisOperation: null });
    const summed = applyVisualization(v5({ x: 'country', y: { field: 'amount', aggregate: 'none' } }), chart(), [config({ yAxisOperation: 'sum' })]);
    expect(summed.configs.get(CDC)).toMatchObject({ yAxisOperation: 'none' });
  });

  it('filters become conditions, sort and limit the config\'s, a cumulative sum the chart\'s running total', () => {
    const write = applyVisualization(
      v5(
        { category: { field: 'country' }, value: { field: 'amount', aggregate: 'sum' } },
        {
          transforms: [
            { type: 'filter', field: 'status', operator: 'eq', value: 'paid', id: 'keep-me' },
            { type: 'filter', field: 'amount', operator: 'gte', value: 10 },
            { type: 'filter', field: 'kind', operator: 'in', value: ['a'] },
            { type: 'window', operation: 'cumulativeSum', role: 'value' },
            { type: 'sort', role: 'value', direction: 'desc' },
            { type: 'limit', count: 3 },
          ],
        },
      ),
      chart({ subType: 'lcTimeseries' }),
      [config()],
    );
    expect(write.configs.get(CDC)).toMatchObject({
      conditions: [
        { field: 'status', operator: 'is', value: 'paid', id: 'keep-me' },
        { field: 'amount', operator: 'greaterOrEqual', value: 10 },
        { field: 'kind', operator: 'is', value: 'a' },
      ],
      sort: 'desc',
      maxRecords: 3,
    });
    expect(write.chart.subType).toBe('AddTimeseries');
    const off = applyVisualization(v5({ category: 'country', value: 'amount' }, { transforms: [] }), chart({ subType: 'AddTimeseries' }), [config({ sort: 'asc', maxRecords: 2 })]);
    expect(off.chart.subType).toBe('lcTimeseries');
    expect(off.configs.get(CDC)).toMatchObject({ conditions: [], sort: null, maxRecords: null });
  });

  it('the series label comes from the name, the style label or the value title, whichever changed', () => {
    const cdc = config({ legend: 'Old' });
    expect(applyVisualization(v5({}, { name: 'Old', style: { label: 'New' } }), chart(), [cdc]).configs.get(CDC)?.legend).toBe('New');
    expect(applyVisualization(v5({}, { name: 'Renamed' }), chart(), [cdc]).configs.get(CDC)?.legend).toBe('Renamed');
    expect(applyVisualization(v5({}), chart(), [cdc]).configs.get(CDC)).not.toHaveProperty('legend');
  });

  it('a layer without an id or a mark is named by its place and drawn as the chart\'s type', () => {
    const write = applyVisualization({ layers: [{ bindingId: CDC, encoding: { category: 'country', value: 'n' } }] }, chart({ type: 'bar' }), [config()]);
    expect(write.stored.layers[0]).toMatchObject({ id: 'layer-1', mark: 'bar' });
    expect(write.chart.type).toBe('bar');
  });

  it('markdown text, table rows and columns, stacking and settings reach the chart and its config', () => {
    const markdown = applyVisualization({ layers: [{ id: 'm', bindingId: null, mark: 'markdown', content: '# Notes' }] }, chart({ type: 'markdown' }), []);
    expect(markdown.chart).toEqual({ type: 'markdown', content: '# Notes' });
    const table = applyVisualization(
      { layers: [{ id: 't', bindingId: CDC, mark: 'table', rowPath: 'root.orders[]', options: { excludedFields: ['secret'], columnsOrder: ['id'] }, transforms: [{ type: 'limit', count: 50 }] }] },
      chart({ type: 'table' }),
      [config()],
    );
    expect(table.configs.get(CDC)).toMatchObject({ xAxis: 'root.orders[]', excludedFields: ['secret'], columnsOrder: ['id'], maxRecords: 50, conditions: [] });
    const bar = applyVisualization(
      {
        layers: [{ id: 'b', bindingId: CDC, mark: 'bar', stack: 'normal', orientation: 'horizontal', goal: 5, style: { color: '#111', pointRadius: 3 } }],
        settings: { logarithmic: true, legend: { visible: true }, dateWindow: { start: '2025-01-01', end: '2025-01-31', currentEndDate: true }, xLabelTicks: 'half', maxValue: 9 },
      },
      chart(),
      [config()],
    );
    expect(bar.chart).toEqual({ type: 'bar', stacked: true, stackPercent: false, horizontal: true, isLogarithmic: true, displayLegend: true, startDate: '2025-01-01T00:00:00.000Z', endDate: '2025-01-31T00:00:00.000Z', currentEndDate: true, xLabelTicks: 'half', maxValue: 9 });
    expect(bar.configs.get(CDC)).toEqual({ goal: 5, datasetColor: '#111', fill: false, fillColor: null, multiFill: false, pointRadius: 3 });
  });

  it("percent stacking of bars is the chart's stackPercent, both ways", () => {
    const write = applyVisualization({ layers: [{ id: 'b', bindingId: CDC, mark: 'bar', stack: 'percent' }] }, chart(), [config()]);
    expect(write.chart).toMatchObject({ type: 'bar', stacked: true, stackPercent: true });
    const spec = deriveVisualization(chart({ type: 'bar', stacked: true, stackPercent: true }), [config()]);
    expect((spec.layers[0] as { stack?: string }).stack).toBe('percent');
    // Back to plain stacking, and to none.
    expect(applyVisualization({ layers: [{ id: 'b', bindingId: CDC, mark: 'bar', stack: 'normal' }] }, chart({ type: 'bar', stacked: true, stackPercent: true }), [config()]).chart).toMatchObject({ stacked: true, stackPercent: false });
    expect(applyVisualization({ layers: [{ id: 'b', bindingId: CDC, mark: 'bar', stack: 'none' }] }, chart({ type: 'bar', stacked: true, stackPercent: true }), [config()]).chart).toMatchObject({ stacked: false, stackPercent: false });
  });

  it("settings.missingValues.policy is the chart's missingValues, both ways", () => {
    expect(deriveVisualization(chart(), [config()]).settings).toMatchObject({ missingValues: { policy: 'zero' } });
    expect(deriveVisualization(chart({ missingValues: 'preserve' }), [config()]).settings).toMatchObject({ missingValues: { policy: 'preserve' } });
    const layers = [{ id: 'l', bindingId: CDC, mark: 'line' }];
    expect(applyVisualization({ layers, settings: { missingValues: { policy: 'preserve' } } }, chart(), [config()]).chart).toMatchObject({ missingValues: 'preserve' });
    expect(applyVisualization({ layers, settings: { missingValues: { policy: 'zero' } } }, chart({ missingValues: 'preserve' }), [config()]).chart).toMatchObject({ missingValues: 'zero' });
    // Left out (or null): the chart keeps its own.
    expect(applyVisualization({ layers, settings: { missingValues: null } }, chart({ missingValues: 'preserve' }), [config()]).chart).not.toHaveProperty('missingValues');
    expect(applyVisualization({ layers }, chart({ missingValues: 'preserve' }), [config()]).chart).not.toHaveProperty('missingValues');
  });

  it('keys a layer leaves out leave their fields alone', () => {
    const write = applyVisualization({ layers: [{ id: 'l', bindingId: CDC.toUpperCase(), mark: 'line' }] }, chart(), [revenue]);
    expect(write.configs.get(CDC)).toEqual({});
  });

  it('a derived spec saved back changes nothing the engine reads', () => {
    const configs = [
      { ...revenue, conditions: [{ id: 'x', field: 'root[].status', operator: 'isNot', value: 'void', exposed: false }], formula: '{val / 100}', sort: 'asc', maxRecords: 7, goal: 100, datasetColor: '#123456', fill: true, pointRadius: 2, breakdown: 'root[].country' },
      config({ id: OTHER, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxisOperation: 'count', legend: 'Orders' }),
    ];
    const state = chart({ timeInterval: 'week', subType: 'AddTimeseries', stacked: true, startDate: '2025-01-01T00:00:00.000Z', endDate: '2025-03-01T00:00:00.000Z', maxValue: 10 });
    const spec = deriveVisualization(state, configs);
    const write = applyVisualization(JSON.parse(JSON.stringify(spec)) as VisualizationInput, state, configs);
    for (const [key, value] of Object.entries(write.chart)) expect([key, value]).toEqual([key, state[key as keyof ChartState]]);
    for (const cdc of configs) {
      const change = write.configs.get(cdc.id)!;
      for (const [key, value] of Object.entries(change)) {
        if (key === 'yAxisOperation' && cdc.yAxis === null) expect(value).toBe('count');
        else expect([key, value]).toEqual([key, cdc[key as keyof ConfigState]]);
      }
    }
  });
});

describe('what a spec cannot say is a 400 naming its path and saying why', () => {
  const layer = (extra: Record<string, unknown>) => ({ version: 2 as const, layers: [{ id: 'l', bindingId: CDC, mark: 'line', ...extra }] });
  const cases: { name: string; spec: VisualizationInput; path: string; says: RegExp }[] = [
    { name: 'a breakdown on a pie', spec: layer({ mark: 'pie', encoding: { category: { field: 'c' }, breakdown: { field: 'country' } } }), path: 'body.visualization.layers.0.encoding.breakdown', says: /not a role of a pie layer/ },
    { name: 'empty breakdown values kept as a series', spec: layer({ encoding: { color: { field: 'country', nullPolicy: 'label' } } }), path: 'body.visualization.layers.0.encoding.color.nullPolicy', says: /breakdown value is empty/ },
    { name: 'a role the chart type has not', spec: layer({ mark: 'pie', encoding: { time: { field: 'd' } } }), path: 'body.visualization.layers.0.encoding.time', says: /not a role of a pie layer/ },
    { name: 'two fields in one role', spec: layer({ encoding: { value: [{ field: 'a' }, { field: 'b' }] } }), path: 'body.visualization.layers.0.encoding.value', says: /one field/ },
    { name: 'both time and category', spec: layer({ encoding: { time: { field: 'd' }, category: { field: 'c' } } }), path: 'body.visualization.layers.0.encoding.category', says: /one x axis/ },
    { name: 'nulls kept on the x axis', spec: layer({ encoding: { category: { field: 'c', nullPolicy: 'label' } } }), path: 'body.visualization.layers.0.encoding.category.nullPolicy', says: /always left out/ },
    { name: 'a sort by the category', spec: layer({ transforms: [{ type: 'sort', role: 'category', direction: 'asc' }] }), path: 'body.visualization.layers.0.transforms.0.role', says: /by value only/ },
    { name: 'an "in" filter with two values', spec: layer({ transforms: [{ type: 'filter', field: 'c', operator: 'in', value: ['a', 'b'] }] }), path: 'body.visualization.layers.0.transforms.0.operator', says: /AND/ },
    { name: 'an unknown filter operator', spec: layer({ transforms: [{ type: 'filter', field: 'c', operator: 'between', value: 1 }] }), path: 'body.visualization.layers.0.transforms.0.operator', says: /must be one of/ },
    { name: 'percent stacking of lines', spec: layer({ stack: 'percent' }), path: 'body.visualization.layers.0.stack', says: /for bar charts/ },
    { name: 'a row path outside tables', spec: layer({ rowPath: 'root.items[]' }), path: 'body.visualization.layers.0.rowPath', says: /fields' own paths/ },
    { name: 'a chart type the engine does not compute', spec: layer({ mark: 'scatter' }), path: 'body.visualization.layers.0.mark', says: /not a chart type/ },
    { name: 'a layer of a config the chart has not', spec: layer({ bindingId: '99999999-9999-4999-8999-999999999999' }), path: 'body.visualization.layers.0.bindingId', says: /not a dataset config of this chart/ },
    { name: 'a layer without a config', spec: layer({ bindingId: null }), path: 'body.visualization.layers.0.bindingId', says: /is required/ },
    {
      name: 'two time units',
      spec: { layers: [{ id: 'a', bindingId: CDC, mark: 'line', encoding: { time: { field: 'd', timeUnit: 'day' } } }, { id: 'b', bindingId: OTHER, mark: 'line', encoding: { time: { field: 'd', timeUnit: 'month' } } }] },
      path: 'body.visualization.layers.1.encoding.time.timeUnit',
      says: /same in every layer/,
    },
    {
      name: 'two chart types',
      spec: { layers: [{ id: 'a', bindingId: CDC, mark: 'line' }, { id: 'b', bindingId: OTHER, mark: 'bar' }] },
      path: 'body.visualization.layers.1.mark',
      says: /one type/,
    },
    {
      name: 'a running total on some layers only',
      spec: { layers: [{ id: 'a', bindingId: CDC, mark: 'line', transforms: [{ type: 'window', operation: 'cumulativeSum' }] }, { id: 'b', bindingId: OTHER, mark: 'line', transforms: [] }] },
      path: 'body.visualization.layers.1.transforms',
      says: /running total/,
    },
    {
      name: 'two layers of one config',
      spec: { layers: [{ id: 'a', bindingId: CDC, mark: 'line' }, { id: 'b', bindingId: CDC, mark: 'line' }] },
      path: 'body.visualization.layers.1.bindingId',
      says: /one layer per dataset config/,
    },
  ];
  it.each(cases)('$name', ({ spec, path, says }) => {
    const error = refusal(() => applyVisualization(spec, chart(), [config(), config({ id: OTHER })]));
    expect(error.path).toBe(path);
    expect(error.message).toMatch(says);
  });
});

describe('a saved spec is answered in step with the configs', () => {
  it('mapped parts come from the configs; unmapped ones stay; layers follow the configs that exist', () => {
    const saved = {
      version: 2,
      status: 'ready',
      layers: [
        { id: 'mine', bindingId: CDC, mark: 'line', name: 'Old', encoding: { time: { field: 'old', title: 'When', timeUnit: 'day' } }, style: { color: '#000', dash: [2, 2] }, options: { series: { order: [] } }, transforms: [] },
        { id: 'gone', bindingId: '99999999-9999-4999-8999-999999999999', mark: 'line', encoding: {}, transforms: [], style: {} },
      ],
      settings: { theme: 'custom', timeInterval: 'day', maxValue: 5 },
      metadata: { editor: 'v5' },
    };
    const state = chart({ timeInterval: 'month' });
    const spec = visualizationOf(saved, state, [{ ...revenue, datasetColor: '#fff' }, config({ id: OTHER, xAxis: 'country', yAxis: 'n', yAxisOperation: 'sum' })]);
    expect(spec.layers.map((l) => l.id)).toEqual(['mine', `legacy-${OTHER}`]);
    expect(spec.layers[0]).toMatchObject({
      name: 'Revenue',
      encoding: { time: { field: 'root[].created_at', title: 'When', timeUnit: 'month' }, value: { field: 'root[].amount', aggregate: 'sum' } },
      style: { color: '#fff', dash: [2, 2] },
      options: { series: { order: [] } },
    });
    expect(spec.settings).toMatchObject({ theme: 'custom', timeInterval: 'month' });
    expect(spec.settings).not.toHaveProperty('maxValue');
    expect(spec.metadata).toEqual({ editor: 'v5' });
  });

  it('quick-create layers name configs by the client ids, then by order', () => {
    const spec: VisualizationInput = { layers: [{ id: 'a', bindingId: 'tmp-2', mark: 'line' }, { id: 'b', bindingId: 'whatever', mark: 'line' }] };
    const remapped = remapBindings(spec, [{ id: 'tmp-1' }, { bindingId: 'tmp-2' }], [CDC, OTHER]);
    expect(remapped.layers.map((l) => l.bindingId)).toEqual([OTHER, CDC]);
  });

  it('share links show no filters', () => {
    const spec = deriveVisualization(chart(), [{ ...revenue, conditions: [{ field: 'customer', operator: 'is', value: 'ACME' }], sort: 'asc' }]);
    expect(publicVisualization(spec).layers[0]!.transforms).toEqual([{ type: 'sort', role: 'value', direction: 'asc' }]);
  });
});

describe('any chart, its derived spec saved back, computes the same chartData', () => {
  const rows = [
    { created_at: '2025-01-03T10:00:00Z', country: 'FR', amount: 10, status: 'paid' },
    { created_at: '2025-01-20T10:00:00Z', country: null, amount: 2.5, status: 'paid' },
    { created_at: '2025-02-02T10:00:00Z', country: 'DE', amount: 7, status: 'void' },
    { created_at: '2025-03-09T10:00:00Z', country: 'FR', amount: null, status: 'paid' },
  ];
  const date = 'root[].created_at';
  const shapes: { type: string; chart?: Partial<ChartState>; config: Partial<ConfigState> }[] = [
    { type: 'line', chart: { timeInterval: 'month', subType: 'AddTimeseries' }, config: { xAxis: date, dateField: date, yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Sum' } },
    { type: 'line', config: { xAxis: date, dateField: date, yAxisOperation: 'count' } },
    { type: 'bar', config: { xAxis: 'root[].country', yAxisOperation: 'count', sort: 'desc', maxRecords: 1, conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }] } },
    { type: 'bar', config: { xAxis: 'root[].country', dateField: date, yAxis: 'root[].amount', yAxisOperation: 'avg', formula: '{val * 2}' } },
    { type: 'pie', config: { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'max' } },
    { type: 'kpi', config: { xAxis: 'root[].country', yAxisOperation: 'count', goal: 10 } },
    { type: 'kpi', chart: { timeInterval: 'month' }, config: { xAxis: date, dateField: date, yAxis: 'root[].amount', yAxisOperation: 'sum' } },
    { type: 'avg', config: { yAxis: 'root[].amount', yAxisOperation: 'none' } },
    { type: 'matrix', config: { xAxis: date, yAxisOperation: 'count' } },
    { type: 'table', config: { excludedFields: ['status'], maxRecords: 3 } },
  ];
  it.each(shapes)('$type with $config', async ({ type, chart: chartFields = {}, config: fields }) => {
    const { computeChartData } = await import('../../engine/index.js');
    const state = chart({ type, ...chartFields });
    const cdc = config(fields);
    const spec = deriveVisualization(state, [cdc]);
    const write = applyVisualization(JSON.parse(JSON.stringify(spec)) as VisualizationInput, state, [cdc]);
    const after = { ...cdc, ...write.configs.get(CDC) };
    const input = (s: ChartState) => ({ ...s, type: s.type ?? 'line', timezone: 'UTC' });
    // The engine's config: the CDC's fields (these shapes set no fill colour).
    const engine = (c: ConfigState): DatasetConfigInput => ({ ...c, fillColor: null, conditions: c.conditions.filter(isCondition) });
    const before = await computeChartData(input(state), [{ config: engine(cdc), rows }]);
    const saved = await computeChartData(input({ ...state, ...write.chart } as ChartState), [{ config: engine(after as ConfigState), rows }]);
    expect(saved).toEqual(before);
  });
});
