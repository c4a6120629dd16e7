import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startCustomerioFake, type CustomerioFake } from '../helpers/customerio-fake.js';
import { installFirestore, Ref } from '../helpers/firestore-fake.js';
import { installGa } from '../helpers/ga-fake.js';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../helpers/google-fakes.js';
import { startMongoWireServer, type MongoWireServer } from '../helpers/mongo-wire-server.js';
import { installRtdb } from '../helpers/rtdb-fake.js';
import { expectNoLeak, sourceJourney } from '../helpers/source-journey.js';

/*
 * Every provider source end to end through the HTTP API, against local servers that answer as the
 * providers document (test/helpers): connection create -> test -> data request run -> dataset run
 * -> chart query -> share view. Loopback is reachable only because PLOTLINE_ALLOW_PRIVATE_HOSTS
 * says so.
 */
describe('provider sources end to end', () => {
  let t: TestApp;
  let google: FakeGoogle;
  let mongo: MongoWireServer;
  let cio: CustomerioFake;
  const cioKey = 'cio-journey-key-never-shown';
  const account = makeServiceAccount('journey-project');
  /** A line from the middle of the PEM body: present in any leak, whatever the escaping. */
  const keyLine = account.privateKey.split('\n')[5]!;

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    mongo = await startMongoWireServer();
    cio = await startCustomerioFake(cioKey);
    t = await buildTestApp({
      env: {
        PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        PLOTLINE_GOOGLE_TOKEN_URL: google.tokenUrl,
        PLOTLINE_FIRESTORE_URL: google.url,
        PLOTLINE_GA_DATA_URL: google.url,
        PLOTLINE_GA_ADMIN_URL: google.url,
        PLOTLINE_CUSTOMERIO_URL: cio.url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await google?.close();
    await mongo?.close();
    await cio?.close();
  });

  it('providers advertise what the new sources do', async () => {
    const me = await t.signup('Catalog');
    const providers = (await t.request({ method: 'GET', url: '/connection-providers', token: me.token })).json() as { id: string; capabilities: Record<string, boolean> }[];
    const caps = Object.fromEntries(providers.map((p) => [p.id, p.capabilities]));
    expect(caps['realtimedb']).toEqual({ test: true, schema: false, query: true, pushdown: false, streaming: false });
    expect(caps['firestore']).toEqual({ test: true, schema: true, query: true, pushdown: false, streaming: false });
    expect(caps['googleAnalytics']).toEqual({ test: true, schema: true, query: true, pushdown: false, streaming: false });
    expect(caps['customerio']).toEqual({ test: true, schema: false, query: true, pushdown: false, streaming: false });
    // Every one of the eight connection types now runs.
    expect(providers.every((p) => p.capabilities['query'] && p.capabilities['test'])).toBe(true);
  });

  it('MongoDB over the wire: a bar chart of totals per country on a share page', async () => {
    const dbName = 'journey';
    const admin = await new MongoClient(mongo.url).connect();
    try {
      await admin
        .db(dbName)
        .collection('orders')
        .insertMany([
          { country: 'FR', total: 10, at: new Date('2025-01-01T10:00:00Z') },
          { country: 'FR', total: 20, at: new Date('2025-01-02T10:00:00Z') },
          { country: 'DE', total: 5, at: new Date('2025-01-02T10:00:00Z') },
        ]);
    } finally {
      await admin.close();
    }
    const journey = await sourceJourney(t, {
      connection: { type: 'mongodb', connectionString: mongo.url.replace('/?', `/${dbName}?`), dbName },
      dataRequest: { query: "collection('orders').find({ total: { $gte: '{{min}}' } })", variableBindings: [{ name: 'min', type: 'number', default_value: '0' }] },
      chart: { name: 'Totals', type: 'bar' },
      config: { xAxis: 'root[].country', yAxis: 'root[].total', yAxisOperation: 'sum', legend: 'Total' },
    });
    expect(journey.test).toEqual({ success: true });
    expect(journey.requestRun.dataRequest.responseData.data).toHaveLength(3);
    expect(journey.datasetRun.data).toHaveLength(3);
    const data = journey.shared.chartData.data;
    expect(Object.fromEntries(data.labels.map((l: string, i: number) => [l, data.datasets[0].data[i]]))).toEqual({ FR: 30, DE: 5 });
    const filtered = await t.request({ method: 'POST', url: `/team/${journey.ids.teamId}/datasets/${journey.ids.datasetId}/request`, token: journey.token, payload: { variables: { min: 15 } } });
    expect(filtered.json().data.map((r: { total: number }) => r.total)).toEqual([20]);
  });

  it('Firestore: create, test, run with typed conditions, chart per day, share view; the key never leaves', async () => {
    const firestore = installFirestore(google, 'journey-project');
    firestore.seed({
      'orders/o1': { status: 'paid', total: 10, at: new Date('2025-01-01T10:00:00Z'), customer: new Ref('customers/ada') },
      'orders/o2': { status: 'paid', total: 20, at: new Date('2025-01-01T11:00:00Z'), customer: new Ref('customers/bob') },
      'orders/o3': { status: 'paid', total: 5, at: new Date('2025-01-02T10:00:00Z'), customer: new Ref('customers/ada') },
      'orders/o4': { status: 'refunded', total: 7, at: new Date('2025-01-03T10:00:00Z'), customer: null },
      'customers/ada': { name: 'Ada' },
    });
    const journey = await sourceJourney(t, {
      connection: { type: 'firestore', firebaseServiceAccount: account.json },
      dataRequest: {
        query: 'orders',
        conditions: [{ field: 'root[].status', operator: '==', value: '{{status}}' }],
        configuration: { orderBy: 'at', orderByDirection: 'asc' },
        variableBindings: [{ name: 'status', type: 'string', default_value: 'paid' }],
      },
      chart: { name: 'Paid orders per day', type: 'line', timeInterval: 'day' },
      config: { xAxis: 'root[].at', dateField: 'root[].at', yAxis: 'root[]._id', yAxisOperation: 'count', legend: 'Orders' },
    });
    expect(journey.connection.firebaseServiceAccount.private_key).toBe('********');
    expect(journey.connection.firebaseServiceAccount.client_email).toBe(account.json['client_email']);
    expect(journey.test).toEqual({ success: true });
    expect(journey.requestRun.dataRequest.responseData.data.map((r: { _id: string }) => r._id)).toEqual(['o1', 'o2', 'o3']);
    expect(journey.datasetRun.data[0]).toMatchObject({ _id: 'o1', total: 10, at: '2025-01-01T10:00:00.123Z', customer: 'customers/ada' });
    expect(journey.chartData.data.labels).toEqual(['2025-01-01', '2025-01-02']);
    expect(journey.shared.chartData.data.datasets[0].data).toEqual([2, 1]);

    // Runtime variables bind as typed values.
    const refunded = await t.request({ method: 'POST', url: `/team/${journey.ids.teamId}/datasets/${journey.ids.datasetId}/request`, token: journey.token, payload: { variables: { status: 'refunded' } } });
    expect(refunded.json().data.map((r: { _id: string }) => r._id)).toEqual(['o4']);
    const schema = await t.request({ method: 'GET', url: `/team/${journey.ids.teamId}/connections/${journey.ids.connectionId}/schema`, token: journey.token });
    expect(schema.statusCode, schema.body).toBe(200);
    expect(schema.json().schema.tables.map((x: { name: string }) => x.name)).toEqual(['customers', 'orders']);
    expectNoLeak(t, [keyLine, ...google.issued]);
  });

  it('Realtime Database: ordered by child, limited, charted and shared; a missing index is a 400 naming it', async () => {
    const rtdb = installRtdb(google);
    rtdb.indexOn['/scores'] = ['score'];
    rtdb.data = {
      scores: {
        s1: { player: 'ada', score: 30, level: 'gold' },
        s2: { player: 'bob', score: 10, level: 'bronze' },
        s3: { player: 'cy', score: 20, level: 'gold' },
        s4: { player: 'di', score: 25, level: 'silver' },
      },
    };
    const journey = await sourceJourney(t, {
      connection: { type: 'realtimedb', connectionString: rtdb.url, firebaseServiceAccount: account.json },
      dataRequest: { route: 'scores', configuration: { orderBy: 'child', key: 'score', limitToLast: '3' } },
      chart: { name: 'Score by level', type: 'bar' },
      config: { xAxis: 'root[].level', yAxis: 'root[].score', yAxisOperation: 'sum', legend: 'Score' },
    });
    expect(journey.test).toEqual({ success: true });
    expect(journey.requestRun.dataRequest.responseData.data.map((r: { _key: string }) => r._key)).toEqual(['s3', 's4', 's1']);
    const data = journey.shared.chartData.data;
    expect(Object.fromEntries(data.labels.map((l: string, i: number) => [l, data.datasets[0].data[i]]))).toEqual({ gold: 50, silver: 25 });

    const owner = journey.ids;
    const update = await t.request({
      method: 'PUT',
      url: `/team/${owner.teamId}/datasets/${owner.datasetId}/dataRequests/${owner.dataRequestId}`,
      token: journey.token,
      payload: { configuration: { orderBy: 'child', key: 'player' } },
    });
    expect(update.statusCode, update.body).toBe(200);
    const bad = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${owner.datasetId}/dataRequests/${owner.dataRequestId}/request`, token: journey.token, payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'SOURCE_QUERY_FAILED' });
    expect(bad.json().error).toContain('".indexOn": "player"');
    expectNoLeak(t, [keyLine, ...google.issued]);
  });

  it('Google Analytics 4 with an OAuth refresh token: report rows, a line chart per day, a share view; secrets stay inside', async () => {
    const ga = installGa(google, new Date().toISOString().slice(0, 10));
    google.trustRefreshToken('journey-client', 'journey-client-secret', 'journey-refresh-token');
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    ga.properties.set('424242', [
      { date: day(2), country: 'France', activeUsers: 5, sessions: 9 },
      { date: day(1), country: 'France', activeUsers: 7, sessions: 11 },
      { date: day(1), country: 'Spain', activeUsers: 3, sessions: 4 },
      { date: day(40), country: 'Spain', activeUsers: 100, sessions: 100 },
    ]);
    ga.readable.add('424242');
    const journey = await sourceJourney(t, {
      connection: {
        type: 'googleAnalytics',
        dbName: 'properties/424242',
        authentication: { type: 'oauth', user: 'journey-client', pass: 'journey-client-secret', token: 'journey-refresh-token' },
      },
      dataRequest: {
        configuration: { propertyId: 'properties/424242', metrics: ['activeUsers'], dimensions: ['date'], startDate: '{{days}}daysAgo', endDate: 'today' },
        variableBindings: [{ name: 'days', type: 'number', default_value: '7' }],
      },
      chart: { name: 'Active users', type: 'line', timeInterval: 'day' },
      config: { xAxis: 'root[].date', dateField: 'root[].date', yAxis: 'root[].activeUsers', yAxisOperation: 'sum', legend: 'Users' },
    });
    expect(journey.connection.authentication).toEqual({ type: 'oauth', user: 'journey-client', token: '********', pass: '********' });
    expect(journey.test).toEqual({ success: true });
    const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
    expect(journey.requestRun.dataRequest.responseData.data).toEqual([
      { date: iso(day(2)), activeUsers: 5 },
      { date: iso(day(1)), activeUsers: 10 },
    ]);
    expect(journey.shared.chartData.data.datasets[0].data).toEqual([5, 10]);
    const wide = await t.request({ method: 'POST', url: `/team/${journey.ids.teamId}/datasets/${journey.ids.datasetId}/request`, token: journey.token, payload: { variables: { days: 60 } } });
    expect(wide.json().data.map((r: { activeUsers: number }) => r.activeUsers)).toEqual([100, 5, 10]);
    expect(ga.reports.at(-1)!.dateRanges).toEqual([{ startDate: '60daysAgo', endDate: 'today' }]);
    const schema = await t.request({ method: 'GET', url: `/team/${journey.ids.teamId}/connections/${journey.ids.connectionId}/schema`, token: journey.token });
    expect(schema.json().schema.tables.map((x: { name: string }) => x.name)).toContain('properties/424242');
    expectNoLeak(t, ['journey-client-secret', 'journey-refresh-token', ...google.issued]);
  });

  it('Customer.io: campaign metrics charted per day and shared; customers of a segment with attributes; the key stays inside', async () => {
    cio.people = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, email: `p${i}@example.com`, cio_id: `c${i}`, segments: [i < 8 ? 1 : 2], attributes: { plan: i % 2 ? 'pro' : 'free' } }));
    const journey = await sourceJourney(t, {
      connection: { type: 'customerio', host: 'eu', password: cioKey },
      dataRequest: { route: 'campaigns/{{campaign}}/metrics', configuration: { period: 'days', steps: 3 }, variableBindings: [{ name: 'campaign', type: 'number', default_value: '7' }] },
      chart: { name: 'Emails sent', type: 'kpi' },
      config: { yAxis: 'root[].sent', yAxisOperation: 'sum', legend: 'Sent' },
    });
    expect(journey.connection.password).toBe('********');
    expect(journey.test).toEqual({ success: true });
    expect(journey.requestRun.dataRequest.responseData.data.map((r: { sent: number }) => r.sent)).toEqual([10, 11, 12]);
    expect(journey.shared.chartData.values[0].value).toBe(33);

    const ds = await t.request({
      method: 'POST',
      url: `/team/${journey.ids.teamId}/datasets/quick-create`,
      token: journey.token,
      payload: { name: 'Customers', dataRequests: [{ connection_id: journey.ids.connectionId, route: 'customers', configuration: { segmentId: '{{segment}}', populateAttributes: true }, variableBindings: [{ name: 'segment', type: 'number', default_value: '2' }] }] },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    const run = await t.request({ method: 'GET', url: `/team/${journey.ids.teamId}/datasets/${ds.json().id}/request`, token: journey.token });
    expect(run.json().data.map((r: { id: string; plan: string }) => `${r.id}:${r.plan}`)).toEqual(['p8:free', 'p9:pro', 'p10:free', 'p11:pro']);
    expect(cio.requests.every((r) => r.authorization === `Bearer ${cioKey}`)).toBe(true);

    const wrong = await t.request({ method: 'PUT', url: `/team/${journey.ids.teamId}/connections/${journey.ids.connectionId}`, token: journey.token, payload: { password: 'revoked-cio-key-value' } });
    expect(wrong.statusCode).toBe(200);
    const refused = await t.request({ method: 'GET', url: `/team/${journey.ids.teamId}/connections/${journey.ids.connectionId}/test`, token: journey.token });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'SOURCE_QUERY_FAILED' });
    expect(refused.json().error).toContain('App API key');
    expectNoLeak(t, [cioKey, 'revoked-cio-key-value']);
  });
});
