import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolManager } from '../pool-manager.js';
import { announceSkip, createTempMysqlDatabase, probeMysql, type TempMysqlDatabase } from '../../../test/helpers/services.js';
import { MysqlSource } from './mysql-source.js';

/*
 * The statement check refuses SELECT … INTO @var before it runs. This suite runs a source without
 * the check to show the second line of defence: should a statement without a result set ever
 * reach the server, the source answers 400 INVALID_QUERY, not a 500.
 */
class UncheckedMysqlSource extends MysqlSource {
  protected override async assertReadOnly(): Promise<void> {}
}

const probe = await probeMysql();
const skip = announceSkip(probe, 'MySQL no-result-set suite');

describe.skipIf(skip)('MysqlSource and statements without a result set', () => {
  let db: TempMysqlDatabase;
  let pools: PoolManager;

  beforeAll(async () => {
    db = await createTempMysqlDatabase();
    pools = new PoolManager();
  });
  afterAll(async () => {
    await pools?.closeAll();
    await db?.drop();
  });

  it('answers 400 INVALID_QUERY for SELECT … INTO @var, and the connection stays usable', async () => {
    const source = new UncheckedMysqlSource(pools, { maxConnections: 1 });
    const conn = { id: `no-result-${db.name}`, type: 'mysql', host: db.host, port: db.port, dbName: db.name, username: db.user, password: db.password };
    await expect(source.run(conn, { query: 'select 1 into @x' })).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_QUERY', message: expect.stringContaining('no result set') });
    expect((await source.run(conn, { query: 'select 2 as n' })).data).toEqual([{ n: 2 }]);
  });
});
