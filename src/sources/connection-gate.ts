import { AppError } from '../errors/index.js';

/**
 * A connection's database is up but all its pooled connections are busy and its wait queue is
 * full, or a run waited longer than the wait timeout. Not "unreachable": retry later.
 */
export class SourceBusyError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, 'SOURCE_BUSY', message, undefined, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });
  }
}

export interface GateLimits {
  /** Runs at once on one connection (its pool size). */
  size: number;
  /** Runs waiting for a free slot; past it a run is refused at once (SOURCE_BUSY). */
  queueLimit: number;
  /** Longest wait for a free slot before SOURCE_BUSY. */
  waitTimeoutMs: number;
}

export const DEFAULT_GATE_LIMITS: GateLimits = { size: 5, queueLimit: 1_000, waitTimeoutMs: 20_000 };

interface Waiter {
  grant(release: () => void): void;
  fail(error: unknown): void;
}

/**
 * Admission to one connection's pool: at most `size` runs hold a pooled connection, the rest wait
 * in FIFO order, bounded in number and in time. Waiting for a turn is load, never an outage, so
 * it ends in SOURCE_BUSY (503 with retry-after) rather than in a driver's connect timeout.
 */
export class ConnectionGate {
  #inUse = 0;
  readonly #queue: Waiter[] = [];

  constructor(readonly limits: GateLimits) {}

  get inUse(): number {
    return this.#inUse;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Resolves with the release function once a slot is free; `release` may be called more than once. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#inUse < this.limits.size && this.#queue.length === 0) {
      this.#inUse += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.#queue.length >= this.limits.queueLimit) {
      return Promise.reject(
        new SourceBusyError(
          `The data source is busy: ${this.#inUse} queries are running and ${this.#queue.length} are waiting on this connection; retry shortly`,
          Math.ceil(this.limits.waitTimeoutMs / 1000),
        ),
      );
    }
    return new Promise<() => void>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.#queue.indexOf(waiter);
        if (index !== -1) this.#queue.splice(index, 1);
      };
      const waiter: Waiter = {
        grant: (release) => {
          settle();
          resolve(release);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.fail(signal?.reason);
      const timer = setTimeout(
        () =>
          waiter.fail(
            new SourceBusyError(
              `The data source is busy: no pooled connection was free within ${this.limits.waitTimeoutMs} ms; retry shortly`,
              Math.ceil(this.limits.waitTimeoutMs / 1000),
            ),
          ),
        this.limits.waitTimeoutMs,
      );
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Rejects every waiter (the pool is closing). */
  close(error: unknown): void {
    for (const waiter of [...this.#queue]) waiter.fail(error);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next.grant(this.releaser());
      else this.#inUse -= 1;
    };
  }
}
