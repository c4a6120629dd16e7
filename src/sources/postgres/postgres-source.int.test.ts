import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../../test/helpers/postgres-server.js';
import { makeCertificates, startTlsProxy } from '../../../test/helpers/postgres-tls-proxy.js';
import { PoolManager } from '../pool-manager.js';
import type { SourceConnection, SslMode } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { PostgresSource } from './postgres-source.js';

let dbUrl: URL;
let drop: () => Promise<void>;
let base: SourceConnection;
const pools = new PoolManager();
const source = new PostgresSource(pools);

beforeAll(async () => {
  const temp = await createTempDatabase(inject('postgresUrl'));
  drop = temp.drop;
  dbUrl = new URL(temp.url);
  base = {
    id: 'pg-specific',
    type: 'postgres',
    host: dbUrl.hostname,
    port: dbUrl.port || '5432',
    dbName: dbUrl.pathname.slice(1),
    username: decodeURIComponent(dbUrl.username),
    password: decodeURIComponent(dbUrl.password),
    updatedAt: '2025-01-01T00:00:00Z',
  };
});

afterAll(async () => {
  await pools.closeAll();
  await drop?.();
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

async function backendCount(application = 'plotline'): Promise<number> {
  const admin = new pg.Client({ connectionString: dbUrl.toString() });
  await admin.connect();
  try {
    const result = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = $2', [base.dbName, application]);
    return result.rows[0].n as number;
  } finally {
    await admin.end();
  }
}

describe('PostgresSource values', () => {
  it('normalizes types one documented way', async () => {
    const result = await source.run(base, {
      query: `select 1::int2 as small, 9007199254740993::int8 as huge, 42::int8 as big, 12.50::numeric(10,2) as dec,
                     1e20::numeric as wide, 0.1::float8 as f, true as b, date '2025-03-04' as d,
                     timestamp '2025-03-04 05:06:07.123456' as ts, timestamptz '2025-03-04 05:06:07+02' as tstz,
                     '{"a": [1, 2]}'::jsonb as j, array[1, 2]::int8[] as arr, array[date '2025-01-01'] as dates,
                     '\\x0102'::bytea as bin, interval '1 day 2 hours' as iv, null::text as nothing`,
    });
    expect(result.data).toEqual([
      {
        small: 1,
        huge: '9007199254740993',
        big: 42,
        dec: 12.5,
        // More than 15 integer digits: kept exact, as text.
        wide: '100000000000000000000',
        f: 0.1,
        b: true,
        d: '2025-03-04',
        ts: '2025-03-04T05:06:07.123456',
        tstz: '2025-03-04T03:06:07Z',
        j: { a: [1, 2] },
        arr: [1, 2],
        dates: ['2025-01-01'],
        bin: '\\x0102',
        iv: '1 day 02:00:00',
        nothing: null,
      },
    ]);
    expect(Object.fromEntries(result.meta.columns.map((c) => [c.name, c.type]))).toMatchObject({
      dec: 'number',
      tstz: 'date',
      j: 'json',
      bin: 'binary',
      nothing: 'string',
    });
  });

  it('runs the optional-variable idiom: one parameter per variable, typed from its binding', async () => {
    const query = `select r, n, d from (values ('eu', 1, date '2025-01-01'), ('us', 2, date '2025-02-01')) v(r, n, d)
                    where (r = {{region}} or {{region}} is null) and ({{min}} is null or n >= {{min}})
                      and ({{since}} is null or d >= {{since}}) and ({{flag}} is null or {{flag}}) order by r`;
    const bindings = [
      { name: 'region', type: 'string' as const },
      { name: 'min', type: 'number' as const },
      { name: 'since', type: 'date' as const },
      { name: 'flag', type: 'boolean' as const },
    ];
    const all = await source.run(base, { query }, { variables: resolveVariables({ bindings }) });
    expect((all.data as { r: string }[]).map((row) => row.r)).toEqual(['eu', 'us']);
    const some = await source.run(base, { query }, { variables: resolveVariables({ bindings, runtime: { region: 'us', min: 2, since: '2025-01-15', flag: true } }) });
    expect(some.data).toEqual([{ r: 'us', n: 2, d: '2025-02-01' }]);
  });

  it('refuses several statements in one query', async () => {
    await expect(source.run(base, { query: 'select 1; select 2' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('refuses writes hidden in a CTE and session changes', async () => {
    await expect(source.run(base, { query: 'with d as (delete from pg_class returning 1) select * from d' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(source.run(base, { query: "select set_config('search_path', 'nowhere', false)" })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    const result = await source.run(base, { query: 'show search_path' });
    expect(result.data).toEqual([{ search_path: '"$user", public' }]);
  });

  it('sends rows before the query has finished (cursor batches)', async () => {
    // Row 21 divides by zero: run to the end, this query fails. Its first batch can only arrive if
    // rows are read from a cursor as they are produced.
    const stream = await source.stream(base, { query: 'select g, 1 / (21 - g) as n from generate_series(1, 400) g' }, { batchSize: 10, timeoutMs: 20_000 });
    const batches: number[] = [];
    await expect(
      (async () => {
        for await (const batch of stream) batches.push(batch.length);
      })(),
    ).rejects.toMatchObject({ message: expect.stringMatching(/division by zero/) });
    // One row first (its size decides the next reads), then reads of batchSize rows.
    expect(batches).toEqual([1, 10]);
  });
});

describe('PostgresSource connections', () => {
  it('accepts a connection string, whose sslmode wins', async () => {
    const url = new URL(dbUrl.toString());
    url.searchParams.set('sslmode', 'disable');
    await expect(source.run({ id: 'pg-dsn', type: 'postgres', connectionString: url.toString(), ssl: true }, { query: 'select 1 as one' })).resolves.toMatchObject({
      data: [{ one: 1 }],
    });
    await pools.invalidate('pg-dsn');
  });

  it('uses sslmode=prefer on a server without TLS, and fails require there', async () => {
    await expect(source.test({ ...base, id: 'pg-prefer', ssl: true, sslMode: 'prefer' })).resolves.toEqual({ success: true });
    await expect(source.test({ ...base, id: 'pg-require', ssl: true, sslMode: 'require' })).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
    await pools.invalidate('pg-prefer');
    await pools.invalidate('pg-require');
  });

  it('replaces the pool when the connection changes, closing the old one', async () => {
    await pools.closeAll();
    expect(await eventually(async () => (await backendCount()) === 0)).toBe(true);
    const conn = { ...base, id: 'pg-version' };
    await source.run(conn, { query: 'select 1' });
    expect(await backendCount()).toBe(1);
    await source.run({ ...conn, updatedAt: '2025-06-01T00:00:00Z' }, { query: 'select 1' });
    expect(pools.size).toBe(1);
    // Only the new pool's connection is left: the old pool closed its own.
    expect(await eventually(async () => (await backendCount()) === 1)).toBe(true);
    await pools.invalidate('pg-version');
    expect(await eventually(async () => (await backendCount()) === 0)).toBe(true);
  });

  it('closes a connection whose session could not be reset instead of reusing it', async () => {
    // A role that may not call pg_advisory_unlock_all (revoked in this database only): the reset
    // that ends each run fails, so each run's connection is closed and the next run opens another.
    const role = `plpg_noreset_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: dbUrl.toString() });
    await admin.connect();
    const single = new PoolManager();
    const one = new PostgresSource(single, { maxConnections: 1 });
    try {
      await admin.query(`create role ${role} login; revoke execute on function pg_advisory_unlock_all() from public`);
      const conn = { ...base, id: 'pg-no-reset', username: role, password: '' };
      const pid = async (run: () => Promise<{ data: unknown }>) => ((await run()).data as Array<{ pid: number }>)[0]!.pid;
      const streamed = await pid(() => one.run(conn, { query: 'select pg_backend_pid() as pid' }));
      const compiled = await pid(() => one.run(conn, { compiled: { text: 'select pg_backend_pid() as pid', values: [] } }));
      const again = await pid(() => one.run(conn, { query: 'select pg_backend_pid() as pid' }));
      // Every run answered, each on a connection of its own.
      expect(new Set([streamed, compiled, again]).size).toBe(3);
      const alive = async () => (await admin.query('select count(*)::int as n from pg_stat_activity where pid = any($1)', [[streamed, compiled]])).rows[0].n;
      expect(await eventually(async () => (await alive()) === 0)).toBe(true);
    } finally {
      await single.closeAll();
      await admin.query(`grant execute on function pg_advisory_unlock_all() to public; drop role if exists ${role}`);
      await admin.end();
    }
  });

  it('closes the pool of an unsaved connection after a test', async () => {
    await pools.closeAll();
    expect(await eventually(async () => (await backendCount()) === 0)).toBe(true);
    await source.test({ ...base, id: null });
    expect(pools.size).toBe(0);
    expect(await eventually(async () => (await backendCount()) === 0)).toBe(true);
  });
});

let opensslMissing = '';
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
} catch {
  opensslMissing = 'the openssl command is not installed (it makes the test certificates)';
  process.stderr.write(`\n[tests] SKIPPED Postgres TLS mode suite: ${opensslMissing}\n`);
}

describe.skipIf(Boolean(opensslMissing))('PostgresSource TLS modes (through a TLS proxy)', () => {
  let dir: string;
  let certs: ReturnType<typeof makeCertificates>;
  let proxy: { server: Server; port: number };
  let mtlsProxy: { server: Server; port: number };
  const tlsPools = new PoolManager();
  const tlsSource = new PostgresSource(tlsPools, { connectTimeoutMs: 3_000 });
  let counter = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-tls-'));
    certs = makeCertificates(dir);
    const upstream = { host: dbUrl.hostname, port: Number(dbUrl.port || 5432) };
    proxy = await startTlsProxy(upstream, certs, false);
    mtlsProxy = await startTlsProxy(upstream, certs, true);
  });

  afterAll(async () => {
    await tlsPools.closeAll();
    proxy?.server.close();
    mtlsProxy?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const attempt = (host: string, sslMode: SslMode, extra: Partial<SourceConnection> = {}, port = proxy.port) =>
    tlsSource.test({ ...base, id: `tls-${counter++}`, host, port: String(port), ssl: true, sslMode, ...extra });

  it('require: encrypts without checking the certificate', async () => {
    await expect(attempt('127.0.0.1', 'require')).resolves.toEqual({ success: true });
  });

  it('prefer: uses TLS when the server offers it', async () => {
    await expect(attempt('127.0.0.1', 'prefer')).resolves.toEqual({ success: true });
  });

  it('verify-ca: checks the chain against the given CA, not the host name', async () => {
    await expect(attempt('127.0.0.1', 'verify-ca', { sslCa: certs.ca })).resolves.toEqual({ success: true });
    await expect(attempt('127.0.0.1', 'verify-ca', { sslCa: certs.otherCa })).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
    await expect(attempt('127.0.0.1', 'verify-ca')).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
  });

  it('verify-full: checks the chain and the host name', async () => {
    await expect(attempt('localhost', 'verify-full', { sslCa: certs.ca })).resolves.toEqual({ success: true });
    await expect(attempt('127.0.0.1', 'verify-full', { sslCa: certs.ca })).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
      message: expect.stringMatching(/altname|does not match|IP/i),
    });
  });

  it('sends the client certificate and key when given', async () => {
    await expect(attempt('localhost', 'verify-full', { sslCa: certs.ca }, mtlsProxy.port)).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
    await expect(attempt('localhost', 'verify-full', { sslCa: certs.ca, sslCert: certs.clientCert, sslKey: certs.clientKey }, mtlsProxy.port)).resolves.toEqual({
      success: true,
    });
  });

  it('cancels over-time queries through TLS connections too', async () => {
    const conn = { ...base, id: 'tls-cancel', host: 'localhost', port: String(proxy.port), ssl: true, sslMode: 'verify-full' as const, sslCa: certs.ca };
    await expect(tlsSource.run(conn, { query: 'select count(*) from (select generate_series(1, 100000000000)) s /* tls_cancel_marker */' }, { timeoutMs: 500 })).rejects.toMatchObject({
      code: 'SOURCE_TIMEOUT',
    });
    // The cancel reached the server through the TLS proxy: the query no longer runs there.
    const admin = new pg.Client({ connectionString: dbUrl.toString() });
    await admin.connect();
    try {
      const active = async () =>
        (await admin.query("select count(*)::int as n from pg_stat_activity where query like '%tls_cancel_marker%' and state = 'active' and pid <> pg_backend_pid()")).rows[0].n;
      expect(await eventually(async () => (await active()) === 0)).toBe(true);
    } finally {
      await admin.end();
    }
  });
});
