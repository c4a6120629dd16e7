import { randomBytes } from 'node:crypto';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMongoWireServer, type MongoWireServer } from '../../../test/helpers/mongo-wire-server.js';
import { collectRows } from '../row-stream.js';
import { PoolManager } from '../pool-manager.js';
import { resolveVariables } from '../variables/resolve.js';
import { MongoSource } from './mongodb-source.js';

/*
 * The MongoDB source's contract suite, over the real `mongodb` driver and real wire traffic.
 * With PLOTLINE_TEST_MONGO_URL it runs against that server; otherwise against the OP_MSG test
 * server of test/helpers/mongo-wire-server.ts (no mongod can run on this machine). Tests that need
 * what the test server lacks (server-side maxTimeMS) run only against a real server and say so.
 */
const realUrl = process.env['PLOTLINE_TEST_MONGO_URL'];
const onRealServer = Boolean(realUrl);

describe(`MongoSource over the wire (${onRealServer ? 'real server' : 'OP_MSG test server'})`, () => {
  const dbName = `plotline_test_${randomBytes(4).toString('hex')}`;
  const pools = new PoolManager();
  const source = new MongoSource(pools, { connectTimeoutMs: 5_000 });
  const ids = [new ObjectId(), new ObjectId(), new ObjectId()];
  let wire: MongoWireServer | undefined;
  let url: string;
  let conn: { id: string; type: string; connectionString: string; dbName: string };
  let admin: MongoClient;

  beforeAll(async () => {
    if (!realUrl) wire = await startMongoWireServer();
    url = realUrl ?? wire!.url;
    conn = { id: 'mongo-int', type: 'mongodb', connectionString: url, dbName };
    admin = await new MongoClient(url, { serverSelectionTimeoutMS: 5_000 }).connect();
    await admin
      .db(dbName)
      .collection('orders')
      .insertMany([
        { _id: ids[0], status: 'paid', total: 10, country: 'US', at: new Date('2025-01-01T00:00:00Z') },
        { _id: ids[1], status: 'paid', total: 20, country: 'DE', at: new Date('2025-01-02T00:00:00Z') },
        { _id: ids[2], status: 'pending', total: 30, country: 'US', at: new Date('2025-01-03T00:00:00Z') },
      ]);
    await admin
      .db(dbName)
      .collection('events')
      .insertMany(Array.from({ length: 250 }, (_, i) => ({ n: i, kind: i % 2 === 0 ? 'even' : 'odd' })));
  });

  afterAll(async () => {
    await pools.closeAll();
    await admin?.db(dbName).dropDatabase();
    await admin?.close();
    await wire?.close();
  });

  it('tests the connection and lists collections', async () => {
    expect(await source.test(conn)).toEqual({ success: true, tables: ['events', 'orders'] });
  });

  it('runs find with sort and limit, ObjectIds as hex and dates as ISO strings', async () => {
    const result = await source.run(conn, { query: "collection('orders').find({ status: 'paid' }).sort({ total: -1 }).limit(100)" });
    expect(result.data).toEqual([
      { _id: ids[1]!.toHexString(), status: 'paid', total: 20, country: 'DE', at: '2025-01-02T00:00:00.000Z' },
      { _id: ids[0]!.toHexString(), status: 'paid', total: 10, country: 'US', at: '2025-01-01T00:00:00.000Z' },
    ]);
    expect(result.meta.columns).toContainEqual({ name: 'at', type: 'date' });
  });

  it('filters on dates and projects fields', async () => {
    const result = await source.run(conn, {
      query: "collection('orders').find({ at: { $gte: ISODate('2025-01-02T00:00:00Z') } }, { projection: { _id: 0, total: 1 } }).sort({ total: 1 })",
    });
    expect(result.data).toEqual([{ total: 20 }, { total: 30 }]);
  });

  it('runs aggregate, countDocuments, distinct and findOne', async () => {
    const agg = await source.run(conn, { query: "db.orders.aggregate([{ $group: { _id: '$country', n: { $sum: 1 } } }]).sort({ _id: 1 })" });
    expect(agg.data).toEqual([
      { _id: 'DE', n: 1 },
      { _id: 'US', n: 2 },
    ]);
    expect((await source.run(conn, { query: "collection('orders').countDocuments({ country: 'US' })" })).data).toEqual([{ count: 2 }]);
    // distinct promises no order.
    expect(((await source.run(conn, { query: "collection('orders').distinct('country')" })).data as string[]).sort()).toEqual(['DE', 'US']);
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
    const orders = schema.tables.find((t) => t.name === 'orders');
    expect(orders).toMatchObject({ name: 'orders', rowCount: 3 });
    expect(orders?.columns).toContainEqual({ name: 'at', type: 'date' });
    expect(schema.tables.find((t) => t.name === 'events')?.rowCount).toBe(250);
  });

  it('cuts a run at the byte limit: the first documents that fit, truncatedBy bytes', async () => {
    await admin
      .db(dbName)
      .collection('wide')
      .insertMany(Array.from({ length: 60 }, (_, n) => ({ n, pad: 'w'.repeat(50_000) })));
    const limit = 1024 * 1024;
    const result = await source.run(conn, { query: "collection('wide').find({}).sort({ n: 1 })" }, { byteLimit: limit });
    expect(result.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: limit });
    const rows = result.data as { n: number }[];
    expect(rows).toHaveLength(result.meta.rowCount);
    expect(rows.length * 50_000).toBeLessThanOrEqual(limit);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: rows.length }, (_, i) => i));
  });

  it('streams in batches through getMore and reads every document once', async () => {
    const stream = await source.stream!(conn, { query: "collection('events').find({}).sort({ n: 1 })" }, { batchSize: 40 });
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const batch of stream) {
      sizes.push(batch.length);
      seen.push(...batch.map((row) => row['n'] as number));
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(sizes.length).toBeGreaterThan(1);
    expect(stream.meta()).toMatchObject({ rowCount: 250, truncated: false });
    if (wire) expect(wire.commands).toContain('getMore');
  });

  it('closing a stream early kills the server-side cursor', async () => {
    const stream = await source.stream!(conn, { query: "collection('events').find({ kind: 'even' })" }, { batchSize: 10 });
    for await (const batch of stream) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    if (wire) {
      expect(wire.commands).toContain('killCursors');
      expect(wire.openCursors()).toBe(0);
    }
  });

  it('a server error is a 400 SOURCE_QUERY_FAILED naming the problem', async () => {
    await expect(source.run(conn, { query: "collection('orders').aggregate([{ $nosuchstage: {} }])" })).rejects.toMatchObject({
      statusCode: 400,
      code: 'SOURCE_QUERY_FAILED',
      message: expect.stringMatching(/nosuchstage/),
    });
  });

  it("a query's maxTimeMS may shorten the run's time limit, never lift or pass it", async () => {
    const operations = new Set(['find', 'aggregate', 'count', 'distinct']);
    const sentOperations = (from: number) => (wire ? wire.received.slice(from).filter((cmd) => operations.has(Object.keys(cmd)[0] ?? '')) : []);
    const zero = resolveVariables({ bindings: [{ name: 't', type: 'number' }], runtime: { t: 0 } });
    const refused: [string, ReturnType<typeof resolveVariables> | undefined][] = [
      ["collection('orders').find({}, { maxTimeMS: 0 })", undefined],
      ["collection('orders').find({}, { maxTimeMS: '{{t}}' })", zero],
      ["collection('orders').aggregate([], { maxTimeMS: -1 })", undefined],
      ["collection('orders').findOne({}, { maxTimeMS: null })", undefined],
      ["collection('orders').countDocuments({}, { maxTimeMS: 'none' })", undefined],
      ["collection('orders').distinct('country', {}, { maxTimeMS: 1.5 })", undefined],
      ["collection('orders').find({ $query: {}, $maxTimeMS: 0 })", undefined],
    ];
    const before = wire?.received.length ?? 0;
    for (const [query, variables] of refused) {
      await expect(source.run(conn, { query }, { variables, timeoutMs: 5_000 }), query).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_QUERY', message: expect.stringContaining('maxTimeMS') });
    }
    // Options that would loosen time limits on the server are not among the allowed ones.
    for (const query of [
      "collection('orders').find({}, { noCursorTimeout: true })",
      "collection('orders').aggregate([], { maxAwaitTimeMS: 0 })",
      "collection('orders').find({}, { timeoutMS: 0 })",
    ]) {
      await expect(source.run(conn, { query }), query).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_QUERY', message: expect.stringMatching(/is not allowed/) });
    }
    // Refused before anything was sent.
    expect(sentOperations(before)).toEqual([]);

    if (!wire) return; // what the server received is recorded by the test server only
    const received = async (query: string, variables?: ReturnType<typeof resolveVariables>) => {
      const from = wire!.received.length;
      await source.run(conn, { query }, { timeoutMs: 5_000, ...(variables ? { variables } : {}) });
      return sentOperations(from).map((cmd) => cmd['maxTimeMS'] as unknown);
    };
    const withinRunLimit = expect.toSatisfy((ms: unknown) => typeof ms === 'number' && ms >= 1 && ms <= 5_000);
    const huge = resolveVariables({ bindings: [{ name: 't', type: 'number' }], runtime: { t: 2_000_000_000 } });
    for (const query of [
      "collection('orders').find({}, { maxTimeMS: 999999999 })",
      "collection('orders').aggregate([{ $match: {} }], { maxTimeMS: 999999999 })",
      "collection('orders').findOne({}, { maxTimeMS: 999999999 })",
      "collection('orders').countDocuments({}, { maxTimeMS: 999999999 })",
      "collection('orders').distinct('country', {}, { maxTimeMS: 999999999 })",
      "collection('orders').find({})",
    ]) {
      expect(await received(query), query).toEqual([withinRunLimit]);
    }
    expect(await received("collection('orders').find({}, { maxTimeMS: '{{t}}' })", huge)).toEqual([withinRunLimit]);
    // Neither can the connection's own options (the driver's timeoutMS=0 means "no limit").
    const loose = { ...conn, id: 'mongo-int-loose', connectionString: `${url}${url.includes('?') ? '&' : '?'}timeoutMS=0` };
    const from = wire.received.length;
    await source.run(loose, { query: "collection('orders').find({})" }, { timeoutMs: 5_000 });
    expect(sentOperations(from).map((cmd) => cmd['maxTimeMS'] as unknown)).toEqual([withinRunLimit]);
    // A shorter limit of the query's own is kept.
    expect(await received("collection('orders').find({}, { maxTimeMS: 50 })")).toEqual([50]);
    expect(await received("collection('orders').countDocuments({}, { maxTimeMS: 40 })")).toEqual([40]);
  });

  it('a reply that misses the deadline ends as 504 SOURCE_TIMEOUT (stalled test server)', async () => {
    if (!wire) return; // a real server cannot be stalled on demand; maxTimeMS covers it below
    wire.stall(['find'], 2_000);
    try {
      await expect(source.run(conn, { query: "collection('orders').find({})" }, { timeoutMs: 300 })).rejects.toMatchObject({ statusCode: 504, code: 'SOURCE_TIMEOUT' });
    } finally {
      wire.stall([], 0);
    }
  });

  it.skipIf(!onRealServer)('a slow query ends as 504 and the server stops it too (needs a real server: the test server ignores maxTimeMS)', async () => {
    const slow = "collection('events').aggregate([{ $lookup: { from: 'events', pipeline: [{ $lookup: { from: 'events', pipeline: [], as: 'y' } }], as: 'x' } }, { $count: 'n' }])";
    await expect(source.run(conn, { query: slow }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'SOURCE_TIMEOUT' });
    // maxTimeMS (the run's remaining time) lets the server end the operation even though the client has gone.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ops = await admin.db('admin').command({ currentOp: true, ns: `${dbName}.events` });
    expect(ops['inprog']).toEqual([]);
  });

  it('an unreachable server is a 502 SOURCE_UNREACHABLE', async () => {
    const closed = await startMongoWireServer();
    const deadUrl = closed.url;
    await closed.close();
    const dead = new MongoSource(new PoolManager(), { connectTimeoutMs: 300 });
    await expect(dead.test({ type: 'mongodb', connectionString: deadUrl, dbName })).rejects.toMatchObject({ statusCode: 502, code: 'SOURCE_UNREACHABLE' });
  });

  it('collects a run through the registry helpers', async () => {
    const rows = await collectRows(await source.stream!(conn, { query: "collection('events').countDocuments({ kind: 'odd' })" }));
    expect(rows.data).toEqual([{ count: 125 }]);
  });
});
