import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createDashboard, createSourceDb, kpiValue, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

/**
 * The scheduler in one process on the embedded store, on a clock the test moves: due dashboards
 * and charts refresh through the chart-run path, every refresh is in the history, a failing or
 * slow chart holds back nothing else, and old history is pruned.
 */
describe('scheduled refreshes (embedded store, stepped clock)', () => {
  let t: TestApp;
  let source: SourceDb;
  let owner: { token: string; teamId: number };
  const clock = steppedClock('2026-03-02T09:00:00.000Z');
  let call: Call;

  beforeAll(async () => {
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({ scheduler: { clock: clock.now } });
    owner = await t.signup('Owner');
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const get = async (url: string) => (await call('GET', url, owner.token)).json();
  const tick = async () => {
    const report = await t.container.scheduler.tick();
    await t.container.scheduler.dispatcher.idle();
    return report;
  };

  it('an every_x_minutes schedule refreshes the dashboard once per period; the share page shows the new data', async () => {
    await source.exec('delete from metrics; insert into metrics values (1), (2)');
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '1' } } });
    // A dashboard that was never refreshed is due at once.
    expect((await get(`/project/${d.projectId}`)).nextUpdateAt).not.toBeNull();
    let report = await tick();
    expect(report.claimed).toBeGreaterThanOrEqual(1);
    let project = await get(`/project/${d.projectId}`);
    expect(kpiValue(project.Charts[0])).toBe(3);
    expect(project.lastUpdatedAt).toBe(clock.now().toISOString());
    expect(project.nextUpdateAt).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

    await source.exec('insert into metrics values (10)');
    clock.advance(30_000);
    await tick();
    expect(kpiValue((await get(`/project/${d.projectId}`)).Charts[0])).toBe(3);
    clock.advance(30_000);
    await tick();
    project = await get(`/project/${d.projectId}`);
    expect(kpiValue(project.Charts[0])).toBe(13);
    const share = await call('GET', `/project/dashboard/${d.brewName}`);
    expect(share.statusCode, share.body).toBe(200);
    expect(kpiValue(share.json().Charts[0])).toBe(13);

    // Ten missed minutes collapse into one catch-up run.
    clock.advance(10 * 60_000);
    report = await tick();
    clock.advance(1_000);
    await tick();
    const runs = await get(`/project/${d.projectId}/runs`);
    expect(runs.total).toBe(3);
    expect(runs.runs.map((r: { trigger: string }) => r.trigger)).toEqual(['schedule', 'schedule', 'schedule']);
    const newest = runs.runs[0];
    expect(newest).toMatchObject({ project_id: d.projectId, chart_id: null, status: 'success', error: null });
    expect(newest.charts).toEqual([expect.objectContaining({ chart_id: d.chartId, status: 'success', cacheHit: false, error: null })]);
    expect(newest.charts[0].paths).toEqual(['pushdown']);
    expect(newest.charts[0].rowsRead).toBeGreaterThan(0);
    // Newest first, paged.
    const page = await get(`/project/${d.projectId}/runs?limit=1&offset=1`);
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.runs[0].id).toBe(runs.runs[1].id);
    expect(Date.parse(runs.runs[0].startedAt)).toBeGreaterThan(Date.parse(runs.runs[1].startedAt));
  });

  it('chart autoUpdate refreshes that chart (trigger auto) and sets lastAutoUpdate; markdown charts are skipped', async () => {
    await source.exec('delete from metrics; insert into metrics values (5)');
    const d = await createDashboard(call, owner, source.url, { chart: { autoUpdate: 120 } });
    const markdown = await call('POST', `/project/${d.projectId}/chart`, owner.token, { name: 'Notes', type: 'markdown', content: '# hi', autoUpdate: 60 });
    expect(markdown.statusCode).toBe(200);
    await tick();
    let chart = await get(`/project/${d.projectId}/chart/${d.chartId}`);
    expect(kpiValue(chart)).toBe(5);
    expect(chart.lastAutoUpdate).toBe(clock.now().toISOString());
    await source.exec('insert into metrics values (1)');
    clock.advance(60_000);
    await tick();
    expect(kpiValue(await get(`/project/${d.projectId}/chart/${d.chartId}`))).toBe(5);
    clock.advance(60_000);
    await tick();
    chart = await get(`/project/${d.projectId}/chart/${d.chartId}`);
    expect(kpiValue(chart)).toBe(6);
    const runs = await get(`/project/${d.projectId}/chart/${d.chartId}/runs`);
    expect(runs.runs.map((r: { trigger: string; chart_id: number }) => [r.trigger, r.chart_id])).toEqual([
      ['auto', d.chartId],
      ['auto', d.chartId],
    ]);
    expect((await get(`/project/${d.projectId}/chart/${markdown.json().id}/runs`)).total).toBe(0);
  });

  it('a manual query is recorded as a manual run', async () => {
    const d = await createDashboard(call, owner, source.url);
    const res = await call('POST', `/project/${d.projectId}/chart/${d.chartId}/query`, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const runs = await get(`/project/${d.projectId}/chart/${d.chartId}/runs`);
    expect(runs.runs).toHaveLength(1);
    expect(runs.runs[0]).toMatchObject({ trigger: 'manual', status: 'success', chart_id: d.chartId });
  });

  it('a failing chart does not stop the other charts of its dashboard (partial_failure, error without secrets)', async () => {
    await source.exec('delete from metrics; insert into metrics values (4)');
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: '1' } } });
    await createDashboard(call, owner, source.url, { connectionId: d.connectionId, query: 'select v from no_such_table' }).then(async (broken) => {
      // Move the broken chart onto the scheduled dashboard.
      await t.container.store.db.updateTable('charts').set({ project_id: d.projectId }).where('id', '=', broken.chartId).execute();
    });
    await tick();
    const runs = await get(`/project/${d.projectId}/runs`);
    expect(runs.runs[0].status).toBe('partial_failure');
    const entries = runs.runs[0].charts as { chart_id: number; status: string; error: { code: string; message: string } | null }[];
    expect(entries.find((e) => e.chart_id === d.chartId)).toMatchObject({ status: 'success', error: null });
    const failed = entries.find((e) => e.status === 'failure')!;
    expect(failed.error!.code).toBe('SOURCE_QUERY_FAILED');
    expect(failed.error!.message).toContain('no_such_table');
    expect(JSON.stringify(runs)).not.toContain(new URL(source.url).password || 'postgres://');
    expect(kpiValue((await get(`/project/${d.projectId}`)).Charts.find((c: { id: number }) => c.id === d.chartId))).toBe(4);
  });

  it('a slow source does not delay another dashboard', async () => {
    // The slow dashboard's query reads a table the test holds locked (saved queries may only read,
    // so they cannot take locks of their own); the fast one must finish meanwhile.
    const holder = new pg.Client({ connectionString: source.url });
    await holder.connect();
    await holder.query('create table if not exists slow_gate (id int)');
    await holder.query('begin');
    await holder.query('lock table slow_gate in access exclusive mode');
    try {
      const schedule = { updateSchedule: { frequency: 'every_x_days', frequencyNumber: '1' } };
      const slow = await createDashboard(call, owner, source.url, { project: schedule, query: 'select v from metrics, (select count(*) from slow_gate) as wait' });
      const fast = await createDashboard(call, owner, source.url, { project: schedule, connectionId: slow.connectionId });
      await t.container.scheduler.tick();
      const deadline = Date.now() + 20_000;
      while ((await get(`/project/${fast.projectId}/runs`)).total === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect((await get(`/project/${fast.projectId}/runs`)).runs[0]?.status).toBe('success');
      expect((await get(`/project/${slow.projectId}/runs`)).total).toBe(0);
      await holder.query('commit');
      await t.container.scheduler.dispatcher.idle();
      expect((await get(`/project/${slow.projectId}/runs`)).runs[0]?.status).toBe('success');
    } finally {
      await holder.end();
    }
  });

  it('a claim a stopped process left queued is found at the next tick and run; lastUpdatedAt waits for the run', async () => {
    await source.exec('delete from metrics; insert into metrics values (7)');
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: '1' } } });
    // What a process that stopped before its in-process queue ran the job leaves in the store.
    const claimedAt = clock.now().toISOString();
    await t.container.store.db
      .insertInto('refresh_claims')
      .values({ entity_type: 'dashboard', entity_id: d.projectId, period: 'first', claimedAt, state: 'enqueued', team_id: owner.teamId, enqueuedAt: claimedAt })
      .execute();
    // Other dashboards of this suite may come due meanwhile; this one is claimed already.
    expect((await tick()).requeued).toBe(0);
    expect((await get(`/project/${d.projectId}`)).lastUpdatedAt).toBeNull();
    expect((await get(`/project/${d.projectId}/runs`)).total).toBe(0);
    clock.advance(60_000);
    expect((await tick()).requeued).toBe(1);
    const project = await get(`/project/${d.projectId}`);
    expect(kpiValue(project.Charts[0])).toBe(7);
    expect(project.lastUpdatedAt).toBe(clock.now().toISOString());
    expect((await get(`/project/${d.projectId}/runs`)).runs.map((r: { trigger: string; status: string }) => [r.trigger, r.status])).toEqual([['schedule', 'success']]);
    expect(t.logs.text).toContain('claimed refresh was not in the queue (lost); enqueued again');
  });

  it('run history older than PLOTLINE_RUN_HISTORY_DAYS is pruned by the scheduler', async () => {
    const d = await createDashboard(call, owner, source.url);
    await call('POST', `/project/${d.projectId}/chart/${d.chartId}/query`, owner.token);
    expect((await get(`/project/${d.projectId}/runs`)).total).toBe(1);
    clock.advance(31 * 86_400_000);
    await tick();
    expect((await get(`/project/${d.projectId}/runs`)).total).toBe(0);
  });

  it('run routes check access: a stranger gets 404, bad paging a 400', async () => {
    const d = await createDashboard(call, owner, source.url);
    const stranger = await t.signup('Stranger');
    expect((await call('GET', `/project/${d.projectId}/runs`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `/project/${d.projectId}/chart/${d.chartId}/runs`, stranger.token)).statusCode).toBe(404);
    const bad = await call('GET', `/project/${d.projectId}/runs?limit=0`, owner.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBeTruthy();
  });

  it('/metrics shows refresh counts, durations, queue depth and the last tick', async () => {
    const text = (await call('GET', '/metrics')).body;
    expect(text).toMatch(/plotline_refresh_runs_total\{trigger="schedule",status="success"\} \d+/);
    expect(text).toMatch(/plotline_refresh_runs_total\{trigger="manual",status="success"\} \d+/);
    expect(text).toContain('plotline_refresh_duration_seconds_bucket');
    expect(text).toMatch(/plotline_refresh_queue_depth \d+/);
    expect(text).toMatch(/plotline_scheduler_last_tick_timestamp_seconds \d+/);
  });
});
