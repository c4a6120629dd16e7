import { randomBytes } from 'node:crypto';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolManager } from '../pool-manager.js';
import { resolveVariables } from '../variables/resolve.js';
import { MongoSource } from './mongodb-source.js';

/* Runs against a real MongoDB only when PLOTLINE_TEST_MONGO_URL is set (no server can run on this machine). */
const url = process.env['PLOTLINE_TEST_MONGO_URL'];
if (!url) {
  process.stderr.write('\n[tests] SKIPPED MongoDB integration suite: PLOTLINE_TEST_MONGO_URL is not set and no MongoDB server can run here\n');
}

describe.skipIf(!url)('MongoSource against a real server', () => {
  const dbName = `plotline_test_${randomBytes(4).toString('hex')}`;
  const pools = new PoolManager();
  const source = new MongoSource(pools);
  const conn = { id: 'mongo-int', type: 'mongodb', connectionString: url ?? '', dbName };
  const ids = [new ObjectId(), new ObjectId(), new ObjectId()];
  let admin: MongoClient;

  beforeAll(async () => {
    admin = await new MongoClient(url ?? '').connect();
    await admin
      .db(dbName)
      .collection('orders')
      .insertMany([
        { _id: ids[0], status: 'paid', total: 10, country: 'US', at: new Date('2025-01-01T00:00:00Z') },
        { _id: ids[1], status: 'paid', total: 20, country: 'DE', at: new Date('2025-01-02T00:00:00Z') },
        { _id: ids[2], status: 'pending', total: 30, country: 'US', at: new Date('2025-01-03T00:00:00Z') },
      ]);
  });

  afterAll(async () => {
    await pools.closeAll();
    await admin?.db(dbName).dropDatabase();
    await admin?.close();
  });

  it('tests the connection and lists collections', async () => {
    expect(await source.test(conn)).toEqual({ success: true, tables: ['orders'] });
  });

  it('runs find with sort and limit, ObjectIds as hex', async () => {
    const result = await source.run(conn, { query: "collection('orders').find({ status: 'paid' }).sort({ total: -1 }).limit(100)" });
    expect(result.data).toEqual([
      { _id: ids[1]!.toHexString(), status: 'paid', total: 20, country: 'DE', at: '2025-01-02T00:00:00.000Z' },
      { _id: ids[0]!.toHexString(), status: 'paid', total: 10, country: 'US', at: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  it('runs aggregate, countDocuments, distinct and findOne', async () => {
    const agg = await source.run(conn, { query: "db.orders.aggregate([{ $group: { _id: '$country', n: { $sum: 1 } } }]).sort({ _id: 1 })" });
    expect(agg.data).toEqual([
      { _id: 'DE', n: 1 },
      { _id: 'US', n: 2 },
    ]);
    expect((await source.run(conn, { query: "collection('orders').countDocuments({ country: 'US' })" })).data).toEqual([{ count: 2 }]);
    expect((await source.run(conn, { query: "collection('orders').distinct('country')" })).data).toEqual(['DE', 'US']);
    const vars = resolveVariables({ runtime: { id: ids[2]!.toHexString() } });
    expect((await source.run(conn, { query: "collection('orders').findOne({ _id: ObjectId('{{id}}') })" }, { variables: vars })).data).toMatchObject([
      { status: 'pending' },
    ]);
  });

  it('binds variables as values: injection attempts match nothing and change nothing', async () => {
    for (const value of ["x' OR '1'='1", "'; DROP TABLE t; --", '{"$ne": null}', '../', '%0d%0a']) {
      const vars = resolveVariables({ bindings: [{ name: 'status', type: 'string' }], runtime: { status: value } });
      const result = await source.run(conn, { query: "collection('orders').find({ status: '{{status}}' })" }, { variables: vars });
      expect(result.data).toEqual([]);
    }
    expect(await admin.db(dbName).collection('orders').countDocuments()).toBe(3);
  });

  it('reports truncated at the row cap and samples a schema', async () => {
    const result = await source.run(conn, { query: "collection('orders').find({})" }, { rowLimit: 2 });
    expect(result.meta).toMatchObject({ rowCount: 2, truncated: true });
    const schema = await source.schema(conn);
    expect(schema.tables[0]).toMatchObject({ name: 'orders', rowCount: 3 });
    expect(schema.tables[0]?.columns).toContainEqual({ name: 'at', type: 'date' });
  });
});
