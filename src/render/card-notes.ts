/**
 * What a card says beside its chart: data a limit cut, nothing to draw, a refresh that failed or
 * is overdue, the dashboard filters that narrow it or do not. The report page, the editor and the
 * server's pictures write the same words (this module has no imports, so the pages bundle it at
 * no cost).
 */

interface CutData {
  truncated?: unknown;
  truncatedBy?: unknown;
  rowLimit?: unknown;
  byteLimit?: unknown;
  pageLimit?: unknown;
  seriesTruncated?: unknown;
  breakdowns?: unknown;
}

const count = (n: number) => n.toLocaleString('en-US');

/** A field filter's operator in words, on the report page and in pictures alike. */
export const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  is: 'is',
  isNot: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  greaterThan: '>',
  greaterOrEqual: '≥',
  lessThan: '<',
  lessOrEqual: '≤',
  isNull: 'is empty',
  isNotNull: 'is not empty',
};

/** The operators that take no value (`city is empty`). */
export const VALUELESS_OPERATORS: readonly string[] = ['isNull', 'isNotNull'];

/** The rows a limit left out of the run. */
function rowsCut(data: CutData): string | null {
  if (data.truncated !== true) return null;
  if (data.truncatedBy === 'bytes') {
    const size = typeof data.byteLimit === 'number' ? `${count(Math.max(1, Math.round(data.byteLimit / 1048576)))} MiB` : 'the size limit';
    return `Partial data: computed from the first ${size} of data only`;
  }
  if (data.truncatedBy === 'pages') {
    const pages = typeof data.pageLimit === 'number' ? `${count(data.pageLimit)} pages` : 'the page limit';
    return `Partial data: the source had more than its first ${pages}`;
  }
  const limit = typeof data.rowLimit === 'number' ? count(data.rowLimit) : 'the row limit';
  return `Partial data: computed from the first ${limit} rows only`;
}

/** The series a split's limit left out (`breakdowns`: shown of series, per configuration). */
function seriesCut(data: CutData): string | null {
  if (data.seriesTruncated !== true) return null;
  const cuts = Array.isArray(data.breakdowns) ? (data.breakdowns as { label?: unknown; series?: unknown; shown?: unknown }[]) : [];
  const parts = cuts.filter((c) => typeof c.series === 'number' && typeof c.shown === 'number').map((c) => ({ label: typeof c.label === 'string' ? c.label : '', shown: c.shown as number, series: c.series as number }));
  if (parts.length === 0) return 'Some series are left out: only the largest are drawn';
  if (parts.length === 1) return `Showing the ${count(parts[0]!.shown)} largest of ${count(parts[0]!.series)} series`;
  return `Showing the largest series only: ${parts.map((p) => `${p.label} ${count(p.shown)} of ${count(p.series)}`).join(', ')}`;
}

/** The card's note when its chart's data was cut, or null. */
export function cutDataText(chartData: unknown): string | null {
  if (!chartData || typeof chartData !== 'object') return null;
  const notes = [rowsCut(chartData as CutData), seriesCut(chartData as CutData)].filter((note): note is string => note !== null);
  return notes.length === 0 ? null : notes.join('; ');
}

/** What the server says about an empty chart (`chartData.empty`, docs/chart-data.md). */
export interface EmptyReason {
  reason: string;
  field?: string;
  by?: string;
  variables?: string[];
  legend?: string;
  datasets?: EmptyReason[];
}

export function emptyReasonOf(chartData: unknown): EmptyReason | null {
  if (!chartData || typeof chartData !== 'object') return null;
  const empty = (chartData as { empty?: unknown }).empty;
  return empty && typeof empty === 'object' && typeof (empty as { reason?: unknown }).reason === 'string' ? (empty as EmptyReason) : null;
}

