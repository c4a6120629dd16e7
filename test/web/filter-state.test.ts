import { describe, expect, it } from 'vitest';
import { isEmptyChartData } from '../../web/src/lib/charts/empty.js';
import { decodeRange, encodeRange, rangeText, runtimeFilter, typedValue } from '../../web/src/lib/filters.js';

// What the report page writes into its address and reads back, and what both pages send to the
// filter routes: pure functions, checked here without a browser.
describe('filter state of the pages', () => {
  it('a date range goes into the address and back: presets by name, custom ranges as start..end', () => {
    for (const range of [{ preset: 'last_30_days' as const }, { preset: 'custom' as const, startDate: '2025-01-01', endDate: '2025-01-31' }, { preset: 'custom' as const, startDate: '2025-01-01' }, { preset: 'custom' as const, endDate: '2025-01-31' }]) {
      expect(decodeRange(encodeRange(range)!)).toEqual(range);
    }
    expect(encodeRange({ preset: 'custom', startDate: '2025-01-01T10:00:00Z' })).toBe('2025-01-01..');
    expect(encodeRange({})).toBeNull();
    expect(encodeRange({ preset: 'custom' })).toBeNull();
    for (const text of ['', 'next_week', '..', '2025-1-1..', 'custom', '2025-01-01']) expect(decodeRange(text), text).toBeNull();
    expect(rangeText({ preset: 'this_quarter' })).toBe('This quarter');
    expect(rangeText({ startDate: '2025-01-01', endDate: '2025-01-31' })).toBe('2025-01-01 – 2025-01-31');
    expect(rangeText({})).toBe('Any time');
  });

  it("typed text becomes a variable's value by its type; '' is no value", () => {
    expect(typedValue('number', '12.5')).toBe(12.5);
    expect(typedValue('number', 'abc')).toBe('abc');
    expect(typedValue('boolean', 'true')).toBe(true);
    expect(typedValue('string', '')).toBeUndefined();
    expect(typedValue('number[]', '1, 2,,3')).toEqual([1, 2, 3]);
    expect(typedValue('string[]', ' a , b ')).toEqual(['a', 'b']);
    expect(typedValue('date[]', '')).toBeUndefined();
  });

  it('a filter without a value sends nothing; with one, the state the routes read', () => {
    expect(runtimeFilter('d', { type: 'date' })).toBeNull();
    expect(runtimeFilter('d', { type: 'date', preset: 'custom' })).toBeNull();
    expect(runtimeFilter('d', { type: 'date', preset: 'today', startDate: '2020-01-01', charts: [3] })).toEqual({ type: 'date', id: 'd', preset: 'today', charts: [3] });
    expect(runtimeFilter('d', { type: 'date', startDate: '2025-01-01T00:00:00.000Z' })).toEqual({ type: 'date', id: 'd', preset: 'custom', startDate: '2025-01-01' });
    expect(runtimeFilter('f', { type: 'field', field: 'root[].country', operator: 'is', value: '' })).toBeNull();
    expect(runtimeFilter('f', { type: 'field', field: 'root[].country', operator: 'is', value: 'FR', charts: [] })).toEqual({ type: 'field', id: 'f', field: 'root[].country', operator: 'is', value: 'FR' });
    expect(runtimeFilter('f', { type: 'field', field: 'root[].country', operator: 'isNull' })).toMatchObject({ operator: 'isNull' });
    expect(runtimeFilter('v', { type: 'variable', variable: 'status', dataType: 'string', allowValueChange: true, value: [] })).toBeNull();
    expect(runtimeFilter('v', { type: 'variable', variable: 'status', dataType: 'string', allowValueChange: false, value: 'paid' })).toEqual({ type: 'variable', id: 'v', variable: 'status', value: 'paid' });
  });

  it('a chart with nothing to show is told apart from a chart of zeros where that is a value', () => {
    expect(isEmptyChartData('line', { data: { labels: [], datasets: [{ data: [] }] } })).toBe(true);
    expect(isEmptyChartData('line', { data: { labels: ['2025-01-01', '2025-01-02'], datasets: [{ data: [0, 0] }] } })).toBe(true);
    expect(isEmptyChartData('bar', { data: { labels: ['FR'], datasets: [{ data: [3] }] } })).toBe(false);
    expect(isEmptyChartData('kpi', { values: [{ value: 0 }] })).toBe(false);
    expect(isEmptyChartData('avg', { values: [{ value: null }] })).toBe(true);
    expect(isEmptyChartData('table', { Orders: { columns: [], data: [] } })).toBe(true);
    expect(isEmptyChartData('table', { Orders: { columns: [], data: [{ id: 1 }] } })).toBe(false);
    expect(isEmptyChartData('matrix', { data: { datasets: [{ data: [] }] } })).toBe(true);
    expect(isEmptyChartData('markdown', null)).toBe(false);
    expect(isEmptyChartData('line', null)).toBe(true);
  });
});
