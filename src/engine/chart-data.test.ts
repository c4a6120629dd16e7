/**
 * Golden tests: small datasets whose chartData is worked out by hand in the comments.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.js';
import { computeChartData } from './chart-data.js';
import { PALETTE } from './colors.js';
import type {
  AxisChartData,
  ChartInput,
  DatasetConfigInput,
  MarkdownChartData,
  MatrixChartData,
  MetricChartData,
  Row,
  RowSource,
  TableChartData,
} from './types.js';

/*
 * Orders, UTC days:
 *   2025-01-01: #1 (10, paid, FR), #2 (20, pending, DE)
 *   2025-01-02: —
 *   2025-01-03: #3 (5.5, paid, FR)
 *   2025-01-04: #4 ("4.5", refunded, US; 23:30Z = 2025-01-05 00:30 in Paris), #5 (null, paid, DE)
 *   2025-01-05: #6 (30, paid, US)
 * Sums by country: DE 20, FR 15.5, US 34.5. Total amount 70 over 5 numeric values.
 */
const orders: Row[] = [
  { id: 1, createdAt: '2025-01-01T10:00:00Z', amount: 10, status: 'paid', country: 'FR', customer: { name: 'Ann', address: { city: 'Lyon' } } },
  { id: 2, createdAt: '2025-01-01T15:00:00Z', amount: 20, status: 'pending', country: 'DE', customer: { name: 'Bo', address: { city: 'Köln' } } },
  { id: 3, createdAt: '2025-01-03T09:00:00Z', amount: 5.5, status: 'paid', country: 'FR', customer: { name: 'Ann', address: { city: 'Lyon' } } },
  { id: 4, createdAt: '2025-01-04T23:30:00Z', amount: '4.5', status: 'refunded', country: 'US', customer: { name: 'Cy', address: { city: 'NYC' } } },
  { id: 5, createdAt: '2025-01-04T08:00:00Z', amount: null, status: 'paid', country: 'DE', customer: { name: 'Bo', address: { city: 'Köln' } } },
  { id: 6, createdAt: '2025-01-05T12:00:00Z', amount: 30, status: 'paid', country: 'US', customer: { name: 'Di', address: { city: 'LA' } } },
];

const byDay: DatasetConfigInput = { xAxis: 'root[].createdAt', dateField: 'root[].createdAt', yAxisOperation: 'count', legend: 'Orders' };

async function axis(chart: Partial<ChartInput>, configs: Array<DatasetConfigInput | [DatasetConfigInput, RowSource]>): Promise<AxisChartData> {
  const datasets = configs.map((c) => (Array.isArray(c) ? { config: c[0], rows: c[1] } : { config: c, rows: orders }));
  return (await computeChartData({ type: 'line', ...chart }, datasets)) as AxisChartData;
}

function series(out: AxisChartData | MetricChartData): { labels: string[]; data: Array<Array<number | null>> } {
  return { labels: out.data.labels, data: out.data.datasets.map((d) => d.data) };
}

