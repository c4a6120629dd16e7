import { describe, expect, it } from 'vitest';
import { cacheKey, datasetCacheKey } from './cache-key.js';

describe('datasetCacheKey', () => {
  const base = {
    datasetId: 7,
    datasetVersion: '2025-01-01T00:00:00.000Z',
    dataRequests: [
      { id: 1, version: '2025-01-01T00:00:00.000Z', connectionVersion: 'c1' },
      { id: 2, version: '2025-01-02T00:00:00.000Z' },
    ],
    variables: { country: 'US', limit: 10 },
    filters: [{ field: 'root[].status', operator: 'is', value: 'paid' }],
  };

  it('is stable across key order and request order', () => {
    const same = datasetCacheKey({
      filters: [{ value: 'paid', operator: 'is', field: 'root[].status' }],
      variables: { limit: 10, country: 'US' },
      dataRequests: [...base.dataRequests].reverse(),
      datasetVersion: new Date('2025-01-01T00:00:00.000Z'),
      datasetId: '7',
    });
    expect(same).toBe(datasetCacheKey(base));
    expect(datasetCacheKey(base)).toMatch(/^dataset:7:[0-9a-f]{64}$/);
  });

  it('changes with anything that changes the answer', () => {
    const key = datasetCacheKey(base);
    const variants = [
      { ...base, datasetVersion: '2025-01-03T00:00:00.000Z' },
      { ...base, dataRequests: [{ ...base.dataRequests[0]!, version: 'x' }, base.dataRequests[1]!] },
      { ...base, dataRequests: [{ ...base.dataRequests[0]!, connectionVersion: 'c2' }, base.dataRequests[1]!] },
      { ...base, variables: { country: 'DE', limit: 10 } },
      { ...base, variables: { country: 'US', limit: '10' } },
      { ...base, filters: [] },
      { ...base, extra: { scope: 'anonymous' } },
    ];
    const keys = new Set(variants.map((variant) => datasetCacheKey(variant)));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(key)).toBe(false);
  });

  it('hashes any other parts under a namespace', () => {
    expect(cacheKey('chart', { b: 1, a: [1, { d: 1, c: 2 }] })).toBe(cacheKey('chart', { a: [1, { c: 2, d: 1 }], b: 1 }));
  });
});
