import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerioFake, type CustomerioFake } from '../../../test/helpers/customerio-fake.js';
import { OutboundPolicy } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import type { SourceConnection } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { CustomerioSource, customerFilter, customerioBase } from './customerio-source.js';

const KEY = 'cio-app-key-never-shown';
const NOW = Date.parse('2025-03-10T15:30:00Z');

describe('Customer.io customer filters', () => {
  it('takes a segment id or cioFilters, variables as typed values', () => {
    expect(customerFilter({ segmentId: '4' }, undefined)).toEqual({ and: [{ segment: { id: 4 } }] });
    const vars = resolveVariables({ bindings: [{ name: 'plan', type: 'string' }], runtime: { plan: 'pro"}' } });
    expect(customerFilter({ cioFilters: { and: [{ attribute: { field: 'plan', operator: 'eq', value: '{{plan}}' } }] } }, vars)).toEqual({
      and: [{ attribute: { field: 'plan', operator: 'eq', value: 'pro"}' } }],
    });
    expect(() => customerFilter({}, undefined)).toThrow(/No filters selected/);
    expect(() => customerFilter({ cioFilters: { and: [] } }, undefined)).toThrow(/No filters selected/);
  });
});

describe('CustomerioSource against a local App API server', () => {
  let cio: CustomerioFake;
  let client: OutboundClient;
  let source: CustomerioSource;
  let conn: SourceConnection;

  beforeAll(async () => {
    cio = await startCustomerioFake(KEY);
    cio.people = Array.from({ length: 250 }, (_, i) => ({
      id: `u${i}`,
      email: `u${i}@example.com`,
      cio_id: `c${i}`,
      segments: i % 2 === 0 ? [1] : [2],
      attributes: { plan: i % 5 === 0 ? 'pro' : 'free', created_at: 1700000000 + i },
    }));
    cio.activities = Array.from({ length: 30 }, (_, i) => ({ id: `a${i}`, type: i % 3 === 0 ? 'event' : 'page', name: i % 3 === 0 ? 'purchase' : 'view', customer_id: `u${i}`, timestamp: 1741600000 + i }));
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1'] }));
    source = new CustomerioSource(client, { baseUrl: cio.url, now: () => NOW });
    conn = { id: 'cio', type: 'customerio', password: KEY, host: 'us' };
  });
  afterAll(async () => {
    await client.close();
    await cio.close();
  });

  it('tests with one cheap activities call and the bearer key', async () => {
    expect(await source.test(conn)).toEqual({ success: true });
    const call = cio.requests.at(-1)!;
    expect([call.method, call.path, call.query.toString(), call.authorization]).toEqual(['GET', '/v1/activities', 'limit=1', `Bearer ${KEY}`]);
  });

  it('finds customers of a segment, following the next cursor as start', async () => {
    const before = cio.requests.length;
    const result = await source.run(conn, { route: 'customers', configuration: { segmentId: 1 } });
    expect(result.data).toHaveLength(125);
    expect((result.data as unknown[])[0]).toEqual({ email: 'u0@example.com', id: 'u0', cio_id: 'c0' });
    const calls = cio.requests.slice(before);
    expect(calls.map((c) => [c.method, c.path, c.query.get('start'), c.body])).toEqual([['POST', '/v1/customers', null, { filter: { and: [{ segment: { id: 1 } }] } }]]);
    const all = await source.run(conn, { route: 'customers', configuration: { cioFilters: { or: [{ segment: { id: 1 } }, { segment: { id: 2 } }] } } }, { rowLimit: 2000 });
    expect(all.data).toHaveLength(250);
  });

  it('pages at 1000 per request and batches attribute lookups by 100', async () => {
    cio.people.push(...Array.from({ length: 1100 }, (_, i) => ({ id: `x${i}`, email: `x${i}@example.com`, cio_id: `cx${i}`, segments: [3], attributes: { plan: 'team' } })));
    try {
      const before = cio.requests.length;
      const result = await source.run(conn, { route: 'customers', itemsLimit: 1050, configuration: { segmentId: 3, populateAttributes: true } });
      const rows = result.data as Record<string, unknown>[];
      expect(rows).toHaveLength(1050);
      expect(rows[1049]).toMatchObject({ id: 'x1049', email: 'x1049@example.com', plan: 'team', unsubscribed: false });
      const calls = cio.requests.slice(before);
      const searches = calls.filter((c) => c.path === '/v1/customers');
      expect(searches.map((c) => [c.query.get('limit'), c.query.get('start')])).toEqual([
        ['1000', null],
        ['50', '1000'],
      ]);
      const batches = calls.filter((c) => c.path === '/v1/customers/attributes').map((c) => (c.body as { ids: string[] }).ids.length);
      expect(batches).toEqual([...Array(10).fill(100), 50]);
    } finally {
      cio.people = cio.people.filter((p) => !p.id.startsWith('x'));
    }
  });

  it('turns campaign metric series into dated rows counted back from now', async () => {
    const result = await source.run(conn, { route: 'campaigns/{{campaign}}/metrics', configuration: { period: 'days', steps: 3, type: 'email' } }, { variables: resolveVariables({ runtime: { campaign: 7 } }) });
    expect(result.data).toEqual([
      { date: '2025-03-08T00:00:00.000Z', sent: 10, opened: 0 },
      { date: '2025-03-09T00:00:00.000Z', sent: 11, opened: 1 },
      { date: '2025-03-10T00:00:00.000Z', sent: 12, opened: 2 },
    ]);
    expect(cio.requests.at(-1)!.query.toString()).toBe('period=days&steps=3&type=email');
    const evil = resolveVariables({ runtime: { campaign: '7/../../segments' } });
    const encoded = await source.run(conn, { route: 'campaigns/{{campaign}}/metrics', configuration: { period: 'days', steps: 1 } }, { variables: evil }).catch((e: Error & { code: string }) => e.code);
    expect(encoded).toBe('SOURCE_QUERY_FAILED');
    expect(cio.requests.at(-1)!.path).toBe('/v1/campaigns/7%2F..%2F..%2Fsegments/metrics');
  });

  it('reads journey metrics between start and end at a resolution', async () => {
    const result = await source.run(conn, { route: 'campaigns/7/journey_metrics', configuration: { start: '2025-03-01', end: '2025-03-03', resolution: 'days' } });
    expect(result.data).toEqual([
      { date: '2025-03-01T00:00:00.000Z', started: 5, messaged: 4, converted: 0, exited_early: 0, never_messaged: 1 },
      { date: '2025-03-02T00:00:00.000Z', started: 6, messaged: 4, converted: 1, exited_early: 0, never_messaged: 1 },
      { date: '2025-03-03T00:00:00.000Z', started: 7, messaged: 4, converted: 0, exited_early: 0, never_messaged: 1 },
    ]);
    expect(cio.requests.at(-1)!.query.toString()).toBe(`start=${Date.parse('2025-03-01') / 1000}&end=${Date.parse('2025-03-03') / 1000}&res=days`);
  });

  it('lists segments and campaigns; pages activities with their filters', async () => {
    expect(((await source.run(conn, { route: 'segments' })).data as { name: string }[]).map((s) => s.name)).toEqual(['Trial users', 'Paying']);
    expect((await source.run(conn, { route: 'campaigns' })).data).toEqual([{ id: 7, name: 'Onboarding', active: true, state: 'running' }]);
    const before = cio.requests.length;
    const events = await source.run(conn, { route: 'activities', configuration: { activityType: 'event', eventName: 'purchase', limit: 4 } });
    expect(events.data).toHaveLength(10);
    expect((events.data as unknown[])[0]).toMatchObject({ id: 'a0', timestamp: new Date(1741600000 * 1000).toISOString() });
    expect(cio.requests.slice(before).map((c) => c.query.toString())).toEqual([
      'type=event&name=purchase&limit=4',
      'type=event&name=purchase&limit=4&start=4',
      'type=event&name=purchase&limit=4&start=8',
    ]);
  });

  it('paging that stops at the page cap while Customer.io has a next page is truncated by pages', async () => {
    // Activities one per page (limit 1), more of them than the default cap of 1,000 requests.
    const kept = cio.activities;
    cio.activities = Array.from({ length: 1_010 }, (_, i) => ({ id: `p${i}`, type: 'page', name: 'view', customer_id: `u${i}`, timestamp: 1741600000 + i }));
    try {
      const before = cio.requests.length;
      const result = await source.run(conn, { route: 'activities', configuration: { limit: 1 } });
      expect(cio.requests.length - before).toBe(1_000);
      expect(result.data).toHaveLength(1_000);
      expect(result.meta).toMatchObject({ rowCount: 1_000, truncated: true, truncatedBy: 'pages', pageLimit: 1_000 });
      // All of them within the cap: done, not cut.
      cio.activities = cio.activities.slice(0, 1_000);
      expect((await source.run(conn, { route: 'activities', configuration: { limit: 1 } })).meta).toMatchObject({ rowCount: 1_000, truncated: false });
    } finally {
      cio.activities = kept;
    }
    // Customers, with a cap of one page: 1,000 of 1,250 read.
    cio.people.push(...Array.from({ length: 1_250 }, (_, i) => ({ id: `y${i}`, email: `y${i}@example.com`, cio_id: `cy${i}`, segments: [4], attributes: {} })));
    try {
      const onePage = new CustomerioSource(client, { baseUrl: cio.url, now: () => NOW, maxPages: 1 });
      const result = await onePage.run(conn, { route: 'customers', configuration: { segmentId: 4 } });
      expect(result.meta).toMatchObject({ rowCount: 1_000, truncated: true, truncatedBy: 'pages', pageLimit: 1 });
    } finally {
      cio.people = cio.people.filter((p) => !p.id.startsWith('y'));
    }
  });

  it('stops paging activities at the byte limit, the run marked truncated by bytes', async () => {
    const before = cio.requests.length;
    // Pages of 4 activities of about 100 bytes each: the third page is never asked for.
    const events = await source.run(conn, { route: 'activities', configuration: { limit: 4 } }, { byteLimit: 700 });
    expect(events.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: 700 });
    expect(events.data).toHaveLength(8);
    expect(cio.requests.length - before).toBe(2);
  });

  it('waits out a 429 once and carries on', async () => {
    cio.throttleNext(1);
    expect(await source.test(conn)).toEqual({ success: true });
  });

  it('a refused key is a 400 naming the App API key, never showing it; unknown routes name the supported ones', async () => {
    const error = (await source.run({ ...conn, password: 'wrong-key-value' }, { route: 'segments' }).catch((e: Error) => e)) as Error & { code: string; statusCode: number };
    expect(error).toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED' });
    expect(error.message).toContain('App API key');
    expect(error.message).toContain('Unauthorized request');
    expect(error.message).not.toContain('wrong-key-value');
    await expect(source.run(conn, { route: 'exports' })).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('campaigns/{id}/metrics') });
    await expect(source.run({ ...conn, password: null }, { route: 'segments' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(source.run(conn, { route: 'campaigns/99/metrics', configuration: { period: 'days', steps: 1 } })).rejects.toMatchObject({
      code: 'SOURCE_QUERY_FAILED',
      message: expect.stringContaining('campaign not found'),
    });
  });

  it('picks the host by region unless a base URL is configured', () => {
    expect(customerioBase({ ...conn, host: 'eu' }, undefined)).toBe('https://api-eu.customer.io');
    expect(customerioBase({ ...conn, host: 'us' }, undefined)).toBe('https://api.customer.io');
    expect(customerioBase({ ...conn, host: null }, undefined)).toBe('https://api.customer.io');
    expect(customerioBase({ ...conn, host: 'eu' }, 'https://cio.internal/')).toBe('https://cio.internal');
  });
});