describe('line chart, time axis', () => {
  it('counts by day, only the days with rows', async () => {
    const out = await axis({ timeInterval: 'day' }, [byDay]);
    expect(series(out)).toEqual({ labels: ['2025-01-01', '2025-01-03', '2025-01-04', '2025-01-05'], data: [[2, 1, 2, 1]] });
  });

  it('fills gaps with zeros (includeZeros)', async () => {
    const out = await axis({ timeInterval: 'day', includeZeros: true }, [byDay]);
    expect(series(out)).toEqual({
      labels: ['2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05'],
      data: [[2, 0, 1, 2, 1]],
    });
  });

  it('buckets in the project zone', async () => {
    // In Paris #4 (23:30Z on the 4th) falls on 2025-01-05.
    const out = await axis({ timeInterval: 'day', timezone: 'Europe/Paris' }, [byDay]);
    expect(series(out)).toEqual({ labels: ['2025-01-01', '2025-01-03', '2025-01-04', '2025-01-05'], data: [[2, 1, 1, 2]] });
  });

  it.each([
    ['sum', [30, 5.5, 4.5, 30]], // 10+20; 5.5; "4.5"+null; 30
    ['avg', [15, 5.5, 4.5, 30]],
    ['min', [10, 5.5, 4.5, 30]],
    ['max', [20, 5.5, 4.5, 30]],
    ['count', [2, 1, 1, 1]], // non-null amounts
    ['none', [20, 5.5, 4.5, 30]], // last non-null value of the day, in row order
  ])('%s of amount by day', async (operation, expected) => {
    const out = await axis({ timeInterval: 'day' }, [{ ...byDay, yAxis: 'root[].amount', yAxisOperation: operation }]);
    expect(series(out).data).toEqual([expected]);
  });

  it('count_unique of status by day', async () => {
    // 01: paid, pending; 03: paid; 04: refunded, paid; 05: paid
    const out = await axis({ timeInterval: 'day' }, [{ ...byDay, yAxis: 'root[].status', yAxisOperation: 'count_unique' }]);
    expect(series(out).data).toEqual([[2, 1, 2, 1]]);
  });

  it('groups by ISO week and by month', async () => {
    // 2024-12-30 … 2025-01-05 is one ISO week (Monday 2024-12-30).
    expect(series(await axis({ timeInterval: 'week' }, [byDay]))).toEqual({ labels: ['2024-12-30'], data: [[6]] });
    expect(series(await axis({ timeInterval: 'month' }, [byDay]))).toEqual({ labels: ['2025-01'], data: [[6]] });
  });

  it('limits the window to startDate … endDate on the date field', async () => {
    // 2025-01-02 … 2025-01-04: #3, #4, #5.
    const out = await axis({ timeInterval: 'day', includeZeros: true, startDate: '2025-01-02', endDate: '2025-01-04' }, [byDay]);
    expect(series(out)).toEqual({ labels: ['2025-01-02', '2025-01-03', '2025-01-04'], data: [[0, 1, 2]] });
  });

  it('fills the whole window, including buckets before and after the data', async () => {
    const out = await axis({ timeInterval: 'day', includeZeros: true, startDate: '2024-12-31', endDate: '2025-01-06' }, [byDay]);
    expect(series(out)).toEqual({
      labels: ['2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05', '2025-01-06'],
      data: [[0, 2, 0, 1, 2, 1, 0]],
    });
  });

  it('rolls the window to now (currentEndDate, injected clock)', async () => {
    // Dec 1 … Dec 3 is 2 whole days after its start; ending on now (Jan 5) it becomes Jan 3 … Jan 5.
    const out = await axis(
      { timeInterval: 'day', includeZeros: true, startDate: '2024-12-01', endDate: '2024-12-03', currentEndDate: true, now: new Date('2025-01-05T18:00:00Z') },
      [byDay],
    );
    expect(series(out)).toEqual({ labels: ['2025-01-03', '2025-01-04', '2025-01-05'], data: [[1, 2, 1]] });
  });

  it('accumulates for AddTimeseries', async () => {
    const out = await axis({ timeInterval: 'day', includeZeros: true, subType: 'AddTimeseries' }, [byDay]);
    expect(series(out).data).toEqual([[2, 2, 3, 5, 6]]);
  });

  it('keeps the last maxRecords buckets of a time series', async () => {
    const out = await axis({ timeInterval: 'day', includeZeros: true }, [{ ...byDay, maxRecords: 2 }]);
    expect(series(out)).toEqual({ labels: ['2025-01-04', '2025-01-05'], data: [[2, 1]] });
  });

  it('keeps the running total when maxRecords trims an accumulated series', async () => {
    const out = await axis({ timeInterval: 'day', includeZeros: true, subType: 'AddTimeseries' }, [{ ...byDay, maxRecords: 2 }]);
    expect(series(out).data).toEqual([[5, 6]]);
  });

  it('reports growth between the last two points', async () => {
    // Last 1 (01-05), previous 2 (01-04): -50 %.
    const out = await axis({ timeInterval: 'day', includeZeros: true, showGrowth: true }, [byDay]);
    expect(out.growth).toEqual([{ label: 'Orders', value: 1, previous: 2, percent: -50, status: 'negative' }]);
    const inverted = await axis({ timeInterval: 'day', includeZeros: true, showGrowth: true, invertGrowth: true }, [byDay]);
    expect(inverted.growth).toEqual([{ label: 'Orders', value: 1, previous: 2, percent: -50, status: 'positive' }]);
    expect((await axis({ timeInterval: 'day' }, [byDay])).growth).toBeUndefined();
  });

  it('gives no percent when the previous value is 0', async () => {
    // 2025-01-01: 2 orders, 2025-01-02: 0 → last 0 vs previous 2 is -100 %; 01-03 vs 01-02 has no percent.
    const out = await axis({ timeInterval: 'day', includeZeros: true, showGrowth: true, endDate: '2025-01-03', startDate: '2025-01-01' }, [byDay]);
    expect(out.growth).toEqual([{ label: 'Orders', value: 1, previous: 0, percent: null, status: 'positive' }]);
  });

  it('applies the formula to every point', async () => {
    // Sums by day [30, 0, 5.5, 4.5, 30] divided by 10.
    const out = await axis({ timeInterval: 'day', includeZeros: true }, [{ ...byDay, yAxis: 'root[].amount', yAxisOperation: 'sum', formula: '{val / 10}' }]);
    expect(series(out).data).toEqual([[3, 0, 0.55, 0.45, 3]]);
  });

  it('shares one label axis between datasets, 0 where a dataset has no point', async () => {
    const refunds: Row[] = [{ at: '2025-01-02T12:00:00Z' }, { at: '2025-01-06T12:00:00Z' }, { at: '2025-01-06T13:00:00Z' }];
    const out = await axis({ timeInterval: 'day' }, [byDay, [{ xAxis: 'at', dateField: 'at', yAxisOperation: 'count', legend: 'Refunds' }, refunds]]);
    expect(series(out)).toEqual({
      labels: ['2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05', '2025-01-06'],
      data: [
        [2, 0, 1, 2, 1, 0],
        [0, 1, 0, 0, 0, 2],
      ],
    });
    expect(out.data.datasets.map((d) => d.label)).toEqual(['Orders', 'Refunds']);
  });

  it('passes legend, colours, fill and point radius, and Chart.js options', async () => {
    const out = await axis({ timeInterval: 'day' }, [{ ...byDay, datasetColor: '#123456', fillColor: '#abcdef', fill: true, pointRadius: 4 }]);
    const [dataset] = out.data.datasets;
    expect(dataset).toEqual({
      label: 'Orders',
      data: [2, 1, 2, 1],
      borderColor: '#123456',
      backgroundColor: '#abcdef',
      fill: true,
      pointRadius: 4,
    });
    expect(out.options).toMatchObject({ scales: { x: { stacked: false }, y: { beginAtZero: true } }, plugins: { legend: { display: false } } });
  });

  it('reports goals', async () => {
    // Last point 1 against a goal of 4.
    const out = await axis({ timeInterval: 'day', includeZeros: true }, [{ ...byDay, goal: 4 }]);
    expect(out.goals).toEqual([{ label: 'Orders', datasetIndex: 0, goal: 4, value: 1, percent: 25, formattedGoal: '4', formattedValue: '1' }]);
  });

  it('reads epoch seconds, epoch milliseconds and Date objects alike', async () => {
    // All three are 2025-01-01T10:00:00Z; the last is 2025-01-02T00:00:00Z in seconds as text.
    const rows: Row[] = [{ t: 1_735_725_600 }, { t: 1_735_725_600_000 }, { t: new Date(1_735_725_600_000) }, { t: '1735776000' }];
    const out = await axis({ timeInterval: 'day' }, [[{ xAxis: 't', dateField: 't', yAxisOperation: 'count' }, rows]]);
    expect(series(out)).toEqual({ labels: ['2025-01-01', '2025-01-02'], data: [[3, 1]] });
  });

  it('leaves out rows whose date cannot be read', async () => {
    const rows: Row[] = [{ t: '2025-01-01' }, { t: 'soon' }, { t: null }, {}];
    const out = await axis({ timeInterval: 'day' }, [[{ xAxis: 't', dateField: 't', yAxisOperation: 'count' }, rows]]);
    expect(series(out)).toEqual({ labels: ['2025-01-01'], data: [[1]] });
  });

  it('counts by hour across the Paris autumn change', async () => {
    // 00:30Z and 01:30Z are both 02:30 local, once in CEST and once in CET.
    const rows: Row[] = [{ t: '2025-10-26T00:30:00Z' }, { t: '2025-10-26T00:45:00Z' }, { t: '2025-10-26T01:30:00Z' }];
    const out = await axis({ timeInterval: 'hour', timezone: 'Europe/Paris' }, [[{ xAxis: 't', dateField: 't', yAxisOperation: 'count' }, rows]]);
    expect(series(out)).toEqual({ labels: ['2025-10-26 02:00 +02:00', '2025-10-26 02:00 +01:00'], data: [[2, 1]] });
  });

  it('gives empty labels and data without rows', async () => {
    expect(series(await axis({ timeInterval: 'day' }, [[byDay, []]]))).toEqual({ labels: [], data: [[]] });
  });
});

