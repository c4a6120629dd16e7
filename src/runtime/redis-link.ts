import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisState = 'connecting' | 'up' | 'down';

export interface RedisLinkOptions {
  /** Longest wait for one command before it counts as failed (default 1 s). */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts (default 2 s). */
  maxReconnectDelayMs?: number;
}

/**
 * The one Redis client of a process, and what it knows about Redis being there. Redis is a cache
 * and coordination layer, never the system of record: while it is away, commands fail fast (no
 * offline queue, a short command timeout) so callers fall back at once, the client keeps
 * reconnecting in the background, and the state changes are logged once each as structured
 * warnings, never as driver traces on stderr.
 */
export class RedisLink {
  readonly client: Redis;
  #state: RedisState = 'connecting';
  #closed = false;

  constructor(
    url: string,
    private readonly log: Logger,
    options: RedisLinkOptions = {},
  ) {
    const maxDelay = options.maxReconnectDelayMs ?? 2_000;
    this.client = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      connectTimeout: 2_000,
      // Keep trying for as long as the process lives; the cap keeps a returning Redis found fast.
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay),
      reconnectOnError: () => false,
    });
    // With a listener, ioredis never prints "Unhandled error event" traces.
    this.client.on('error', (error: Error & { code?: string }) => this.transition('down', error));
    this.client.on('close', () => this.transition('down'));
    this.client.on('ready', () => this.transition('up'));
  }

  /** True while commands can be sent now. */
  get available(): boolean {
    return this.client.status === 'ready';
  }

  /**
   * Runs commands when the client is connected, failing fast otherwise; the outcome updates the
   * state (a command that times out on an open socket counts as Redis being away).
   */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (!this.available) throw new RedisUnavailableError();
    try {
      const result = await command(this.client);
      this.transition('up');
      return result;
    } catch (error) {
      if (!isReplyError(error)) this.transition('down', error as Error);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    try {
      if (this.client.status === 'ready') await this.client.quit();
      else this.client.disconnect();
    } catch {
      this.client.disconnect();
    }
  }

  private transition(next: RedisState, error?: Error & { code?: string }): void {
    if (this.#closed || next === this.#state) return;
    const previous = this.#state;
    this.#state = next;
    if (next === 'down') {
      this.log.warn(
        { event: 'redis_unavailable', previous, code: error?.code ?? error?.name },
        'Redis is unavailable: cache reads miss, cache writes are skipped, rate limits run in process; retrying in the background',
      );
    } else if (previous === 'down') {
      this.log.warn({ event: 'redis_available', previous }, 'Redis is available again: shared cache and rate limits resume');
    } else {
      this.log.info({ event: 'redis_available', previous }, 'Redis is available');
    }
  }
}

export class RedisUnavailableError extends Error {
  constructor() {
    super('Redis is unavailable');
    this.name = 'RedisUnavailableError';
  }
}

/** An error Redis answered with (a script error, a wrong type): Redis itself is there. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}
