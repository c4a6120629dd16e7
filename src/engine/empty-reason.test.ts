import { describe, expect, it } from 'vitest';
import { computeChart, type ChartRowSources } from './chart-run.js';
import { isEmptyChartData } from './empty-reason.js';
import type { ChartInput, DatasetConfigInput, Row } from './types.js';

/*
 * Why an empty chart is empty, on the streaming path (the pushdown path gives the same reasons
 * through the same diagnosis: test/http/chart-empty.int.test.ts runs both over Postgres).
 */
const rows: Row[] = [
  { createdAt: '2025-01-01T10:00:00Z', country: 'FR', status: 'paid', amount: 10 },
  { createdAt: '2025-01-02T10:00:00Z', country: 'DE', status: 'paid', amount: 5 },
];
const byCountry: DatasetConfigInput = { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' };

function streaming(data: Row[]): ChartRowSources {
  return { sqlQuery: () => null, withRows: async (indices, _purpose, use) => use(indices.map(() => data)) };
}
async function reason(chart: Partial<ChartInput>, config: DatasetConfigInput, data: Row[] = rows) {
  const outcome = await computeChart({ type: 'bar', timezone: 'UTC', ...chart } as ChartInput, [config], streaming(data), { pushdown: false });
  return (outcome.chartData as { empty?: unknown }).empty;
}

describe('chartData.empty', () => {
  it('is absent when the chart has data, and when its only values are real zeros', async () => {
    expect(await reason({}, byCountry)).toBeUndefined();
    expect(await reason({}, byCountry, [{ country: 'FR', amount: 0 }])).toBeUndefined();
  });

  it('says no rows, a missing field (as the configuration names it), and which filter left nothing', async () => {
    expect(await reason({}, byCountry, [])).toEqual({ reason: 'NO_ROWS', datasetIndex: 0 });
    expect(await reason({}, { ...byCountry, yAxis: 'root[].total' })).toEqual({ reason: 'FIELD_MISSING', field: 'root[].total', datasetIndex: 0 });
    expect(await reason({}, { ...byCountry, conditions: [{ field: 'root[].status', operator: 'is', value: 'lost' }] })).toEqual({ reason: 'FILTERED', by: 'conditions', datasetIndex: 0 });
    expect(await reason({ startDate: '2031-01-01T00:00:00Z', endDate: '2031-02-01T00:00:00Z' }, { ...byCountry, dateField: 'root[].createdAt' })).toEqual({
      reason: 'FILTERED',
      by: 'dateRange',
      datasetIndex: 0,
    });
  });

  it('says a date axis holds no dates, and a category axis no labels', async () => {
    expect(await reason({ type: 'line', timeInterval: 'day' }, { ...byCountry, xAxisType: 'time' })).toEqual({ reason: 'NOT_DATES', field: 'root[].country', datasetIndex: 0 });
    expect(await reason({}, byCountry, [{ country: null, amount: 1 }, { country: null, amount: 2 }])).toEqual({ reason: 'NO_LABELS', field: 'root[].country', datasetIndex: 0 });
  });

  it('a chart without configurations says so; markdown is never empty', async () => {
    const outcome = await computeChart({ type: 'bar', timezone: 'UTC' } as ChartInput, [], streaming(rows), { pushdown: false });
    expect((outcome.chartData as { empty?: unknown }).empty).toEqual({ reason: 'NO_DATASETS' });
    expect(isEmptyChartData('markdown', { content: '' })).toBe(false);
    expect(isEmptyChartData('kpi', { values: [{ value: null }] })).toBe(true);
    expect(isEmptyChartData('kpi', { values: [{ value: 0 }] })).toBe(false);
  });
});
