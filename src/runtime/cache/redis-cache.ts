import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { BaseResultCache, makeEntry, type CacheHooks } from './base-cache.js';
import type { CacheEntry, CachePolicy } from './types.js';

export interface RedisCacheOptions extends CacheHooks {
  /** Key prefix (default `plotline:cache:v1:`). */
  prefix?: string;
  /** How long one instance may hold a key's compute lock (default 120 s; the run's own timeout is shorter). */
  lockTtlMs?: number;
  /** Poll interval while another instance computes (default 50 ms, doubling to 500 ms). */
  pollMs?: number;
}

/** Entries written by another instance are compared across clocks; allow this much skew. */
const CLOCK_SKEW_MS = 1_000;

/** Runs commands on a Redis client; `RedisLink` fails fast while Redis is away. */
export interface RedisRunner {
  run<T>(command: (client: Redis) => Promise<T>): Promise<T>;
}

/** Deletes the lock only if we still own it. */
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Redis-backed cache shared by every instance. Entries are JSON with an expiry at their stale
 * time. Single-flight spans instances: the first to take a short lock computes, the others wait
 * for its entry (or take over if it gives up).
 *
 * Redis is a cache here, never a dependency: when a command fails (Redis down, a timeout), a read
 * is a miss, a write is skipped and the lock is not waited for, so the run is computed in this
 * process (still single-flight within it). `onUnavailable` hears of each fallback.
 */
export class RedisResultCache extends BaseResultCache {
  private readonly prefix: string;
  private readonly lockTtlMs: number;
  private readonly pollMs: number;
  private readonly redis: RedisRunner;

  constructor(redis: Redis | RedisRunner, options: RedisCacheOptions = {}) {
    super(options);
    this.redis = 'run' in redis && typeof redis.run === 'function' ? redis : { run: (command) => command(redis as Redis) };
    this.prefix = options.prefix ?? 'plotline:cache:v1:';
    this.lockTtlMs = options.lockTtlMs ?? 120_000;
    this.pollMs = options.pollMs ?? 50;
  }

  async get<T>(key: string): Promise<CacheEntry<T> | undefined> {
    let text: string | null;
    try {
      text = await this.redis.run((client) => client.get(this.prefix + key));
    } catch (error) {
      this.hooks.onUnavailable?.('read', error);
      return undefined;
    }
    if (text === null) return undefined;
    let entry: CacheEntry<T>;
    try {
      entry = JSON.parse(text) as CacheEntry<T>;
    } catch {
      return undefined;
    }
    return this.now() < entry.staleUntil ? entry : undefined;
  }

  async delete(key: string): Promise<void> {
    try {
      await this.redis.run((client) => client.del(this.prefix + key));
    } catch (error) {
      this.hooks.onUnavailable?.('delete', error);
    }
  }

  /** The Redis client belongs to the caller (the container), which closes it. */
  async close(): Promise<void> {}

  protected async write<T>(key: string, entry: CacheEntry<T>): Promise<void> {
    const ttl = Math.ceil(entry.staleUntil - this.now());
    if (ttl <= 0) return;
    const text = JSON.stringify(entry);
    try {
      await this.redis.run((client) => client.set(this.prefix + key, text, 'PX', ttl));
    } catch (error) {
      this.hooks.onUnavailable?.('write', error);
    }
  }

  protected override async runOnce<T>(key: string, compute: () => Promise<T>, policy: CachePolicy): Promise<CacheEntry<T>> {
    const lockKey = `${this.prefix}lock:${key}`;
    const startedAt = this.now() - CLOCK_SKEW_MS;
    let wait = this.pollMs;
    for (;;) {
      const token = randomUUID();
      let locked: string | null;
      try {
        locked = await this.redis.run((client) => client.set(lockKey, token, 'PX', this.lockTtlMs, 'NX'));
      } catch (error) {
        // No shared lock without Redis: compute here (single-flight within this process).
        this.hooks.onUnavailable?.('lock', error);
        return super.runOnce(key, compute, policy);
      }
      if (locked === 'OK') {
        try {
          const value = await compute();
          const entry = makeEntry(value, policy, this.now());
          await this.write(key, entry);
          return entry;
        } finally {
          await this.redis.run((client) => client.eval(RELEASE_LOCK, 1, lockKey, token)).catch(() => undefined);
        }
      }
      // Another instance is computing: wait for its entry, or for its lock to go away.
      while ((await this.redis.run((client) => client.exists(lockKey)).catch(() => 0)) === 1) {
        await delay(wait);
        wait = Math.min(wait * 2, 500);
        const entry = await this.get<T>(key);
        if (entry && entry.createdAt >= startedAt) return entry;
      }
      const entry = await this.get<T>(key);
      if (entry && entry.createdAt >= startedAt) return entry;
      // The other instance failed (its lock is gone without a new entry): try to compute here.
    }
  }
}
