/**
 * missingValues `preserve`: a label where a series has no point is null (a gap), not 0. Each rule
 * of shape.ts and axis-chart.ts, worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { computeChartData } from './chart-data.js';
import { isEmptyChartData } from './empty-reason.js';
import type { AxisChartData, ChartInput, DatasetConfigInput, MetricChartData, Row, RowSource } from './types.js';

/*
 * Sales, UTC days:
 *   2025-01-01: FR 10, DE 20, FR 5
 *   2025-01-02: US 7, DE 1, DE (no amount)
 *   2025-01-03: FR 4, IT (no amount)
 * Sums by day and country: FR 15/–/4, DE 20/1/–, US –/7/–, IT –/–/null (a null aggregate).
 * Totals: DE 21, FR 19, US 7, IT 0: the series in that order.
 */
const sales: Row[] = [
  { day: '2025-01-01T10:00:00Z', amount: 10, country: 'FR' },
  { day: '2025-01-01T11:00:00Z', amount: 20, country: 'DE' },
  { day: '2025-01-01T12:00:00Z', amount: 5, country: 'FR' },
  { day: '2025-01-02T10:00:00Z', amount: 7, country: 'US' },
  { day: '2025-01-02T11:00:00Z', amount: 1, country: 'DE' },
  { day: '2025-01-02T12:00:00Z', amount: null, country: 'DE' },
  { day: '2025-01-03T10:00:00Z', amount: 4, country: 'FR' },
  { day: '2025-01-03T11:00:00Z', amount: null, country: 'IT' },
];

