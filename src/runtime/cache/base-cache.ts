import type { CacheEntry, CachePolicy, CacheResult, GetOrComputeOptions, ResultCache } from './types.js';

export interface CacheHooks {
  /** A background refresh failed (the stale value stays until it expires). */
  onRefreshError?: (key: string, error: unknown) => void;
  now?: () => number;
  /** A shared backend could not be used for this operation; the cache fell back (miss, skip, local run). */
  onUnavailable?: (operation: 'read' | 'write' | 'delete' | 'lock', error: unknown) => void;
  /** Every getOrCompute answer, by status (metrics). */
  onResult?: (key: string, status: CacheResult<unknown>['status']) => void;
}

export function makeEntry<T>(value: T, policy: CachePolicy, now: number): CacheEntry<T> {
  const freshUntil = now + Math.max(0, policy.ttlMs);
  return { value, createdAt: now, freshUntil, staleUntil: freshUntil + Math.max(0, policy.staleMs ?? 0) };
}

/**
 * getOrCompute on top of a backend's get/set, with in-process single-flight. Backends that span
 * processes (Redis) extend `runOnce` to de-duplicate across instances too.
 */
export abstract class BaseResultCache implements ResultCache {
  private readonly inFlight = new Map<string, Promise<CacheEntry<unknown>>>();
  protected readonly now: () => number;

  constructor(protected readonly hooks: CacheHooks = {}) {
    this.now = hooks.now ?? Date.now;
  }

  abstract get<T>(key: string): Promise<CacheEntry<T> | undefined>;
  abstract delete(key: string): Promise<void>;
  abstract close(): Promise<void>;
  protected abstract write<T>(key: string, entry: CacheEntry<T>): Promise<void>;

  async set<T>(key: string, value: T, policy: CachePolicy): Promise<void> {
    await this.write(key, makeEntry(value, policy, this.now()));
  }

  async getOrCompute<T>(key: string, compute: () => Promise<T>, options: GetOrComputeOptions): Promise<CacheResult<T>> {
    const result = await this.lookupOrCompute(key, compute, options);
    this.hooks.onResult?.(key, result.status);
    return result;
  }

  private async lookupOrCompute<T>(key: string, compute: () => Promise<T>, options: GetOrComputeOptions): Promise<CacheResult<T>> {
    if (!options.refresh) {
      const entry = await this.get<T>(key);
      const now = this.now();
      if (entry && now < entry.freshUntil) return { value: entry.value, status: 'hit', createdAt: entry.createdAt };
      if (entry && now < entry.staleUntil) {
        this.revalidate(key, compute, options);
        return { value: entry.value, status: 'stale', createdAt: entry.createdAt };
      }
    }
    const entry = await this.singleFlight(key, compute, options);
    return { value: entry.value, status: 'miss', createdAt: entry.createdAt };
  }

  /** Joins the run already in flight for `key` in this process, or starts one. */
  protected singleFlight<T>(key: string, compute: () => Promise<T>, policy: CachePolicy): Promise<CacheEntry<T>> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<CacheEntry<T>>;
    const run = this.runOnce(key, compute, policy).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  /** Computes and stores. Errors are never cached. */
  protected async runOnce<T>(key: string, compute: () => Promise<T>, policy: CachePolicy): Promise<CacheEntry<T>> {
    const value = await compute();
    const entry = makeEntry(value, policy, this.now());
    await this.write(key, entry);
    return entry;
  }

  private revalidate<T>(key: string, compute: () => Promise<T>, policy: CachePolicy): void {
    if (this.inFlight.has(key)) return;
    this.singleFlight(key, compute, policy).catch((error: unknown) => this.hooks.onRefreshError?.(key, error));
  }
}
