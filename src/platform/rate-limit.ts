import type { FastifyRequest } from 'fastify';
import type { RedisLink } from '../runtime/redis-link.js';

/**
 * Rate limits: who is counted, and where the counts live.
 *
 * Authenticated routes count per caller (a user's sessions together, each API key alone), so one
 * backend integration behind one address is not limited as if it were everyone behind that
 * address; anonymous routes count per client address. The counts live in Redis when it is
 * configured and reachable (shared by every instance), and fail open to an in-process count
 * while it is not.
 */

export interface RateLimits {
  /** Requests per minute per client address on routes without a bearer token. */
  anonymous: number;
  /** Requests per minute per caller (user or API key) on authenticated routes. */
  authenticated: number;
}

/** `user:<id>`, `key:<id>` for an authenticated caller; the client address otherwise. */
export function rateLimitKey(request: FastifyRequest): string {
  const actor = request.actor;
  if (actor?.kind === 'user') return `user:${actor.userId}`;
  if (actor?.kind === 'apiKey') return `key:${actor.keyId}`;
  return `ip:${request.ip}`;
}

export function rateLimitMax(limits: RateLimits): (request: FastifyRequest) => number {
  return (request) => (request.actor ? limits.authenticated : limits.anonymous);
}

type IncrCallback = (error: Error | null, result: { current: number; ttl: number } | null) => void;

interface RouteParams {
  routeInfo?: { method?: string; url?: string };
}

const INCR = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

/** Fixed-window counts in this process, bounded in entries (oldest windows go first). */
class LocalCounts {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly maxEntries: number) {}

  incr(key: string, timeWindow: number, now: number): { current: number; ttl: number } {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.delete(key);
      window = { count: 0, resetAt: now + timeWindow };
      this.windows.set(key, window);
      if (this.windows.size > this.maxEntries) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count += 1;
    return { current: window.count, ttl: window.resetAt - now };
  }

  /** Gives one count back to a window that is still open. */
  decr(key: string, now: number): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > now && window.count > 0) window.count -= 1;
  }
}

/**
 * A store for @fastify/rate-limit: Redis while `link.available`, otherwise (or when a command
 * fails) the in-process counts. Never throws, so a Redis outage cannot turn a request into a 500.
 */
export function failoverStore(link: RedisLink | undefined, options: { prefix?: string; maxLocalEntries?: number; now?: () => number } = {}) {
  const local = new LocalCounts(options.maxLocalEntries ?? 100_000);
  const now = options.now ?? Date.now;
  const base = options.prefix ?? 'plotline:ratelimit:';

  class FailoverStore {
    constructor(
      _params?: unknown,
      private readonly prefix: string = base,
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      const counted = this.prefix + key;
      if (!link?.available) {
        callback(null, local.incr(counted, timeWindow, now()));
        return;
      }
      link
        .run((client) => client.eval(INCR, 1, counted, String(timeWindow)) as Promise<[number, number]>)
        .then(
          ([current, ttl]) => callback(null, { current: Number(current), ttl: Number(ttl) }),
          () => callback(null, local.incr(counted, timeWindow, now())),
        );
    }

    child(params: RouteParams): FailoverStore {
      return new FailoverStore(undefined, `${this.prefix}${params.routeInfo?.method ?? ''}${params.routeInfo?.url ?? ''}-`);
    }
  }
  return FailoverStore;
}

const REFUND = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export interface AttemptBudgetOptions {
  /** Attempts allowed per key and window. */
  max: number;
  windowMs: number;
  /** Redis key prefix. */
  prefix: string;
  maxLocalEntries?: number;
  now?: () => number;
}

/**
 * A small budget of attempts per key (e.g. a dashboard password per client address), counted
 * where the route limits are: in Redis while it is available (shared by every instance), in this
 * process otherwise. `take` spends an attempt before the guarded check runs, so guesses sent at
 * the same moment cannot overrun it; `refund` gives it back when the attempt succeeded, so only
 * failed attempts use the budget up. Never throws: a Redis outage falls back to local counts.
 */
export class AttemptBudget {
  private readonly local: LocalCounts;
  private readonly now: () => number;

  constructor(
    private readonly link: RedisLink | undefined,
    private readonly options: AttemptBudgetOptions,
  ) {
    this.local = new LocalCounts(options.maxLocalEntries ?? 100_000);
    this.now = options.now ?? Date.now;
  }

  get max(): number {
    return this.options.max;
  }

  /** Spends one attempt; `allowed: false` once the window's budget is spent, with the seconds until it renews. */
  async take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const counted = this.options.prefix + key;
    let result: { current: number; ttl: number };
    if (this.link?.available) {
      try {
        const [current, ttl] = await this.link.run((client) => client.eval(INCR, 1, counted, String(this.options.windowMs)) as Promise<[number, number]>);
        result = { current: Number(current), ttl: Number(ttl) };
      } catch {
        result = this.local.incr(counted, this.options.windowMs, this.now());
      }
    } else {
      result = this.local.incr(counted, this.options.windowMs, this.now());
    }
    return { allowed: result.current <= this.options.max, retryAfterSeconds: Math.max(1, Math.ceil(result.ttl / 1000)) };
  }

  /** Gives back the attempt `take` spent, when it succeeded. */
  async refund(key: string): Promise<void> {
    const counted = this.options.prefix + key;
    if (this.link?.available) {
      try {
        await this.link.run((client) => client.eval(REFUND, 1, counted));
        return;
      } catch {
        /* counted locally below */
      }
    }
    this.local.decr(counted, this.now());
  }
}
