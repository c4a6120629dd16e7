/**
 * Chart-data engine throughput on the benchmark orders held in memory (1,000,000 rows with Date
 * values over 2025). Each scenario runs once to warm up, then 5 times; the JSON printed on stdout
 * gives the median wall time, rows/s at that median, and the process's peak RSS.
 *
 *   npx tsx bench/engine.ts            (ROWS=200000 npx tsx bench/engine.ts for a quick run)
 */
import { computeChartData, type ChartData, type ChartInput, type DatasetInput, type Row } from '../src/engine/index.js';
import { generateOrders, ORDERS_TOTAL_AMOUNT, type OrderRow } from './lib/orders.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const RUNS = 5;

interface Scenario {
  name: string;
  chart: ChartInput;
  datasets: () => DatasetInput[];
}

interface ScenarioResult {
  name: string;
  medianMs: number;
  rowsPerSec: number;
  runsMs: number[];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

async function* oneByOne(rows: readonly Row[]): AsyncGenerator<Row> {
  for (const row of rows) yield row;
}

async function* inBatches(rows: readonly Row[], size: number): AsyncGenerator<Row[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size) as Row[];
}

async function measure(scenario: Scenario): Promise<{ result: ScenarioResult; output: ChartData }> {
  let output = await computeChartData(scenario.chart, scenario.datasets());
  const runsMs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const datasets = scenario.datasets();
    const started = process.hrtime.bigint();
    output = await computeChartData(scenario.chart, datasets);
    runsMs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const medianMs = median(runsMs);
  return {
    result: {
      name: scenario.name,
      medianMs: round(medianMs, 2),
      rowsPerSec: Math.round(ROWS / (medianMs / 1000)),
      runsMs: runsMs.map((v) => round(v, 2)),
    },
    output,
  };
}

function sumOf(output: ChartData): number {
  const data = (output as { data: { datasets: Array<{ data: number[] }> } }).data;
  return data.datasets[0]!.data.reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  const generated = process.hrtime.bigint();
  const orders: OrderRow[] = generateOrders(ROWS);
  const rows = orders as unknown as Row[];
  const generateMs = Number(process.hrtime.bigint() - generated) / 1e6;
  const rssAfterRowsMb = process.memoryUsage().rss / 2 ** 20;

  // Built on first use so the Date scenarios run before these extra rows take memory.
  let iso: Row[] | null = null;
  const isoRows = (): Row[] => (iso ??= orders.map((o) => ({ created_at: o.created_at.toISOString(), amount: o.amount })));

  const countByDay = {
    xAxis: 'root[].created_at',
    dateField: 'root[].created_at',
    yAxisOperation: 'count',
  } as const;
  const sumByCountry = { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum' } as const;

  const scenarios: Scenario[] = [
    {
      name: 'count-by-day, Date values, UTC, array',
      chart: { type: 'line', timeInterval: 'day', includeZeros: true },
      datasets: () => [{ config: countByDay, rows }],
    },
    {
      name: 'count-by-day, Date values, Europe/Paris, array',
      chart: { type: 'line', timeInterval: 'day', includeZeros: true, timezone: 'Europe/Paris' },
      datasets: () => [{ config: countByDay, rows }],
    },
    {
      name: 'sum-by-category (country), array',
      chart: { type: 'bar' },
      datasets: () => [{ config: sumByCountry, rows }],
    },
    {
      name: 'count-by-day with condition status is paid, array',
      chart: { type: 'line', timeInterval: 'day' },
      datasets: () => [{ config: { ...countByDay, conditions: [{ field: 'root[].status', operator: 'is', value: 'paid' }] }, rows }],
    },
    {
      name: 'count-by-day, ISO string values (…Z), array',
      chart: { type: 'line', timeInterval: 'day' },
      datasets: () => [{ config: countByDay, rows: isoRows() }],
    },
    {
      name: 'count-by-day, Date values, async batches of 1000',
      chart: { type: 'line', timeInterval: 'day' },
      datasets: () => [{ config: countByDay, rows: { batches: inBatches(rows, 1000) } }],
    },
    {
      name: 'count-by-day, Date values, async iterator one row at a time',
      chart: { type: 'line', timeInterval: 'day' },
      datasets: () => [{ config: countByDay, rows: oneByOne(rows) }],
    },
  ];

  const results: ScenarioResult[] = [];
  const checks: Record<string, unknown> = {};
  for (const scenario of scenarios) {
    const { result, output } = await measure(scenario);
    results.push(result);
    if (scenario === scenarios[0]) {
      const labels = (output as { data: { labels: string[] } }).data.labels;
      checks.countByDayTotal = sumOf(output);
      checks.countByDayBuckets = labels.length;
    }
    if (scenario === scenarios[2]) checks.sumByCountryTotal = round(sumOf(output), 2);
  }
  if (ROWS === 1_000_000) checks.sumMatchesOrdersSql = Math.abs((checks.sumByCountryTotal as number) - ORDERS_TOTAL_AMOUNT) < 0.005;

  const report = {
    benchmark: 'engine',
    node: process.version,
    rows: ROWS,
    runs: RUNS,
    generateRowsMs: round(generateMs, 0),
    rssAfterRowsMb: round(rssAfterRowsMb),
    scenarios: results,
    peakRssMb: round(process.resourceUsage().maxRSS / 1024),
    checks,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
