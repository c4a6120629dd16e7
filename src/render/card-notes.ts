/**
 * What a card says of a chart whose data a limit cut: the report page and the server's pictures
 * write the same words (this module has no imports, so the pages bundle it at no cost).
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
