import type { RunMeta, TruncationReason } from '../../sources/index.js';

/**
 * What a limit cut: the chart was computed from the first rows only. `truncatedBy` says which
 * limit: `rows` (the run's `rowLimit`), `bytes` (`byteLimit`: what a run or the chart may hold),
 * or `pages` (`pageLimit`: a source's cap on requests).
 */
export interface Truncation {
  truncated: true;
  truncatedBy: TruncationReason;
  rowLimit: number;
  byteLimit?: number;
  pageLimit?: number;
}

/**
 * A chart computed from a cut run says so in its chartData (saved with it, shown on report
 * pages): `truncated: true`, `truncatedBy`, the `rowLimit` of the run and, when bytes or a page
 * cap cut it, the `byteLimit` or `pageLimit`.
 */
export function markTruncated(chartData: unknown, truncation: Truncation | undefined): unknown {
  if (!truncation || chartData === null || typeof chartData !== 'object' || Array.isArray(chartData)) return chartData;
  return { ...chartData, ...truncation };
}

export function worstTruncation(metas: readonly RunMeta[], fallbackLimit: number): Truncation | undefined {
  let worst: Truncation | undefined;
  for (const meta of metas) {
    if (!meta.truncated) continue;
    const rowLimit = meta.rowLimit ?? fallbackLimit;
    const reason = meta.truncatedBy ?? 'rows';
    worst = worstOf(worst, {
      truncated: true,
      truncatedBy: reason,
      rowLimit,
      ...(reason === 'bytes' && meta.byteLimit !== undefined ? { byteLimit: meta.byteLimit } : {}),
      ...(reason === 'pages' && meta.pageLimit !== undefined ? { pageLimit: meta.pageLimit } : {}),
    });
  }
  return worst;
}

/** Of two cuts, the one to report: a byte limit before a row or page cap, then the smaller limit. */
export function worstOf(a: Truncation | undefined, b: Truncation | undefined): Truncation | undefined {
  if (!a || !b) return a ?? b;
  if ((a.truncatedBy === 'bytes') !== (b.truncatedBy === 'bytes')) return a.truncatedBy === 'bytes' ? a : b;
  if (a.truncatedBy === 'bytes') return (a.byteLimit ?? Infinity) <= (b.byteLimit ?? Infinity) ? a : b;
  return a.rowLimit <= b.rowLimit ? a : b;
}
