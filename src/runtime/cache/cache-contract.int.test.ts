import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceSkip, probeRedis, REDIS_TEST_URL } from '../../../test/helpers/services.js';
import type { CacheHooks } from './base-cache.js';
import { MemoryResultCache } from './memory-cache.js';
import { RedisResultCache } from './redis-cache.js';
import type { ResultCache } from './types.js';

/*
 * One contract for every cache backend: the in-memory LRU and Redis pass the same tests.
 * Freshness runs on an injected clock, so no test waits for a TTL.
 */

interface Backend {
  name: string;
  skip: boolean;
  make(hooks: CacheHooks): ResultCache;
}

const redisSkip = announceSkip(await probeRedis(), 'Redis result cache suite');
const prefix = `plotline:test:${randomBytes(4).toString('hex')}:`;
const redisClients: Redis[] = [];
const newRedis = (): Redis => {
  const client = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
  redisClients.push(client);
  return client;
};

afterAll(async () => {
  if (redisClients[0]) {
    const keys = await redisClients[0].keys(`${prefix}*`);
    if (keys.length > 0) await redisClients[0].del(...keys);
  }
  await Promise.all(redisClients.map((client) => client.quit()));
});

const BACKENDS: Backend[] = [
  { name: 'memory', skip: false, make: (hooks) => new MemoryResultCache(hooks) },
  { name: 'redis', skip: redisSkip, make: (hooks) => new RedisResultCache(newRedis(), { ...hooks, prefix, pollMs: 10 }) },
];

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`ResultCache contract: ${backend.name}`, () => {
    let clock: number;
    let cache: ResultCache;
    let refreshErrors: unknown[];
    let key: string;

    beforeEach(() => {
      clock = 1_700_000_000_000;
      refreshErrors = [];
      cache = backend.make({ now: () => clock, onRefreshError: (_key, error) => refreshErrors.push(error) });
      key = `k-${randomBytes(4).toString('hex')}`;
    });

    const counter = <T>(value: () => T, delayMs = 0) => {
      const state = { calls: 0 };
      const compute = async (): Promise<T> => {
        state.calls++;
        if (delayMs) await tick(delayMs);
        return value();
      };
      return { state, compute };
    };

    it('misses an unknown key and round-trips a JSON value', async () => {
      expect(await cache.get(key)).toBeUndefined();
      const value = { rows: [{ a: 1, b: 'é 漢字', c: null, d: [true, 2.5] }], meta: { rowCount: 1 } };
      await cache.set(key, value, { ttlMs: 1_000 });
      expect(await cache.get(key)).toEqual({ value, createdAt: clock, freshUntil: clock + 1_000, staleUntil: clock + 1_000 });
      await cache.delete(key);
      expect(await cache.get(key)).toBeUndefined();
    });

    it('computes on a miss, then serves fresh hits without computing', async () => {
      const { state, compute } = counter(() => 'v1');
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000 })).toEqual({ value: 'v1', status: 'miss', createdAt: clock });
      clock += 999;
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000 })).toMatchObject({ value: 'v1', status: 'hit' });
      expect(state.calls).toBe(1);
    });

    it('serves a stale value at once and refreshes it once in the background', async () => {
      let version = 1;
      const { state, compute } = counter(() => `v${version}`, 20);
      await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 });
      clock += 2_000;
      version = 2;
      const [a, b] = await Promise.all([
        cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 }),
        cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 }),
      ]);
      expect([a.status, a.value, b.status, b.value]).toEqual(['stale', 'v1', 'stale', 'v1']);
      // The refresh runs in the background: wait for it to land, however loaded the machine.
      await vi.waitFor(async () => expect(await cache.get(key)).toMatchObject({ value: 'v2' }), { timeout: 10_000, interval: 10 });
      expect(state.calls).toBe(2);
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 })).toMatchObject({ value: 'v2', status: 'hit' });
    });

    it('computes again once the stale window is over', async () => {
      const { state, compute } = counter(() => 'v');
      await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 1_000 });
      clock += 2_001;
      expect(await cache.get(key)).toBeUndefined();
      expect((await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 1_000 })).status).toBe('miss');
      expect(state.calls).toBe(2);
    });

    it('runs identical concurrent computes once (single-flight)', async () => {
      const { state, compute } = counter(() => ({ n: 42 }), 50);
      const results = await Promise.all(Array.from({ length: 20 }, () => cache.getOrCompute(key, compute, { ttlMs: 1_000 })));
      expect(state.calls).toBe(1);
      expect(new Set(results.map((r) => JSON.stringify(r.value)))).toEqual(new Set(['{"n":42}']));
      const other = counter(() => 'other');
      await cache.getOrCompute(`${key}-2`, other.compute, { ttlMs: 1_000 });
      expect(other.state.calls).toBe(1);
    });

    it('shares a failure with concurrent callers and never caches it', async () => {
      let fail = true;
      const { state, compute } = counter(() => {
        if (fail) throw new Error('source down');
        return 'ok';
      }, 20);
      const settled = await Promise.allSettled([1, 2, 3].map(() => cache.getOrCompute(key, compute, { ttlMs: 1_000 })));
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(state.calls).toBe(1);
      expect(await cache.get(key)).toBeUndefined();
      fail = false;
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000 })).toMatchObject({ value: 'ok', status: 'miss' });
    });

    it('recomputes when asked to refresh, even if fresh', async () => {
      let version = 1;
      const { state, compute } = counter(() => `v${version}`);
      await cache.getOrCompute(key, compute, { ttlMs: 10_000 });
      version = 2;
      expect(await cache.getOrCompute(key, compute, { ttlMs: 10_000, refresh: true })).toMatchObject({ value: 'v2', status: 'miss' });
      expect(await cache.getOrCompute(key, compute, { ttlMs: 10_000 })).toMatchObject({ value: 'v2', status: 'hit' });
      expect(state.calls).toBe(2);
    });

    it('keeps serving the stale value when a background refresh fails', async () => {
      let fail = false;
      const { compute } = counter(() => {
        if (fail) throw new Error('refresh failed');
        return 'v1';
      });
      await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 });
      clock += 1_500;
      fail = true;
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 })).toMatchObject({ value: 'v1', status: 'stale' });
      await vi.waitFor(() => expect(refreshErrors).toHaveLength(1), { timeout: 10_000, interval: 10 });
      expect(await cache.getOrCompute(key, compute, { ttlMs: 1_000, staleMs: 5_000 })).toMatchObject({ value: 'v1', status: 'stale' });
    });
  });
}

