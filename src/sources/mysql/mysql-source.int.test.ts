import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolManager } from '../pool-manager.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../../../test/helpers/services.js';
import type { SourceConnection } from '../types.js';
import { MysqlSource } from './mysql-source.js';

const skip = announceSkip(await probeMysql(), 'MySQL/MariaDB source suite');

/** COM_RESET_CONNECTION, the command that ends every run (one byte, sequence 0). */
const COM_RESET_CONNECTION = 0x1f;

/**
 * A server that does not know COM_RESET_CONNECTION (MySQL before 5.7.3, some proxies): a proxy on
 * loopback in front of the real server that answers that command with the error such a server
 * sends (1047, unknown command) and passes every other packet through.
 */
function startServerWithoutReset(upstream: { host: string; port: number }): Promise<{ server: Server; port: number; resetsRefused: () => number }> {
  let refused = 0;
  const server = createServer((client: Socket) => {
    const real = connect(upstream.port, upstream.host);
    client.on('error', () => real.destroy());
    real.on('error', () => client.destroy());
    client.on('close', () => real.destroy());
    real.on('close', () => client.destroy());
    real.pipe(client);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readUIntLE(0, 3);
        if (pending.length < 4 + length) break;
        const packet = pending.subarray(0, 4 + length);
        pending = pending.subarray(4 + length);
        if (length === 1 && packet[3] === 0 && packet[4] === COM_RESET_CONNECTION) {
          refused += 1;
          const payload = Buffer.concat([Buffer.from([0xff, 1047 & 0xff, 1047 >> 8]), Buffer.from('#08S01Unknown command')]);
          const header = Buffer.alloc(4);
          header.writeUIntLE(payload.length, 0, 3);
          header[3] = 1;
          client.write(Buffer.concat([header, payload]));
        } else {
          real.write(packet);
        }
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, resetsRefused: () => refused })),
  );
}

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

  it('closes a connection whose session could not be reset instead of reusing it', async () => {
    const proxy = await startServerWithoutReset({ host: temp.host, port: Number(temp.port) });
    const single = new PoolManager();
    const one = new MysqlSource(single, { maxConnections: 1 });
    const through = { ...conn, id: 'my-no-reset', host: '127.0.0.1', port: String(proxy.port) };
    try {
      const first = await one.run(through, { query: "select connection_id() as id, @x := 'yes' as x" });
      const second = await one.run(through, { query: 'select connection_id() as id, @x as x' });
      expect(proxy.resetsRefused()).toBeGreaterThanOrEqual(1);
      // Both runs answered; the second on another connection, where nothing of the first is left.
      expect((second.data as Array<{ id: number }>)[0]!.id).not.toBe((first.data as Array<{ id: number }>)[0]!.id);
      expect(second.data).toEqual([{ id: expect.any(Number), x: null }]);
    } finally {
      await single.closeAll();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('leaves no session state behind between runs', async () => {
    await source.run(conn, { query: 'SELECT @@session.max_statement_time AS t' }, { timeoutMs: 4_000 });
    const second = await source.run(conn, { query: 'SELECT @@session.max_statement_time AS t, @@session.tx_read_only AS ro' }, { timeoutMs: 9_000 });
    expect(second.data).toEqual([{ t: expect.closeTo(9, 0) as unknown, ro: 0 }]);
  });
});
