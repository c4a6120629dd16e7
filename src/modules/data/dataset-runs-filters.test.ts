import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/index.js';
import { filtersForChart, filtersInReach, filtersReaching, filtersToConditions, parseFilterEntries, parseFilters, type FilterTarget } from './dataset-runs-filters.js';

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.details?.[0]?.path;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseFilters', () => {
  it('reads the three kinds, with their ids and chart lists', () => {
    expect(
      parseFilters(
        [
          { field: 'country', value: 'FR', id: 'f1', charts: [3] },
          { type: 'field', field: 'amount', operator: 'greaterThan', value: 10 },
          { type: 'date', preset: 'last_30_days', id: 'd1', charts: [1, 2] },
          { type: 'date', startDate: '2025-01-01', endDate: '2025-01-31T23:59:59Z' },
          { type: 'variable', variable: 'status', value: 'paid', id: 'v1' },
        ],
        'body.filters',
      ),
    ).toEqual([
      { type: 'field', field: 'country', value: 'FR', id: 'f1', charts: [3] },
      { type: 'field', field: 'amount', operator: 'greaterThan', value: 10 },
      { type: 'date', startDate: null, endDate: null, preset: 'last_30_days', id: 'd1', charts: [1, 2] },
      { type: 'date', startDate: '2025-01-01', endDate: '2025-01-31T23:59:59Z' },
      { type: 'variable', variable: 'status', value: 'paid', id: 'v1' },
    ]);
  });

  it("drops Chartbrew's client-only types, and keeps the request's indexes for errors", () => {
    const entries = parseFilterEntries([{ type: 'pagination', page: 2 }, { type: 'columnToggle' }, { field: 'a', value: 1 }], 'body.filters');
    expect(entries).toEqual([{ path: 'body.filters.2', filter: { type: 'field', field: 'a', value: 1 } }]);
  });

  it('an object is equality filters; a JSON string is read first', () => {
    expect(parseFilters('{"country":"FR"}')).toEqual([{ type: 'field', field: 'country', operator: 'is', value: 'FR' }]);
    expect(parseFilters(undefined)).toEqual([]);
    expect(parseFilters('')).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['not JSON', '{nope', 'body.filters'],
    ['a number', 3, 'body.filters'],
    ['an item that is not an object', [1], 'body.filters.0'],
    ['a field filter without a field', [{ value: 1 }], 'body.filters.0.field'],
    ['an unknown operator', [{ field: 'a', operator: 'like' }], 'body.filters.0.operator'],
    ['an unknown type', [{ type: 'range', field: 'a' }], 'body.filters.0.type'],
    ['an unknown preset', [{ type: 'date', preset: 'next_week' }], 'body.filters.0.preset'],
    ['a start that is not a date', [{ type: 'date', startDate: 'yesterday' }], 'body.filters.0.startDate'],
    ['an end before the start', [{ type: 'date', startDate: '2025-02-01', endDate: '2025-01-01' }], 'body.filters.0.endDate'],
    ['charts that are not ids', [{ type: 'date', preset: 'today', charts: ['a'] }], 'body.filters.0.charts'],
    ['a variable filter without its variable', [{ type: 'variable', value: 1 }], 'body.filters.0.variable'],
    ['an id that is an object', [{ field: 'a', id: {} }], 'body.filters.0.id'],
  ])('%s is a 400 naming %s', (_name, raw, path) => {
    expect(fieldOf(() => parseFilters(raw, 'body.filters'))).toBe(path);
  });
});

describe('filtersForChart', () => {
  const now = new Date('2025-05-14T10:00:00Z');

  it('two states that filter a chart alike give the same canonical state', () => {
    const a = parseFilters([
      { type: 'date', preset: 'last_7_days', id: 'x' },
      { field: 'country', operator: 'is', value: 'FR', id: 'y' },
      { field: 'country', value: 'FR' },
    ]);
    const b = parseFilters([
      { field: 'country', value: 'FR', id: 'other' },
      { type: 'date', startDate: '2025-05-08', endDate: '2025-05-14' },
      { type: 'pagination', page: 4 },
    ]);
    const left = filtersForChart(a, 1, 'UTC', now);
    expect(left).toEqual(filtersForChart(b, 1, 'UTC', now));
    expect(left.filters).toHaveLength(2);
    expect(left.filters).toContainEqual({ type: 'date', startDate: '2025-05-08T00:00:00.000Z', endDate: '2025-05-14T23:59:59.999Z' });
  });

  it('a filter with charts applies to those charts only; variable filters to every chart', () => {
    const state = parseFilters([
      { field: 'country', value: 'FR', charts: [2] },
      { type: 'date', preset: 'today', charts: [3] },
      { type: 'variable', variable: 'status', value: 'paid' },
      { type: 'variable', variable: 'status', value: 'refunded' },
    ]);
    expect(filtersForChart(state, 1, 'UTC', now)).toEqual({ filters: [], variables: { status: 'refunded' } });
    expect(filtersForChart(state, 2, 'UTC', now).filters).toEqual([{ type: 'field', field: 'country', operator: 'is', value: 'FR' }]);
    expect(filtersForChart(state, 3, 'Europe/Paris', now).filters).toEqual([{ type: 'date', startDate: '2025-05-13T22:00:00.000Z', endDate: '2025-05-14T21:59:59.999Z' }]);
  });

  it('a date filter without a preset or a bound filters nothing', () => {
    expect(filtersForChart(parseFilters([{ type: 'date', startDate: null, endDate: null }]), 1, 'UTC', now).filters).toEqual([]);
  });
});

