import { describe, expect, it } from 'vitest';
import { aggregateValues } from '../../test/helpers/aggregate-values.js';
import { createAggregator, GroupState } from './aggregators.js';
import type { Operation } from './types.js';

const values = [3, '4.5', null, undefined, 'n/a', 3, true, 10n];

describe('aggregateValues', () => {
  it('count counts non-null values; without a value field it counts rows', () => {
    // 3, '4.5', 'n/a', 3, true, 10n
    expect(aggregateValues('count', values)).toBe(6);
    expect(aggregateValues('count', values, false)).toBe(8);
  });

  it('count_unique counts distinct typed values', () => {
    // 3, '4.5', 'n/a', true, 10n (the second 3 repeats)
    expect(aggregateValues('count_unique', values)).toBe(5);
    expect(aggregateValues('count_unique', [1, '1', 1])).toBe(2);
    expect(aggregateValues('count_unique', [new Date(5), new Date(5), { a: 1 }, { a: 1 }])).toBe(2);
  });

  it('sum, avg, min, max read numbers, numeric strings and bigints only', () => {
    // 3 + 4.5 + 3 + 10 = 20.5 over 4 numbers
    expect(aggregateValues('sum', values)).toBe(20.5);
    expect(aggregateValues('avg', values)).toBe(5.125);
    expect(aggregateValues('min', values)).toBe(3);
    expect(aggregateValues('max', values)).toBe(10);
  });

  it('gives null for sum/avg/min/max of nothing, 0 for counts', () => {
    for (const op of ['sum', 'avg', 'min', 'max', 'none'] as const) expect(aggregateValues(op, [null, 'x'])).toBeNull();
    expect(aggregateValues('count', [])).toBe(0);
    expect(aggregateValues('count_unique', [null])).toBe(0);
  });

  it('none keeps the last non-null value', () => {
    expect(aggregateValues('none', [1, 2, null])).toBe(2);
    expect(aggregateValues('none', ['7'])).toBe(7);
  });

  it('sums without floating-point drift', () => {
    // 0.1 ten thousand times is exactly 1000; naive summation gives 1000.0000000001588.
    expect(aggregateValues('sum', new Array(10_000).fill(0.1))).toBe(1000);
    expect(aggregateValues('sum', [0.1, 0.2])).toBe(0.3);
    // Terms that cancel: 434.10 - 515.91 is -81.81, not -81.8099999999999.
    expect(aggregateValues('sum', [434.1, -515.91])).toBe(-81.81);
    expect(aggregateValues('sum', [1_000_000, 0.01, -1_000_000])).toBe(0.01);
  });
});

describe('merge', () => {
  it.each([
    ['count', 5],
    ['count_unique', 4], // 1, 2, 3, "3"
    ['sum', 11], // 1 + 2 + 3 + 2 + 3
    ['avg', 2.2],
    ['min', 1],
    ['max', 3],
    ['none', 3], // the last value of the merged-in group
  ] as Array<[Operation, number]>)('%s of two partial groups equals the whole', (op, expected) => {
    const agg = createAggregator(op, true);
    const a = new GroupState();
    const b = new GroupState();
    for (const v of [1, 2, 3]) agg.add(a, v);
    for (const v of [2, '3']) agg.add(b, v);
    agg.merge(a, b);
    expect(agg.result(a)).toBe(expected);
  });
});