describe('bar chart, category axis', () => {
  const byCountry: DatasetConfigInput = { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' };

  it('sums by category, labels in a fixed order', async () => {
    const out = await axis({ type: 'bar' }, [byCountry]);
    expect(series(out)).toEqual({ labels: ['DE', 'FR', 'US'], data: [[20, 15.5, 34.5]] });
  });

  it('sorts by value and keeps the top maxRecords', async () => {
    expect(series(await axis({ type: 'bar' }, [{ ...byCountry, sort: 'desc' }]))).toEqual({ labels: ['US', 'DE', 'FR'], data: [[34.5, 20, 15.5]] });
    expect(series(await axis({ type: 'bar' }, [{ ...byCountry, sort: 'asc' }]))).toEqual({ labels: ['FR', 'DE', 'US'], data: [[15.5, 20, 34.5]] });
    expect(series(await axis({ type: 'bar' }, [{ ...byCountry, sort: 'desc', maxRecords: 2 }]))).toEqual({ labels: ['US', 'DE'], data: [[34.5, 20]] });
  });

  it('puts 1 and "1" under one label, merging their aggregates', async () => {
    // Label "1": 2 + 3 (the number) and 5 (the text) → sum 10, avg 10 / 3; label "2": 7.
    const rows: Row[] = [{ k: 1, v: 2 }, { k: '1', v: 5 }, { k: 1, v: 3 }, { k: 2, v: 7 }];
    expect(series(await axis({ type: 'bar' }, [[{ xAxis: 'k', yAxis: 'v', yAxisOperation: 'sum' }, rows]]))).toEqual({ labels: ['1', '2'], data: [[10, 7]] });
    expect(series(await axis({ type: 'bar' }, [[{ xAxis: 'k', yAxis: 'v', yAxisOperation: 'max' }, rows]])).data).toEqual([[5, 7]]);
    expect(series(await axis({ type: 'bar' }, [[{ xAxis: 'k', yAxis: 'v', yAxisOperation: 'count_unique' }, rows]])).data).toEqual([[3, 1]]);
    const avg = series(await axis({ type: 'bar' }, [[{ xAxis: 'k', yAxis: 'v', yAxisOperation: 'avg', formula: '{val.toFixed(4)}' }, rows]]));
    expect(avg.data).toEqual([[3.3333, 7]]);
  });

  it('orders numeric categories by value', async () => {
    const rows: Row[] = [{ k: 10 }, { k: 9 }, { k: 'b' }, { k: 100 }, { k: 'a' }, { k: true }];
    const out = await axis({ type: 'bar' }, [[{ xAxis: 'k', yAxisOperation: 'count' }, rows]]);
    expect(series(out).labels).toEqual(['9', '10', '100', 'a', 'b', 'true']);
  });

  it('sorts a shared axis by the first dataset that sets sort', async () => {
    // Orders per country: DE 2, FR 2, US 2 → equal, axis order kept; revenue decides instead when it sorts.
    const out = await axis({ type: 'bar' }, [
      { xAxis: 'country', yAxisOperation: 'count', legend: 'Orders' },
      { ...byCountry, sort: 'desc' },
    ]);
    expect(series(out)).toEqual({
      labels: ['US', 'DE', 'FR'],
      data: [
        [2, 2, 2],
        [34.5, 20, 15.5],
      ],
    });
  });

  it('shares the union of categories between datasets', async () => {
    const returns: Row[] = [{ country: 'FR' }, { country: 'IT' }];
    const out = await axis({ type: 'bar' }, [byCountry, [{ xAxis: 'country', yAxisOperation: 'count', legend: 'Returns' }, returns]]);
    expect(series(out)).toEqual({
      labels: ['DE', 'FR', 'IT', 'US'],
      data: [
        [20, 15.5, 0, 34.5],
        [0, 1, 1, 0],
      ],
    });
  });

  it('applies conditions before aggregating', async () => {
    // Paid only: FR 10 + 5.5, DE null, US 30.
    const out = await axis({ type: 'bar' }, [{ ...byCountry, conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }] }]);
    expect(series(out)).toEqual({ labels: ['DE', 'FR', 'US'], data: [[0, 15.5, 30]] });
  });

  it('colours each bar from a colour list, stacks and turns horizontal', async () => {
    const out = await axis({ type: 'bar', stacked: true, horizontal: true }, [{ ...byCountry, fillColor: ['#111111', '#222222'] }]);
    expect(out.data.datasets[0]!.backgroundColor).toEqual(['#111111', '#222222', PALETTE[2]]);
    expect(out.options).toMatchObject({ indexAxis: 'y', scales: { x: { stacked: true, beginAtZero: true }, y: { stacked: true } } });
  });

  it('stacks to 100 %: the sum and the count of each country as shares of their total', async () => {
    // Sums DE 20, FR 15.5, US 34.5; counts DE 2, FR 2, US 2. DE: 20 / 22 = 90.91 %, 2 / 22 = 9.09 %.
    const out = await axis({ type: 'bar', stackPercent: true }, [byCountry, { ...byCountry, yAxis: null, yAxisOperation: 'count', legend: 'Orders' }]);
    expect(out.data.labels).toEqual(['DE', 'FR', 'US']);
    expect(out.data.datasets.map((d) => d.data)).toEqual([
      [90.91, 88.57, 94.52],
      [9.09, 11.43, 5.48],
    ]);
    expect(out.options).toMatchObject({ scales: { x: { stacked: true }, y: { stacked: true, min: 0, max: 100 } } });
  });

  it('sums the plotted points for a goal on a category axis', async () => {
    const out = await axis({ type: 'bar' }, [{ ...byCountry, goal: 100, formula: '${val}' }]);
    // 20 + 15.5 + 34.5 = 70
    expect(out.goals).toEqual([{ label: 'Revenue', datasetIndex: 0, goal: 100, value: 70, percent: 70, formattedGoal: '$100', formattedValue: '$70' }]);
  });

  it('without an x axis, shows one Total bar', async () => {
    const out = await axis({ type: 'bar' }, [{ yAxis: 'amount', yAxisOperation: 'avg' }]);
    expect(series(out)).toEqual({ labels: ['Total'], data: [[14]] });
  });
});

