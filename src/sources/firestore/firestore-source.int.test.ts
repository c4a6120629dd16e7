import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFirestore, Ref, type FirestoreFake } from '../../../test/helpers/firestore-fake.js';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../../../test/helpers/google-fakes.js';
import { GoogleTokens } from '../google/google-auth.js';
import { OutboundPolicy } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import type { SourceConnection } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { FirestoreSource } from './firestore-source.js';

describe('FirestoreSource against a local Firestore REST server', () => {
  let google: FakeGoogle;
  let firestore: FirestoreFake;
  let client: OutboundClient;
  let source: FirestoreSource;
  let conn: SourceConnection;
  const account = makeServiceAccount('shop-project');

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    firestore = installFirestore(google, 'shop-project');
    firestore.seed({
      'customers/ada': { name: 'Ada', vip: true },
      'customers/bob': { name: 'Bob', vip: false },
      'orders/o1': { status: 'paid', total: 10, at: new Date('2025-01-01T10:00:00Z'), customer: new Ref('customers/ada'), meta: { channel: 'web' } },
      'orders/o2': { status: 'paid', total: 20.5, at: new Date('2025-01-02T10:00:00Z'), customer: new Ref('customers/bob'), meta: { channel: 'shop' } },
      'orders/o3': { status: 'refunded', total: 5, at: new Date('2025-01-03T10:00:00Z'), customer: new Ref('customers/ada'), meta: { channel: 'web' } },
      'orders/o4': { status: 'paid', total: 7, at: new Date('2025-02-01T10:00:00Z'), customer: null, meta: { channel: 'web' } },
      'orders/o5': { status: 'pending', total: 1, at: new Date('2025-02-02T10:00:00Z'), tags: ['gift', 'rush'], meta: { channel: 'web' } },
      'orders/o1/items/i1': { sku: 'A', qty: 1 },
      'orders/o1/items/i2': { sku: 'B', qty: 2 },
      'orders/o2/items/i3': { sku: 'A', qty: 5 },
      'archive/2024/orders/x1': { status: 'paid', total: 99 },
      'products/p1': { sku: 'A' },
    });
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1'] }));
    const tokens = new GoogleTokens(client, { tokenUrl: google.tokenUrl });
    source = new FirestoreSource(client, tokens, { baseUrl: google.url, pageSize: 2 });
    conn = { id: 'fs', type: 'firestore', firebaseServiceAccount: JSON.stringify(account.json) };
  });
  afterAll(async () => {
    await client.close();
    await google.close();
  });

  const ids = (data: unknown) => (data as { _id: string }[]).map((r) => r._id);

  it('tests the connection by listing root collections (paged), never calling the key file token_uri', async () => {
    expect(await source.test(conn)).toEqual({ success: true, tables: ['archive', 'customers', 'orders', 'products'] });
    const tokenCalls = google.requests.filter((r) => r.path === '/token');
    expect(tokenCalls.length).toBe(1);
    const list = google.requests.filter((r) => r.path.endsWith(':listCollectionIds'));
    expect(list.length).toBe(2);
    expect(list[0]!.path).toBe('/v1/projects/shop-project/databases/(default)/documents:listCollectionIds');
    expect(list[0]!.headers.authorization).toBe(`Bearer ${google.issued[0]}`);
    expect(JSON.parse(list[1]!.body).pageToken).toBeTruthy();
  });

  it('reads a collection through cursor pages, with typed values, ISO timestamps and reference paths', async () => {
    const result = await source.run(conn, { query: 'orders', configuration: { orderBy: 'total', orderByDirection: 'asc' } });
    expect(ids(result.data)).toEqual(['o5', 'o3', 'o4', 'o1', 'o2']);
    const o1 = (result.data as Record<string, unknown>[]).find((r) => r['_id'] === 'o1');
    expect(o1).toEqual({ _id: 'o1', _path: 'orders/o1', status: 'paid', total: 10, at: '2025-01-01T10:00:00.123Z', customer: 'customers/ada', meta: { channel: 'web' } });
    expect(result.meta).toMatchObject({ rowCount: 5, truncated: false });
    expect(result.meta.columns).toContainEqual({ name: 'at', type: 'date' });
    // Page size 2: three runQuery calls, the later ones starting after the previous page's last document.
    const last = firestore.queries.slice(-3);
    expect(last.map((q) => q.limit)).toEqual([2, 2, 2]);
    expect(last[1]!.startAt).toEqual({ before: false, values: [{ integerValue: '5' }, { referenceValue: `${firestore.root}/orders/o3` }] });
  });

  it('applies typed conditions: numbers, booleans, timestamps, null, lists and nested fields', async () => {
    const run = async (conditions: unknown[], extra: Record<string, unknown> = {}) =>
      ids((await source.run(conn, { query: 'orders', conditions, configuration: { orderBy: 'total', orderByDirection: 'desc', ...extra } })).data);
    expect(await run([{ field: 'root[].status', operator: '==', value: 'paid' }, { field: 'total', operator: '>', value: '8' }])).toEqual(['o2', 'o1']);
    expect(await run([{ field: 'at', operator: '>=', value: '2025-02-01T00:00:00Z', type: 'date' }])).toEqual(['o4', 'o5']);
    expect(await run([{ field: 'customer', operator: 'isNull' }])).toEqual(['o4']);
    expect(await run([{ field: 'customer', operator: '==', value: 'null' }])).toEqual(['o4']);
    expect(await run([{ field: 'status', operator: 'in', values: ['refunded', 'pending'] }])).toEqual(['o3', 'o5']);
    expect(await run([{ field: 'tags', operator: 'array-contains', value: 'rush' }])).toEqual(['o5']);
    expect(await run([{ field: 'root[].meta.channel', operator: '==', value: 'shop' }])).toEqual(['o2']);
    expect(await run([{ field: 'status', operator: '!=', value: 'paid' }], { orderBy: '' })).toEqual(['o3', 'o5']);
    expect(await run([{ field: 'total', operator: '>', value: 0 }], { limit: 2 })).toEqual(['o2', 'o1']);
    expect(await run([{ field: '_id', operator: 'in', values: ['o1', 'o3'] }])).toEqual(['o1', 'o3']);
    expect(firestore.queries.at(-1)!.where.fieldFilter.value.arrayValue.values[0]).toEqual({ referenceValue: `${firestore.root}/orders/o1` });
    const vip = await source.run(conn, { query: 'customers', conditions: [{ field: 'vip', operator: '==', value: 'true' }] });
    expect(ids(vip.data)).toEqual(['ada']);
    const where = firestore.queries.at(-1)!.where;
    expect(where).toEqual({ fieldFilter: { field: { fieldPath: 'vip' }, op: 'EQUAL', value: { booleanValue: true } } });
  });

  it('binds variables as typed values in conditions and as whole segments of the path', async () => {
    const vars = resolveVariables({
      bindings: [
        { name: 'min', type: 'number' },
        { name: 'since', type: 'date' },
        { name: 'year', type: 'string' },
      ],
      runtime: { min: '6', since: '2025-01-02', year: '2024' },
    });
    const result = await source.run(
      conn,
      { query: 'orders', conditions: [{ field: 'total', operator: '>=', value: '{{min}}' }, { field: 'at', operator: '>=', value: '{{since}}' }], configuration: { orderBy: 'total' } },
      { variables: vars },
    );
    expect(ids(result.data)).toEqual(['o2', 'o4']);
    expect(firestore.queries.at(-1)!.where.compositeFilter.filters[1].fieldFilter.value).toEqual({ timestampValue: '2025-01-02T00:00:00.000Z' });
    const archived = await source.run(conn, { query: 'archive/{{year}}/orders' }, { variables: vars });
    expect(ids(archived.data)).toEqual(['x1']);
    for (const evil of ['2024/orders/x1/secret', '..']) {
      const bad = resolveVariables({ runtime: { year: evil } });
      await expect(source.run(conn, { query: 'archive/{{year}}/orders' }, { variables: bad })).rejects.toMatchObject({ code: 'VARIABLE_INVALID' });
    }
  });

  it('joins each document’s sub-collection (selectedSubCollection + populateAttributes), or lists it with _parent', async () => {
    const joined = await source.run(conn, { query: 'orders', configuration: { orderBy: 'total', orderByDirection: 'desc', selectedSubCollection: 'items', populateAttributes: true } });
    const rows = joined.data as { _id: string; items: { sku: string }[] }[];
    expect(rows.find((r) => r._id === 'o1')!.items.map((i) => i.sku).sort()).toEqual(['A', 'B']);
    expect(rows.find((r) => r._id === 'o2')!.items).toEqual([{ _id: 'i3', _path: 'orders/o2/items/i3', sku: 'A', qty: 5 }]);
    expect(rows.find((r) => r._id === 'o3')!.items).toEqual([]);
    const group = firestore.queries.at(-1)!;
    expect(group.from).toEqual([{ collectionId: 'items', allDescendants: true }]);
    const flat = await source.run(conn, {
      query: 'orders',
      conditions: [{ collection: 'items', field: 'sku', operator: '==', value: 'A' }],
      configuration: { selectedSubCollection: 'items' },
    });
    expect((flat.data as Record<string, unknown>[]).map((r) => [r['_id'], r['_parent']]).sort()).toEqual([
      ['i1', 'orders/o1'],
      ['i3', 'orders/o2'],
    ]);
  });

  it('describes collections and their sub-collections from samples', async () => {
    const schema = await source.schema(conn);
    expect(schema.tables.map((t) => t.name)).toEqual(['archive', 'customers', 'orders', 'orders/*/items', 'products']);
    expect(schema.tables.find((t) => t.name === 'orders')!.columns).toEqual(expect.arrayContaining([{ name: 'at', type: 'date' }, { name: 'total', type: 'number' }]));
  });

  it('caps rows and says so', async () => {
    const result = await source.run(conn, { query: 'orders' }, { rowLimit: 3 });
    expect(result.meta).toMatchObject({ rowCount: 3, truncated: true });
  });

  it('exchanges a new token when the API says the cached one expired', async () => {
    const before = google.issued.length;
    google.expireTokens();
    const result = await source.run(conn, { query: 'customers' });
    expect(ids(result.data)).toEqual(['ada', 'bob']);
    expect(google.issued.length).toBe(before + 1);
  });

  it('explains bad requests and refused credentials without leaking the key', async () => {
    await expect(source.run(conn, { query: 'orders/o1' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(source.run(conn, { query: 'orders/../../x' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(source.run(conn, { query: 'orders', conditions: [{ field: 'x', operator: 'like', value: 1 }] })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(source.run({ ...conn, firebaseServiceAccount: null }, { query: 'orders' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const stranger = makeServiceAccount('shop-project');
    const refused = source.run({ ...conn, firebaseServiceAccount: JSON.stringify(stranger.json) }, { query: 'orders' });
    await expect(refused).rejects.toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED', message: expect.stringContaining('service account reader@shop-project.iam.gserviceaccount.com') });
    const message = await refused.catch((e: Error) => e.message);
    expect(message).not.toContain('PRIVATE KEY');
    const otherProject = { ...account.json, project_id: 'missing-project' };
    await expect(source.run({ ...conn, firebaseServiceAccount: JSON.stringify(otherProject) }, { query: 'orders' })).rejects.toMatchObject({
      code: 'SOURCE_QUERY_FAILED',
      message: expect.stringContaining('NOT_FOUND'),
    });
  });

  it('refuses loopback unless allowed by the address policy', async () => {
    const strict = new OutboundClient(new OutboundPolicy());
    try {
      const blocked = new FirestoreSource(strict, new GoogleTokens(strict, { tokenUrl: google.tokenUrl }), { baseUrl: google.url });
      await expect(blocked.test(conn)).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    } finally {
      await strict.close();
    }
  });
});
