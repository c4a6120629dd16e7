import { LRUCache } from 'lru-cache';
import { BaseResultCache, type CacheHooks } from './base-cache.js';
import type { CacheEntry } from './types.js';

export interface MemoryCacheOptions extends CacheHooks {
  /** Approximate bytes kept (default 256 MiB); least recently used entries go first. */
  maxBytes?: number;
  /** Entries kept at most (default 10,000). */
  maxEntries?: number;
}

/** Rough JSON size of a value; arrays are sampled so that sizing a big result stays cheap. */
export function estimateSize(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (depth > 6) return 64;
      if (Array.isArray(value)) {
        if (value.length === 0) return 2;
        const sample = Math.min(value.length, 16);
        let total = 0;
        for (let i = 0; i < sample; i++) total += estimateSize(value[Math.floor((i * value.length) / sample)], depth + 1);
        return Math.ceil((total / sample) * value.length) + 2;
      }
      let total = 2;
      for (const [key, item] of Object.entries(value)) total += key.length + 3 + estimateSize(item, depth + 1);
      return total;
    }
    default:
      return 8;
  }
}

/** In-process LRU: the default with no Redis. Not shared between processes. */
export class MemoryResultCache extends BaseResultCache {
  private readonly lru: LRUCache<string, CacheEntry<unknown>>;

  constructor(options: MemoryCacheOptions = {}) {
    super(options);
    const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.lru = new LRUCache<string, CacheEntry<unknown>>({
      max: options.maxEntries ?? 10_000,
      maxSize: maxBytes,
      // An entry bigger than the whole cache is simply not kept.
      maxEntrySize: maxBytes,
      sizeCalculation: (entry) => Math.max(1, estimateSize(entry.value)),
    });
  }

  async get<T>(key: string): Promise<CacheEntry<T> | undefined> {
    const entry = this.lru.get(key) as CacheEntry<T> | undefined;
    if (entry && this.now() >= entry.staleUntil) {
      this.lru.delete(key);
      return undefined;
    }
    return entry;
  }

  async delete(key: string): Promise<void> {
    this.lru.delete(key);
  }

  async close(): Promise<void> {
    this.lru.clear();
  }

  protected async write<T>(key: string, entry: CacheEntry<T>): Promise<void> {
    const ttl = entry.staleUntil - this.now();
    if (ttl <= 0) return;
    this.lru.set(key, entry, { ttl });
  }
}