describe('pie, doughnut, polar, radar', () => {
  const byStatus: DatasetConfigInput = { xAxis: 'root[].status', yAxisOperation: 'count', legend: 'Status' };

  it.each(['pie', 'doughnut', 'polar'] as const)('%s: one colour per slice', async (type) => {
    // paid: #1 #3 #5 #6; pending: #2; refunded: #4.
    const out = await axis({ type }, [{ ...byStatus, fillColor: ['#111111'] }]);
    expect(series(out)).toEqual({ labels: ['paid', 'pending', 'refunded'], data: [[4, 1, 1]] });
    expect(out.data.datasets[0]!.backgroundColor).toEqual(['#111111', PALETTE[1], PALETTE[2]]);
    expect(out.options).toMatchObject({ plugins: { legend: { display: true } } });
  });

  it('radar: categories on a radial scale', async () => {
    const out = await axis({ type: 'radar' }, [byStatus]);
    expect(series(out)).toEqual({ labels: ['paid', 'pending', 'refunded'], data: [[4, 1, 1]] });
    expect(out.options).toMatchObject({ scales: { r: { beginAtZero: true } } });
    expect(out.data.datasets[0]!.borderColor).toBe(PALETTE[0]);
  });
});

describe('inner arrays', () => {
  const baskets: Row[] = [
    { country: 'FR', items: [{ sku: 'A', price: 2, status: 'ok' }, { sku: 'B', price: 3, status: 'void' }] },
    { country: 'FR', items: [{ sku: 'A', price: 2, status: 'ok' }] },
    { country: 'DE', items: [{ sku: 'C', price: 10, status: 'ok' }] },
    { country: 'DE', items: [] },
  ];

  it('sums item prices per record-level category', async () => {
    // FR: 2 + 3 + 2 = 7; DE: 10.
    const out = await axis({ type: 'bar' }, [[{ xAxis: 'root[].country', yAxis: 'root[].items[].price', yAxisOperation: 'sum' }, baskets]]);
    expect(series(out)).toEqual({ labels: ['DE', 'FR'], data: [[10, 7]] });
  });

  it('filters elements with a condition inside the same array', async () => {
    // Without the void item: FR 4, DE 10.
    const out = await axis({ type: 'bar' }, [
      [
        { xAxis: 'country', yAxis: 'items[].price', yAxisOperation: 'sum', conditions: [{ field: 'root[].items[].status', operator: 'isNot', value: 'void' }] },
        baskets,
      ],
    ]);
    expect(series(out)).toEqual({ labels: ['DE', 'FR'], data: [[10, 4]] });
  });

  it('groups by a field of the elements (root.items[].x)', async () => {
    // A twice, B once, C once.
    const out = await axis({ type: 'bar' }, [[{ xAxis: 'root.items[].sku', yAxisOperation: 'count' }, baskets]]);
    expect(series(out)).toEqual({ labels: ['A', 'B', 'C'], data: [[2, 1, 1]] });
  });

  it('counts array values as categories', async () => {
    const rows: Row[] = [{ tags: ['a', 'b'] }, { tags: ['b'] }, { tags: 'c' }];
    const out = await axis({ type: 'pie' }, [[{ xAxis: 'tags[]', yAxisOperation: 'count' }, rows]]);
    expect(series(out)).toEqual({ labels: ['a', 'b', 'c'], data: [[1, 2, 1]] });
  });
});

