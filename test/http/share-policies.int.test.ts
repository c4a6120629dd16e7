import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';

type Person = Awaited<ReturnType<TestApp['signup']>>;
type Json = Record<string, any>;

const POLICY_KEYS = ['allow_params', 'createdAt', 'entity_id', 'entity_type', 'expires_at', 'id', 'params', 'share_string', 'token_version', 'updatedAt', 'visibility'];

async function addMember(t: TestApp, owner: Person, role: Role, projects: number[]): Promise<Person> {
  const person = await t.signup(role);
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects } });
  if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
  return person;
}

async function createProject(t: TestApp, who: Person, name = 'Board'): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/project', token: who.token, payload: { name, team_id: who.teamId } });
  if (res.statusCode !== 200) throw new Error(`create project failed: ${res.body}`);
  return res.json().id;
}

async function createChart(t: TestApp, who: Person, projectId: number): Promise<number> {
  const res = await t.request({ method: 'POST', url: `/project/${projectId}/chart`, token: who.token, payload: { name: 'Chart', type: 'line' } });
  if (res.statusCode !== 200) throw new Error(`create chart failed: ${res.body}`);
  return res.json().id;
}

function expectFieldError(res: { statusCode: number; json(): any }, path: string): void {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.error).toContain(path);
  expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
}

async function tokenVersion(t: TestApp, policyId: number): Promise<number> {
  const row = await t.container.store.db.selectFrom('share_policies').select('token_version').where('id', '=', policyId).executeTakeFirstOrThrow();
  return row.token_version;
}

describe.each<StoreKind>(['sqlite', 'postgres'])('share policies round trip (%s)', (store) => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let chartId: number;
  beforeAll(async () => {
    t = await buildTestApp({ store });
    owner = await t.signup('Owner');
    projectId = await createProject(t, owner);
    chartId = await createChart(t, owner, projectId);
  });
  afterAll(() => t.close());

  const bases = () =>
    [
      ['dashboard', `/project/${projectId}/share/policy`, 'Project', () => projectId],
      ['chart', `/project/${projectId}/chart/${chartId}/share/policy`, 'Chart', () => chartId],
    ] as const;

  it.each(['dashboard', 'chart'] as const)('%s: create, update, list, revoke and delete', async (which) => {
    const [, base, entityType, entityId] = bases().find(([name]) => name === which)!;
    // The mcp client sends a JSON content type and no body.
    const create = await t.request({ method: 'POST', url: base, token: owner.token, headers: { 'content-type': 'application/json' } });
    expect(create.statusCode).toBe(200);
    const policy = create.json();
    expect(Object.keys(policy).sort()).toEqual(POLICY_KEYS);
    // token_version 2: Chartbrew's web app signs a link by itself only for a policy at 2 or more.
    expect(policy).toMatchObject({ entity_type: entityType, entity_id: entityId(), params: [], allow_params: false, expires_at: null, visibility: 'private', token_version: 2 });
    expect(policy.share_string).toMatch(/^[A-Za-z0-9_-]{24,}$/);

    const update = await t.request({
      method: 'PUT',
      url: `${base}/${policy.id}`,
      token: owner.token,
      payload: { params: [{ key: 'userId', value: '12345' }, { key: 'region', value: 'us-east' }], allow_params: true, expires_at: '2030-12-31T23:59:59Z' },
    });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({
      id: policy.id,
      share_string: policy.share_string,
      params: [{ key: 'userId', value: '12345' }, { key: 'region', value: 'us-east' }],
      allow_params: true,
      expires_at: '2030-12-31T23:59:59.000Z',
      createdAt: policy.createdAt,
    });

    // Omitted fields stay as they were.
    const partial = await t.request({ method: 'PUT', url: `${base}/${policy.id}`, token: owner.token, payload: { allow_params: false } });
    expect(partial.json()).toMatchObject({ allow_params: false, expires_at: '2030-12-31T23:59:59.000Z', params: [{ key: 'userId', value: '12345' }, { key: 'region', value: 'us-east' }] });
    const cleared = await t.request({ method: 'PUT', url: `${base}/${policy.id}`, token: owner.token, payload: { expires_at: null, visibility: 'disabled' } });
    expect(cleared.json()).toMatchObject({ expires_at: null, visibility: 'disabled' });

    const list = await t.request({ method: 'GET', url: base, token: owner.token });
    expect(list.json()).toEqual([cleared.json()]);

    const before = await tokenVersion(t, policy.id);
    const revoke = await t.request({ method: 'POST', url: `${base}/${policy.id}/revoke`, token: owner.token });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toMatchObject({ id: policy.id, share_string: policy.share_string });
    expect(await tokenVersion(t, policy.id)).toBe(before + 1);
    // Answered one ahead of the stored counter, and moved with it.
    expect(revoke.json().token_version).toBe(before + 2);
    const again = await t.request({ method: 'POST', url: `${base}/${policy.id}/revoke`, token: owner.token });
    expect(again.json().token_version).toBe(before + 3);
    // A body cannot move it (the app sends the policy back as it read it).
    const sentBack = await t.request({ method: 'PUT', url: `${base}/${policy.id}`, token: owner.token, payload: { ...again.json<Json>(), token_version: 99 } });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    expect(sentBack.json().token_version).toBe(before + 3);
    expect((await t.request({ method: 'GET', url: base, token: owner.token })).json()).toHaveLength(1);

    const del = await t.request({ method: 'DELETE', url: `${base}/${policy.id}`, token: owner.token, headers: { 'content-type': 'application/json' } });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: base, token: owner.token })).json()).toEqual([]);
    expect((await t.request({ method: 'DELETE', url: `${base}/${policy.id}`, token: owner.token })).statusCode).toBe(404);
  });
});

