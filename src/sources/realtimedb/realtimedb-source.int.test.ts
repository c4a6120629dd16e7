import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../../../test/helpers/google-fakes.js';
import { installRtdb, type RtdbFake } from '../../../test/helpers/rtdb-fake.js';
import { GoogleTokens } from '../google/google-auth.js';
import { OutboundPolicy } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import type { SourceConnection } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { compareKeys, compareValues, RealtimeDbSource, toRows } from './realtimedb-source.js';

describe('Realtime Database ordering rules', () => {
  it('orders keys: 32-bit integers numerically first, then strings', () => {
    expect(['b', '10', 'a', '9', '-1', '2147483648'].sort(compareKeys)).toEqual(['-1', '9', '10', '2147483648', 'a', 'b']);
  });
  it('orders values: null < false < true < numbers < strings < objects', () => {
    expect([{}, 'a', 2, true, null, false, 1].sort(compareValues)).toEqual([null, false, true, 1, 2, 'a', {}]);
  });
  it('turns children into rows with _key, primitives as _value', () => {
    expect(toRows({ a: { n: 1 }, b: 5 })).toEqual([{ _key: 'a', n: 1 }, { _key: 'b', _value: 5 }]);
    expect(toRows(null)).toEqual([]);
    expect(toRows([null, { n: 1 }])).toEqual([{ _key: '1', n: 1 }]);
  });
});

