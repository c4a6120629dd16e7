import type { RunMeta, TruncationReason } from './types.js';

/** What cut one or more runs, as dataset and chart answers report it. */
export interface Truncation {
  truncated: true;
  truncatedBy: TruncationReason;
  /** The row limit, when that cut it. */
  rowLimit?: number;
  /** The page cap of a paginating source, when that cut it. */
  pageLimit?: number;
  /** The byte cap of a paginating source, when that cut it. */
  byteLimit?: number;
}

/**
 * The cut to report for a set of runs, or undefined when none was cut. The row limit wins (the
 * smallest one: a reader should know the rows are the first N); otherwise the first other cap.
 * `rowLimit` is the row limit the runs were given, for sources that cut without naming it.
 */
export function truncationOf(metas: readonly RunMeta[], rowLimit: number): Truncation | undefined {
  return metas.reduce<Truncation | undefined>((worst, meta) => worstTruncation(worst, cutOf(meta, rowLimit)), undefined);
}

/** The one of two cuts to report (see `truncationOf`). */
export function worstTruncation(a: Truncation | undefined, b: Truncation | undefined): Truncation | undefined {
  if (!a || !b) return a ?? b;
  if (a.truncatedBy === 'rowLimit' && b.truncatedBy === 'rowLimit') return (a.rowLimit ?? Infinity) <= (b.rowLimit ?? Infinity) ? a : b;
  if (b.truncatedBy === 'rowLimit') return b;
  return a;
}

function cutOf(meta: RunMeta, rowLimit: number): Truncation | undefined {
  if (!meta.truncated) return undefined;
  const by = meta.truncatedBy ?? 'rowLimit';
  if (by === 'rowLimit') return { truncated: true, truncatedBy: by, rowLimit: meta.rowLimit ?? rowLimit };
  return {
    truncated: true,
    truncatedBy: by,
    ...(meta.pageLimit !== undefined ? { pageLimit: meta.pageLimit } : {}),
    ...(meta.byteLimit !== undefined ? { byteLimit: meta.byteLimit } : {}),
  };
}