describe('row sources', () => {
  it('reads async iterables, batches and plain iterables the same way', async () => {
    async function* oneByOne(): AsyncGenerator<Row> {
      for (const row of orders) yield row;
    }
    async function* batches(): AsyncGenerator<Row[]> {
      yield orders.slice(0, 4);
      yield orders.slice(4);
    }
    function* plain(): Generator<Row> {
      yield* orders;
    }
    const expected = { labels: ['2025-01-01', '2025-01-03', '2025-01-04', '2025-01-05'], data: [[2, 1, 2, 1]] };
    expect(series(await axis({ timeInterval: 'day' }, [[byDay, oneByOne()]]))).toEqual(expected);
    expect(series(await axis({ timeInterval: 'day' }, [[byDay, { batches: batches() }]]))).toEqual(expected);
    expect(series(await axis({ timeInterval: 'day' }, [[byDay, plain()]]))).toEqual(expected);
  });
});

describe('failures and aborts', () => {
  function tracked(rows: number, failAt: number | null): { source: AsyncGenerator<Row>; state: { read: number; closed: boolean } } {
    const state = { read: 0, closed: false };
    async function* gen(): AsyncGenerator<Row> {
      try {
        for (let i = 0; i < rows; i += 1) {
          await new Promise((resolve) => setImmediate(resolve));
          if (i === failAt) throw new Error('source died');
          state.read += 1;
          yield { t: '2025-01-01' };
        }
      } finally {
        state.closed = true;
      }
    }
    return { source: gen(), state };
  }

  it('a failing source fails the run and the other sources are closed', async () => {
    const failing = tracked(100, 3);
    const healthy = tracked(1_000_000, null);
    const config = { xAxis: 't', dateField: 't', yAxisOperation: 'count' };
    await expect(
      computeChartData({ type: 'line' }, [
        { config, rows: failing.source },
        { config, rows: healthy.source },
      ]),
    ).rejects.toThrow('source died');
    await new Promise((resolve) => setImmediate(resolve));
    expect(healthy.state.closed).toBe(true);
    expect(healthy.state.read).toBeLessThan(10);
  });

  it('an aborted run stops reading, closes its source and throws the reason', async () => {
    const source = tracked(1_000_000, null);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('timed out')), 5);
    await expect(
      computeChartData({ type: 'line' }, [{ config: { xAxis: 't', dateField: 't', yAxisOperation: 'count' }, rows: source.source }], { signal: controller.signal }),
    ).rejects.toThrow('timed out');
    expect(source.state.closed).toBe(true);
    expect(source.state.read).toBeLessThan(1_000_000);
  });
});

