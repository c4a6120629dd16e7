import { describe, expect, it } from 'vitest';
import { createSourceRegistry } from './index.js';
import { LazySource, loadSource } from './lazy-source.js';
import { PoolManager } from './pool-manager.js';
import { SourceRegistry } from './registry.js';
import type { Source, SourceConnection } from './types.js';

function recordingSource(type: string): Source & { seen: SourceConnection[] } {
  const seen: SourceConnection[] = [];
  return {
    type,
    seen,
    capabilities: { streaming: false, pushdown: false, schema: false },
    test: async (conn) => {
      seen.push(conn);
      return { success: true };
    },
    schema: async () => ({ tables: [] }),
    run: async (conn) => {
      seen.push(conn);
      return { data: [{ a: 1 }], meta: { columns: [], rowCount: 1, truncated: false, durationMs: 0 } };
    },
  };
}

describe('SourceRegistry', () => {
  it('resolves sub-types to their family with their own defaults', async () => {
    const pg = recordingSource('postgres');
    const registry = new SourceRegistry(new PoolManager()).register(pg, [
      { type: 'postgres', subType: 'postgres', name: 'PostgreSQL', category: 'database', description: 'A test source' },
      { type: 'postgres', subType: 'rdsPostgres', name: 'RDS', category: 'database', description: 'A test source', defaults: { ssl: true, sslMode: 'require' } },
    ]);
    await registry.test({ type: 'postgres', subType: 'rdsPostgres', host: 'h' });
    await registry.test({ type: 'postgres', subType: 'rdsPostgres', host: 'h', ssl: false, sslMode: 'verify-full' });
    await registry.test({ type: 'postgres', host: 'h' });
    await registry.test({ type: 'postgres', subType: 'somethingNew', host: 'h' });
    expect(pg.seen.map((c) => [c.ssl, c.sslMode])).toEqual([
      [true, 'require'],
      [false, 'verify-full'],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it('refuses unknown types; a sub-type of another family falls back to the type', () => {
    const registry = createSourceRegistry();
    expect(() => registry.resolve({ type: 'clickhouse' })).toThrowError(expect.objectContaining({ statusCode: 400, code: 'SOURCE_TYPE_UNSUPPORTED' }));
    expect(registry.resolve({ type: 'mysql', subType: 'timescaledb' }).source.type).toBe('mysql');
  });

  it('lists every provider with its capabilities', () => {
    const providers = createSourceRegistry().providers();
    expect(providers.map((p) => `${p.type}/${p.subType}`)).toEqual([
      'postgres/postgres',
      'postgres/timescaledb',
      'postgres/supabasedb',
      'postgres/rdsPostgres',
      'mysql/mysql',
      'mysql/rdsMysql',
      'mongodb/mongodb',
      'api/api',
      'realtimedb/realtimedb',
      'firestore/firestore',
      'googleAnalytics/googleAnalytics',
      'customerio/customerio',
    ]);
    expect(providers.find((p) => p.subType === 'supabasedb')).toMatchObject({ capabilities: { streaming: true, pushdown: 'postgres', schema: true }, defaults: { ssl: true } });
    expect(providers.find((p) => p.type === 'api')?.capabilities).toEqual({ streaming: false, pushdown: false, schema: false });
  });

  it('gives non-streaming sources a one-batch stream', async () => {
    const registry = new SourceRegistry(new PoolManager()).register(recordingSource('api'), [{ type: 'api', subType: 'api', name: 'API', category: 'api', description: 'A test source' }]);
    const stream = await registry.stream({ type: 'api' }, {});
    const batches = [];
    for await (const batch of stream) batches.push(batch);
    expect(batches).toEqual([[{ a: 1 }]]);
  });
});

describe('sources loaded on first use', () => {
  const provider = [{ type: 'api', subType: 'api', name: 'API', category: 'api' as const, description: 'A test source' }];

  it('imports a source once, on its first use, and runs through it', async () => {
    let loads = 0;
    const inner = recordingSource('api');
    const lazy = new LazySource({
      type: 'api',
      name: 'HTTP API',
      capabilities: inner.capabilities,
      packages: [],
      load: async () => {
        loads += 1;
        return inner;
      },
    });
    const registry = new SourceRegistry(new PoolManager()).register(lazy, provider);
    expect(registry.providers()[0]!.capabilities).toEqual(inner.capabilities);
    expect(loads).toBe(0);
    await Promise.all([registry.run({ type: 'api', host: 'a' }, {}), registry.test({ type: 'api', host: 'b' })]);
    await registry.run({ type: 'api', host: 'c' }, {});
    expect(loads).toBe(1);
    expect(inner.seen.map((c) => c.host)).toEqual(['a', 'b', 'c']);
  });

  it('names the missing driver package when it cannot be loaded, and tries again next time', async () => {
    let attempts = 0;
    const missing = Object.assign(new Error("Cannot find package 'mongodb' imported from /somewhere/mongodb-source.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const lazy = new LazySource({
      type: 'mongodb',
      name: 'MongoDB',
      capabilities: { streaming: true, pushdown: false, schema: true },
      packages: ['mongodb'],
      load: async () => {
        attempts += 1;
        throw missing;
      },
    });
    const registry = new SourceRegistry(new PoolManager()).register(lazy, [{ type: 'mongodb', subType: 'mongodb', name: 'MongoDB', category: 'database', description: 'A test source' }]);
    for (const attempt of [() => registry.run({ type: 'mongodb', host: 'h' }, {}), () => registry.stream({ type: 'mongodb', host: 'h' }, {}), () => registry.test({ type: 'mongodb', host: 'h' })]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e as Error & { statusCode?: number; code?: string },
      );
      expect(error).toMatchObject({ statusCode: 500, code: 'SOURCE_DRIVER_UNAVAILABLE', cause: missing });
      expect(error!.message).toMatch(/MongoDB source is unavailable: its driver \(npm package "mongodb"\) could not be loaded/);
      // The answer names the package, not the server's paths.
      expect(error!.message).not.toContain('/somewhere');
    }
    expect(attempts).toBe(3);
  });

  it('advertises, before loading, what every loaded source can do', async () => {
    const registry = createSourceRegistry();
    for (const { type, subType, capabilities } of registry.providers()) {
      const { source } = registry.resolve({ type, subType });
      const loaded = await loadSource(source);
      expect(loaded).not.toBeInstanceOf(LazySource);
      expect(loaded.type).toBe(type);
      expect(loaded.capabilities, subType).toEqual(capabilities);
      expect(Boolean(loaded.stream), subType).toBe(capabilities.streaming);
    }
    await registry.closeAll();
  });
});

describe('PoolManager', () => {
  const pooled = () => {
    const closed: string[] = [];
    let made = 0;
    return { closed, create: () => `pool-${++made}`, close: async (pool: string) => void closed.push(pool) };
  };

  it('keeps one pool per connection and version, and closes the old one on a change', async () => {
    const pools = new PoolManager();
    const p = pooled();
    const conn = { id: 7, type: 'postgres', host: 'a', updatedAt: new Date('2025-01-01') };
    expect(pools.acquire(conn, 'pg', p.create, p.close).pool).toBe('pool-1');
    expect(pools.acquire({ ...conn }, 'pg', p.create, p.close).pool).toBe('pool-1');
    expect(pools.acquire({ ...conn, updatedAt: new Date('2025-02-01') }, 'pg', p.create, p.close).pool).toBe('pool-2');
    // A changed setting without a new updatedAt still gets a new pool.
    expect(pools.acquire({ ...conn, updatedAt: new Date('2025-02-01'), host: 'b' }, 'pg', p.create, p.close).pool).toBe('pool-3');
    await pools.invalidate('unrelated');
    expect(p.closed).toEqual(['pool-1', 'pool-2']);
    expect(pools.has(7)).toBe(true);
  });

  it('closes on invalidate and on closeAll', async () => {
    const pools = new PoolManager();
    const p = pooled();
    pools.acquire({ id: 1, type: 'x' }, 'pg', p.create, p.close);
    pools.acquire({ id: 1, type: 'x' }, 'mongo', p.create, p.close);
    pools.acquire({ id: 2, type: 'x' }, 'pg', p.create, p.close);
    await pools.invalidate(1);
    expect(p.closed.sort()).toEqual(['pool-1', 'pool-2']);
    expect(pools.has(1)).toBe(false);
    await pools.closeAll();
    expect(p.closed).toContain('pool-3');
    expect(pools.size).toBe(0);
  });

  it('gives an unsaved connection a pool that closes on release', async () => {
    const pools = new PoolManager();
    const p = pooled();
    const handle = pools.acquire({ type: 'x' }, 'pg', p.create, p.close);
    expect(pools.size).toBe(0);
    await handle.release();
    expect(p.closed).toEqual(['pool-1']);
  });
});
