import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { postgresConnection, teamWithEveryRole, type RoleTeam } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/*
 * *Refresh all* on the server: POST /project/{id}/refresh computes and saves every chart of the
 * dashboard, goes on past a chart that fails (which keeps its data and says why), and answers the
 * one manual run it records, with each chart's outcome. Over a real Postgres source, on both stores.
 */
describe.each(['sqlite', 'postgres'] as StoreKind[])('refreshing a whole dashboard (%s store)', (store) => {
  let t: TestApp;
  let team: RoleTeam;
  let source: { url: string; drop(): Promise<void> };
  let bar: number;
  let kpi: number;
  let broken: number;
  const as = (role: keyof RoleTeam['people']) => team.people[role].token;

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'), `
      create table deliveries (id int primary key, city text);
      insert into deliveries select i, (array['Lyon','Paris','Berlin'])[1 + i % 3] from generate_series(1, 30) i;
    `);
    t = await buildTestApp({ store });
    team = await teamWithEveryRole(t);
    const owner = as('teamOwner');
    const url = new URL(source.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${team.teamId}/connections`,
        token: owner,
        payload: postgresConnection('deliveries', url),
      })
    ).json<Json>();
    const dataset = async (query: string) => {
      const res = await t.request({ method: 'POST', url: `/team/${team.teamId}/datasets/quick-create`, token: owner, payload: { name: 'D', project_ids: [team.projectId], dataRequests: [{ connection_id: conn.id, query }] } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Json>().id as number;
    };
    const deliveries = await dataset('select * from deliveries');
    const archive = await dataset('select * from deliveries_archive');
    const chart = async (payload: Record<string, unknown>, config: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/chart/quick-create`, token: owner, payload: { ...payload, chartDatasetConfigs: [config] } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Json>().id as number;
    };
    bar = await chart({ name: 'By city', type: 'bar' }, { dataset_id: deliveries, xAxis: 'root[].city', yAxisOperation: 'count' });
    kpi = await chart({ name: 'Deliveries', type: 'kpi' }, { dataset_id: deliveries, xAxis: 'root[].id', yAxisOperation: 'count' });
    broken = await chart({ name: 'Archive', type: 'kpi' }, { dataset_id: archive, xAxis: 'root[].id', yAxisOperation: 'count' });
    await chart({ name: 'Notes', type: 'markdown', content: '# Notes' }, { dataset_id: deliveries });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const get = async (id: number) => (await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${id}`, token: as('teamOwner') })).json<Json>();

  it("computes and saves every chart, goes on past one that fails, and answers the run with each chart's outcome", async () => {
    const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/refresh`, token: as('projectEditor') });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json<Json>();
    expect(run).toMatchObject({ project_id: team.projectId, chart_id: null, trigger: 'manual', status: 'partial_failure' });
    // Markdown has nothing to compute.
    expect(run.charts.map((c: Json) => [c.chart_id, c.status]).sort()).toEqual([[bar, 'success'], [kpi, 'success'], [broken, 'failure']].sort());
    expect(run.charts.find((c: Json) => c.chart_id === broken).error).toMatchObject({ code: expect.any(String), message: expect.stringContaining('deliveries_archive') });

    const saved = await get(kpi);
    expect(saved.chartData.data.datasets[0].data).toEqual([30]);
    expect(saved.chartDataUpdated).not.toBeNull();
    const failed = await get(broken);
    expect(failed.lastError).toMatchObject({ code: expect.any(String) });
    expect(failed.chartData).toBeNull();

    // The dashboard's history has it, once.
    const runs = (await t.request({ method: 'GET', url: `/project/${team.projectId}/runs`, token: as('projectViewer') })).json<Json>().runs;
    expect(runs.filter((r: Json) => r.id === run.id)).toHaveLength(1);
  });

  it('is for those who may save charts: a viewer is refused, someone outside the team does not see the dashboard', async () => {
    const before = await get(bar);
    const viewer = await t.request({ method: 'POST', url: `/project/${team.projectId}/refresh`, token: as('projectViewer') });
    expect(viewer.statusCode).toBe(403);
    const stranger = await t.request({ method: 'POST', url: `/project/${team.projectId}/refresh`, token: as('stranger') });
    expect(stranger.statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: '/project/999999/refresh', token: as('teamOwner') })).statusCode).toBe(404);
    expect((await get(bar)).chartDataUpdated).toBe(before.chartDataUpdated);
  });
});