describe('kpi, avg, gauge', () => {
  async function metric(chart: Partial<ChartInput>, configs: DatasetConfigInput[]): Promise<MetricChartData> {
    return (await computeChartData({ type: 'kpi', ...chart } as ChartInput, configs.map((config) => ({ config, rows: orders })))) as MetricChartData;
  }

  it('kpi on a time axis shows the last point, with growth', async () => {
    const out = await metric({ timeInterval: 'day', includeZeros: true, showGrowth: true }, [{ ...byDay, goal: 10 }]);
    expect(series(out)).toEqual({ labels: ['2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05'], data: [[2, 0, 1, 2, 1]] });
    expect(out.values).toEqual([{ label: 'Orders', value: 1, formatted: '1', goal: 10, growth: { previous: 2, percent: -50, status: 'negative' } }]);
  });

  it('kpi without a time axis shows the total over all rows', async () => {
    const out = await metric({}, [
      { yAxis: 'amount', yAxisOperation: 'sum', legend: 'Revenue', formula: '${val / 1000}k' },
      { yAxisOperation: 'count', legend: 'Orders' },
      { yAxis: 'amount', yAxisOperation: 'avg', legend: 'Average' },
    ]);
    expect(series(out)).toEqual({ labels: ['Total'], data: [[0.07], [6], [14]] });
    expect(out.values).toEqual([
      { label: 'Revenue', value: 0.07, formatted: '$0.07k', goal: null, growth: null },
      { label: 'Orders', value: 6, formatted: '6', goal: null, growth: null },
      { label: 'Average', value: 14, formatted: '14', goal: null, growth: null },
    ]);
  });

  it('kpi of no rows: count 0, sum null', async () => {
    const out = (await computeChartData({ type: 'kpi' }, [
      { config: { yAxisOperation: 'count' }, rows: [] },
      { config: { yAxis: 'amount', yAxisOperation: 'sum' }, rows: [] },
    ])) as MetricChartData;
    expect(out.values.map((v) => [v.value, v.formatted])).toEqual([
      [0, '0'],
      [null, '-'],
    ]);
  });

  it('avg on a time axis is the mean of the plotted points', async () => {
    // [2, 0, 1, 2, 1] → 6 / 5 = 1.2
    const out = await metric({ type: 'avg', timeInterval: 'day', includeZeros: true }, [byDay]);
    expect(out.values[0]!.value).toBe(1.2);
    // Without zero filling: [2, 1, 2, 1] → 1.5
    expect((await metric({ type: 'avg', timeInterval: 'day' }, [byDay])).values[0]!.value).toBe(1.5);
  });

  it('avg without a time axis averages the values', async () => {
    // 70 / 5 numeric amounts, whatever the operation says.
    const out = await metric({ type: 'avg' }, [{ yAxis: 'amount', yAxisOperation: 'sum', formula: '{val}%' }]);
    expect(out.values).toEqual([{ label: 'Dataset 1', value: 14, formatted: '14%', goal: null, growth: null }]);
  });

  it('gauge carries its ranges', async () => {
    const ranges = [
      { min: 0, max: 50, label: 'low' },
      { min: 50, max: 100, label: 'high' },
    ];
    const out = await metric({ type: 'gauge', ranges }, [{ yAxis: 'amount', yAxisOperation: 'sum' }]);
    expect(out.values[0]!.value).toBe(70);
    expect(out.ranges).toEqual(ranges);
  });
});

describe('matrix', () => {
  it('one cell per day of the window', async () => {
    const out = (await computeChartData({ type: 'matrix', startDate: '2024-12-31', endDate: '2025-01-02' }, [{ config: byDay, rows: orders }])) as MatrixChartData;
    expect(out).toEqual({
      data: {
        datasets: [
          {
            label: 'Orders',
            data: [
              { x: '2024-12-31', v: 0 },
              { x: '2025-01-01', v: 2 },
              { x: '2025-01-02', v: 0 },
            ],
          },
        ],
      },
    });
  });

  it('from the first to the last day with data, by day whatever the interval', async () => {
    const out = (await computeChartData({ type: 'matrix', timeInterval: 'month' }, [{ config: { ...byDay, yAxis: 'amount', yAxisOperation: 'sum' }, rows: orders }])) as MatrixChartData;
    expect(out.data.datasets[0]!.data).toEqual([
      { x: '2025-01-01', v: 30 },
      { x: '2025-01-02', v: 0 },
      { x: '2025-01-03', v: 5.5 },
      { x: '2025-01-04', v: 4.5 },
      { x: '2025-01-05', v: 30 },
    ]);
  });
});

