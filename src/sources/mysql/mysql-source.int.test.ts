import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolManager } from '../pool-manager.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../testing/services.js';
import type { SourceConnection } from '../types.js';
import { MysqlSource } from './mysql-source.js';

const skip = announceSkip(await probeMysql(), 'MySQL/MariaDB source suite');

describe.skipIf(skip)('MysqlSource specifics', () => {
  let temp: TempMysqlDatabase;
  let conn: SourceConnection;
  const pools = new PoolManager();
  const source = new MysqlSource(pools, { connectTimeoutMs: 3_000 });

  beforeAll(async () => {
    temp = await createTempMysqlDatabase();
    conn = { id: `my-${temp.name}`, type: 'mysql', host: temp.host, port: temp.port, dbName: temp.name, username: temp.user, password: temp.password };
    await temp.exec(`CREATE TABLE things (
      id BIGINT PRIMARY KEY, flag BIT(1), doc JSON, raw BLOB, price DECIMAL(12,2), day DATE, at TIMESTAMP NULL, dt DATETIME(3), t TIME, y YEAR, label VARCHAR(20))`);
    await temp.exec(
      `INSERT INTO things VALUES (9007199254740993, b'1', '{"a": [1, 2]}', X'0102', 12.50, '2025-03-04', '2025-03-04 05:06:07', '2025-03-04 05:06:07.123', '10:11:12', 2025, 'x')`,
    );
  });

  afterAll(async () => {
    await pools.closeAll();
    await temp?.drop();
  });

  it('normalizes types one documented way', async () => {
    const result = await source.run(conn, { query: 'SELECT * FROM things' });
    expect(result.data).toEqual([
      {
        id: '9007199254740993',
        flag: 1,
        doc: { a: [1, 2] },
        raw: 'AQI=',
        price: 12.5,
        day: '2025-03-04',
        at: '2025-03-04T05:06:07',
        dt: '2025-03-04T05:06:07.123',
        t: '10:11:12',
        y: 2025,
        label: 'x',
      },
    ]);
    expect(Object.fromEntries(result.meta.columns.map((c) => [c.name, c.type]))).toMatchObject({ price: 'number', dt: 'date', doc: 'json', label: 'string' });
  });

  it('falls back to plain for sslmode=prefer, and fails require, on a server without TLS', async () => {
    await expect(source.test({ ...conn, id: 'my-prefer', ssl: true, sslMode: 'prefer' })).resolves.toEqual({ success: true });
    await expect(source.test({ ...conn, id: 'my-require', ssl: true, sslMode: 'require' })).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
  });

  it('leaves no session state behind between runs', async () => {
    await source.run(conn, { query: 'SELECT @@session.max_statement_time AS t' }, { timeoutMs: 4_000 });
    const second = await source.run(conn, { query: 'SELECT @@session.max_statement_time AS t, @@session.tx_read_only AS ro' }, { timeoutMs: 9_000 });
    expect(second.data).toEqual([{ t: expect.closeTo(9, 0) as unknown, ro: 0 }]);
  });
});
