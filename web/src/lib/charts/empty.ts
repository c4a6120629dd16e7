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

/** What the server says about an empty chart (`chartData.empty`, docs/chart-data.md). */
export interface EmptyReason {
  reason: string;
  field?: string;
  by?: string;
  variables?: string[];
}

export function emptyReasonOf(chartData: unknown): EmptyReason | null {
  if (!isRecord(chartData) || !isRecord(chartData['empty'])) return null;
  const empty = chartData['empty'];
  return typeof empty['reason'] === 'string' ? (empty as unknown as EmptyReason) : null;
}

/** The reason as a sentence for the card, naming the field or variables (shown without `root[].`). */
export function emptyReasonText(reason: EmptyReason): string {
  const field = (reason.field ?? '').replace(/^root\[\]\./, '');
  switch (reason.reason) {
    case 'NO_DATASETS':
      return 'No data: this chart has no dataset yet.';
    case 'NO_ROWS':
      return 'No data: the dataset returned no rows.';
    case 'FIELD_MISSING':
      return `No data: the field “${field}” is not in the dataset's rows.`;
    case 'FILTERED':
      return reason.by === 'dateRange' ? 'No data: no row falls in the chart’s date range.' : 'No data: the conditions or filters leave no rows.';
    case 'NOT_DATES':
      return `No data: the X axis is grouped by date, but “${field}” holds no dates. Untick “The X axis is a date”.`;
    case 'NO_LABELS':
      return `No data: every row has an empty “${field}”, so there is no label to show.`;
    case 'VARIABLE_MISSING':
      return `No data: ${(reason.variables ?? []).map((v) => `{{${v}}}`).join(', ') || 'a variable'} has no value.`;
    default:
      return 'No data to show.';
  }
}
