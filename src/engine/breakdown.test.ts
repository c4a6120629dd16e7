/**
 * Breakdowns: one series per distinct value of a field, worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.js';
import { MAX_BREAKDOWN_SERIES } from './breakdown.js';
import { computeChartData } from './chart-data.js';
import { PALETTE } from './colors.js';
import { InvalidChartConfigError } from './errors.js';
import type { AxisChartData, ChartInput, DatasetConfigInput, Row, RowSource } from './types.js';

/*
 * Sales, UTC days:
 *   2025-01-01: FR 10, DE 20, FR 5
 *   2025-01-02: US 7, DE 1
 *   2025-01-03: FR 4, (no country) 100
 * Sums by country: DE 21, FR 19, US 7. Sums by day and country: FR 15/–/4, DE 20/1/–, US –/7/–.
 */
const sales: Row[] = [
  { day: '2025-01-01T10:00:00Z', amount: 10, country: 'FR' },
  { day: '2025-01-01T11:00:00Z', amount: 20, country: 'DE' },
  { day: '2025-01-01T12:00:00Z', amount: 5, country: 'FR' },
  { day: '2025-01-02T10:00:00Z', amount: 7, country: 'US' },
  { day: '2025-01-02T11:00:00Z', amount: 1, country: 'DE' },
  { day: '2025-01-03T10:00:00Z', amount: 4, country: 'FR' },
  { day: '2025-01-03T11:00:00Z', amount: 100, country: null },
];

const byDayAndCountry: DatasetConfigInput = {
  xAxis: 'root[].day',
  dateField: 'root[].day',
  yAxis: 'root[].amount',
  yAxisOperation: 'sum',
  breakdown: 'root[].country',
  legend: 'Sales',
};

async function axis(chart: Partial<ChartInput>, configs: Array<[DatasetConfigInput, RowSource]>, budget?: ByteBudget): Promise<AxisChartData> {
  const out = await computeChartData({ type: 'line', timeInterval: 'day', ...chart }, configs.map(([config, rows]) => ({ config, rows })), budget ? { budget } : {});
  return out as AxisChartData;
}

function seriesOf(out: AxisChartData): Array<[string, Array<number | null>]> {
  return out.data.datasets.map((d) => [d.label, d.data]);
}

