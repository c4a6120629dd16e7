/** How long a cached value is served. */
export interface CachePolicy {
  /** Fresh for this long: served without running anything. */
  ttlMs: number;
  /** Then stale for this long: served at once while one background run refreshes it (default 0). */
  staleMs?: number;
}

export interface CacheEntry<T> {
  value: T;
  createdAt: number;
  freshUntil: number;
  staleUntil: number;
}

export type CacheStatus = 'hit' | 'stale' | 'miss';

export interface CacheResult<T> {
  value: T;
  /** hit: fresh from the cache; stale: from the cache, a refresh was started; miss: computed now (or by a concurrent identical run). */
  status: CacheStatus;
  /** When the value was computed (epoch ms). */
  createdAt: number;
}

export interface GetOrComputeOptions extends CachePolicy {
  /** Skip reading: compute (single-flight) and store. `getCache=false`. */
  refresh?: boolean;
}

/**
 * The result cache: get/set with TTL and stale-while-revalidate, and single-flight so identical
 * concurrent runs share one execution. Values must be JSON-serializable (the Redis backend stores
 * JSON); treat returned values as read-only (the memory backend returns the stored object).
 */
export interface ResultCache {
  /** The entry, fresh or stale; undefined when absent or past its stale time. */
  get<T>(key: string): Promise<CacheEntry<T> | undefined>;
  set<T>(key: string, value: T, policy: CachePolicy): Promise<void>;
  delete(key: string): Promise<void>;
  getOrCompute<T>(key: string, compute: () => Promise<T>, options: GetOrComputeOptions): Promise<CacheResult<T>>;
  close(): Promise<void>;
}
