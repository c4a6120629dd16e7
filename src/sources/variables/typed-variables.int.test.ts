import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTempDatabase } from '../../../test/helpers/postgres-server.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../../../test/helpers/services.js';
import { MysqlSource } from '../mysql/mysql-source.js';
import { PoolManager } from '../pool-manager.js';
import { PostgresSource } from '../postgres/postgres-source.js';
import type { Source, SourceConnection, VariableBinding } from '../types.js';
import { resolveVariables } from './resolve.js';

/*
 * Typed variables against real servers: the optional-filter idiom with and without a value, list
 * variables (= ANY, IN, no value), and a string still comparing with uuid and enum columns.
 */

const UUID_1 = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
const UUID_2 = 'b1eebc99-9c0b-4ef8-bb6d-6bb9bd380a22';
const UUID_3 = 'c2eebc99-9c0b-4ef8-bb6d-6bb9bd380a33';
const ROWS = [
  `(1, '${UUID_1}', 'paid', 'US', '2025-01-01', '2025-01-01 10:00:00', true)`,
  `(2, '${UUID_2}', 'pending', 'DE', '2025-01-02', '2025-01-02 10:00:00', false)`,
  `(3, '${UUID_3}', 'paid', 'FR', '2025-01-03', '2025-01-03 10:00:00', true)`,
].join(', ');

const BINDINGS: VariableBinding[] = [
  { name: 'country', type: 'string' },
  { name: 'uid', type: 'string' },
  { name: 'status', type: 'string' },
  { name: 'countries', type: 'string[]' },
  { name: 'uids', type: 'string[]' },
  { name: 'statuses', type: 'string[]' },
  { name: 'ns', type: 'number[]' },
  { name: 'days', type: 'date[]' },
  { name: 'flags', type: 'boolean[]' },
  { name: 'min', type: 'number' },
  { name: 'since', type: 'date' },
];

async function ids(source: Source, conn: SourceConnection, query: string, runtime: Record<string, unknown> = {}): Promise<number[]> {
  const result = await source.run(conn, { query }, { variables: resolveVariables({ bindings: BINDINGS, runtime }) });
  return (result.data as Array<{ id: number | string }>).map((row) => Number(row.id));
}

describe('typed variables on Postgres', () => {
  let db: { url: string; drop(): Promise<void> };
  let pools: PoolManager;
  let source: Source;
  let conn: SourceConnection;
  const run = (query: string, runtime?: Record<string, unknown>) => ids(source, conn, query, runtime);

  beforeAll(async () => {
    db = await createTempDatabase(
      inject('postgresUrl'),
      `create type order_status as enum ('paid', 'pending');
       create table orders (id int primary key, uid uuid not null, status order_status not null, country text not null,
                            day date not null, at timestamptz not null, flag boolean not null);
       insert into orders values ${ROWS};`,
    );
    const url = new URL(db.url);
    conn = { id: `typed-${url.pathname.slice(1)}`, type: 'postgres', host: url.hostname, port: url.port, dbName: url.pathname.slice(1), username: decodeURIComponent(url.username), password: decodeURIComponent(url.password), updatedAt: '2025-01-01T00:00:00Z' };
    pools = new PoolManager();
    source = new PostgresSource(pools);
  });
  afterAll(async () => {
    await pools?.closeAll();
    await db?.drop();
  });

  it('runs the optional-filter idiom for a string, with and without a value', async () => {
    const query = 'select id from orders where ({{country}} is null or country = {{country}}) order by id';
    expect(await run(query)).toEqual([1, 2, 3]);
    expect(await run(query, { country: 'DE' })).toEqual([2]);
    expect(await run('select id from orders where (country = {{country}} or {{country}} IS NOT NULL) order by id')).toEqual([]);
  });

  it('compares a string with uuid and enum columns, also in the idiom', async () => {
    expect(await run('select id from orders where uid = {{uid}}', { uid: UUID_2 })).toEqual([2]);
    expect(await run('select id from orders where status = {{status}} order by id', { status: 'paid' })).toEqual([1, 3]);
    const idiom = 'select id from orders where ({{uid}} is null or uid = {{uid}}) and ({{status}} is null or status = {{status}}) order by id';
    expect(await run(idiom)).toEqual([1, 2, 3]);
    expect(await run(idiom, { uid: UUID_3 })).toEqual([3]);
    expect(await run(idiom, { status: 'pending' })).toEqual([2]);
  });

  it('binds lists as arrays: = ANY, IN (written as = ANY), NOT IN, for every element type', async () => {
    expect(await run('select id from orders where country = any({{countries}}) order by id', { countries: ['US', 'FR'] })).toEqual([1, 3]);
    expect(await run('select id from orders where country in ({{countries}}) order by id', { countries: 'DE,FR' })).toEqual([2, 3]);
    expect(await run('select id from orders where country not in ({{countries}}) order by id', { countries: ['DE'] })).toEqual([1, 3]);
    expect(await run('select id from orders where uid = any({{uids}}) order by id', { uids: [UUID_1, UUID_2] })).toEqual([1, 2]);
    expect(await run('select id from orders where status in ({{statuses}}) order by id', { statuses: ['pending'] })).toEqual([2]);
    expect(await run('select id from orders where id = any({{ns}}) order by id', { ns: [1, 3] })).toEqual([1, 3]);
    expect(await run('select id from orders where id in ({{ns}}) order by id', { ns: [2, 2.5] })).toEqual([2]);
    expect(await run('select id from orders where day = any({{days}}) order by id', { days: ['2025-01-01', '2025-01-03'] })).toEqual([1, 3]);
    expect(await run('select id from orders where at = any({{days}}) order by id', { days: ['2025-01-02T10:00:00Z'] })).toEqual([2]);
    expect(await run('select id from orders where flag = any({{flags}}) order by id', { flags: 'false' })).toEqual([2]);
    expect(await run("select id from orders where country = any({{countries}}) order by id", { countries: ['It\'s', '"q"', 'a,b', 'NULL'] })).toEqual([]);
  });

  it('runs the optional-filter idiom for a list: without a value (or with an empty one) every row, NULL without the idiom', async () => {
    const idiom = 'select id from orders where ({{countries}} is null or country in ({{countries}})) order by id';
    expect(await run(idiom)).toEqual([1, 2, 3]);
    expect(await run(idiom, { countries: [] })).toEqual([1, 2, 3]);
    expect(await run(idiom, { countries: ['US'] })).toEqual([1]);
    expect(await run('select id from orders where country = any({{countries}})')).toEqual([]);
    expect(await run('select id from orders where ({{ns}} is null or id = any({{ns}})) order by id')).toEqual([1, 2, 3]);
  });

  it('keeps numbers and dates typed in the idiom', async () => {
    const idiom = 'select id from orders where ({{min}} is null or id >= {{min}}) and ({{since}} is null or day >= {{since}}) order by id';
    expect(await run(idiom)).toEqual([1, 2, 3]);
    expect(await run(idiom, { min: 2, since: '2025-01-03' })).toEqual([3]);
  });

  it('binds a quoted literal holding a variable without a value as NULL', async () => {
    expect(await run("select id from orders where country like '%{{country}}%'")).toEqual([]);
    expect(await run("select id from orders where ({{country}} is null or country like '%{{country}}%') order by id")).toEqual([1, 2, 3]);
  });
});

