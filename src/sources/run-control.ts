import type { AppError } from '../errors/index.js';
import { RunAbortedError, SourceTimeoutError } from './errors.js';
import { DEFAULT_BYTE_LIMIT, DEFAULT_TIMEOUT_MS, type RunMeta } from './types.js';

type CancelHook = () => unknown;

/** How long an abort waits for the source-side cancellation before the run rejects anyway. */
const CANCEL_GRACE_MS = 3_000;

/**
 * One run's deadline and abort state. Every await on the source goes through `race()`, so a run
 * never outlives its deadline; cancel hooks stop the work on the source (cancel request, KILL
 * QUERY, cursor close) before the run rejects, so the query is gone when the caller hears of it.
 */
export interface RunLimits {
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** As in `RunOptions`: a source that holds its whole answer is bounded by the smaller of the two. */
  byteLimit?: number | undefined;
  batchByteLimit?: number | undefined;
}

export class RunControl {
  /**
   * `work` under a control of its own: the deadline's or the abort's error wins over whatever the
   * work threw (a request cut short fails in its own way), any other failure is read by
   * `asSourceError`; the control is disposed either way.
   */
  static async within<T>(limits: RunLimits, work: (control: RunControl) => Promise<T>, asSourceError: (error: unknown) => unknown): Promise<T> {
    const control = new RunControl(limits);
    try {
      return await work(control);
    } catch (error) {
      throw control.error ?? asSourceError(error);
    } finally {
      control.dispose();
    }
  }

  readonly timeoutMs: number;
  /** Bytes of answers the run may read from its source, for sources that hold their answer whole (HTTP and provider APIs). */
  readonly byteLimit: number;
  readonly startedAt = performance.now();
  private received = 0;
  private cutForBytes = false;
  private readonly controller = new AbortController();
  private readonly hooks = new Set<CancelHook>();
  private failure: AppError | undefined;
  private cancelled: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly parent: AbortSignal | undefined;
  private readonly onParentAbort = (): void => {
    const reason: unknown = this.parent?.reason;
    const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
    this.abort(timedOut ? new SourceTimeoutError(this.timeoutMs) : new RunAbortedError());
  };

  constructor(options: RunLimits = {}) {
    this.timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    this.byteLimit = Math.min(options.byteLimit ?? DEFAULT_BYTE_LIMIT, options.batchByteLimit ?? DEFAULT_BYTE_LIMIT);
    this.timer = setTimeout(() => this.abort(new SourceTimeoutError(this.timeoutMs)), this.timeoutMs);
    this.timer.unref();
    this.parent = options.signal;
    if (this.parent?.aborted) this.onParentAbort();
    else this.parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  /** Aborted on timeout or when the caller's signal aborts; hand it to drivers that accept one. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.failure !== undefined;
  }

  /** The typed error the run ends with, once aborted. */
  get error(): AppError | undefined {
    return this.failure;
  }

  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }

  remainingMs(): number {
    return Math.max(0, this.timeoutMs - this.elapsedMs());
  }

  /** Counts `bytes` of an answer read from the source. */
  countBytes(bytes: number): void {
    this.received += bytes;
  }

  get bytesRead(): number {
    return this.received;
  }

  /** The answers read so far reached the byte limit. */
  get outOfBytes(): boolean {
    return this.received >= this.byteLimit;
  }

  /**
   * Asked by a paged source before it fetches another page: true when the byte limit is reached,
   * and the run's answer is then cut there (`bytesCut`).
   */
  stopPaging(): boolean {
    if (this.received < this.byteLimit) return false;
    this.cutForBytes = true;
    return true;
  }

  /** A page was left unread for the byte limit. */
  get bytesCut(): boolean {
    return this.cutForBytes;
  }

  /**
   * What the run's meta says when a limit cut it: `truncatedBy` and, for bytes and pages, the
   * limit. `pageLimit` is given when a source's page cap stopped its paging while it had more.
   */
  truncation(rowsCut: boolean, pageLimit?: number): Pick<RunMeta, 'truncated' | 'truncatedBy' | 'byteLimit' | 'pageLimit'> {
    if (this.cutForBytes) return { truncated: true, truncatedBy: 'bytes', byteLimit: this.byteLimit };
    if (rowsCut) return { truncated: true, truncatedBy: 'rows' };
    return pageLimit !== undefined ? { truncated: true, truncatedBy: 'pages', pageLimit } : { truncated: false };
  }

  /** Registers work that stops the query on the source; returns the unregister function. */
  onAbort(hook: CancelHook): () => void {
    if (this.aborted) {
      void this.runHook(hook);
      return () => undefined;
    }
    this.hooks.add(hook);
    return () => this.hooks.delete(hook);
  }

  /**
   * Waits for `work` unless the run is aborted first; then rejects with the run's error after the
   * cancel hooks have finished (bounded). A result that arrives late goes to `onLate` (e.g. to
   * release a pooled connection that was being acquired).
   */
  race<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    if (this.failure) {
      work.then((value) => onLate?.(value), () => undefined);
      return this.rejection();
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        this.rejection<T>().then(resolve, reject);
      };
      this.controller.signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          this.controller.signal.removeEventListener('abort', onAbort);
          if (settled) onLate?.(value);
          else {
            settled = true;
            resolve(value);
          }
        },
        (error: unknown) => {
          this.controller.signal.removeEventListener('abort', onAbort);
          if (settled) return;
          settled = true;
          // A driver error caused by our own cancellation is reported as the abort's error.
          if (this.failure) this.rejection<T>().then(resolve, reject);
          else reject(error);
        },
      );
    });
  }

  /** Stops the timer and detaches from the caller's signal; call when the run is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
    this.hooks.clear();
  }

  abort(error: AppError): void {
    if (this.failure) return;
    this.failure = error;
    clearTimeout(this.timer);
    const hooks = [...this.hooks];
    this.hooks.clear();
    this.cancelled = Promise.all(hooks.map((hook) => this.runHook(hook))).then(() => undefined);
    this.controller.abort(error);
  }

  private async runHook(hook: CancelHook): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(hook),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CANCEL_GRACE_MS);
        }),
      ]);
    } catch {
      // Cancellation is best effort; the connection is destroyed afterwards anyway.
    } finally {
      clearTimeout(timer);
    }
  }

  private async rejection<T>(): Promise<T> {
    await this.cancelled;
    throw this.failure;
  }
}
