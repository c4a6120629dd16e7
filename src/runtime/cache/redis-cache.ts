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

/** Deletes the lock only if we still own it. */
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Redis-backed cache shared by every instance. Entries are JSON with an expiry at their stale
 * time. Single-flight spans instances: the first to take a short lock computes, the others wait
 * for its entry (or take over if it gives up).
 */
export class RedisResultCache extends BaseResultCache {
  private readonly prefix: string;
  private readonly lockTtlMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisCacheOptions = {},
  ) {
    super(options);
    this.prefix = options.prefix ?? 'plotline:cache:v1:';
    this.lockTtlMs = options.lockTtlMs ?? 120_000;
    this.pollMs = options.pollMs ?? 50;
  }

  async get<T>(key: string): Promise<CacheEntry<T> | undefined> {
    const text = await this.redis.get(this.prefix + key);
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
    await this.redis.del(this.prefix + key);
  }

  /** The Redis client belongs to the caller (the container), which closes it. */
  async close(): Promise<void> {}

  protected async write<T>(key: string, entry: CacheEntry<T>): Promise<void> {
    const ttl = Math.ceil(entry.staleUntil - this.now());
    if (ttl <= 0) return;
    await this.redis.set(this.prefix + key, JSON.stringify(entry), 'PX', ttl);
  }

  protected override async runOnce<T>(key: string, compute: () => Promise<T>, policy: CachePolicy): Promise<CacheEntry<T>> {
    const lockKey = `${this.prefix}lock:${key}`;
    const startedAt = this.now() - CLOCK_SKEW_MS;
    let wait = this.pollMs;
    for (;;) {
      const token = randomUUID();
      const locked = await this.redis.set(lockKey, token, 'PX', this.lockTtlMs, 'NX');
      if (locked === 'OK') {
        try {
          const value = await compute();
          const entry = makeEntry(value, policy, this.now());
          await this.write(key, entry);
          return entry;
        } finally {
          await this.redis.eval(RELEASE_LOCK, 1, lockKey, token).catch(() => undefined);
        }
      }
      // Another instance is computing: wait for its entry, or for its lock to go away.
      while ((await this.redis.exists(lockKey)) === 1) {
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