describe('breakdown', () => {
  it('draws one series per value, largest total first, rows without a value left out', async () => {
    const out = await axis({}, [[byDayAndCountry, sales]]);
    expect(out.data.labels).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    expect(seriesOf(out)).toEqual([
      ['DE', [20, 1, 0]],
      ['FR', [15, 0, 4]],
      ['US', [0, 7, 0]],
    ]);
    // Colours from the palette by the series' place; the legend shows with several series.
    expect(out.data.datasets.map((d) => d.borderColor)).toEqual([PALETTE[0], PALETTE[1], PALETTE[2]]);
    expect((out.options['plugins'] as { legend: { display: boolean } }).legend.display).toBe(true);
    expect(out.seriesTruncated).toBeUndefined();
  });

  it('splits a category axis, and reads the value and the rows inside an array', async () => {
    const orders: Row[] = [
      { status: 'paid', items: [{ kind: 'book', price: 3 }, { kind: 'pen', price: 1 }] },
      { status: 'open', items: [{ kind: 'book', price: 5 }] },
      { status: 'paid', items: [{ kind: 'pen', price: 2 }] },
    ];
    const config: DatasetConfigInput = { xAxis: 'root[].status', yAxis: 'root[].items[].price', yAxisOperation: 'sum', breakdown: 'root[].items[].kind' };
    // book: open 5, paid 3 (8); pen: paid 3 (3). Labels in axis order: open, paid.
    const out = await axis({ type: 'bar' }, [[config, orders]]);
    expect(out.data.labels).toEqual(['open', 'paid']);
    expect(seriesOf(out)).toEqual([
      ['book', [5, 3]],
      ['pen', [0, 3]],
    ]);
  });

  it('orders ties by value (numbers first, then text), and 1 and "1" are one series', async () => {
    const rows: Row[] = [
      { k: 'b', v: 1 },
      { k: 'a', v: 1 },
      { k: 2, v: 1 },
      { k: '1', v: 1 },
      { k: 1, v: 0 },
    ];
    const out = await axis({}, [[{ xAxis: null, yAxis: 'v', yAxisOperation: 'sum', breakdown: 'k' }, rows]]);
    expect(out.data.labels).toEqual(['Total']);
    expect(seriesOf(out)).toEqual([
      ['1', [1]],
      ['2', [1]],
      ['a', [1]],
      ['b', [1]],
    ]);
  });

  it('keeps its series beside an ordinary dataset, and applies formula, running total and maxRecords to each', async () => {
    const plain: DatasetConfigInput = { xAxis: 'day', dateField: 'day', yAxisOperation: 'count', legend: 'Rows' };
    const out = await axis({ subType: 'AddTimeseries' }, [
      [plain, sales],
      [{ ...byDayAndCountry, formula: '{val * 2}', maxRecords: 2 }, sales],
    ]);
    expect(out.data.labels).toEqual(['2025-01-02', '2025-01-03']);
    expect(seriesOf(out)).toEqual([
      ['Rows', [5, 7]],
      ['DE', [42, 42]],
      ['FR', [30, 38]],
      ['US', [14, 14]],
    ]);
    // The ordinary dataset keeps its colour; the breakdown's series take the next ones.
    expect(out.data.datasets.map((d) => d.borderColor)).toEqual([PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3]]);
  });

  it(`draws at most ${MAX_BREAKDOWN_SERIES} series and says which breakdown was cut`, async () => {
    // Value i has total i: the largest 20 are 25 down to 6.
    const rows: Row[] = [];
    for (let i = 1; i <= 25; i += 1) rows.push({ k: `v${i}`, n: i });
    const out = await axis({}, [[{ yAxis: 'n', yAxisOperation: 'sum', breakdown: 'k', legend: 'Spread' }, rows]]);
    expect(out.data.datasets).toHaveLength(MAX_BREAKDOWN_SERIES);
    expect(out.data.datasets[0]!.label).toBe('v25');
    expect(out.data.datasets.at(-1)!.label).toBe('v6');
    expect(out.seriesTruncated).toBe(true);
    expect(out.seriesLimit).toBe(MAX_BREAKDOWN_SERIES);
    expect(out.breakdowns).toEqual([{ datasetIndex: 0, label: 'Spread', series: 25, shown: MAX_BREAKDOWN_SERIES }]);
  });

  it('draws the largest breakdownLimit series; with breakdownOther the rest are summed into one more, nothing cut', async () => {
    // Largest two: DE 21, FR 19. The rest: US 7 (days 0/7/0).
    const two = await axis({}, [[{ ...byDayAndCountry, breakdownLimit: 2 }, sales]]);
    expect(seriesOf(two)).toEqual([
      ['DE', [20, 1, 0]],
      ['FR', [15, 0, 4]],
    ]);
    expect(two.seriesTruncated).toBe(true);
    expect(two.seriesLimit).toBe(2);
    expect(two.breakdowns).toEqual([{ datasetIndex: 0, label: 'Sales', series: 3, shown: 2 }]);

    // One shown, the rest summed by day: FR+US = 15/7/4, the total of the rows with a country less DE's.
    const other = await axis({}, [[{ ...byDayAndCountry, breakdownLimit: 1, breakdownOther: true, breakdownOtherLabel: 'Elsewhere' }, sales]]);
    expect(seriesOf(other)).toEqual([
      ['DE', [20, 1, 0]],
      ['Elsewhere', [15, 7, 4]],
    ]);
    expect(other.data.datasets.map((d) => d.borderColor)).toEqual([PALETTE[0], PALETTE[1]]);
    expect(other.seriesTruncated).toBeUndefined();
    // Counts add up too; within the limit there is nothing to fold.
    const counted = await axis({}, [[{ ...byDayAndCountry, yAxisOperation: 'count', breakdownLimit: 2, breakdownOther: true }, sales]]);
    expect(seriesOf(counted)).toEqual([
      ['FR', [2, 0, 1]],
      ['DE', [1, 1, 0]],
      ['Other', [0, 1, 0]],
    ]);
    const all = await axis({}, [[{ ...byDayAndCountry, breakdownOther: true }, sales]]);
    expect(all.data.datasets.map((d) => d.label)).toEqual(['DE', 'FR', 'US']);

    // More values than the most series a chart draws: folded, never cut.
    const rows: Row[] = [];
    for (let i = 1; i <= 25; i += 1) rows.push({ k: `v${i}`, n: i });
    const folded = await axis({}, [[{ yAxis: 'n', yAxisOperation: 'sum', breakdown: 'k', legend: 'Spread', breakdownOther: true }, rows]]);
    expect(folded.data.datasets).toHaveLength(MAX_BREAKDOWN_SERIES + 1);
    expect(folded.data.datasets.at(-1)).toMatchObject({ label: 'Other', data: [1 + 2 + 3 + 4 + 5] });
    expect(folded.seriesTruncated).toBeUndefined();
  });

  it('refuses an "Other" series over values that do not add up, and a limit out of range', async () => {
    for (const operation of ['avg', 'min', 'max', 'count_unique'] as const) {
      await expect(axis({}, [[{ ...byDayAndCountry, yAxisOperation: operation, breakdownOther: true }, sales]])).rejects.toMatchObject({ details: [{ path: 'datasets[0].breakdownOther' }] });
    }
    await expect(axis({}, [[{ ...byDayAndCountry, breakdownLimit: 21 }, sales]])).rejects.toBeInstanceOf(InvalidChartConfigError);
  });

  it('has no goal per series, and draws no series without rows', async () => {
    const out = await axis({}, [[{ ...byDayAndCountry, goal: 100 }, []]]);
    expect(out.data.datasets).toEqual([]);
    expect(out.goals).toBeUndefined();
  });

  it('counts its values against the byte budget', async () => {
    const budget = new ByteBudget(1000);
    const rows: Row[] = [];
    for (let i = 0; i < 100; i += 1) rows.push({ day: '2025-01-01', k: `value ${i}`, n: 1 });
    await axis({}, [[{ xAxis: 'day', dateField: 'day', yAxis: 'n', yAxisOperation: 'sum', breakdown: 'k' }, rows]], budget);
    expect(budget.exceeded).toBe(true);
  });

  it.each(['pie', 'kpi', 'table', 'matrix'])('is refused on a %s chart, naming the field', async (type) => {
    const run = computeChartData({ type }, [{ config: byDayAndCountry, rows: sales }]);
    await expect(run).rejects.toThrow(InvalidChartConfigError);
    await expect(run).rejects.toMatchObject({ details: [{ path: 'datasets[0].breakdown' }] });
  });
});