describe('table', () => {
  it('flattens nested objects, removes excluded fields and orders columns', async () => {
    const out = (await computeChartData({ type: 'table' }, [
      {
        config: {
          legend: 'Orders',
          excludedFields: ['root[].customer.address', 'createdAt'],
          columnsOrder: ['customer.name', 'id'],
          maxRecords: 2,
          conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }],
        },
        rows: orders,
      },
    ])) as TableChartData;
    expect(out).toEqual({
      Orders: {
        columns: [
          { Header: 'customer.name', accessor: 'customer.name' },
          { Header: 'id', accessor: 'id' },
          { Header: 'amount', accessor: 'amount' },
          { Header: 'status', accessor: 'status' },
          { Header: 'country', accessor: 'country' },
        ],
        data: [
          { id: 1, amount: 10, status: 'paid', country: 'FR', 'customer.name': 'Ann' },
          { id: 3, amount: 5.5, status: 'paid', country: 'FR', 'customer.name': 'Ann' },
        ],
      },
    });
  });

  it('turns arrays into JSON text and dates into ISO strings', async () => {
    const rows: Row[] = [{ when: new Date('2025-01-01T00:00:00Z'), tags: ['a', 'b'], lines: [{ sku: 'A' }], big: 12n, empty: {} }];
    const out = (await computeChartData({ type: 'table' }, [{ config: {}, rows }])) as TableChartData;
    expect(out['Dataset 1']!.data).toEqual([{ when: '2025-01-01T00:00:00.000Z', tags: '["a","b"]', lines: '[{"sku":"A"}]', big: '12', empty: '{}' }]);
  });

  it('uses the elements of an inner array as rows, within the date window', async () => {
    const rows: Row[] = [
      { id: 1, lines: [{ sku: 'A', at: '2025-01-01' }, { sku: 'B', at: '2025-02-01' }] },
      { id: 2, lines: [{ sku: 'C', at: '2025-01-15' }] },
    ];
    const out = (await computeChartData({ type: 'table', startDate: '2025-01-01', endDate: '2025-01-31' }, [
      { config: { xAxis: 'root[].lines[]', dateField: 'root[].lines[].at' }, rows },
    ])) as TableChartData;
    expect(out['Dataset 1']!.data).toEqual([
      { sku: 'A', at: '2025-01-01' },
      { sku: 'C', at: '2025-01-15' },
    ]);
  });

  it('keeps one table per dataset, renaming repeated legends', async () => {
    const out = (await computeChartData({ type: 'table' }, [
      { config: { legend: 'T', maxRecords: 1 }, rows: [{ a: 1 }] },
      { config: { legend: 'T', maxRecords: 1 }, rows: [{ b: 2 }] },
    ])) as TableChartData;
    expect(Object.keys(out)).toEqual(['T', 'T 2']);
    expect(out['T 2']).toEqual({ columns: [{ Header: 'b', accessor: 'b' }], data: [{ b: 2 }] });
  });

  it('keeps hostile keys as plain columns', async () => {
    const rows = [JSON.parse('{"__proto__": "x", "constructor": 1}') as Row];
    const out = (await computeChartData({ type: 'table' }, [{ config: { legend: '__proto__' }, rows }])) as TableChartData;
    expect(JSON.stringify(out)).toBe(
      '{"__proto__":{"columns":[{"Header":"__proto__","accessor":"__proto__"},{"Header":"constructor","accessor":"constructor"}],' +
        '"data":[{"__proto__":"x","constructor":1}]}}',
    );
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('stops reading the source once the table is full', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Row> {
      for (;;) {
        read += 1;
        yield { n: read };
      }
    }
    const out = (await computeChartData({ type: 'table' }, [{ config: { maxRecords: 3 }, rows: endless() }])) as TableChartData;
    expect(out['Dataset 1']!.data).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(read).toBe(3);
  });
});

describe('markdown', () => {
  it('returns the content', async () => {
    const out = (await computeChartData({ type: 'markdown', content: '# Hello' }, [])) as MarkdownChartData;
    expect(out).toEqual({ content: '# Hello' });
  });
});

describe('invalid configurations', () => {
  it.each([
    [{ type: 'scatter' }, {}, /type/],
    [{ type: 'line', timeInterval: 'fortnight' }, {}, /timeInterval/],
    [{ type: 'line', timezone: 'Nowhere/Land' }, {}, /time zone/],
    [{ type: 'line' }, { yAxisOperation: 'median', yAxis: 'a' }, /datasets\[0\]\.yAxisOperation/],
    [{ type: 'line' }, { yAxisOperation: 'sum' }, /datasets\[0\]\.yAxis/],
    [{ type: 'line' }, { yAxisOperation: 'count', formula: '{val +}' }, /datasets\[0\]\.formula/],
    [{ type: 'line' }, { yAxisOperation: 'count', conditions: [{ field: 'a', operator: 'matches', value: 'x' }] }, /operator/],
  ])('%j %j', async (chart, config, message) => {
    await expect(computeChartData(chart as ChartInput, [{ config: config as DatasetConfigInput, rows: orders }])).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_CHART_CONFIG',
      message: expect.stringMatching(message),
    });
  });

  it('JSON round-trips every shape unchanged', async () => {
    for (const type of ['line', 'bar', 'pie', 'kpi', 'matrix', 'table', 'markdown']) {
      const out = await computeChartData({ type, timeInterval: 'day', includeZeros: true, showGrowth: true }, [{ config: byDay, rows: orders }]);
      expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    }
  });
});

