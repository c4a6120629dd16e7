import type { ResultData, TruncationReason } from '../../types.js';

/** Fetches one page and returns its parsed JSON. */
export type PageFetcher = (url: string) => Promise<unknown>;

export interface PaginationLimits {
  /** Server-side cap on items kept (the run's row limit). */
  rowLimit: number;
  /** Hard cap on requests, whatever `itemsLimit` says. */
  maxPages: number;
  /** Pause between pages (rate-limited APIs). */
  pageDelayMs: number;
  /** Stops paging once this many response bytes were read in total. */
  maxTotalBytes: number;
  bytesRead: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface PaginatedResult {
  data: ResultData;
  rowCount: number;
  /** True when the row limit, the page cap or the byte cap stopped the paging while the source had more. */
  truncated: boolean;
  /** Which of them, when truncated. */
  truncatedBy?: TruncationReason;
  pages: number;
}

/** One paginated run, whatever the template: the pages fetched under the caps, the items wanted, and the limit that stopped it. */
export class Pager {
  private pages = 0;
  private stoppedBy: TruncationReason | undefined;
  private readonly wanted: number;

  constructor(
    private readonly fetchPage: PageFetcher,
    private readonly limits: PaginationLimits,
    /** Items the request asks for at most (Infinity: no limit). */
    itemsLimit: number,
  ) {
    this.wanted = limits.rowLimit < itemsLimit ? limits.rowLimit + 1 : itemsLimit;
  }

  /** The next page, or undefined when a cap stops the paging before it (the source had more). */
  async fetchNext(url: string): Promise<unknown | undefined> {
    const { limits } = this;
    if (this.pages >= limits.maxPages) {
      this.stoppedBy = 'pages';
      return undefined;
    }
    if (limits.bytesRead() >= limits.maxTotalBytes) {
      this.stoppedBy = 'bytes';
      return undefined;
    }
    if (this.pages > 0 && limits.pageDelayMs > 0) await limits.sleep(limits.pageDelayMs);
    this.pages++;
    return this.fetchPage(url);
  }

  /** Adds a page's items to `list` up to `wanted`; false once it is full (paging stops). */
  fill(list: unknown[], items: unknown[]): boolean {
    for (let i = 0; i < items.length && list.length < this.wanted; i++) list.push(items[i]);
    return list.length < this.wanted;
  }

  /** `list` cut back to the row limit (noting the cut when it had more). */
  kept(list: unknown[]): unknown[] {
    if (list.length <= this.limits.rowLimit) return list;
    this.stoppedBy = 'rows';
    return list.slice(0, this.limits.rowLimit);
  }

  answer(data: ResultData, rowCount: number): PaginatedResult {
    return {
      data,
      rowCount,
      truncated: this.stoppedBy !== undefined,
      ...(this.stoppedBy ? { truncatedBy: this.stoppedBy } : {}),
      pages: this.pages,
    };
  }
}
