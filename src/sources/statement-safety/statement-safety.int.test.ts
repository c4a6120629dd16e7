import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../../test/helpers/postgres-server.js';
import { MysqlSource } from '../mysql/mysql-source.js';
import { PoolManager } from '../pool-manager.js';
import { PostgresSource } from '../postgres/postgres-source.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../../../test/helpers/services.js';
import type { DataRequestSpec, Row, RunResult, SourceConnection } from '../types.js';
import { MYSQL_READS, MYSQL_REFUSED, POSTGRES_READS, POSTGRES_REFUSED } from '../../../test/helpers/statement-safety-cases.js';

/*
 * Every case of the statement table run through the real sources against real servers: Postgres
 * as a superuser (the worst case) and as a role that can only read (what the documentation
 * recommends, which can still sleep, take advisory locks and end its own role's sessions), and
 * MariaDB as root. Reads answer; refused statements answer 400 INVALID_QUERY, never reach the
 * server and leave no trace. The side channels: the guard row and sequence, tables, large
 * objects, advisory/user locks, the pooled session and another session of the role, user
 * variables and the file a statement would write.
 */

const runId = `${process.pid}_${Date.now().toString(36)}`;

function firstRow(result: RunResult): Row {
  return (result.data as Row[])[0]!;
}

/** A Postgres statement as a source receives it: `$n` only comes from compiled variables. */
function pgRequest(sql: string): DataRequestSpec {
  return sql.includes('$1') ? { compiled: { text: sql, values: ['/etc/hostname'] } } : { query: sql };
}

/*
 * Calls written in disguise, with a harmless function in place of a denied one: sent straight to
 * the server (no check), each takes the advisory lock, so the server does read them as calls.
 * With the denied function's name, each is refused by the check.
 */
const DISGUISED_CALLS: ReadonlyArray<readonly [form: string, key: number]> = [
  ['select (4201::bigint).pg_advisory_xact_lock', 4201],
  ['select (k).pg_advisory_xact_lock from (values (4202::bigint)) as v(k)', 4202],
  ['select (v.k).pg_advisory_xact_lock from (values (4203::bigint)) as v(k)', 4203],
  ['select g.pg_advisory_xact_lock from generate_series(4204::bigint, 4204) as g', 4204],
  ['select ((select 4205::bigint)).pg_advisory_xact_lock', 4205],
  ['select (case when true then 4206::bigint end).pg_advisory_xact_lock', 4206],
  ['select (coalesce(4207::bigint, 0)).pg_advisory_xact_lock', 4207],
  ['select U&"pg\\005fadvisory\\005fxact\\005flock"(4208::bigint)', 4208],
  ['select * from rows from (pg_advisory_xact_lock(4209)) as r', 4209],
  ['select pg_catalog.pg_advisory_xact_lock(4210)', 4210],
];