const byDay: DatasetConfigInput = { xAxis: 'root[].day', dateField: 'root[].day', yAxis: 'root[].amount', yAxisOperation: 'sum', breakdown: 'root[].country' };
const byCountry: DatasetConfigInput = { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Sales' };

async function axis(chart: Partial<ChartInput>, configs: Array<DatasetConfigInput | [DatasetConfigInput, RowSource]>): Promise<AxisChartData> {
  const datasets = configs.map((c) => (Array.isArray(c) ? { config: c[0], rows: c[1] } : { config: c, rows: sales }));
  return (await computeChartData({ type: 'line', timeInterval: 'day', ...chart }, datasets)) as AxisChartData;
}

function series(out: AxisChartData): Record<string, Array<number | null>> {
  return Object.fromEntries(out.data.datasets.map((d) => [d.label, d.data]));
}

const preserve = { missingValues: 'preserve' } as const;

describe('missingValues preserve', () => {
  it('leaves null where a series has no point or its aggregate is null; zero (the default) plots 0', async () => {
    const gaps = await axis(preserve, [byDay]);
    expect(gaps.data.labels).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    expect(series(gaps)).toEqual({ DE: [20, 1, null], FR: [15, null, 4], US: [null, 7, null], IT: [null, null, null] });
    const zeros = await axis({}, [byDay]);
    expect(series(zeros)).toEqual({ DE: [20, 1, 0], FR: [15, 0, 4], US: [0, 7, 0], IT: [0, 0, 0] });
    expect(series(await axis({ missingValues: 'zero' }, [byDay]))).toEqual(series(zeros));
  });

  it('a bucket filled by includeZeros is a gap too', async () => {
    const out = await axis({ ...preserve, includeZeros: true, startDate: '2024-12-31', endDate: '2025-01-03' }, [[{ ...byDay, breakdown: null, legend: 'All' }, sales]]);
    expect(out.data.labels).toEqual(['2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03']);
    expect(series(out)).toEqual({ All: [null, 35, 8, 4] });
  });

  it('a running total carries its last value over a gap, null before its first point', async () => {
    const out = await axis({ ...preserve, subType: 'lcTimeseries AddTimeseries' }, [byDay]);
    expect(series(out)).toEqual({ DE: [20, 21, 21], FR: [15, 15, 19], US: [null, 7, 7], IT: [null, null, null] });
    const zeros = await axis({ subType: 'lcTimeseries AddTimeseries' }, [byDay]);
    expect(series(zeros)).toEqual({ DE: [20, 21, 21], FR: [15, 15, 19], US: [0, 7, 7], IT: [0, 0, 0] });
  });

  it('a formula leaves null as null; a result that is not a number is null too (0 with zero)', async () => {
    const doubled = await axis(preserve, [{ ...byDay, formula: '{val * 2}' }]);
    expect(series(doubled)).toMatchObject({ FR: [30, null, 8], US: [null, 14, null] });
    // 1 / (val - 1) is infinite where val is 1 (DE on the 2nd).
    const inverse = await axis(preserve, [{ ...byDay, breakdown: null, legend: 'DE', conditions: [{ field: 'root[].country', operator: 'is', value: 'DE' }], formula: '{1 / (val - 1)}' }]);
    expect(series(inverse)).toEqual({ DE: [0.05, null] });
    const zero = await axis({}, [{ ...byDay, breakdown: null, legend: 'DE', conditions: [{ field: 'root[].country', operator: 'is', value: 'DE' }], formula: '{1 / (val - 1)}' }]);
    expect(series(zero)).toEqual({ DE: [0.05, 0] });
  });

  it('a sort by value puts nulls last, ascending or descending', async () => {
    // Sorted by the second dataset, which has no FR: DE 21, US 7, FR –.
    const noFrance = sales.filter((r) => r.country !== 'FR');
    for (const [sort, labels] of [
      ['desc', ['DE', 'US', 'FR']],
      ['asc', ['US', 'DE', 'FR']],
    ] as const) {
      const out = await axis({ ...preserve, type: 'bar' }, [byCountry, [{ ...byCountry, legend: 'No FR', sort }, noFrance]]);
      // IT's sum is null in both: last too, in axis order.
      expect(out.data.labels).toEqual([...labels, 'IT']);
      expect(series(out)['No FR']).toEqual([...labels.map((l) => ({ DE: 21, US: 7, FR: null })[l]), null]);
    }
  });

  it('percent stacking keeps null as null and leaves it out of the totals', async () => {
    const out = await axis({ ...preserve, type: 'bar', stackPercent: true }, [byDay]);
    // 2025-01-01: DE 20 and FR 15 of 35; 2025-01-02: DE 1 and US 7 of 8; 2025-01-03: FR alone.
    expect(series(out)).toEqual({ DE: [57.14, 12.5, null], FR: [42.86, null, 100], US: [null, 87.5, null], IT: [null, null, null] });
  });

  it('the "Other" series sums the folded series ignoring nulls, null where they all are', async () => {
    const out = await axis(preserve, [{ ...byDay, breakdownLimit: 2, breakdownOther: true }]);
    // US and IT folded: US 7 on the 2nd, IT's null on the 3rd.
    expect(series(out)).toEqual({ DE: [20, 1, null], FR: [15, null, 4], Other: [null, 7, null] });
    const zero = await axis({}, [{ ...byDay, breakdownLimit: 2, breakdownOther: true }]);
    expect(series(zero).Other).toEqual([0, 7, 0]);
  });

  it('growth compares the last two points, neutral when one is a gap; goals add up the points there are', async () => {
    const out = await axis({ ...preserve, showGrowth: true }, [[{ ...byDay, breakdown: null, legend: 'DE', conditions: [{ field: 'root[].country', operator: 'is', value: 'DE' }] }, sales], [{ ...byDay, breakdown: null, legend: 'FR', conditions: [{ field: 'root[].country', operator: 'is', value: 'FR' }] }, sales]]);
    expect(out.data.labels).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    expect(out.growth).toEqual([
      { label: 'DE', value: null, previous: 1, percent: null, status: 'neutral' },
      { label: 'FR', value: 4, previous: null, percent: null, status: 'neutral' },
    ]);
    const goals = await axis({ ...preserve, type: 'bar' }, [[{ ...byCountry, goal: 100 }, sales.filter((r) => r.country !== 'FR')], [{ ...byCountry, legend: 'FR', goal: 10 }, sales.filter((r) => r.country === 'FR')]]);
    // DE 21 + US 7 (IT null); FR alone 19.
    expect(goals.goals?.map((g) => [g.label, g.value])).toEqual([
      ['Sales', 28],
      ['FR', 19],
    ]);
  });

  it('KPI, average and gauge charts read missing points as 0 whatever the option', async () => {
    const de: DatasetConfigInput = { ...byDay, breakdown: null, conditions: [{ field: 'root[].country', operator: 'is', value: 'US' }] };
    const kpi = (await computeChartData({ type: 'kpi', timeInterval: 'day', ...preserve, includeZeros: true, endDate: '2025-01-03' }, [{ config: de, rows: sales }])) as MetricChartData;
    expect(kpi.values[0]!.value).toBe(0);
    expect(kpi.data.datasets[0]!.data).toEqual([7, 0]);
  });

  it('a chart whose every point is a gap is empty', async () => {
    const out = await axis(preserve, [{ ...byDay, breakdown: null, conditions: [{ field: 'root[].country', operator: 'is', value: 'IT' }] }]);
    expect(out.data.datasets[0]!.data).toEqual([null]);
    expect(isEmptyChartData('line', out)).toBe(true);
  });
});