const mysqlProbe = await probeMysql();
const skipMysql = announceSkip(mysqlProbe, 'typed variables on MySQL/MariaDB');

describe.skipIf(skipMysql)('typed variables on MySQL/MariaDB', () => {
  let db: TempMysqlDatabase;
  let pools: PoolManager;
  let source: Source;
  let conn: SourceConnection;
  const run = (query: string, runtime?: Record<string, unknown>) => ids(source, conn, query, runtime);

  beforeAll(async () => {
    db = await createTempMysqlDatabase();
    await db.exec(`CREATE TABLE orders (id INT PRIMARY KEY, uid CHAR(36) NOT NULL, status ENUM('paid', 'pending') NOT NULL, country VARCHAR(10) NOT NULL,
                   day DATE NOT NULL, at DATETIME NOT NULL, flag BOOLEAN NOT NULL)`);
    await db.exec(`INSERT INTO orders VALUES ${ROWS}`);
    conn = { id: `typed-${db.name}`, type: 'mysql', host: db.host, port: db.port, dbName: db.name, username: db.user, password: db.password };
    pools = new PoolManager();
    source = new MysqlSource(pools);
  });
  afterAll(async () => {
    await pools?.closeAll();
    await db?.drop();
  });

  it('runs the optional-filter idiom for a string, with and without a value', async () => {
    const query = 'select id from orders where ({{country}} is null or country = {{country}}) order by id';
    expect(await run(query)).toEqual([1, 2, 3]);
    expect(await run(query, { country: 'DE' })).toEqual([2]);
    expect(await run('select id from orders where uid = {{uid}} and status = {{status}}', { uid: UUID_3, status: 'paid' })).toEqual([3]);
  });

  it('expands lists into IN (?, ?, …) for every element type', async () => {
    expect(await run('select id from orders where country in ({{countries}}) order by id', { countries: ['US', 'FR'] })).toEqual([1, 3]);
    expect(await run('select id from orders where country not in ({{countries}}) order by id', { countries: 'DE' })).toEqual([1, 3]);
    expect(await run('select id from orders where status in ({{statuses}}) order by id', { statuses: ['pending'] })).toEqual([2]);
    expect(await run('select id from orders where id in ({{ns}}) order by id', { ns: '1, 3' })).toEqual([1, 3]);
    expect(await run('select id from orders where day in ({{days}}) order by id', { days: ['2025-01-01', '2025-01-03'] })).toEqual([1, 3]);
    expect(await run('select id from orders where at in ({{days}}) order by id', { days: ['2025-01-02T10:00:00Z'] })).toEqual([2]);
    expect(await run('select id from orders where flag in ({{flags}}) order by id', { flags: [false] })).toEqual([2]);
  });

  it('runs the optional-filter idiom for a list: without a value (or with an empty one) every row, NULL without the idiom', async () => {
    const idiom = 'select id from orders where ({{countries}} is null or country in ({{countries}})) order by id';
    expect(await run(idiom)).toEqual([1, 2, 3]);
    expect(await run(idiom, { countries: [] })).toEqual([1, 2, 3]);
    expect(await run(idiom, { countries: ['US', 'DE'] })).toEqual([1, 2]);
    expect(await run('select id from orders where country in ({{countries}})')).toEqual([]);
  });

  it('binds a quoted literal holding a variable without a value as NULL', async () => {
    expect(await run("select id from orders where country like '%{{country}}%'")).toEqual([]);
    expect(await run("select id from orders where ({{country}} is null or country like '%{{country}}%') order by id")).toEqual([1, 2, 3]);
  });
});