describe('filtersToConditions', () => {
  it('date ranges go on the date field, read in the zone; without one they are left out', () => {
    const filters = parseFilters([{ type: 'date', startDate: '2025-01-05', endDate: '2025-01-05' }, { type: 'variable', variable: 'x', value: 1 }, { field: 'a', value: 1 }]);
    expect(filtersToConditions(filters, 'created_at', 'Europe/Paris')).toEqual([
      { field: 'created_at', operator: 'greaterOrEqual', value: '2025-01-04T23:00:00.000Z' },
      { field: 'created_at', operator: 'lessOrEqual', value: '2025-01-05T22:59:59.999Z' },
      { field: 'a', operator: 'is', value: 1 },
    ]);
    expect(filtersToConditions(filters, null)).toEqual([{ field: 'a', operator: 'is', value: 1 }]);
  });
});

describe('filtersReaching: which filters of a state narrow a chart', () => {
  const dated: FilterTarget = { dateField: 'root[].created_at', variables: new Set(['status']) };
  const undated: FilterTarget = { dateField: null, variables: new Set() };
  const state = parseFilters([
    { type: 'date', id: 'period', preset: 'last_30_days' },
    { type: 'field', id: 'country', field: 'country', value: 'FR' },
    { type: 'variable', id: 'status', variable: 'status', value: 'paid' },
  ]);

  it('a date filter needs a date field, a variable filter a dataset naming it; a field filter reaches any chart of a dataset', () => {
    expect(filtersReaching(state, 1, [dated])).toEqual(['period', 'country', 'status']);
    expect(filtersReaching(state, 1, [undated])).toEqual(['country']);
    // One configuration that has what a filter needs is enough.
    expect(filtersReaching(state, 1, [undated, dated])).toEqual(['period', 'country', 'status']);
  });

  it('nothing reaches a chart without a configuration on an existing dataset (markdown, a deleted dataset)', () => {
    expect(filtersReaching(state, 1, [])).toEqual([]);
  });

  it("a filter's chart list leaves the other charts out; a variable filter has none", () => {
    const scoped = parseFilters([
      { type: 'date', id: 'period', preset: 'today', charts: [2] },
      { type: 'field', id: 'country', field: 'country', value: 'FR', charts: [2, 3] },
      { type: 'variable', id: 'status', variable: 'status', value: 'paid' },
    ]);
    expect(filtersReaching(scoped, 1, [dated])).toEqual(['status']);
    expect(filtersReaching(scoped, 2, [dated])).toEqual(['period', 'country', 'status']);
    expect(filtersReaching(scoped, 3, [dated])).toEqual(['country', 'status']);
  });

  it('a filter without a value narrows nothing (an empty-test operator needs none); an unnamed filter is not listed', () => {
    const idle = parseFilters([
      { type: 'date', id: 'period', startDate: null, endDate: null },
      { type: 'field', id: 'country', field: 'country', value: '' },
      { type: 'field', id: 'region', field: 'region', operator: 'isNull' },
      { type: 'variable', id: 'status', variable: 'status', value: [] },
      { type: 'field', field: 'city', value: 'Lyon' },
      { type: 'date', id: 'custom', preset: 'custom', startDate: '2025-01-01' },
    ]);
    expect(filtersReaching(idle, 1, [dated])).toEqual(['region', 'custom']);
  });

  it('filtersInReach: the same rule without the values, so filters not yet set are named where they would reach', () => {
    const idle = parseFilters([
      { type: 'date', id: 'period', startDate: null, endDate: null, charts: [1, 2] },
      { type: 'field', id: 'country', field: 'country' },
      { type: 'variable', id: 'status', variable: 'status' },
      { type: 'variable', id: 'tenant', variable: 'tenant' },
      { type: 'field', field: 'city' },
    ]);
    expect(filtersInReach(idle, 1, [dated])).toEqual(['period', 'country', 'status']);
    expect(filtersInReach(idle, 1, [undated])).toEqual(['country']);
    expect(filtersInReach(idle, 3, [dated])).toEqual(['country', 'status']);
    expect(filtersInReach(idle, 1, [])).toEqual([]);
    // With values set, what reaches is what is in reach.
    expect(filtersInReach(state, 1, [undated])).toEqual(filtersReaching(state, 1, [undated]));
  });
});
