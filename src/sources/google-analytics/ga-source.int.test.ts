import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGa, type GaFake } from '../../../test/helpers/ga-fake.js';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../../../test/helpers/google-fakes.js';
import { GoogleTokens } from '../google/google-auth.js';
import { OutboundPolicy } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import type { SourceConnection } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { GoogleAnalyticsSource, reportRequest } from './ga-source.js';

const TODAY = '2025-03-10';

function days(n: number): Record<string, string | number>[] {
  const out: Record<string, string | number>[] = [];
  for (let i = 0; i < n; i += 1) {
    const day = new Date(Date.parse(`${TODAY}T00:00:00Z`) - i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    out.push({ date: day, country: 'France', activeUsers: 10 + i, sessions: 20 + i, bounceRate: 0.5 });
    out.push({ date: day, country: 'Germany', activeUsers: 1, sessions: 2, bounceRate: 0.25 });
  }
  return out;
}

describe('Google Analytics report requests', () => {
  it('builds runReport bodies from the configuration, binding variables into GA dates', () => {
    const vars = resolveVariables({ bindings: [{ name: 'from', type: 'date' }, { name: 'n', type: 'number' }], runtime: { from: '2025-01-01', n: 7 } });
    expect(reportRequest({ propertyId: '123', metrics: 'activeUsers, sessions', dimensions: ['date'], startDate: '{{from}}', endDate: '{{n}}daysAgo' }, vars)).toEqual({
      property: 'properties/123',
      body: {
        dateRanges: [{ startDate: '2025-01-01', endDate: '7daysAgo' }],
        metrics: [{ name: 'activeUsers' }, { name: 'sessions' }],
        dimensions: [{ name: 'date' }],
        orderBys: [{ dimension: { dimensionName: 'date' } }],
      },
    });
    expect(() => reportRequest({ propertyId: 'properties/abc', metrics: 'x' }, undefined)).toThrow(/property id/);
    expect(() => reportRequest({ propertyId: '1', metrics: '' }, undefined)).toThrow(/at least one metric/);
    expect(() => reportRequest({ propertyId: '1', metrics: 'x', startDate: 'last week' }, undefined)).toThrow(/NdaysAgo/);
    expect(() => reportRequest({ propertyId: '1', metrics: 'x"}' }, undefined)).toThrow(/field name/);
  });
});

describe('GoogleAnalyticsSource against local Data and Admin API servers', () => {
  let google: FakeGoogle;
  let ga: GaFake;
  let client: OutboundClient;
  let source: GoogleAnalyticsSource;
  let saConn: SourceConnection;
  let oauthConn: SourceConnection;
  const account = makeServiceAccount('ga-project');

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    google.trustRefreshToken('client-1.apps.googleusercontent.com', 'client-secret-never-shown', 'refresh-token-never-shown');
    ga = installGa(google, TODAY);
    ga.properties.set('111', days(30));
    ga.properties.set('222', []);
    ga.readable.add('111').add('222');
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1'] }));
    source = new GoogleAnalyticsSource(client, new GoogleTokens(client, { tokenUrl: google.tokenUrl }), { dataUrl: google.url, adminUrl: google.url, pageSize: 4 });
    saConn = { id: 'ga-sa', type: 'googleAnalytics', firebaseServiceAccount: JSON.stringify(account.json) };
    oauthConn = {
      id: 'ga-oauth',
      type: 'googleAnalytics',
      authentication: { type: 'oauth', user: 'client-1.apps.googleusercontent.com', pass: 'client-secret-never-shown', token: 'refresh-token-never-shown' },
    };
  });
  afterAll(async () => {
    await client.close();
    await google.close();
  });

  it('tests through accountSummaries (paged) and checks the connection’s property', async () => {
    expect(await source.test(saConn)).toEqual({ success: true, tables: ['properties/111', 'properties/222'] });
    expect(google.requests.filter((r) => r.path === '/v1beta/accountSummaries').length).toBe(2);
    await expect(source.test({ ...saConn, dbName: '999' })).rejects.toMatchObject({ code: 'SOURCE_QUERY_FAILED', message: expect.stringContaining('PERMISSION_DENIED') });
    expect(await source.test({ ...saConn, dbName: 'properties/111' })).toMatchObject({ success: true });
  });

  it('runs a report in offset pages until rowCount, metrics as numbers and dates as days', async () => {
    const result = await source.run(saConn, { configuration: { propertyId: 'properties/111', metrics: ['activeUsers', 'bounceRate'], dimensions: ['date'], startDate: '6daysAgo', endDate: 'today' } });
    const rows = result.data as Record<string, unknown>[];
    expect(rows).toHaveLength(7);
    expect(rows[0]).toEqual({ date: '2025-03-04', activeUsers: 17, bounceRate: 0.75 });
    expect(rows[6]).toEqual({ date: '2025-03-10', activeUsers: 11, bounceRate: 0.75 });
    const pages = ga.reports.slice(-2);
    expect(pages.map((p) => [p.limit, p.offset])).toEqual([
      ['4', '0'],
      ['4', '4'],
    ]);
    expect(result.meta).toMatchObject({ rowCount: 7, truncated: false });
    expect(result.meta.columns).toContainEqual({ name: 'date', type: 'date' });
    expect(google.requests.at(-1)!.path).toBe('/v1beta/properties/111:runReport');
  });

  it('stops at the row cap and says the result is truncated', async () => {
    const result = await source.run(saConn, { configuration: { propertyId: '111', metrics: 'sessions', dimensions: 'date', startDate: '29daysAgo' } }, { rowLimit: 5 });
    expect(result.meta).toMatchObject({ rowCount: 5, truncated: true });
  });

  it('an empty report is an empty result', async () => {
    const result = await source.run(saConn, { configuration: { propertyId: '222', metrics: 'sessions', dimensions: 'country' } });
    expect(result.data).toEqual([]);
  });

  it('runs with an OAuth refresh token (refresh grant with client id and secret)', async () => {
    const result = await source.run(oauthConn, { configuration: { propertyId: '111', metrics: 'activeUsers', dimensions: 'country', startDate: 'yesterday', endDate: 'today' } });
    expect(result.data).toEqual([
      { country: 'France', activeUsers: 21 },
      { country: 'Germany', activeUsers: 2 },
    ]);
    const grant = new URLSearchParams(google.requests.filter((r) => r.path === '/token').at(-1)!.body);
    expect(Object.fromEntries(grant)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-token-never-shown',
      client_id: 'client-1.apps.googleusercontent.com',
      client_secret: 'client-secret-never-shown',
    });
  });

  it('a revoked refresh token and a bad metric are 400s that name the problem without the secret', async () => {
    const revoked = { ...oauthConn, authentication: { ...oauthConn.authentication!, token: 'revoked-token-value' } };
    const error = (await source.run(revoked, { configuration: { propertyId: '111', metrics: 'sessions' } }).catch((e: Error) => e)) as Error & { code: string };
    expect(error).toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED' });
    expect(error.message).toContain('OAuth refresh token');
    expect(error.message).toContain('invalid_grant');
    expect(error.message).not.toContain('revoked-token-value');
    await expect(source.run(saConn, { configuration: { propertyId: '111', metrics: 'sessionz' } })).rejects.toMatchObject({
      statusCode: 400,
      code: 'SOURCE_QUERY_FAILED',
      message: expect.stringContaining('sessionz is not a valid metric'),
    });
  });

  it('renews an expired token once', async () => {
    google.expireTokens();
    const before = google.issued.length;
    const result = await source.run(saConn, { configuration: { propertyId: '111', metrics: 'sessions' } });
    expect(result.data).toHaveLength(1);
    expect(google.issued.length).toBe(before + 1);
  });

  it('describes properties with their dimensions and metrics', async () => {
    const schema = await source.schema(saConn);
    expect(schema.tables.map((t) => [t.name, t.description])).toEqual([
      ['properties/111', 'Account 1 / Site 111'],
      ['properties/222', 'Account 2 / Site 222'],
    ]);
    expect(schema.tables[0]!.columns).toContainEqual({ name: 'activeUsers', type: 'metric:TYPE_INTEGER' });
  });
});
