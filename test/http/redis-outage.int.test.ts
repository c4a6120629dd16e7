import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { announceSkip, ownRedis, redisServerMissing, type OwnRedis } from '../helpers/services.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/*
 * Redis is a cache and coordination layer: with it gone, the API stays up (degraded), caches miss
 * and skip, rate limits count in process, and everything resumes when it returns, without a
 * restart. A redis-server of this test's own is stopped and started again; the shared one is never
 * touched.
 */

const missing = redisServerMissing();
const skip = announceSkip({ ok: !missing, reason: missing ?? '' }, 'Redis outage suite');

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(skip)('Redis outage', () => {
  let redis: OwnRedis;
  let t: TestApp;
  const stderr: string[] = [];

  beforeAll(async () => {
    redis = await ownRedis();
    t = await buildTestApp({ env: { REDIS_URL: redis.url }, rateLimit: { global: 100_000, auth: 100_000, authenticated: 5 } });
    await until(() => t.container.redis!.available, 'Redis to connect');
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      stderr.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
    await redis?.stop();
  });

  const events = (name: string) => t.logs.lines.filter((line) => (JSON.parse(line) as { event?: string }).event === name).length;

  it('stays up while Redis is down, and resumes when it is back', async () => {
    const before = await t.signup('Before');
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
    await t.container.cache.set('probe', { n: 1 }, { ttlMs: 60_000 });
    expect((await t.container.cache.get('probe'))?.value).toEqual({ n: 1 });

    await redis.stop();
    await until(() => !t.container.redis!.available, 'the outage to be seen');

    // Every route answers: health, readiness (degraded), sign-up, authenticated reads.
    expect((await t.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'degraded', checks: { store: 'ok', redis: 'degraded' } });
    const during = await t.signup('During');
    expect((await t.request({ method: 'GET', url: '/team', token: before.token })).statusCode).toBe(200);

    // Cache: reads miss, writes are skipped, computations still run (and are shared in process).
    expect(await t.container.cache.get('probe')).toBeUndefined();
    let runs = 0;
    const compute = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { runs };
    };
    const results = await Promise.all([1, 2, 3].map(() => t.container.cache.getOrCompute('k', compute, { ttlMs: 60_000 })));
    expect(results.map((r) => r.status)).toEqual(['miss', 'miss', 'miss']);
    expect(runs).toBe(1);

    // Rate limits fall back to the in-process limiter (per caller, 5 a minute here; sign-up made
    // the first call): the 6th call in the minute is a 429, not a 500 and not unlimited.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.request({ method: 'GET', url: '/team', token: during.token })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);

    // One structured warning for the change, however many requests met the outage; no driver traces.
    expect(events('redis_unavailable')).toBe(1);
    expect(stderr.join('')).not.toMatch(/ioredis|Unhandled error event|ECONNREFUSED/);

    await redis.start();
    await until(() => t.container.redis!.available, 'Redis to come back');
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
    expect(events('redis_available')).toBeGreaterThanOrEqual(1);
    expect(events('redis_unavailable')).toBe(1);

    // Shared again: a cache write lands in Redis, and counts are in Redis (a fresh caller starts at 1).
    await t.container.cache.set('after', { ok: true }, { ttlMs: 60_000 });
    const direct = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await direct.exists('plotline:cache:v1:after')).toBe(1);
      expect((await t.request({ method: 'GET', url: '/team', token: (await t.signup('After')).token })).statusCode).toBe(200);
      expect((await direct.keys('plotline:ratelimit:*')).length).toBeGreaterThan(0);
    } finally {
      direct.disconnect();
    }
  }, 60_000);
});
