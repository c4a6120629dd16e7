import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOrdersTable, seedDashboard, type Requester, type SeededDashboard } from '../browser/share-seed.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * A chart whose refresh fails keeps its last good data and says so: `lastError: {code, message, at}`
 * beside `chartDataUpdated` (the time of that data) on the chart; the share page gets the code and
 * time only. A good refresh clears it.
 */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('a failed refresh is kept on the chart beside its last good data', () => {
  let t: TestApp;
  let source: { url: string; drop(): Promise<void> };
  let seed: SeededDashboard;

  const sql = async (text: string) => {
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(source.url);
    t = await buildTestApp({ rateLimit: { global: 100_000, auth: 100_000, share: 100_000 } });
    const api: Requester = ({ payload, ...options }) => t.request({ ...options, ...(payload !== undefined ? { payload: payload as Json } : {}) });
    seed = await seedDashboard(api, source.url);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const chart = async (id: number) => (await t.request({ method: 'GET', url: `/project/${seed.projectId}/chart/${id}`, token: seed.ownerToken })).json<Json>();
  const query = (id: number) => t.request({ method: 'POST', url: `/project/${seed.projectId}/chart/${id}/query`, token: seed.ownerToken });

  it('records the failure, keeps the data and its time, shows code and time on the share page, and clears on success', async () => {
    const good = await chart(seed.charts.bar);
    expect(good.lastError).toBeNull();
    expect(good.chartDataUpdated).not.toBeNull();

    await sql('alter table orders rename to orders_gone');
    const failed = await query(seed.charts.bar);
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    const stale = await chart(seed.charts.bar);
    expect(stale.lastError).toMatchObject({ code: failed.json<Json>().code, message: expect.any(String) });
    expect(Date.parse(stale.lastError.at)).toBeGreaterThanOrEqual(Date.parse(good.chartDataUpdated));
    expect(stale.chartDataUpdated).toBe(good.chartDataUpdated);
    expect(stale.chartData).toEqual(good.chartData);

    // A scheduled dashboard refresh goes on past the failing charts and records each failure too.
    const before = await chart(seed.charts.kpi);
    const run = await t.container.refreshes.refreshDashboard(seed.teamId, seed.projectId, 'schedule');
    expect(run?.status).toBe('failure');
    const kpi = await chart(seed.charts.kpi);
    expect(kpi.lastError).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(kpi.chartDataUpdated).toBe(before.chartDataUpdated);
    expect((await chart(seed.charts.markdown)).lastError).toBeNull();

    const policy = (await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/policy`, token: seed.ownerToken })).json<Json>();
    const token = (await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: seed.ownerToken, payload: { sharePolicyId: policy.id, exp: '' } })).json<Json>().token;
    const page = (await t.request({ method: 'GET', url: `/project/dashboard/${encodeURIComponent(seed.brewName)}?token=${encodeURIComponent(token)}` })).json<Json>();
    const shared = page.Charts.find((c: Json) => c.id === seed.charts.bar);
    const latest = (await chart(seed.charts.bar)).lastError;
    expect(shared.lastError).toEqual({ code: latest.code, at: latest.at });
    expect(shared.chartDataUpdated).toBe(good.chartDataUpdated);

    await sql('alter table orders_gone rename to orders');
    expect((await query(seed.charts.bar)).statusCode).toBe(200);
    const fixed = await chart(seed.charts.bar);
    expect(fixed.lastError).toBeNull();
    expect(Date.parse(fixed.chartDataUpdated)).toBeGreaterThan(Date.parse(good.chartDataUpdated));
  });
});
