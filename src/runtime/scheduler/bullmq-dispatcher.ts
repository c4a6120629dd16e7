import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { jobKey, type Dispatcher, type RefreshExecutor, type RefreshJob } from './dispatch.js';

const REFRESH_QUEUE = 'plotline-refresh';

export interface BullmqDispatcherOptions {
  redisUrl: string;
  /** Key prefix of the queue in Redis (tests use a random one). */
  prefix: string;
  concurrency: number;
  logger: Logger;
}

/**
 * With Redis: claimed refreshes become BullMQ jobs, deduplicated per dashboard or chart (one
 * waiting or running job each), and every process that works takes from the same queue.
 */
export class BullmqDispatcher implements Dispatcher {
  private readonly connection: Redis;
  private readonly queue: Queue<RefreshJob>;
  private worker: Worker<RefreshJob> | undefined;
  private workerConnection: Redis | undefined;

  constructor(
    private readonly execute: RefreshExecutor,
    private readonly options: BullmqDispatcherOptions,
  ) {
    // BullMQ needs commands that wait for Redis rather than fail after a few retries.
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', (err: Error) => options.logger.warn({ err: err.message }, 'refresh queue connection error'));
    this.queue = new Queue<RefreshJob>(REFRESH_QUEUE, { connection: this.connection, prefix: options.prefix });
    this.queue.on('error', (err: Error) => options.logger.warn({ err: err.message }, 'refresh queue error'));
  }

  async dispatch(job: RefreshJob): Promise<boolean> {
    const key = jobKey(job);
    const jobId = `${key}-${randomBytes(6).toString('hex')}`;
    const added = await this.queue.add(job.kind, job, {
      jobId,
      deduplication: { id: key },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    });
    // A deduplicated add answers the job that is already waiting or running.
    return added.id === jobId;
  }

  /** Waiting or running in any process: the queue still holds the job's deduplication key. */
  async busy(job: Pick<RefreshJob, 'kind' | 'id'>): Promise<boolean> {
    return (await this.queue.getDeduplicationJobId(jobKey(job))) !== null;
  }

  async depth(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async startWorking(): Promise<void> {
    if (this.worker) return;
    this.workerConnection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', () => undefined);
    // A job started more than once was handed over again after its worker stopped (stalled).
    this.worker = new Worker<RefreshJob>(REFRESH_QUEUE, async (job) => this.execute(job.data, { resumed: job.attemptsStarted > 1 }), {
      connection: this.workerConnection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
      // A refresh may take minutes; the lock is renewed while the worker lives.
      lockDuration: 5 * 60_000,
    });
    this.worker.on('error', (err: Error) => this.options.logger.warn({ err: err.message }, 'refresh worker error'));
    this.worker.on('failed', (job, err) => this.options.logger.error({ err: err.message, job: job?.data }, 'refresh job failed'));
    // Not awaited: an unreachable Redis must not keep the API from starting; the worker connects when it can.
    void this.worker.waitUntilReady().catch((err: Error) => this.options.logger.warn({ err: err.message }, 'refresh worker not ready'));
  }

  async idle(): Promise<void> {
    while ((await this.depth()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    await this.workerConnection?.quit().catch(() => undefined);
    await this.connection.quit().catch(() => undefined);
  }

  /** Test hook: removes every key of this queue (only its own prefix, never the whole Redis). */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }
}