/** One reason as a clause, naming the field or variables (shown without `root[].`). */
function reasonClause(reason: EmptyReason): string {
  const field = (reason.field ?? '').replace(/^root\[\]\./, '');
  switch (reason.reason) {
    case 'NO_DATASETS':
      return 'this chart has no dataset yet.';
    case 'NO_ROWS':
      return 'the dataset returned no rows.';
    case 'FIELD_MISSING':
      return `the field “${field}” is not in the dataset's rows.`;
    case 'FILTERED':
      return reason.by === 'dateRange' ? 'no row falls in the chart’s date range.' : 'the conditions or filters leave no rows.';
    case 'NOT_DATES':
      return `the X axis is grouped by date, but “${field}” holds no dates. Untick “The X axis is a date”.`;
    case 'NO_LABELS':
      return `every row has an empty “${field}”, so there is no label to show.`;
    case 'VARIABLE_MISSING':
      return `${(reason.variables ?? []).map((v) => `{{${v}}}`).join(', ') || 'a variable'} has no value.`;
    default:
      return 'nothing to show.';
  }
}

/**
 * The reason as a sentence for the card; a chart of several datasets whose reasons differ names
 * each by its legend (or its place).
 */
export function emptyReasonText(reason: EmptyReason): string {
  const parts = reason.datasets && reason.datasets.length > 1 ? reason.datasets : [reason];
  if (parts.length === 1) return `No data: ${reasonClause(parts[0]!)}`;
  const named = parts.map((part, i) => `${part.legend ?? `dataset ${i + 1}`}: ${reasonClause(part).replace(/\.$/, '')}`);
  return `No data. ${named.join('; ')}.`;
}

/** A date-time in the words of the page or picture that shows it (null: not a time). */
export type TimeWords = (iso: string | null) => string | null;

const UNITS: [seconds: number, one: string][] = [
  [604_800, 'week'],
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
];

/** A period in words: "every hour", "every 6 hours", "every day", "every 2 weeks", "every 90 seconds". */
export function everyText(seconds: number): string {
  for (const [size, one] of UNITS) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `every ${one}` : `every ${count(n)} ${one}s`;
    }
  }
  return seconds === 1 ? 'every second' : `every ${count(seconds)} seconds`;
}

/** The failure of a chart's latest refresh (`lastError`); the message only where the viewer may read it. */
export interface RefreshFailure {
  code: string;
  message?: string | undefined;
  at: string;
}

/** A chart whose data is older than its schedule allows (`refreshOverdue`, src/runtime/scheduler/cadence.ts). */
export interface RefreshOverdueNote {
  since: string;
  everySeconds: number;
}

/** A chart whose latest refresh failed: the reason, and the time of the data still shown. */
export function refreshFailedText(failure: RefreshFailure, chartDataUpdated: string | null, when: TimeWords): string {
  const failed = when(failure.at);
  const good = when(chartDataUpdated);
  const reason = failure.message ? `${failure.message} (${failure.code})` : failure.code;
  return `Refresh failed${failed ? ` ${failed}` : ''}: ${reason}. ${good ? `Showing the data of ${good}.` : 'No good data yet.'}`;
}

/** A chart that should refresh on a schedule and has not for much longer. */
export function refreshOverdueText(overdue: RefreshOverdueNote, when: TimeWords): string {
  return `Not refreshed since ${when(overdue.since) ?? overdue.since}, although it should refresh ${everyText(overdue.everySeconds)}.`;
}

/**
 * The card's one mark about its data's age: a failed refresh, else an overdue one; null when
 * neither (a failed refresh is overdue too, most of the time: the card says why, once).
 */
export function refreshMark(
  chart: { chartDataUpdated: string | null; lastError?: RefreshFailure | null | undefined; refreshOverdue?: RefreshOverdueNote | null | undefined },
  when: TimeWords,
): { kind: 'failed' | 'overdue'; text: string } | null {
  if (chart.lastError) return { kind: 'failed', text: refreshFailedText(chart.lastError, chart.chartDataUpdated, when) };
  if (chart.refreshOverdue) return { kind: 'overdue', text: refreshOverdueText(chart.refreshOverdue, when) };
  return null;
}

/** "Filtered by Order date, Country" for the filters set that narrow the card; null when none do. */
export function filteredByText(names: readonly string[]): string | null {
  return names.length === 0 ? null : `Filtered by ${names.join(', ')}`;
}

/** "Not filtered by Country" for the filters set that do not reach the card; null when every one does. */
export function notFilteredByText(names: readonly string[]): string | null {
  return names.length === 0 ? null : `Not filtered by ${names.join(', ')}`;
}
