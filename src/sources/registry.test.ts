import { describe, expect, it } from 'vitest';
import { createSourceRegistry } from './index.js';
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
      { type: 'postgres', subType: 'postgres', name: 'PostgreSQL', category: 'database' },
      { type: 'postgres', subType: 'rdsPostgres', name: 'RDS', category: 'database', defaults: { ssl: true, sslMode: 'require' } },
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
      'api/strapi',
      'api/stripe',
      'realtimedb/realtimedb',
      'firestore/firestore',
      'googleAnalytics/googleAnalytics',
      'customerio/customerio',
    ]);
    expect(providers.find((p) => p.subType === 'supabasedb')).toMatchObject({ capabilities: { streaming: true, pushdown: 'postgres', schema: true }, defaults: { ssl: true } });
    expect(providers.find((p) => p.type === 'api')?.capabilities).toEqual({ streaming: false, pushdown: false, schema: false });
  });

  it('gives non-streaming sources a one-batch stream', async () => {
    const registry = new SourceRegistry(new PoolManager()).register(recordingSource('api'), [{ type: 'api', subType: 'api', name: 'API', category: 'api' }]);
    const stream = await registry.stream({ type: 'api' }, {});
    const batches = [];
    for await (const batch of stream) batches.push(batch);
    expect(batches).toEqual([[{ a: 1 }]]);
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
