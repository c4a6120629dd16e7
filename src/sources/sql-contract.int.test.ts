import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres-server.js';
import { MysqlSource } from './mysql/mysql-source.js';
import { PoolManager } from './pool-manager.js';
import { PostgresSource } from './postgres/postgres-source.js';
import { announceSkip, createTempMysqlDatabase, probeMysql } from '../../test/helpers/services.js';
import type { SqlSourceOptions } from './sql-source.js';
import type { Row, Source, SourceConnection } from './types.js';
import { resolveVariables } from './variables/resolve.js';

/*
 * One contract every SQL source passes, run against real servers: a fresh database per source,
 * seeded with the same rows. Source-specific behaviour is tested next to each source.
 */

interface SqlTarget {
  conn: SourceConnection;
  /** Runs SQL as an administrator in the test database. */
  exec(sql: string): Promise<Row[]>;
  /** Statements still running on the server whose text contains `marker`. */
  running(marker: string): Promise<number>;
  /** Client connections our pools hold to the test database. */
  connections(): Promise<number>;
  drop(): Promise<void>;
}

interface SqlFlavour {
  name: string;
  skip: boolean;
  source: (pools: PoolManager, options?: SqlSourceOptions) => Source;
  setup: () => Promise<SqlTarget>;
  /** A reading query that runs for a long time (sleep functions are refused by the statement check). */
  slow: (marker: string) => string;
  badHost: (conn: SourceConnection) => SourceConnection;
  badDatabase: (conn: SourceConnection) => SourceConnection;
  /** What a run can leave in its session on a pooled connection, through SQL the statement check lets through. */
  session: {
    /** Run by an administrator: a function the check does not know, that leaves session state (as the documentation warns). */
    install: string;
    /** Runs that leave state in their session. */
    leave: string[];
    /** What a run sees of its session; `session` names the connection. */
    probe: string;
    /** Locks our sessions hold, seen by an administrator: `[{ n: 0 }]` when none. */
    locks: string;
  };
}

const SEED = [
  { id: 1, status: 'paid', amount: 10.5, country: 'US', created_at: '2025-01-01 10:00:00' },
  { id: 2, status: 'paid', amount: 20, country: 'DE', created_at: '2025-01-02 10:00:00' },
  { id: 3, status: 'pending', amount: 30.25, country: 'US', created_at: '2025-01-03 10:00:00' },
  { id: 4, status: 'refunded', amount: 40, country: 'FR', created_at: '2025-01-04 10:00:00' },
  { id: 5, status: 'paid', amount: 50, country: 'US', created_at: '2025-01-05 10:00:00' },
  { id: 6, status: "o'brien", amount: 60, country: 'GB', created_at: '2025-01-06 10:00:00' },
];
const seedValues = SEED.map((r) => `(${r.id}, '${r.status.replace(/'/g, "''")}', ${r.amount}, '${r.country}', '${r.created_at}')`).join(', ');

