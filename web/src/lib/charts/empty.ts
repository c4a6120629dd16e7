/**
 * Whether a computed chart has nothing to show, for the note a filtered chart gets instead of an
 * empty frame. Axis charts: no label, or every plotted value 0 or null (a date range with no rows
 * still has its zero-filled buckets); tables: no row; KPI and average charts: no value (a count of
 * 0 is a value); calendars: no day.
 */
export function isEmptyChartData(type: string | null, chartData: unknown): boolean {
  if (type === 'markdown') return false;
  if (!isRecord(chartData)) return true;
  if (type === 'table') {
    const tables = Object.values(chartData).filter(isRecord);
    return tables.every((table) => !Array.isArray(table['data']) || table['data'].length === 0);
  }
  if (type === 'kpi' || type === 'avg') {
    const values = chartData['values'];
    return !Array.isArray(values) || values.every((value) => !isRecord(value) || value['value'] === null || value['value'] === undefined);
  }
  const data = chartData['data'];
  if (!isRecord(data) || !Array.isArray(data['datasets'])) return true;
  const points = data['datasets'].flatMap((dataset) => (isRecord(dataset) && Array.isArray(dataset['data']) ? dataset['data'] : []));
  if (type === 'matrix') return points.length === 0;
  const labels = data['labels'];
  if (Array.isArray(labels) && labels.length === 0) return true;
  return points.every((point) => point === null || point === 0);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export { emptyReasonOf, emptyReasonText, type EmptyReason } from '../../../../src/render/card-notes.js';