describe('share policies', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;
  let chartId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    projectId = await createProject(t, owner);
    chartId = await createChart(t, owner, projectId);
  });
  afterAll(() => t.close());

  const dashboardBase = () => `/project/${projectId}/share/policy`;
  const chartBase = (cid = chartId, pid = projectId) => `/project/${pid}/chart/${cid}/share/policy`;
  const create = async (url: string, who = owner): Promise<Json> => {
    const res = await t.request({ method: 'POST', url, token: who.token });
    if (res.statusCode !== 200) throw new Error(`create policy failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  it('shows the dashboard policies in GET /project/{id}', async () => {
    const pid = await createProject(t, owner, 'With policies');
    const a = await create(`/project/${pid}/share/policy`);
    const b = await create(`/project/${pid}/share/policy`);
    const project = await t.request({ method: 'GET', url: `/project/${pid}`, token: owner.token });
    expect(project.json().SharePolicies.map((p: Json) => p.id)).toEqual([a.id, b.id]);
    expect(a.share_string).not.toBe(b.share_string);
  });

  it('finds a policy by share string and by id for the share routes', async () => {
    const policy = await create(chartBase());
    const byString = await t.container.sharing.findByShareString(policy.share_string);
    expect(byString).toMatchObject({ id: policy.id, entity_type: 'Chart', entity_id: chartId, team_id: owner.teamId, revision: 1, token_version: 2 });
    expect(await t.container.sharing.findById(policy.id)).toEqual(byString);
    expect(await t.container.sharing.findByShareString('nope')).toBeUndefined();
  });

  it('validates the update body, naming the field', async () => {
    const policy = await create(dashboardBase());
    const put = (payload: unknown) => t.request({ method: 'PUT', url: `${dashboardBase()}/${policy.id}`, token: owner.token, payload: payload as Json });
    expectFieldError(await put({ params: 'a=b' }), 'body.params');
    expectFieldError(await put({ params: [{ value: 'x' }] }), 'body.params.0.key');
    expectFieldError(await put({ params: [{ key: 'a', value: 5 }] }), 'body.params.0.value');
    expectFieldError(await put({ params: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] }), 'body.params');
    expectFieldError(await put({ allow_params: 'true' }), 'body.allow_params');
    expectFieldError(await put({ expires_at: 'tomorrow' }), 'body.expires_at');
    expectFieldError(await put({ visibility: 'public' }), 'body.visibility');
    expectFieldError(await t.request({ method: 'PUT', url: `${dashboardBase()}/x`, token: owner.token, payload: {} }), 'params.policy_id');
    // Server-owned fields in the body are ignored.
    const ignored = await put({ share_string: 'mine', entity_id: 1, entity_type: 'Chart', token_version: 0, id: 1 });
    expect(ignored.json()).toMatchObject({ id: policy.id, share_string: policy.share_string, entity_type: 'Project', entity_id: projectId });
  });

  it('keeps policies to their own entity (404 on any mismatch)', async () => {
    const otherChart = await createChart(t, owner, projectId);
    const otherProject = await createProject(t, owner, 'Other');
    const dashboardPolicy = await create(dashboardBase());
    const chartPolicy = await create(chartBase());

    const mismatches = [
      `${chartBase(otherChart)}/${chartPolicy.id}`,
      `${chartBase()}/${dashboardPolicy.id}`,
      `${dashboardBase()}/${chartPolicy.id}`,
      `/project/${otherProject}/share/policy/${dashboardPolicy.id}`,
      `${chartBase(chartId, otherProject)}/${chartPolicy.id}`,
    ];
    for (const url of mismatches) {
      expect((await t.request({ method: 'PUT', url, token: owner.token, payload: { allow_params: true } })).statusCode, url).toBe(404);
      expect((await t.request({ method: 'POST', url: `${url}/revoke`, token: owner.token })).statusCode, url).toBe(404);
      expect((await t.request({ method: 'DELETE', url, token: owner.token })).statusCode, url).toBe(404);
    }
    expect((await t.request({ method: 'POST', url: chartBase(999999), token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: chartBase(chartId, otherProject), token: owner.token })).statusCode).toBe(404);
    const list = await t.request({ method: 'GET', url: chartBase(), token: owner.token });
    expect(list.json().find((p: Json) => p.id === chartPolicy.id)).toMatchObject({ allow_params: false });
  });

  it('never reveals another team’s policies', async () => {
    const policy = await create(dashboardBase());
    const stranger = await t.signup('Stranger');
    const requests = [
      ['POST', dashboardBase()],
      ['GET', dashboardBase()],
      ['PUT', `${dashboardBase()}/${policy.id}`],
      ['POST', `${dashboardBase()}/${policy.id}/revoke`],
      ['DELETE', `${dashboardBase()}/${policy.id}`],
      ['POST', chartBase()],
      ['GET', chartBase()],
    ] as const;
    for (const [method, url] of requests) {
      const res = await t.request({ method, url, token: stranger.token, ...(method === 'PUT' ? { payload: { allow_params: true } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain(policy.share_string);
    }
  });

  describe('roles', () => {
    let own: number;
    let ownChart: number;
    let notOwn: number;
    const people = {} as Record<Role, Person>;
    beforeAll(async () => {
      own = await createProject(t, owner, 'Own');
      ownChart = await createChart(t, owner, own);
      notOwn = await createProject(t, owner, 'Not own');
      people.teamOwner = owner;
      for (const role of ['teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        people[role] = await addMember(t, owner, role, role.startsWith('project') ? [own] : []);
      }
    });

    it.each<[Role, boolean]>([
      ['teamOwner', true],
      ['teamAdmin', true],
      ['projectAdmin', true],
      ['projectEditor', false],
      ['projectViewer', false],
    ])('%s (may manage: %s)', async (role, manage) => {
      const who = people[role];
      const expected = manage ? 200 : 403;
      for (const base of [`/project/${own}/share/policy`, `/project/${own}/chart/${ownChart}/share/policy`]) {
        const seeded = await create(base);
        const made = await t.request({ method: 'POST', url: base, token: who.token });
        expect(made.statusCode, base).toBe(expected);
        expect((await t.request({ method: 'GET', url: base, token: who.token })).statusCode).toBe(expected);
        expect((await t.request({ method: 'PUT', url: `${base}/${seeded.id}`, token: who.token, payload: { allow_params: true } })).statusCode).toBe(expected);
        expect((await t.request({ method: 'POST', url: `${base}/${seeded.id}/revoke`, token: who.token })).statusCode).toBe(expected);
        expect((await t.request({ method: 'DELETE', url: `${base}/${seeded.id}`, token: who.token })).statusCode).toBe(expected);
      }
      const teamWide = role === 'teamOwner' || role === 'teamAdmin';
      const elsewhere = await t.request({ method: 'POST', url: `/project/${notOwn}/share/policy`, token: who.token });
      expect(elsewhere.statusCode).toBe(teamWide ? 200 : 403);
    });
  });
});
