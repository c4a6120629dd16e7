import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../../test/helpers/postgres-server.js';
import { MysqlSource } from '../mysql/mysql-source.js';
import { PoolManager } from '../pool-manager.js';
import { PostgresSource } from '../postgres/postgres-source.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../testing/services.js';
import type { SourceConnection } from '../types.js';
import { MYSQL_READS, MYSQL_REFUSED, POSTGRES_READS, POSTGRES_REFUSED } from './cases.js';

/*
 * Every case of the statement table run through the real sources against real servers as a
 * superuser/root connection, the worst case: reads answer, refused statements answer 400
 * INVALID_QUERY and leave no trace. The side channels: the guard row and sequence, tables,
 * large objects, advisory/user locks, user variables and the file a statement would write.
 */

const runId = `${process.pid}_${Date.now().toString(36)}`;

describe('statement check against a real Postgres (superuser connection)', () => {
  const file = path.join(os.tmpdir(), `plotline-pg-guard-${runId}`);
  let db: { url: string; drop(): Promise<void> };
  let admin: pg.Client;
  let pools: PoolManager;
  let source: PostgresSource;
  let conn: SourceConnection;

  /** Everything a refused statement could have changed. */
  const state = async () => ({
    rows: (await admin.query('select id, note from guard order by id')).rows,
    sequence: (await admin.query('select last_value, is_called from guard_seq')).rows[0],
    tables: (await admin.query("select count(*)::int as n from pg_tables where schemaname = 'public'")).rows[0].n,
    largeObjects: (await admin.query('select count(*)::int as n from pg_largeobject_metadata')).rows[0].n,
    advisoryLocks: (await admin.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())")).rows[0].n,
    searchPath: (await source.run(conn, { query: 'show search_path' })).data,
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
    conn = {
      id: `guard-pg-${runId}`,
      type: 'postgres',
      host: url.hostname,
      port: url.port || '5432',
      dbName: url.pathname.slice(1),
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    };
    pools = new PoolManager();
    // One pooled connection: a session change by one statement would be seen by the next.
    source = new PostgresSource(pools, { maxConnections: 1 });
    before = await state();
  });
  afterAll(async () => {
    await pools?.closeAll();
    await admin?.end();
    await db?.drop();
    rmSync(file, { force: true });
  });

  it('runs with a connection that could do harm', async () => {
    expect((await admin.query("select current_setting('is_superuser') as su")).rows[0].su).toBe('on');
  });

  it.each(POSTGRES_READS)('runs the read %j', async (sql) => {
    const result = await source.run(conn, { query: sql });
    expect(Array.isArray(result.data)).toBe(true);
  });

  it.each(POSTGRES_REFUSED)('refuses %j with a 400 and no effect', async (sql, named) => {
    await expect(source.run(conn, { query: sql.replaceAll('__FILE__', file) })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining(named),
    });
    expect(await state()).toEqual(before);
  });

  it('refuses through the streaming path and the compiled (chart pushdown) path as well', async () => {
    await expect(source.stream(conn, { query: `copy guard to program 'touch ${file}'` })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(
      source.run(conn, { compiled: { text: `select count(*) from (select pg_read_file($1)) as q`, values: ['/etc/hostname'] } }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('pg_read_file()') });
    expect(await state()).toEqual(before);
  });

  it('checks the text after variables became parameters', async () => {
    const variables = { values: new Map([['path', { name: 'path', type: 'string' as const, value: '/etc/hostname', origin: 'runtime' as const }]]) };
    await expect(source.run(conn, { query: 'select pg_read_file({{path}})' }, { variables })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
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
    // The one pooled connection: user variables set there would show here.
    variables: (await source.run(conn, { query: 'select @x as x, @y as y' })).data,
    file: existsSync(file),
  });
  let before: Awaited<ReturnType<typeof state>>;

  beforeAll(async () => {
    rmSync(file, { force: true });
    db = await createTempMysqlDatabase();
    await db.exec("create table guard (id int primary key, note varchar(20)); insert into guard values (1, 'kept'); create sequence guard_seq nocache");
    conn = { id: `guard-my-${runId}`, type: 'mysql', host: db.host, port: db.port, dbName: db.name, username: db.user, password: db.password };
    pools = new PoolManager();
    source = new MysqlSource(pools, { maxConnections: 1 });
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
    await expect(source.run(conn, { query: sql.replaceAll('__FILE__', file) })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining(named),
    });
    expect(await state()).toEqual(before);
  });

  it('refuses through the compiled (chart pushdown) path as well', async () => {
    await expect(
      source.run(conn, { compiled: { text: 'select count(*) from (select load_file(?) as f) as q', values: ['/etc/hostname'] } }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('load_file()') });
    expect(await state()).toEqual(before);
  });
});