describe('agreement with a naive implementation (property)', () => {
  // The reference groups with luxon, one DateTime per row, and sums integers of cents.
  const row = fc.record({
    at: fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2026, 0, 1) }),
    cents: fc.integer({ min: -100_000, max: 100_000 }),
    kind: fc.constantFrom('date', 'iso', 'seconds', 'millis'),
  });

  it('count and sum by day, week and month in any zone, from any date representation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 60 }),
        fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Australia/Sydney'),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        async (items, zone, interval) => {
          const rows: Row[] = items.map(({ at, cents, kind }) => {
            const whole = Math.floor(at / 1000) * 1000;
            const t = kind === 'date' ? new Date(whole) : kind === 'iso' ? new Date(whole).toISOString() : kind === 'seconds' ? whole / 1000 : whole;
            return { t, amount: cents / 100 };
          });
          const expected = new Map<string, { n: number; cents: number }>();
          for (const { at, cents } of items) {
            const label = DateTime.fromMillis(Math.floor(at / 1000) * 1000, { zone })
              .startOf(interval)
              .toFormat(interval === 'month' ? 'yyyy-MM' : 'yyyy-MM-dd');
            const e = expected.get(label) ?? { n: 0, cents: 0 };
            e.n += 1;
            e.cents += cents;
            expected.set(label, e);
          }
          const labels = [...expected.keys()].sort();
          const out = await axis({ timeInterval: interval, timezone: zone }, [
            [{ xAxis: 't', dateField: 't', yAxisOperation: 'count' }, rows],
            [{ xAxis: 't', dateField: 't', yAxis: 'amount', yAxisOperation: 'sum' }, rows],
          ]);
          expect(out.data.labels).toEqual(labels);
          expect(out.data.datasets[0]!.data).toEqual(labels.map((l) => expected.get(l)!.n));
          expect(out.data.datasets[1]!.data).toEqual(labels.map((l) => expected.get(l)!.cents / 100));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('byte budget', () => {
  /** `n` rows in batches of 100, counting the batches read. */
  function batched(n: number, row: (i: number) => Row): { rows: RowSource; read: () => number } {
    let read = 0;
    async function* batches(): AsyncGenerator<Row[]> {
      for (let start = 0; start < n; start += 100) {
        read += 1;
        yield Array.from({ length: Math.min(100, n - start) }, (_, k) => row(start + k));
      }
    }
    return { rows: { batches: batches() }, read: () => read };
  }
  const label = (i: number) => `${'c'.repeat(1000)}${i}`;

  it('groups past the budget are not kept: the chart holds the first rows, and reading stops', async () => {
    const source = batched(10_000, (i) => ({ cat: label(i) }));
    const budget = new ByteBudget(256 * 1024);
    const out = (await computeChartData({ type: 'bar' }, [{ config: { xAxis: 'cat', yAxisOperation: 'count' }, rows: source.rows }], { budget })) as AxisChartData;
    expect(budget.exceeded).toBe(true);
    expect(budget.bytes).toBeLessThanOrEqual(256 * 1024);
    // About 256 KiB of 1 KB labels, in the order the rows came, each counted once.
    expect(out.data.labels.length).toBeGreaterThan(150);
    expect(out.data.labels.length).toBeLessThan(256);
    expect(out.data.datasets[0]!.data.every((n) => n === 1)).toBe(true);
    expect(source.read()).toBeLessThan(5);

    const whole = batched(1000, (i) => ({ cat: label(i) }));
    const unbounded = (await computeChartData({ type: 'bar' }, [{ config: { xAxis: 'cat', yAxisOperation: 'count' }, rows: whole.rows }])) as AxisChartData;
    expect(unbounded.data.labels).toHaveLength(1000);
  });

  it('count_unique keeps no distinct value past the budget', async () => {
    const source = batched(10_000, (i) => ({ day: '2025-01-01', user: `${'u'.repeat(200)}${i}` }));
    const budget = new ByteBudget(128 * 1024);
    const out = (await computeChartData({ type: 'kpi' }, [{ config: { yAxis: 'user', yAxisOperation: 'count_unique' }, rows: source.rows }], { budget })) as MetricChartData;
    expect(budget.exceeded).toBe(true);
    expect(budget.bytes).toBeLessThanOrEqual(128 * 1024);
    const counted = out.values[0]!.value as number;
    expect(counted).toBeGreaterThan(400);
    expect(counted).toBeLessThan(600);
    expect(source.read()).toBeLessThan(10);
  });

  it('a table keeps the rows that fit, one budget for all its datasets', async () => {
    const budget = new ByteBudget(100 * 1024);
    const wide = (i: number) => ({ id: i, pad: 'x'.repeat(1000) });
    const out = (await computeChartData(
      { type: 'table' },
      [
        { config: { legend: 'A' }, rows: batched(1000, wide).rows },
        { config: { legend: 'B' }, rows: batched(1000, wide).rows },
      ],
      { budget },
    )) as TableChartData;
    expect(budget.exceeded).toBe(true);
    const kept = out['A']!.data.length + out['B']!.data.length;
    expect(kept * 1000).toBeLessThanOrEqual(100 * 1024);
    expect(kept).toBeGreaterThan(80);
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(100 * 1024);
  });
});
