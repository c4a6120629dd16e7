import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOrdersTable, seedDashboard, type Requester, type SeededDashboard } from '../browser/share-seed.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/*
 * Saved data much older than its refresh schedule allows is marked on the shared pages and the
 * pictures: `refreshOverdue: {since, everySeconds}` on the chart of the report and of a chart link
 * (the schedule itself stays private), computed by the server with the rule of
 * src/runtime/scheduler/cadence.ts. Not for a chart without a schedule, nor for fresh data, nor
 * while a schedule set a moment ago has not had its chance. Times are moved back in the store: no
 * scheduler runs in this app.
 */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR_MS = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('a chart overdue by its refresh schedule is marked on shared pages and pictures', () => {
  let t: TestApp;
  let source: { url: string; drop(): Promise<void> };
  let seed: SeededDashboard;
  let reportToken: string;

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(source.url);
    t = await buildTestApp({ rateLimit: { global: 100_000, auth: 100_000, share: 100_000 } });
    const api: Requester = ({ payload, ...options }) => t.request({ ...options, ...(payload !== undefined ? { payload: payload as Json } : {}) });
    seed = await seedDashboard(api, source.url);
    const policy = (await call('POST', `/project/${seed.projectId}/share/policy`)).id;
    reportToken = (await call('POST', `/project/${seed.projectId}/share/token`, { sharePolicyId: policy })).token;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json): Promise<Json> {
    const res = await t.request({ method, url, token: seed.ownerToken, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json();
  }
  const db = () => t.container.store.db;
  /** The data of `chartId` computed `ms` ago, and the chart last saved before that. */
  const dataAged = async (chartId: number, ms: number) => db().updateTable('charts').set({ chartDataUpdated: ago(ms), updatedAt: ago(ms + HOUR_MS) }).where('id', '=', chartId).execute();
  /** The dashboard's schedule, then its last save moved `ms` back. */
  const schedule = async (updateSchedule: Json, savedMsAgo: number) => {
    await call('PUT', `/project/${seed.projectId}`, { updateSchedule });
    await db().updateTable('projects').set({ updatedAt: ago(savedMsAgo) }).where('id', '=', seed.projectId).execute();
  };
  const report = async () => {
    const res = await t.request({ method: 'GET', url: `/project/dashboard/${encodeURIComponent(seed.brewName)}?token=${encodeURIComponent(reportToken)}` });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, charts: new Map<number, Json>(res.json().Charts.map((c: Json) => [c.id, c])) };
  };

  it('an hourly dashboard: data 3 hours old is overdue, data 1 hour old is merely due; the schedule stays private', async () => {
    await schedule({ frequency: 'every_x_hours', frequencyNumber: 1 }, 48 * HOUR_MS);
    await dataAged(seed.charts.bar, 3 * HOUR_MS);
    await dataAged(seed.charts.pie, HOUR_MS + 10 * 60_000);
    const { body, charts } = await report();
    const bar = charts.get(seed.charts.bar);
    expect(bar.refreshOverdue).toEqual({ since: bar.chartDataUpdated, everySeconds: 3_600 });
    expect(Date.parse(bar.chartDataUpdated)).toBeLessThan(Date.now() - 2 * HOUR_MS);
    expect(charts.get(seed.charts.pie).refreshOverdue).toBeUndefined();
    expect(charts.get(seed.charts.kpi).refreshOverdue).toBeUndefined();
    // Markdown never refreshes: never overdue.
    expect(charts.get(seed.charts.markdown).refreshOverdue).toBeUndefined();
    for (const secret of ['updateSchedule', 'every_x_hours', 'frequency', 'autoUpdate', 'lastAutoUpdate']) expect(body).not.toContain(secret);
  });

  it('a chart link says so too, and so does a picture of the chart', async () => {
    await call('POST', `/project/${seed.projectId}/chart/${seed.charts.bar}/share/policy`);
    const link = await call('POST', `/project/${seed.projectId}/chart/${seed.charts.bar}/share/token`, {});
    const shareString = new URL(link.url).pathname.split('/')[2];
    const shared = await t.request({ method: 'GET', url: `/chart/share/${shareString}?token=${encodeURIComponent(link.token)}` });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().refreshOverdue).toMatchObject({ everySeconds: 3_600 });

    const svg = await t.request({ method: 'GET', url: `/project/${seed.projectId}/chart/${seed.charts.bar}/image?format=svg`, token: seed.ownerToken });
    expect(svg.statusCode).toBe(200);
    for (const word of ['Not', 'refreshed', 'although', 'hour.']) expect(svg.body).toContain(`>${word}</text>`);
    const fresh = await t.request({ method: 'GET', url: `/project/${seed.projectId}/chart/${seed.charts.pie}/image?format=svg`, token: seed.ownerToken });
    expect(fresh.body).not.toContain('>refreshed</text>');
  });

  it("a chart's own autoUpdate counts, the shortest schedule missed is named; a failed refresh keeps its own mark beside it", async () => {
    await schedule({ frequency: 'daily', time: { hour: 6 } }, 48 * HOUR_MS);
    await call('PUT', `/project/${seed.projectId}/chart/${seed.charts.pie}`, { autoUpdate: 900 });
    await dataAged(seed.charts.pie, 2 * HOUR_MS);
    let charts = (await report()).charts;
    // 3 hours is not overdue for a daily dashboard; 2 hours is for a chart that refreshes every 15 minutes.
    expect(charts.get(seed.charts.bar).refreshOverdue).toBeUndefined();
    expect(charts.get(seed.charts.pie).refreshOverdue).toMatchObject({ everySeconds: 900 });

    await db().updateTable('charts').set({ lastError: JSON.stringify({ code: 'SOURCE_UNREACHABLE', message: 'connect ECONNREFUSED', at: ago(60_000) }) }).where('id', '=', seed.charts.pie).execute();
    charts = (await report()).charts;
    expect(charts.get(seed.charts.pie)).toMatchObject({ lastError: { code: 'SOURCE_UNREACHABLE' }, refreshOverdue: { everySeconds: 900 } });
    await db().updateTable('charts').set({ lastError: null }).where('id', '=', seed.charts.pie).execute();
  });

  it('never while a schedule set a moment ago has not had its chance, nor without any schedule', async () => {
    await dataAged(seed.charts.bar, 10 * 24 * HOUR_MS);
    // Saving the dashboard (the schedule with it) starts the count again.
    await call('PUT', `/project/${seed.projectId}`, { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: 1 } });
    expect((await report()).charts.get(seed.charts.bar).refreshOverdue).toBeUndefined();
    await db().updateTable('projects').set({ updatedAt: ago(3 * HOUR_MS) }).where('id', '=', seed.projectId).execute();
    expect((await report()).charts.get(seed.charts.bar).refreshOverdue).toMatchObject({ everySeconds: 3_600 });

    await schedule(null, 48 * HOUR_MS);
    await call('PUT', `/project/${seed.projectId}/chart/${seed.charts.pie}`, { autoUpdate: 0 });
    await dataAged(seed.charts.pie, 10 * 24 * HOUR_MS);
    const { charts } = await report();
    for (const chart of charts.values()) expect(chart.refreshOverdue, chart.name).toBeUndefined();
  });

  it('data computed for the viewer (a link with parameters) is not saved data: not marked', async () => {
    await schedule({ frequency: 'every_x_hours', frequencyNumber: 1 }, 48 * HOUR_MS);
    const policy = await call('POST', `/project/${seed.projectId}/share/policy`);
    await call('PUT', `/project/${seed.projectId}/share/policy/${policy.id}`, { params: [{ key: 'status', value: 'paid' }] });
    const token = (await call('POST', `/project/${seed.projectId}/share/token`, { sharePolicyId: policy.id })).token;
    const res = await t.request({ method: 'GET', url: `/project/dashboard/${encodeURIComponent(seed.brewName)}?token=${encodeURIComponent(token)}` });
    const bar = res.json().Charts.find((c: Json) => c.id === seed.charts.bar);
    expect(bar.chartData).not.toBeNull();
    expect(bar.refreshOverdue).toBeUndefined();
    // The same chart through the link without parameters is marked.
    expect((await report()).charts.get(seed.charts.bar).refreshOverdue).toMatchObject({ everySeconds: 3_600 });
  });
});