async function pgTarget(): Promise<SqlTarget> {
  const temp = await createTempDatabase(inject('postgresUrl'));
  const url = new URL(temp.url);
  const admin = new pg.Client({ connectionString: temp.url });
  await admin.connect();
  const dbName = url.pathname.slice(1);
  await admin.query(`create table orders (id int primary key, status text not null, amount numeric(10,2), country text, created_at timestamp)`);
  await admin.query(`insert into orders values ${seedValues}`);
  return {
    conn: {
      id: `pg-${dbName}`,
      type: 'postgres',
      host: url.hostname,
      port: url.port,
      dbName,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      updatedAt: '2025-01-01T00:00:00Z',
    },
    exec: async (sql) => (await admin.query(sql)).rows as Row[],
    running: async (marker) =>
      Number(
        (
          await admin.query(`select count(*)::int as n from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and query like $1`, [
            `%${marker}%`,
          ])
        ).rows[0].n,
      ),
    connections: async () =>
      Number((await admin.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'plotline'`, [dbName])).rows[0].n),
    drop: async () => {
      await admin.end();
      await temp.drop();
    },
  };
}

async function mysqlTarget(): Promise<SqlTarget> {
  const temp = await createTempMysqlDatabase();
  await temp.exec(`CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(50) NOT NULL, amount DECIMAL(10,2), country VARCHAR(2), created_at DATETIME)`);
  await temp.exec(`INSERT INTO orders VALUES ${seedValues}`);
  return {
    conn: { id: `my-${temp.name}`, type: 'mysql', host: temp.host, port: temp.port, dbName: temp.name, username: temp.user, password: temp.password },
    exec: async (sql) => (await temp.exec(sql)) as Row[],
    running: async (marker) => {
      const rows = (await temp.exec(
        `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'`,
        [`%${marker}%`],
      )) as Array<{ n: number }>;
      return Number(rows[0]?.n ?? 0);
    },
    connections: async () => {
      const rows = (await temp.exec(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()`, [temp.name])) as Array<{
        n: number;
      }>;
      return Number(rows[0]?.n ?? 0);
    },
    drop: () => temp.drop(),
  };
}

const mysqlProbe = await probeMysql();
const skipMysql = announceSkip(mysqlProbe, 'MySQL/MariaDB source suites');

const FLAVOURS: SqlFlavour[] = [
  {
    name: 'postgres',
    skip: false,
    source: (pools, options) => new PostgresSource(pools, options),
    setup: pgTarget,
    slow: (marker) => `select count(*) from (select generate_series(1, 100000000000)) s /* ${marker} */`,
    badHost: (conn) => ({ ...conn, id: 'pg-bad-host', host: '127.0.0.1', port: '1' }),
    badDatabase: (conn) => ({ ...conn, id: 'pg-bad-db', dbName: 'no_such_database_here' }),
    session: {
      install: `create function leave_state() returns int language sql as $$
        select pg_advisory_lock(4242); select set_config('plotline.left', 'yes', false); select set_config('search_path', 'pg_catalog', false); select 1 $$`,
      leave: ['select leave_state() as one'],
      probe: `select pg_backend_pid() as session,
        (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) as advisory_locks,
        coalesce(current_setting('plotline.left', true), '') as custom_setting, current_setting('search_path') as search_path,
        current_user as role, session_user as session_role, current_setting('application_name') as application,
        current_setting('client_encoding') as encoding, current_setting('DateStyle') as date_style, current_setting('TimeZone') as zone`,
      locks: "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
    },
  },
  {
    name: 'mysql',
    skip: skipMysql,
    source: (pools, options) => new MysqlSource(pools, options),
    setup: mysqlTarget,
    slow: (marker) => `select count(*) from information_schema.COLUMNS a, information_schema.COLUMNS b, information_schema.COLUMNS c /* ${marker} */`,
    badHost: (conn) => ({ ...conn, id: 'my-bad-host', host: '127.0.0.1', port: '1' }),
    badDatabase: (conn) => ({ ...conn, id: 'my-bad-db', dbName: 'no_such_database_here' }),
    session: {
      // GET_LOCK names are server-wide: this one is the test database's own.
      install: `CREATE FUNCTION leave_state() RETURNS INT NOT DETERMINISTIC BEGIN
        SET @via_function = 'yes'; SET SESSION group_concat_max_len = 4; SET SESSION sql_mode = 'ANSI_QUOTES';
        RETURN GET_LOCK(CONCAT(DATABASE(), '.left'), 0); END`,
      leave: ["select @x := 'yes' as x", 'select leave_state() as one'],
      // count (*) with a space parses only under IGNORE_SPACE, which mysql2 asks for in its handshake.
      probe: `select connection_id() as session, @x as x, @via_function as via_function, @@session.group_concat_max_len as group_concat_max_len,
        @@session.sql_mode as sql_mode, @@character_set_client as client_charset, @@character_set_results as results_charset,
        @@collation_connection as collation, @@session.time_zone as zone, count (*) as orders from orders`,
      locks: "select count(is_used_lock(concat(database(), '.left'))) as n",
    },
  },
];

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const flavour of FLAVOURS) {
  describe.skipIf(flavour.skip)(`SQL source contract: ${flavour.name}`, () => {
    let target: SqlTarget;
    let pools: PoolManager;
    let source: Source;

    beforeAll(async () => {
      target = await flavour.setup();
      pools = new PoolManager();
      source = flavour.source(pools);
    });

    afterAll(async () => {
      await pools?.closeAll();
      await target?.drop();
    });

    it('tests the connection', async () => {
      await expect(source.test(target.conn)).resolves.toEqual({ success: true });
    });

    it('returns rows and metadata in the normalized value forms', async () => {
      const result = await source.run(target.conn, { query: 'select id, status, amount, created_at from orders where id <= 2 order by id' });
      expect(result.data).toEqual([
        { id: 1, status: 'paid', amount: 10.5, created_at: '2025-01-01T10:00:00' },
        { id: 2, status: 'paid', amount: 20, created_at: '2025-01-02T10:00:00' },
      ]);
      expect(result.meta).toMatchObject({ rowCount: 2, truncated: false });
      expect(result.meta.columns.map((c) => [c.name, c.type])).toEqual([
        ['id', 'number'],
        ['status', 'string'],
        ['amount', 'number'],
        ['created_at', 'date'],
      ]);
      expect(result.meta.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('binds variables of every type, in bare and quoted positions', async () => {
      const variables = resolveVariables({
        bindings: [
          { name: 'country', type: 'string', default_value: 'US' },
          { name: 'min', type: 'number', default_value: '15' },
          { name: 'since', type: 'date', default_value: '2025-01-02' },
          { name: 'pattern', type: 'string', default_value: 'pai' },
        ],
      });
      const result = await source.run(
        target.conn,
        { query: "select id from orders where country = {{country}} and amount > {{min}} and created_at >= {{since}} and status like '%{{pattern}}%' order by id" },
        { variables },
      );
      expect(result.data).toEqual([{ id: 5 }]);
    });

    it.each(["x' OR '1'='1", "'; DROP TABLE orders; --", '{"$ne": null}', '../', '%0d%0a', "o'brien' OR 1=1 -- "])(
      'treats %j as a value: no extra rows, nothing changed',
      async (value) => {
        const variables = resolveVariables({ bindings: [{ name: 'status', type: 'string' }], runtime: { status: value } });
        const bare = await source.run(target.conn, { query: 'select id from orders where status = {{status}}' }, { variables });
        const quoted = await source.run(target.conn, { query: "select id from orders where status = '{{status}}'" }, { variables });
        const like = await source.run(target.conn, { query: "select id from orders where status like '%{{status}}%'" }, { variables });
        expect(bare.data).toEqual([]);
        expect(quoted.data).toEqual([]);
        expect(like.data).toEqual([]);
        expect(await target.exec('select count(*) as n from orders')).toEqual([{ n: expect.anything() }]);
        expect(Number((await target.exec('select count(*) as n from orders'))[0]?.['n'])).toBe(6);
      },
    );

    it('runs read-only: writes and DDL are refused and change nothing', async () => {
      for (const query of ["update orders set status = 'x'", 'delete from orders', 'drop table orders', 'create table t2 (a int)', 'insert into orders (id, status) values (99, \'x\')']) {
        await expect(source.run(target.conn, { query })).rejects.toMatchObject({ statusCode: 400 });
      }
      expect(Number((await target.exec("select count(*) as n from orders where status <> 'x'"))[0]?.['n'])).toBe(6);
    });

    it('caps rows and reports truncated', async () => {
      const capped = await source.run(target.conn, { query: 'select id from orders order by id' }, { rowLimit: 4 });
      expect(capped.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
      expect(capped.meta).toMatchObject({ rowCount: 4, truncated: true });
      const exact = await source.run(target.conn, { query: 'select id from orders' }, { rowLimit: 6 });
      expect(exact.meta).toMatchObject({ rowCount: 6, truncated: false });
    });

    it('streams in batches and releases the connection when the consumer stops early', async () => {
      const stream = await source.stream!(target.conn, { query: 'select id from orders order by id' }, { batchSize: 2 });
      const batches: number[] = [];
      for await (const batch of stream) batches.push(batch.length);
      // The first read is one row; the next ones are sized from its bytes, up to batchSize.
      expect(batches).toEqual([1, 2, 2, 1]);
      expect(stream.meta()).toMatchObject({ rowCount: 6, truncated: false });
      // More early stops than the pool has connections: each one must give its connection back.
      for (let i = 0; i < 8; i++) {
        const early = await source.stream!(target.conn, { query: 'select id from orders order by id' }, { batchSize: 1 });
        for await (const batch of early) {
          expect(batch).toHaveLength(1);
          break;
        }
      }
      await expect(source.run(target.conn, { query: 'select 1 as one' }, { timeoutMs: 5_000 })).resolves.toMatchObject({ data: [{ one: 1 }] });
    });

    it('stops a query over the timeout, on the server too', async () => {
      const marker = `timeout_${flavour.name}_${Date.now()}`;
      await expect(source.run(target.conn, { query: flavour.slow(marker) }, { timeoutMs: 600 })).rejects.toMatchObject({
        statusCode: 504,
        code: 'SOURCE_TIMEOUT',
      });
      expect(await eventually(async () => (await target.running(marker)) === 0)).toBe(true);
    });

    it('stops a query when the caller aborts', async () => {
      const marker = `abort_${flavour.name}_${Date.now()}`;
      const controller = new AbortController();
      const running = source.run(target.conn, { query: flavour.slow(marker) }, { signal: controller.signal, timeoutMs: 20_000 });
      expect(await eventually(async () => (await target.running(marker)) === 1)).toBe(true);
      controller.abort();
      await expect(running).rejects.toMatchObject({ code: 'RUN_ABORTED' });
      expect(await eventually(async () => (await target.running(marker)) === 0)).toBe(true);
    });

    it('reports a bad query with the server message', async () => {
      await expect(source.run(target.conn, { query: 'select nope from orders' })).rejects.toMatchObject({
        statusCode: 400,
        code: 'SOURCE_QUERY_FAILED',
        message: expect.stringMatching(/nope/),
      });
    });

    it('reports an unreachable server and an unknown database, without the password', async () => {
      const secret = { ...target.conn, password: 'Sup3r-Secret-Pw' };
      await expect(source.run(flavour.badHost(secret), { query: 'select 1' }, { timeoutMs: 5_000 })).rejects.toMatchObject({
        statusCode: 502,
        code: 'SOURCE_UNREACHABLE',
      });
      const error = (await source.test(flavour.badDatabase(target.conn)).catch((e: unknown) => e)) as Error & { statusCode: number };
      expect(error.statusCode).toBeGreaterThanOrEqual(400);
      expect(error.message).toContain('no_such_database_here');
      const leaked = (await source.run(flavour.badHost(secret), { query: 'select 1' }).catch((e: unknown) => e)) as Error;
      expect(leaked.message).not.toContain('Sup3r-Secret-Pw');
    });

    it('names an unknown placeholder', async () => {
      await expect(source.run(target.conn, { query: 'select {{who}}' })).rejects.toMatchObject({ code: 'VARIABLE_UNKNOWN' });
    });

    it('describes the schema', async () => {
      const schema = await source.schema(target.conn);
      const orders = schema.tables.find((table) => table.name === 'orders');
      expect(orders?.columns.map((c) => c.name)).toEqual(['id', 'status', 'amount', 'country', 'created_at']);
      expect(orders?.columns[0]?.type).toMatch(/int/i);
    });

    it('gives the next run on a pooled connection a fresh session: nothing a run left, the settings a new connection has', async () => {
      await target.exec(flavour.session.install);
      // One connection, so the next run is certain to reuse it.
      const single = new PoolManager();
      const one = flavour.source(single, { maxConnections: 1 });
      const conn = { ...target.conn, id: `${String(target.conn.id)}-one` };
      const probe = async () => (await one.run(conn, { query: flavour.session.probe })).data as Row[];
      try {
        const fresh = await probe();
        for (const query of flavour.session.leave) await one.run(conn, { query });
        const next = await probe();
        expect(next[0]?.['session']).toBe(fresh[0]?.['session']);
        expect(next).toEqual(fresh);
        expect((await target.exec(flavour.session.locks)).map((row) => Number(row['n']))).toEqual([0]);
      } finally {
        await single.closeAll();
      }
    });

    it('closes its pool on invalidate', async () => {
      await source.run(target.conn, { query: 'select 1 as one' });
      expect(pools.has(target.conn.id!)).toBe(true);
      expect(await target.connections()).toBeGreaterThan(0);
      await pools.invalidate(target.conn.id!);
      expect(pools.has(target.conn.id!)).toBe(false);
      expect(await eventually(async () => (await target.connections()) === 0)).toBe(true);
      // The next run opens a new pool.
      await expect(source.run(target.conn, { query: 'select 1 as one' })).resolves.toMatchObject({ data: [{ one: 1 }] });
    });
  });
}