describe.each([
  { role: 'superuser', readOnly: false },
  { role: 'read-only role (pg_read_all_data)', readOnly: true },
])('statement check against a real Postgres ($role)', ({ readOnly }) => {
  const file = path.join(os.tmpdir(), `plotline-pg-guard-${runId}-${readOnly ? 'ro' : 'su'}`);
  const reader = `plpg_reader_${runId}`;
  let db: { url: string; drop(): Promise<void> };
  let admin: pg.Client;
  /** Another session of the connection's role: what pg_terminate_backend could reach. */
  let bystander: pg.Client;
  let pools: PoolManager;
  let source: PostgresSource;
  let conn: SourceConnection;
  let roleUrl: string;

  /** The one pooled session's process id, read through the source. */
  const pooledPid = async () => firstRow(await source.run(conn, { query: 'select pg_backend_pid() as pid' }))['pid'] as number;
  /** The statement the pooled session ran last, as the server shows it. */
  const lastStatement = async (pid: number) => (await admin.query('select query from pg_stat_activity where pid = $1', [pid])).rows[0]?.query as string | undefined;

  /** Everything a refused statement could have changed. */
  const state = async () => ({
    rows: (await admin.query('select id, note from guard order by id')).rows,
    sequence: (await admin.query('select last_value, is_called from guard_seq')).rows[0],
    tables: (await admin.query("select count(*)::int as n from pg_tables where schemaname = 'public'")).rows[0].n,
    largeObjects: (await admin.query('select count(*)::int as n from pg_largeobject_metadata')).rows[0].n,
    advisoryLocks: (await admin.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())")).rows[0].n,
    searchPath: (await source.run(conn, { query: 'show search_path' })).data,
    // Neither the pooled session nor another session of the role was terminated.
    pooled: await pooledPid(),
    bystander: (await bystander.query('select pg_backend_pid() as pid')).rows[0].pid,
    file: existsSync(file),
  });
  let before: Awaited<ReturnType<typeof state>>;

  beforeAll(async () => {
    rmSync(file, { force: true });
    db = await createTempDatabase(inject('postgresUrl'));
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query("create table guard (id int primary key, note text); insert into guard values (1, 'kept'); create sequence guard_seq");
    const url = new URL(db.url);
    if (readOnly) {
      await admin.query(`create role ${reader} login; grant pg_read_all_data to ${reader}`);
      url.username = reader;
      url.password = '';
    }
    roleUrl = url.toString();
    bystander = new pg.Client({ connectionString: roleUrl });
    await bystander.connect();
    conn = {
      id: `guard-pg-${runId}-${readOnly ? 'ro' : 'su'}`,
      type: 'postgres',
      host: url.hostname,
      port: url.port || '5432',
      dbName: url.pathname.slice(1),
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    };
    pools = new PoolManager();
    // One pooled connection, kept while the suite runs: a session change by one statement would
    // be seen by the next, and a terminated session would show as a new process id.
    source = new PostgresSource(pools, { maxConnections: 1, idleTimeoutMs: 600_000 });
    before = await state();
  });
  afterAll(async () => {
    await pools?.closeAll();
    await bystander?.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await db?.drop();
    if (readOnly) {
      // Roles belong to the server, not the dropped database.
      const server = new pg.Client({ connectionString: inject('postgresUrl') });
      await server.connect();
      await server.query(`drop role if exists ${reader}`).finally(() => server.end());
    }
    rmSync(file, { force: true });
  });

  it(readOnly ? 'runs as a role that can only read' : 'runs with a connection that could do harm', async () => {
    const role = firstRow(await source.run(conn, { query: "select current_setting('is_superuser') as su, current_user as who" }));
    expect(role).toEqual(readOnly ? { su: 'off', who: reader } : { su: 'on', who: expect.any(String) });
  });

  it.each(POSTGRES_READS)('runs the read %j', async (sql) => {
    const result = await source.run(conn, { query: sql });
    expect(Array.isArray(result.data)).toBe(true);
  });

  it.each(POSTGRES_REFUSED)('refuses %j with a 400 and no effect', async (sql, named) => {
    const text = sql.replaceAll('__FILE__', file);
    const pid = await pooledPid();
    const last = await lastStatement(pid);
    await expect(source.run(conn, pgRequest(text))).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining(named),
    });
    // Never sent: the pooled session's last statement is still the one before (no sleep, no read).
    expect(await lastStatement(pid)).toBe(last);
    expect(await state()).toEqual(before);
  });

  it.each(DISGUISED_CALLS)('the server reads %j as a call, and the check refuses it with a denied name', async (form, key) => {
    const direct = new pg.Client({ connectionString: roleUrl });
    await direct.connect();
    try {
      await direct.query('begin');
      await direct.query(form);
      const held = await direct.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and objid = $1", [key]);
      expect(held.rows[0].n).toBe(1);
      await direct.query('rollback');
    } finally {
      await direct.end();
    }
    const denied = form.replace('pg_advisory_xact_lock', 'pg_advisory_lock').replace('xact\\005flock', 'lock');
    await expect(source.run(conn, { query: denied })).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('pg_advisory_lock()') });
    expect(await state()).toEqual(before);
  });

  it('refuses through the streaming path and the compiled (chart pushdown) path as well', async () => {
    await expect(source.stream(conn, { query: `copy guard to program 'touch ${file}'` })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(
      source.run(conn, { compiled: { text: `select count(*) from (select pg_read_file($1)) as q`, values: ['/etc/hostname'] } }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('pg_read_file()') });
    await expect(
      source.run(conn, { compiled: { text: `select count(*) from (select ($1::text).pg_read_file) as q`, values: ['/etc/hostname'] } }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('pg_read_file()') });
    expect(await state()).toEqual(before);
  });

  it('checks the text after variables became parameters', async () => {
    const variables = { values: new Map([['path', { name: 'path', type: 'string' as const, value: '/etc/hostname', origin: 'runtime' as const }]]) };
    await expect(source.run(conn, { query: 'select pg_read_file({{path}})' }, { variables })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(source.run(conn, { query: 'select ({{path}}).pg_read_file' }, { variables })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    // A value that looks like SQL is a parameter, not a statement.
    const sneaky = { values: new Map([['path', { name: 'path', type: 'string' as const, value: "x'); copy guard to program 'touch " + file, origin: 'runtime' as const }]]) };
    const result = await source.run(conn, { query: 'select note from guard where note = {{path}}' }, { variables: sneaky });
    expect(result.data).toEqual([]);
    expect(await state()).toEqual(before);
  });
});

const mysqlProbe = await probeMysql();
const skipMysql = announceSkip(mysqlProbe, 'MariaDB statement check suite');

describe.skipIf(skipMysql)('statement check against a real MariaDB (root connection)', () => {
  const file = path.join(os.tmpdir(), `plotline-my-guard-${runId}`);
  let db: TempMysqlDatabase;
  let pools: PoolManager;
  let source: MysqlSource;
  let conn: SourceConnection;

  const state = async () => ({
    rows: await db.exec('select id, note from guard order by id'),
    sequence: await db.exec('select next_not_cached_value from guard_seq'),
    tables: await db.exec('select count(*) as n from information_schema.TABLES where TABLE_SCHEMA = database()'),
    lock: await db.exec("select is_used_lock('plotline_guard') as holder"),
    // The one pooled connection: user variables set there would show here, and a killed
    // connection would show as a new id.
    variables: (await source.run(conn, { query: 'select @x as x, @y as y' })).data,
    pooled: await pooledId(),
    file: existsSync(file),
  });
  let before: Awaited<ReturnType<typeof state>>;

  const pooledId = async () => firstRow(await source.run(conn, { query: 'select connection_id() as id' }))['id'] as number;
  /** MariaDB's id of the last statement the pooled connection ran: it moves with every statement sent. */
  const lastQueryId = async (id: number) => ((await db.exec('select QUERY_ID as q from information_schema.PROCESSLIST where ID = ?', [id])) as Array<{ q: number }>)[0]?.q;

  beforeAll(async () => {
    rmSync(file, { force: true });
    db = await createTempMysqlDatabase();
    await db.exec("create table guard (id int primary key, note varchar(20)); insert into guard values (1, 'kept'); create sequence guard_seq nocache");
    conn = { id: `guard-my-${runId}`, type: 'mysql', host: db.host, port: db.port, dbName: db.name, username: db.user, password: db.password };
    pools = new PoolManager();
    source = new MysqlSource(pools, { maxConnections: 1, idleTimeoutMs: 600_000 });
    before = await state();
  });
  afterAll(async () => {
    await pools?.closeAll();
    await db?.drop();
    rmSync(file, { force: true });
  });

  it.each(MYSQL_READS)('runs the read %j', async (sql) => {
    const result = await source.run(conn, { query: sql });
    expect(Array.isArray(result.data)).toBe(true);
  });

  it.each(MYSQL_REFUSED)('refuses %j with a 400 and no effect', async (sql, named) => {
    const id = await pooledId();
    const last = await lastQueryId(id);
    await expect(source.run(conn, { query: sql.replaceAll('__FILE__', file) })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining(named),
    });
    // Never sent: the pooled connection ran nothing since (no sleep, no file read).
    expect(await lastQueryId(id)).toBe(last);
    expect(await state()).toEqual(before);
  });

  it('refuses through the compiled (chart pushdown) path as well', async () => {
    await expect(
      source.run(conn, { compiled: { text: 'select count(*) from (select load_file(?) as f) as q', values: ['/etc/hostname'] } }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('load_file()') });
    expect(await state()).toEqual(before);
  });
});