describe.skipIf(redisSkip)('RedisResultCache across instances', () => {
  it('shares entries and runs one compute for two instances', async () => {
    const key = `shared-${randomBytes(4).toString('hex')}`;
    const a = new RedisResultCache(newRedis(), { prefix, pollMs: 10 });
    const b = new RedisResultCache(newRedis(), { prefix, pollMs: 10 });
    let calls = 0;
    const compute = async (): Promise<string> => {
      calls++;
      await tick(100);
      return 'once';
    };
    const results = await Promise.all([a.getOrCompute(key, compute, { ttlMs: 5_000 }), b.getOrCompute(key, compute, { ttlMs: 5_000 })]);
    expect(calls).toBe(1);
    expect(results.map((r) => r.value)).toEqual(['once', 'once']);
    expect(await b.getOrCompute(key, compute, { ttlMs: 5_000 })).toMatchObject({ value: 'once', status: 'hit' });
  });

  it('lets another instance take over when the computing one fails', async () => {
    const key = `takeover-${randomBytes(4).toString('hex')}`;
    const a = new RedisResultCache(newRedis(), { prefix, pollMs: 10 });
    const b = new RedisResultCache(newRedis(), { prefix, pollMs: 10 });
    // A computes (so it holds the key) before B asks; B waits on A, then computes itself.
    let started!: () => void;
    const computing = new Promise<void>((resolve) => (started = resolve));
    let fail!: () => void;
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const failing = async (): Promise<string> => {
      started();
      await failed;
      throw new Error('instance A failed');
    };
    const first = a.getOrCompute(key, failing, { ttlMs: 5_000 });
    await computing;
    const second = b.getOrCompute(key, async () => 'from B', { ttlMs: 5_000 });
    await tick(30);
    fail();
    await expect(first).rejects.toThrow('instance A failed');
    await expect(second).resolves.toMatchObject({ value: 'from B' });
  });
});
