import { describe, expect, it } from 'vitest';
import { evaluate, seriesOf } from './alerts-evaluate.js';

const line = (...data: (number | null)[]) => ({ data: { labels: data.map((_, i) => String(i)), datasets: [{ label: 'a', data }] }, options: {} });
const kpi = (value: number, series: number[] = [value]) => ({ data: { labels: [], datasets: [{ label: 'k', data: series }] }, values: [{ label: 'k', value, formatted: String(value), goal: null, growth: null }] });

describe('alert rules from chartData', () => {
  it.each([
    { type: 'threshold_above', value: 10, data: kpi(11), triggered: true },
    { type: 'threshold_above', value: 10, data: kpi(10), triggered: false },
    { type: 'threshold_below', value: 10, data: line(50, 20, 9), triggered: true },
    { type: 'threshold_below', value: 10, data: line(5, 20, null), triggered: false },
    { type: 'milestone', value: 100, data: kpi(100), triggered: true },
    { type: 'milestone', value: 100, data: kpi(99), triggered: false },
    { type: 'anomaly', value: 3, data: line(10, 11, 9, 10, 11, 9, 40), triggered: true },
    { type: 'anomaly', value: 3, data: line(10, 11, 9, 10, 11, 9, 12), triggered: false },
    { type: 'anomaly', value: 3, data: line(10, 10, 40), triggered: false },
    { type: 'anomaly', value: undefined, data: line(5, 5, 5, 5, 5, 6), triggered: true },
  ] as const)('$type $value on $data.data.datasets.0.data -> $triggered', ({ type, value, data, triggered }) => {
    expect(evaluate(type, value === undefined ? {} : { value }, data).triggered).toBe(triggered);
  });

  it('a KPI is judged by the value it shows, a series by its last point', () => {
    expect(seriesOf(kpi(7, [1, 2, 3]), 0).latest).toBe(7);
    expect(seriesOf(line(1, 2, 3), 0).latest).toBe(3);
  });

  it('charts without numbers never trigger', () => {
    expect(evaluate('threshold_above', { value: 0 }, { content: '# notes' }).triggered).toBe(false);
    expect(evaluate('threshold_above', { value: 0 }, { Orders: { columns: [], data: [{ a: 1 }] } }).triggered).toBe(false);
    expect(evaluate('threshold_above', { value: 0 }, null).triggered).toBe(false);
  });
});
