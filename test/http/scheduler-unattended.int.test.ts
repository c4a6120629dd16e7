import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createDashboard, createSourceDb, kpiValue, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

/**
 * Unattended: the scheduler's own timer, started as `serve` starts it, refreshes a dashboard with
 * a one-minute schedule and its share page shows the new data. The tick is 50 ms and the clock
 * runs 1,200 times faster than the wall (one scheduled minute per tick), so nobody waits minutes.
 */
describe('unattended refresh on the running scheduler', () => {
  let t: TestApp;
  let source: SourceDb;
  let call: Call;
  const started = Date.now();
  const fast = () => new Date(Date.parse('2026-06-01T00:00:00Z') + (Date.now() - started) * 1_200);

  beforeAll(async () => {
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({ scheduler: { clock: fast, tickMs: 50 } });
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  async function shareValue(brewName: string): Promise<number | null> {
    const res = await call('GET', `/project/dashboard/${brewName}`);
    expect(res.statusCode, res.body).toBe(200);
    return kpiValue(res.json().Charts[0]);
  }

  async function until(predicate: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('a change in the source reaches the public share page with nobody running anything', async () => {
    const owner = await t.signup('Owner');
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '1' } } });
    expect(await shareValue(d.brewName)).toBeNull();
    await t.container.scheduler.start();
    await until(async () => (await shareValue(d.brewName)) === 3, 'the first scheduled refresh');
    await source.exec('insert into metrics values (40)');
    await until(async () => (await shareValue(d.brewName)) === 43, 'the refresh after the change');
    // Stopped (runs in flight finish), so runs and claims are read at rest.
    await t.container.scheduler.stop();
    const runs = (await call('GET', `/project/${d.projectId}/runs`, owner.token)).json();
    expect(runs.runs.every((r: { trigger: string; status: string }) => r.trigger === 'schedule' && r.status === 'success')).toBe(true);
    // Never two runs in one period: each run is the one claim of its period (the claims' key holds
    // the period), whatever the busy machine did to the fast clock between a claim and its start.
    const claims = await t.container.store.db
      .selectFrom('refresh_claims')
      .select('period')
      .where('entity_type', '=', 'dashboard')
      .where('entity_id', '=', d.projectId)
      .execute();
    expect(runs.runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.runs).toHaveLength(claims.length);
  });
});