describe('RealtimeDbSource against a local Realtime Database REST server', () => {
  let google: FakeGoogle;
  let rtdb: RtdbFake;
  let client: OutboundClient;
  let source: RealtimeDbSource;
  let conn: SourceConnection;
  let now = Date.now();
  const account = makeServiceAccount('game-project');

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    rtdb = installRtdb(google);
    rtdb.indexOn['/scores'] = ['score'];
    rtdb.data = {
      scores: {
        o1: { player: 'ada', score: 30, at: '2025-01-01T10:00:00Z' },
        o2: { player: 'bob', score: 10, at: '2025-01-02T10:00:00Z' },
        o3: { player: 'cy', score: 20, at: '2025-01-03T10:00:00Z' },
        o4: { player: 'di', score: 20, at: '2025-01-03T11:00:00Z' },
        o5: { player: 'ed', at: '2025-01-04T10:00:00Z' },
      },
      counters: { '9': 3, '10': 1, b: 2, a: 2 },
      teams: { red: { members: { x: true } } },
    };
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1'] }));
    source = new RealtimeDbSource(client, new GoogleTokens(client, { tokenUrl: google.tokenUrl, now: () => now }));
    conn = { id: 'rt', type: 'realtimedb', connectionString: rtdb.url, firebaseServiceAccount: JSON.stringify(account.json) };
  });
  afterAll(async () => {
    await client.close();
    await google.close();
  });

  const keys = (data: unknown) => (data as { _key: string }[]).map((r) => r._key);

  it('tests with a shallow read of the root, authorized by a bearer token from the configured token URL', async () => {
    expect(await source.test(conn)).toEqual({ success: true, tables: ['counters', 'scores', 'teams'] });
    const read = google.requests.find((r) => r.path === '/rtdb/.json')!;
    expect(read.method).toBe('GET');
    expect(read.query.get('shallow')).toBe('true');
    expect(read.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(google.requests.filter((r) => r.path === '/token').length).toBe(1);
  });

  it('reads children as rows ordered by key when no order is asked for', async () => {
    const result = await source.run(conn, { route: '/scores' });
    expect(keys(result.data)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect((result.data as unknown[])[0]).toEqual({ _key: 'o1', player: 'ada', score: 30, at: '2025-01-01T10:00:00Z' });
    expect(result.meta.columns).toContainEqual({ name: 'at', type: 'date' });
  });

  it('orders by child with limits and sorts the unordered REST answer by the database rules', async () => {
    const top = await source.run(conn, { route: 'scores', configuration: { orderBy: 'child', key: 'score', limitToLast: '3' } });
    expect(keys(top.data)).toEqual(['o3', 'o4', 'o1']);
    const sent = google.requests.at(-1)!;
    expect(sent.path).toBe('/rtdb/scores.json');
    expect(sent.query.get('orderBy')).toBe('"score"');
    expect(sent.query.get('limitToLast')).toBe('3');
    const all = await source.run(conn, { route: 'scores', configuration: { orderBy: 'child', key: 'score', limitToFirst: '0' } });
    // A child that is missing sorts first; equal values by key.
    expect(keys(all.data)).toEqual(['o5', 'o2', 'o3', 'o4', 'o1']);
    expect(google.requests.at(-1)!.query.has('limitToFirst')).toBe(false);
  });

  it('orders by value and by key, integer keys first', async () => {
    const byValue = await source.run(conn, { route: 'counters', configuration: { orderBy: 'value' } });
    expect(keys(byValue.data)).toEqual(['10', 'a', 'b', '9']);
    expect((byValue.data as unknown[])[0]).toEqual({ _key: '10', _value: 1 });
    const byKey = await source.run(conn, { route: 'counters', configuration: { orderBy: 'key', limitToFirst: 3 } });
    expect(keys(byKey.data)).toEqual(['9', '10', 'a']);
  });

  it('binds variables: typed range values, URL-encoded path segments', async () => {
    const vars = resolveVariables({ bindings: [{ name: 'min', type: 'number' }, { name: 'node', type: 'string' }], runtime: { min: '20', node: 'scores' } });
    const result = await source.run(conn, { route: '{{node}}', configuration: { orderBy: 'child', key: 'score', startAt: '{{min}}' } }, { variables: vars });
    expect(keys(result.data)).toEqual(['o3', 'o4', 'o1']);
    expect(google.requests.at(-1)!.query.get('startAt')).toBe('20');
    const evil = resolveVariables({ runtime: { node: 'scores/o1' } });
    await expect(source.run(conn, { route: '{{node}}' }, { variables: evil })).rejects.toMatchObject({ code: 'VARIABLE_INVALID' });
  });

  it('a missing .indexOn rule is a 400 naming it', async () => {
    await expect(source.run(conn, { route: 'scores', configuration: { orderBy: 'child', key: 'player' } })).rejects.toMatchObject({
      statusCode: 400,
      code: 'SOURCE_QUERY_FAILED',
      message: expect.stringContaining('".indexOn": "player"'),
    });
  });

  it('caps rows, and limits need an order', async () => {
    expect((await source.run(conn, { route: 'scores' }, { rowLimit: 2 })).meta).toMatchObject({ rowCount: 2, truncated: true });
    await expect(source.run(conn, { route: 'scores', configuration: { limitToFirst: 2 } })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('keeps the token until it expires, then exchanges again; a token the server expired early is renewed once', async () => {
    const before = google.issued.length;
    await source.run(conn, { route: 'teams' });
    expect(google.issued.length).toBe(before);
    now += 3600_000;
    google.setNow(now);
    await source.run(conn, { route: 'teams' });
    expect(google.issued.length).toBe(before + 1);
    google.expireTokens();
    const result = await source.run(conn, { route: 'teams' });
    expect(keys(result.data)).toEqual(['red']);
    expect(google.issued.length).toBe(before + 2);
  });

  it('a provider slower than the time limit is a 504; an aborted run ends at once', async () => {
    google.stall(3_000);
    try {
      await expect(source.run(conn, { route: 'scores' }, { timeoutMs: 200 })).rejects.toMatchObject({ statusCode: 504, code: 'SOURCE_TIMEOUT' });
      const controller = new AbortController();
      const running = source.run(conn, { route: 'scores' }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(running).rejects.toMatchObject({ code: 'RUN_ABORTED' });
    } finally {
      google.stall(0);
    }
  });

  it('a refused service account is a 400 naming it; the key never appears', async () => {
    const stranger = makeServiceAccount('game-project');
    const error = (await source.run({ ...conn, firebaseServiceAccount: JSON.stringify(stranger.json) }, { route: 'scores' }).catch((e: Error) => e)) as Error;
    expect(error).toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED' });
    expect(error.message).toContain('service account reader@game-project.iam.gserviceaccount.com');
    expect(error.message).not.toContain('PRIVATE KEY');
    await expect(source.run({ ...conn, connectionString: null }, { route: 'scores' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
