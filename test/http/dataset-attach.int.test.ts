import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertDataset, insertProject } from '../helpers/fixtures.js';

type Person = Awaited<ReturnType<TestApp['signup']>>;

async function addMember(t: TestApp, owner: Person, role: Role, projects: number[]): Promise<Person> {
  const person = await t.signup(role);
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects } });
  if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
  return person;
}

async function projectIdsOf(t: TestApp, who: Person, datasetId: number): Promise<number[]> {
  const res = await t.request({ method: 'GET', url: `/team/${who.teamId}/datasets/${datasetId}`, token: who.token });
  expect(res.statusCode).toBe(200);
  return res.json().project_ids;
}

const chartWith = (datasetId: number) => ({ name: 'Orders', type: 'line', chartDatasetConfigs: [{ dataset_id: datasetId, xAxis: 'root[].day', yAxis: 'root[].n' }] });

/** A dataset of the team is usable on any dashboard its user may edit: using it there attaches it. */
describe.each<StoreKind>(['sqlite', 'postgres'])('datasets attached on use (%s)', (store) => {
  let t: TestApp;
  let owner: Person;
  beforeAll(async () => {
    t = await buildTestApp({ store });
    owner = await t.signup('Owner');
  });
  afterAll(() => t.close());

  it('a dataset made before the dashboard is attached to it by the chart that uses it', async () => {
    const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets`, token: owner.token, payload: { name: 'Early' } });
    expect(created.statusCode).toBe(200);
    const datasetId = created.json().id as number;
    expect(created.json().project_ids).toEqual([]);
    const first = await insertProject(t, owner.teamId, 'First');
    const second = await insertProject(t, owner.teamId, 'Second');

    const chart = await t.request({ method: 'POST', url: `/project/${first}/chart/quick-create`, token: owner.token, payload: chartWith(datasetId) });
    expect(chart.statusCode, chart.body).toBe(200);
    expect(await projectIdsOf(t, owner, datasetId)).toEqual([first]);

    // A config added to a chart of another dashboard attaches it there too; using it again writes nothing new.
    const other = await t.request({ method: 'POST', url: `/project/${second}/chart`, token: owner.token, payload: { name: 'Other', type: 'bar' } });
    const config = await t.request({ method: 'POST', url: `/project/${second}/chart/${other.json().id}/chart-dataset-config`, token: owner.token, payload: { dataset_id: datasetId } });
    expect(config.statusCode, config.body).toBe(200);
    const again = await t.request({ method: 'POST', url: `/project/${first}/chart/quick-create`, token: owner.token, payload: chartWith(datasetId) });
    expect(again.statusCode).toBe(200);
    expect((await projectIdsOf(t, owner, datasetId)).sort()).toEqual([first, second].sort());
  });

  it('a config changed to another dataset attaches that one', async () => {
    const board = await insertProject(t, owner.teamId, 'Changed');
    const a = await insertDataset(t, owner.teamId, 'A', [board]);
    const b = await insertDataset(t, owner.teamId, 'B');
    const chart = await t.request({ method: 'POST', url: `/project/${board}/chart/quick-create`, token: owner.token, payload: chartWith(a) });
    const cdc = chart.json().ChartDatasetConfigs[0].id as string;
    const put = await t.request({ method: 'PUT', url: `/project/${board}/chart/${chart.json().id}/chart-dataset-config/${cdc}`, token: owner.token, payload: { dataset_id: b } });
    expect(put.statusCode, put.body).toBe(200);
    expect(await projectIdsOf(t, owner, b)).toEqual([board]);
  });

  it('a project editor attaches a dataset of one of its dashboards to another of its own, never one it may not read', async () => {
    const mine = await insertProject(t, owner.teamId, 'Mine');
    const alsoMine = await insertProject(t, owner.teamId, 'Also mine');
    const notMine = await insertProject(t, owner.teamId, 'Not mine');
    const editor = await addMember(t, owner, 'projectEditor', [mine, alsoMine]);
    const readable = await insertDataset(t, owner.teamId, 'Readable', [mine]);
    const hidden = await insertDataset(t, owner.teamId, 'Hidden', [notMine]);

    const used = await t.request({ method: 'POST', url: `/project/${alsoMine}/chart/quick-create`, token: editor.token, payload: chartWith(readable) });
    expect(used.statusCode, used.body).toBe(200);
    expect((await projectIdsOf(t, owner, readable)).sort()).toEqual([mine, alsoMine].sort());

    const refused = await t.request({ method: 'POST', url: `/project/${alsoMine}/chart/quick-create`, token: editor.token, payload: chartWith(hidden) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('is not a dataset of this team that you may use');
    expect(await projectIdsOf(t, owner, hidden)).toEqual([notMine]);

    // A dashboard the editor may not edit is refused before any dataset is looked at.
    const elsewhere = await t.request({ method: 'POST', url: `/project/${notMine}/chart/quick-create`, token: editor.token, payload: chartWith(readable) });
    expect([403, 404]).toContain(elsewhere.statusCode);
    expect((await projectIdsOf(t, owner, readable)).sort()).toEqual([mine, alsoMine].sort());

    const viewer = await addMember(t, owner, 'projectViewer', [alsoMine]);
    const viewed = await t.request({ method: 'POST', url: `/project/${alsoMine}/chart/quick-create`, token: viewer.token, payload: chartWith(readable) });
    expect(viewed.statusCode).toBe(403);
  });

  it("another team's dataset is refused and stays as it was", async () => {
    const stranger = await t.signup('Stranger');
    const theirs = await insertDataset(t, stranger.teamId, 'Theirs');
    const board = await insertProject(t, owner.teamId, 'Tenancy');
    const res = await t.request({ method: 'POST', url: `/project/${board}/chart/quick-create`, token: owner.token, payload: chartWith(theirs) });
    expect(res.statusCode).toBe(400);
    expect(await projectIdsOf(t, stranger, theirs)).toEqual([]);
  });
});
