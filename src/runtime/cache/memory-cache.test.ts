import { describe, expect, it } from 'vitest';
import { estimateSize, MemoryResultCache } from './memory-cache.js';

describe('MemoryResultCache', () => {
  it('estimates sizes cheaply, sampling big arrays', () => {
    expect(estimateSize('abc')).toBe(5);
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: 'abcdefghij' }));
    const estimate = estimateSize(rows);
    const exact = JSON.stringify(rows).length;
    expect(estimate / exact).toBeGreaterThan(0.5);
    expect(estimate / exact).toBeLessThan(2);
  });

  it('evicts the least recently used entries beyond its byte budget', async () => {
    const cache = new MemoryResultCache({ maxBytes: 3_000 });
    const blob = 'x'.repeat(900);
    await cache.set('a', blob, { ttlMs: 60_000 });
    await cache.set('b', blob, { ttlMs: 60_000 });
    await cache.get('a');
    await cache.set('c', blob, { ttlMs: 60_000 });
    await cache.set('d', blob, { ttlMs: 60_000 });
    expect(await cache.get('b')).toBeUndefined();
    expect((await cache.get('a'))?.value).toBe(blob);
    // A value bigger than the whole budget is not kept (and evicts nothing).
    await cache.set('huge', 'y'.repeat(10_000), { ttlMs: 60_000 });
    expect(await cache.get('huge')).toBeUndefined();
    expect((await cache.get('d'))?.value).toBe(blob);
  });

  it('drops entries once their stale time has passed (real clock)', async () => {
    const cache = new MemoryResultCache();
    await cache.set('k', 1, { ttlMs: 20 });
    expect((await cache.get('k'))?.value).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('k')).toBeUndefined();
  });
});
