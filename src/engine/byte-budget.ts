/**
 * What a chart may hold while it is computed, in bytes: its table rows, its groups and their
 * distinct values (and so, about, its chartData). One budget is shared by every dataset
 * configuration of a chart run. Once spent, nothing more is taken in: table collectors are full,
 * aggregations send further rows nowhere and stop reading at the next batch, and the caller, who
 * made the budget, reads `exceeded` to mark the chart as cut.
 *
 * Sizes are estimates in the spirit of the sources' `row-bytes.ts`: text counts its length, other
 * values a fixed few bytes, and every group or distinct value what its state costs in memory.
 */
export class ByteBudget {
  private used = 0;
  private spent = false;

  constructor(readonly limit: number) {}

  /** Counts `bytes`; false when they do not fit, and from then on for good. */
  take(bytes: number): boolean {
    if (this.spent) return false;
    if (this.used + bytes > this.limit) {
      this.spent = true;
      return false;
    }
    this.used += bytes;
    return true;
  }

  get exceeded(): boolean {
    return this.spent;
  }

  get bytes(): number {
    return this.used;
  }
}

export const UNLIMITED_BUDGET_BYTES = Number.POSITIVE_INFINITY;

/** Memory of one group: its aggregation state and its entry in the group map, plus its key. */
export function groupBytes(key: number | string): number {
  return 128 + (typeof key === 'string' ? key.length : 0);
}

/** Memory of one distinct value kept by `count_unique`. */
export function distinctBytes(key: unknown): number {
  return 40 + (typeof key === 'string' ? key.length : 0);
}

/** A flattened table row as JSON: its cells are scalars (see table.ts). */
export function tableRowBytes(row: Record<string, unknown>): number {
  let total = 2;
  for (const key in row) {
    const value = row[key];
    total += key.length + 4 + (typeof value === 'string' ? value.length + 2 : 8);
  }
  return total;
}
