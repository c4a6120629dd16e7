import type { Logger } from 'pino';

/** One refresh to run: a whole dashboard (its schedule) or one chart (its auto-update). */
export interface RefreshJob {
  kind: 'dashboard' | 'chart';
  teamId: number;
  id: number;
  /** The claimed period it runs (its claim row in the store); absent in jobs queued before claims had states. */
  period?: string;
}

/** How a job reached the executor: `resumed` when the queue hands over again a job whose worker stopped mid-run. */
export interface Delivery {
  resumed: boolean;
}

export type RefreshExecutor = (job: RefreshJob, delivery: Delivery) => Promise<void>;

/** Where claimed refreshes go: run here, or a shared queue that any worker takes from. */
export interface Dispatcher {
  /** False when the same dashboard or chart is already waiting or running (deduplicated). */
  dispatch(job: RefreshJob): Promise<boolean>;
  /** True when this dashboard or chart is waiting or running (a new period is not claimed meanwhile). */
  busy(job: Pick<RefreshJob, 'kind' | 'id'>): boolean | Promise<boolean>;
  /** Waiting plus running. */
  depth(): Promise<number>;
  /** Starts taking jobs (a worker); the in-process dispatcher always does. */
  startWorking(): Promise<void>;
  /** Resolves when nothing is waiting or running here (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function jobKey(job: Pick<RefreshJob, 'kind' | 'id'>): string {
  return `${job.kind}_${job.id}`;
}

/**
 * The embedded dispatcher: at most `concurrency` refreshes at once in this process, one per
 * dashboard or chart, so a slow source holds one slot and the others keep moving.
 */
export class InProcessDispatcher implements Dispatcher {
  private readonly waiting: RefreshJob[] = [];
  private readonly pending = new Set<string>();
  private active = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly execute: RefreshExecutor,
    private readonly concurrency: number,
    private readonly logger: Logger,
  ) {}

  async dispatch(job: RefreshJob): Promise<boolean> {
    const key = jobKey(job);
    if (this.closed || this.pending.has(key)) return false;
    this.pending.add(key);
    this.waiting.push(job);
    this.pump();
    return true;
  }

  busy(job: Pick<RefreshJob, 'kind' | 'id'>): boolean {
    return this.pending.has(jobKey(job));
  }

  async depth(): Promise<number> {
    return this.waiting.length + this.active;
  }

  async startWorking(): Promise<void> {}

  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.splice(0).forEach((job) => this.pending.delete(jobKey(job)));
    await this.idle();
  }

  private pump(): void {
    while (this.active < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.active += 1;
      this.execute(job, { resumed: false })
        .catch((err: unknown) => this.logger.error({ err, job }, 'refresh failed'))
        .finally(() => {
          this.active -= 1;
          this.pending.delete(jobKey(job));
          this.pump();
          if (this.pending.size === 0) this.waiters.splice(0).forEach((resolve) => resolve());
        });
    }
  }
}
