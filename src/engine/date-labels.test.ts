import { describe, expect, it } from 'vitest';
import { computeChartData } from './chart-data.js';
import { chartDateFormat, formatTimeLabel, luxonFormat } from './date-labels.js';
import type { AxisChartData, Row } from './types.js';

describe('date labels', () => {
  it('formats each bucket label as it reads (no zone shift), and leaves what it cannot read', () => {
    expect(formatTimeLabel('2025-01', 'MMM yyyy')).toBe('Jan 2025');
    expect(formatTimeLabel('2025-12-31', 'dd/MM')).toBe('31/12');
    expect(formatTimeLabel('2025-03-30 02:00', 'HH:mm')).toBe('02:00');
    expect(formatTimeLabel('2025', 'yy')).toBe('25');
    // A wall time that happens twice on a DST change keeps its offset.
    expect(formatTimeLabel('2025-10-26 02:00 +01:00', 'd MMM HH:mm')).toBe('26 Oct 02:00 +01:00');
    expect(formatTimeLabel('Other', 'MMM yyyy')).toBe('Other');
  });

  it("reads Chartbrew's moment formats (a Y for the year) in luxon's tokens, literals included", () => {
    expect(luxonFormat('MMM YYYY')).toBe('MMM yyyy');
    expect(luxonFormat('DD/MM/YY')).toBe('dd/MM/yy');
    expect(luxonFormat('Do MMM YYYY')).toBe('d MMM yyyy');
    expect(luxonFormat('[Week of] D MMM YYYY')).toBe("'Week of' d MMM yyyy");
    expect(luxonFormat('dd/MM')).toBe('dd/MM');
    expect(formatTimeLabel('2025-02-03', luxonFormat('ddd D MMM YYYY'))).toBe('Mon 3 Feb 2025');
  });

  it("takes the first dataset's format that is set", () => {
    expect(chartDateFormat([null, '', ' MMM yyyy ', 'yyyy'])).toBe('MMM yyyy');
    expect(chartDateFormat([null, undefined, ''])).toBeNull();
  });

  it('a chart by month with a date format: the same buckets and values, labelled in the format', async () => {
    const rows: Row[] = [
      { at: '2024-12-31T23:30:00Z', amount: 5 },
      { at: '2025-01-15T10:00:00Z', amount: 10 },
      { at: '2025-03-02T10:00:00Z', amount: 20 },
    ];
    const config = { xAxis: 'root[].at', dateField: 'root[].at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' } as const;
    const plain = (await computeChartData({ type: 'line', timeInterval: 'month', includeZeros: true }, [{ config, rows }])) as AxisChartData;
    const formatted = (await computeChartData({ type: 'line', timeInterval: 'month', includeZeros: true }, [{ config: { ...config, dateFormat: 'MMM YYYY' }, rows }])) as AxisChartData;
    expect(plain.data.labels).toEqual(['2024-12', '2025-01', '2025-02', '2025-03']);
    expect(formatted.data.labels).toEqual(['Dec 2024', 'Jan 2025', 'Feb 2025', 'Mar 2025']);
    expect(formatted.data.datasets[0]!.data).toEqual(plain.data.datasets[0]!.data);
    // A category axis is never read as dates.
    const byText = (await computeChartData({ type: 'bar' }, [{ config: { xAxis: 'root[].amount', yAxisOperation: 'count', dateFormat: 'MMM yyyy' }, rows }])) as AxisChartData;
    expect(byText.data.labels).toEqual(['5', '10', '20']);
  });
});
