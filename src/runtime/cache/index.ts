export type { CacheEntry, CachePolicy, CacheResult, CacheStatus, GetOrComputeOptions, ResultCache } from './types.js';
export { MemoryResultCache, type MemoryCacheOptions } from './memory-cache.js';
export { RedisResultCache, type RedisCacheOptions } from './redis-cache.js';
export { cacheKey, datasetCacheKey, stableHash, type DatasetCacheKeyInput } from './cache-key.js';
