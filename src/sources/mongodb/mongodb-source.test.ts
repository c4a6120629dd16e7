import { Binary, Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { PoolManager } from '../pool-manager.js';
import { resolveVariables } from '../variables/resolve.js';
import { mongoClientOptions, mongoUrl } from './connection-config.js';
import { MongoSource, openPlanCursor, type PlanCollection } from './mongodb-source.js';
import { inferFields, normalizeBson } from './normalize.js';
import { compileMongoQuery } from './query-parser.js';

/*
 * The execution adapter is checked here against a small in-memory stand-in that records the driver
 * calls it receives. The real driver, over real wire traffic, is exercised in
 * mongodb-source.int.test.ts (against the OP_MSG test server, or PLOTLINE_TEST_MONGO_URL).
 */
class RecordingCursor {
  readonly calls: Array<[string, unknown]> = [];
  private at = 0;
  closed = false;
  constructor(private readonly documents: unknown[]) {}
  sort(spec: unknown) {
    this.calls.push(['sort', spec]);
    return this;
  }
  limit(n: number) {
    this.calls.push(['limit', n]);
    this.documents.splice(n);
    return this;
  }
  skip(n: number) {
    this.calls.push(['skip', n]);
    this.documents.splice(0, n);
    return this;
  }
  project(spec: unknown) {
    this.calls.push(['project', spec]);
    return this;
  }
  async next() {
    return this.at < this.documents.length ? this.documents[this.at++] : null;
  }
  async close() {
    this.closed = true;
  }
}

function recordingCollection(documents: unknown[]) {
  const calls: Array<[string, unknown[]]> = [];
  let cursor: RecordingCursor | undefined;
  const collection = {
    find: (...args: unknown[]) => {
      calls.push(['find', args]);
      return (cursor = new RecordingCursor([...documents]));
    },
    aggregate: (...args: unknown[]) => {
      calls.push(['aggregate', args]);
      return (cursor = new RecordingCursor([...documents]));
    },
    findOne: async (...args: unknown[]) => {
      calls.push(['findOne', args]);
      return documents[0] ?? null;
    },
    countDocuments: async (...args: unknown[]) => {
      calls.push(['countDocuments', args]);
      return documents.length;
    },
    distinct: async (...args: unknown[]) => {
      calls.push(['distinct', args]);
      return ['a', 'b'];
    },
  };
  return { collection: collection as unknown as PlanCollection, calls, cursor: () => cursor };
}

describe('openPlanCursor', () => {
  const docs = [{ _id: new ObjectId('64b7f0c2a1b2c3d4e5f60718'), n: 1 }, { _id: new ObjectId('64b7f0c2a1b2c3d4e5f60719'), n: 2 }, { n: 3 }];

  it('issues exactly the planned calls, with maxTimeMS, and normalizes ObjectIds', async () => {
    const fake = recordingCollection(docs);
    const vars = resolveVariables({ runtime: { s: 'paid' } });
    const plan = compileMongoQuery("collection('orders').find({ status: '{{s}}' }, { projection: { n: 1 } }).sort({ n: -1 }).skip(1).limit(5)", vars);
    const cursor = await openPlanCursor(fake.collection, plan, { maxTimeMS: 1234, batchSize: 100 });
    expect(fake.calls).toEqual([['find', [{ status: 'paid' }, { projection: { n: 1 }, maxTimeMS: 1234, batchSize: 100 }]]]);
    expect(fake.cursor()?.calls).toEqual([
      ['sort', { n: -1 }],
      ['skip', 1],
      ['limit', 5],
    ]);
    expect(await cursor.next(10, Infinity)).toEqual([{ _id: '64b7f0c2a1b2c3d4e5f60719', n: 2 }, { n: 3 }]);
    await cursor.close('done');
    expect(fake.cursor()?.closed).toBe(true);
  });

  it('keeps a smaller maxTimeMS from the query options', async () => {
    const fake = recordingCollection(docs);
    await openPlanCursor(fake.collection, compileMongoQuery("collection('o').aggregate([], { maxTimeMS: 10 })", resolveVariables({})), { maxTimeMS: 5000, batchSize: 2 });
    expect(fake.calls[0]).toEqual(['aggregate', [[], { maxTimeMS: 10, batchSize: 2 }]]);
  });

  it('answers findOne, countDocuments and distinct as rows', async () => {
    const none = resolveVariables({});
    const one = recordingCollection(docs);
    expect(await (await openPlanCursor(one.collection, compileMongoQuery("collection('o').findOne({ n: 1 })", none), { maxTimeMS: 100, batchSize: 10 })).next(10, Infinity)).toEqual([
      { _id: '64b7f0c2a1b2c3d4e5f60718', n: 1 },
    ]);
    const count = recordingCollection(docs);
    expect(await (await openPlanCursor(count.collection, compileMongoQuery("collection('o').countDocuments({})", none), { maxTimeMS: 100, batchSize: 10 })).next(10, Infinity)).toEqual([
      { count: 3 },
    ]);
    const distinct = recordingCollection(docs);
    const cursor = await openPlanCursor(distinct.collection, compileMongoQuery("collection('o').distinct('c', { a: 1 })", none), { maxTimeMS: 100, batchSize: 10 });
    expect(distinct.calls).toEqual([['distinct', ['c', { a: 1 }, { maxTimeMS: 100 }]]]);
    expect(await cursor.next(10, Infinity)).toEqual(['a', 'b']);
  });
});

describe('normalizeBson', () => {
  it('turns BSON values into plain JSON-friendly values', () => {
    expect(
      normalizeBson({
        _id: new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
        at: new Date('2025-01-02T03:04:05.000Z'),
        price: Decimal128.fromString('12.50'),
        huge: Long.fromString('9223372036854775807'),
        small: Long.fromNumber(42),
        bin: new Binary(Buffer.from('hi')),
        nested: [{ ref: new ObjectId('64b7f0c2a1b2c3d4e5f60719') }],
      }),
    ).toEqual({
      _id: '64b7f0c2a1b2c3d4e5f60718',
      at: '2025-01-02T03:04:05.000Z',
      price: 12.5,
      huge: '9223372036854775807',
      small: 42,
      bin: 'aGk=',
      nested: [{ ref: '64b7f0c2a1b2c3d4e5f60719' }],
    });
  });
});

describe('inferFields (schema by sampling)', () => {
  it('collects dot paths and the types seen', () => {
    const fields = inferFields([
      { _id: new ObjectId(), a: 1, b: { c: 'x' }, t: new Date(), tags: [] },
      { _id: new ObjectId(), a: null, b: { c: 2 } },
    ]);
    expect(Object.fromEntries([...fields].map(([k, v]) => [k, [...v].sort()]))).toEqual({
      _id: ['objectId'],
      a: ['null', 'number'],
      b: ['object'],
      'b.c': ['number', 'string'],
      t: ['date'],
      tags: ['array'],
    });
  });
});

describe('mongoUrl', () => {
  it('builds a URL from fields, encoding credentials and options', () => {
    expect(
      mongoUrl({ type: 'mongodb', host: 'db.example.com', port: '27017', dbName: 'shop', username: 'u@x', password: 'p:w/d', options: [{ authSource: 'admin' }, { retryWrites: 'true' }] }),
    ).toBe('mongodb://u%40x:p%3Aw%2Fd@db.example.com:27017/shop?authSource=admin&retryWrites=true');
    expect(mongoUrl({ type: 'mongodb', host: 'cluster0.abc.mongodb.net', port: '27017', srv: true, dbName: 'shop', options: '{"w":"majority"}' })).toBe(
      'mongodb+srv://cluster0.abc.mongodb.net/shop?w=majority',
    );
  });

  it('re-encodes a pasted connection string whose password is not encoded', () => {
    expect(mongoUrl({ type: 'mongodb', connectionString: 'mongodb://admin:p@ss/w0rd@h1:27017,h2:27017/db?replicaSet=rs' })).toBe(
      'mongodb://admin:p%40ss%2Fw0rd@h1:27017,h2:27017/db?replicaSet=rs',
    );
  });

  it('maps sslMode onto driver TLS options', () => {
    expect(mongoClientOptions({ type: 'mongodb', ssl: true, sslMode: 'require' }, 1000, 5)).toMatchObject({ tls: true, tlsAllowInvalidCertificates: true });
    expect(mongoClientOptions({ type: 'mongodb', ssl: true, sslMode: 'verify-ca', sslCa: 'PEM' }, 1000, 5)).toMatchObject({ tls: true, tlsAllowInvalidHostnames: true, ca: 'PEM' });
    const full = mongoClientOptions({ type: 'mongodb', ssl: true, sslMode: 'verify-full' }, 1000, 5);
    expect(full.tls).toBe(true);
    expect(full.tlsAllowInvalidCertificates).toBeUndefined();
    expect(full.tlsAllowInvalidHostnames).toBeUndefined();
    expect(mongoClientOptions({ type: 'mongodb', ssl: false }, 1000, 5).tls).toBeUndefined();
  });
});

describe('MongoSource without a server', () => {
  it('reports an unreachable server as SOURCE_UNREACHABLE within the deadline', async () => {
    const pools = new PoolManager();
    const source = new MongoSource(pools, { connectTimeoutMs: 300 });
    // Past the run's deadline this would be SOURCE_TIMEOUT: UNREACHABLE means the connect gave up first.
    await expect(
      source.run({ id: 'm1', type: 'mongodb', host: '127.0.0.1', port: '1', dbName: 'x' }, { query: "collection('o').find({})" }, { timeoutMs: 5_000 }),
    ).rejects.toMatchObject({ statusCode: 502, code: 'SOURCE_UNREACHABLE' });
    await pools.closeAll();
  });

  it('refuses a write query before connecting', async () => {
    const source = new MongoSource(new PoolManager());
    await expect(source.run({ type: 'mongodb', host: 'x' }, { query: "collection('o').deleteMany({})" })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });
});
