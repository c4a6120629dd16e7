import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/platform/authorization.js';
import { now } from '../../src/store/columns.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { sharedUser } from '../helpers/fixtures.js';

type Person = Awaited<ReturnType<TestApp['signup']>>;
type Json = Record<string, any>;

async function addMember(t: TestApp, owner: Person, role: Role, projects: number[]): Promise<Person> {
  const person = await t.signup(role);
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects } });
  if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
  return person;
}

async function createProject(t: TestApp, who: Person, body: Json = {}): Promise<Json> {
  const res = await t.request({ method: 'POST', url: '/project', token: who.token, payload: { name: 'Sales', team_id: who.teamId, ...body } });
  if (res.statusCode !== 200) throw new Error(`create project failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

function expectFieldError(res: { statusCode: number; json(): any }, path: string): void {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.error).toContain(path);
  expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
}

/** Every writable field of a dashboard, with values unlike the defaults. */
const FULL_UPDATE = {
  name: 'Revenue board',
  dashboardTitle: 'Revenue — FY25',
  description: 'Quarterly numbers',
  backgroundColor: '#0a0b0c',
  titleColor: 'rgba(255, 255, 255, 0.8)',
  headerCode: '<style>.x{color:red}</style>',
  footerCode: '<p>footer</p>',
  logo: 'https://cdn.example.com/logo.png',
  logoLink: 'https://example.com',
  public: true,
  passwordProtected: true,
  password: 'dashboard-secret-1',
  timezone: 'Europe/Paris',
  updateSchedule: {
    timezone: 'America/New_York',
    frequency: 'every_x_hours',
    frequencyNumber: '6',
    time: { hour: 8, minute: 30, second: 15, millisecond: 250 },
  },
};

describe.each<StoreKind>(['sqlite', 'postgres'])('projects round trip (%s)', (store) => {
  let t: TestApp;
  let owner: Person;
  beforeAll(async () => {
    t = await buildTestApp({ store });
    owner = await t.signup('Owner');
  });
  afterAll(() => t.close());

  it('creates a dashboard from the documented body and answers the full project', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/project',
      token: owner.token,
      payload: { name: 'sales-dashboard', team_id: owner.teamId, dashboardTitle: 'Sales Performance Dashboard', description: 'Monthly sales analytics and KPIs' },
    });
    expect(res.statusCode).toBe(200);
    const project = res.json();
    expect(project).toMatchObject({
      team_id: owner.teamId,
      name: 'sales-dashboard',
      brewName: 'sales-dashboard',
      dashboardTitle: 'Sales Performance Dashboard',
      description: 'Monthly sales analytics and KPIs',
      backgroundColor: '#103751',
      titleColor: 'white',
      public: false,
      passwordProtected: false,
      timezone: null,
      updateSchedule: null,
      lastUpdatedAt: null,
      Charts: [],
      SharePolicies: [],
    });
    expect(Number.isInteger(project.id)).toBe(true);
    expect(project).not.toHaveProperty('password');
    expect(project).not.toHaveProperty('password_hash');
  });

  it('round-trips every field through PUT and GET; the password is write-only', async () => {
    const created = await createProject(t, owner, { name: 'Round trip' });
    const put = await t.request({ method: 'PUT', url: `/project/${created.id}`, token: owner.token, payload: FULL_UPDATE });
    expect(put.statusCode).toBe(200);
    const { password: _password, ...visible } = FULL_UPDATE;
    expect(put.json()).toMatchObject({ ...visible, id: created.id, team_id: owner.teamId, brewName: created.brewName });

    const get = await t.request({ method: 'GET', url: `/project/${created.id}`, token: owner.token });
    expect(get.statusCode).toBe(200);
    const project = get.json();
    expect(project).toMatchObject(visible);
    expect(project.createdAt).toBe(created.createdAt);
    expect(Date.parse(project.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const list = await t.request({ method: 'GET', url: `/project/team/${owner.teamId}`, token: owner.token });
    expect(list.json().find((p: Json) => p.id === created.id)).toMatchObject({ ...visible, Charts: [] });

    const row = await t.container.store.db.selectFrom('projects').select('password_hash').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    for (const body of t.bodies) {
      expect(body).not.toContain('dashboard-secret-1');
      expect(body).not.toContain(row.password_hash!);
      expect(body).not.toContain('password_hash');
    }
    expect(t.logs.text).not.toContain('dashboard-secret-1');
    expect(await t.container.projects.checkPassword(owner.teamId, created.id, 'dashboard-secret-1')).toBe(true);
    expect(await t.container.projects.checkPassword(owner.teamId, created.id, 'wrong-password')).toBe(false);
  });

  it('keeps brewName unique, generated and stable', async () => {
    const a = await createProject(t, owner, { name: 'Ops Overview!' });
    const b = await createProject(t, owner, { name: 'ops overview', brewName: 'hijack' });
    expect(a.brewName).toBe('ops-overview');
    expect(b.brewName).toMatch(/^ops-overview-[0-9a-f]{6}$/);
    const other = await t.signup('Other');
    const c = await createProject(t, other, { name: 'Ops overview' });
    expect(new Set([a.brewName, b.brewName, c.brewName]).size).toBe(3);

    const renamed = await t.request({ method: 'PUT', url: `/project/${a.id}`, token: owner.token, payload: { name: 'Renamed', brewName: 'x', id: 9999, team_id: other.teamId } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: a.id, name: 'Renamed', brewName: 'ops-overview', team_id: owner.teamId });
  });

  it('deletes a dashboard with its charts, configs and share policies', async () => {
    const project = await createProject(t, owner, { name: 'Doomed' });
    const chart = await t.request({ method: 'POST', url: `/project/${project.id}/chart`, token: owner.token, payload: { name: 'c', type: 'bar' } });
    expect(chart.statusCode).toBe(200);
    const chartId = chart.json().id;
    await t.request({ method: 'POST', url: `/project/${project.id}/share/policy`, token: owner.token });
    await t.request({ method: 'POST', url: `/project/${project.id}/chart/${chartId}/share/policy`, token: owner.token });

    const del = await t.request({ method: 'DELETE', url: `/project/${project.id}`, token: owner.token, headers: { 'content-type': 'application/json' } });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ removed: true });
    expect((await t.request({ method: 'GET', url: `/project/${project.id}`, token: owner.token })).statusCode).toBe(404);
    const db = t.container.store.db;
    expect(await db.selectFrom('charts').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
    const policies = await db.selectFrom('share_policies').select('id').where('team_id', '=', owner.teamId).execute();
    expect(policies).toEqual([]);
  });
});

describe('projects', () => {
  let t: TestApp;
  let owner: Person;
  let project: Json;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    project = await createProject(t, owner, { name: 'Main' });
  });
  afterAll(() => t.close());

  describe('validation', () => {
    const put = (payload: unknown) => t.request({ method: 'PUT', url: `/project/${project.id}`, token: owner.token, payload: payload as Json });

    it('requires name and team_id on create', async () => {
      expectFieldError(await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'x' } }), 'body.team_id');
      expectFieldError(await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { team_id: owner.teamId } }), 'body.name');
      expectFieldError(await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: '   ', team_id: owner.teamId } }), 'body.name');
      expectFieldError(await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'x', team_id: 'abc' } }), 'body.team_id');
    });

    it('accepts every colour notation and rejects anything else, naming the field', async () => {
      for (const colour of ['#abc', '#abcd', '#A1B2C3', '#a1b2c3d4', 'rgb(1, 2, 3)', 'rgba(1,2,3,0.5)', 'rgb(10% 20% 30% / 50%)', 'RebeccaPurple', 'transparent']) {
        const res = await put({ backgroundColor: colour, titleColor: colour });
        expect(res.statusCode, colour).toBe(200);
        expect(res.json().backgroundColor).toBe(colour);
      }
      for (const colour of ['#abcde', 'rgb(300, 0, 0)', 'rgb(1, 2)', 'rgba(1,2,3,2)', 'rgb(10%, 2, 3)', 'notacolour', 'url(javascript:alert(1))', '']) {
        expectFieldError(await put({ backgroundColor: colour }), 'body.backgroundColor');
        expectFieldError(await put({ titleColor: colour }), 'body.titleColor');
      }
    });

    it('checks time zones with Intl', async () => {
      expect((await put({ timezone: 'UTC' })).statusCode).toBe(200);
      expect((await put({ timezone: 'Asia/Kolkata' })).statusCode).toBe(200);
      expectFieldError(await put({ timezone: 'Mars/Olympus_Mons' }), 'body.timezone');
      expectFieldError(await put({ timezone: '+01:00' }), 'body.timezone');
      expectFieldError(await put({ updateSchedule: { timezone: 'Nowhere/City' } }), 'body.updateSchedule.timezone');
    });

    it('validates the update schedule field by field', async () => {
      expectFieldError(await put({ updateSchedule: { frequency: 'hourly' } }), 'body.updateSchedule.frequency');
      expectFieldError(await put({ updateSchedule: { frequencyNumber: 'abc' } }), 'body.updateSchedule.frequencyNumber');
      expectFieldError(await put({ updateSchedule: { frequencyNumber: 0 } }), 'body.updateSchedule.frequencyNumber');
      expectFieldError(await put({ updateSchedule: { time: { hour: 24 } } }), 'body.updateSchedule.time.hour');
      expectFieldError(await put({ updateSchedule: { time: { minute: 60 } } }), 'body.updateSchedule.time.minute');
      expectFieldError(await put({ updateSchedule: { time: { second: 1.5 } } }), 'body.updateSchedule.time.second');
      expectFieldError(await put({ updateSchedule: { time: { millisecond: 1000 } } }), 'body.updateSchedule.time.millisecond');
      expectFieldError(await put({ updateSchedule: 'daily' }), 'body.updateSchedule');

      for (const frequency of ['every_x_minutes', 'every_x_hours', 'every_x_days', 'daily', 'weekly']) {
        expect((await put({ updateSchedule: { frequency } })).statusCode, frequency).toBe(200);
      }
      const numeric = await put({ updateSchedule: { frequency: 'weekly', frequencyNumber: 2, dayOfWeek: 'monday', daysOfWeek: [1, 3], junk: 'x' } });
      expect(numeric.statusCode).toBe(200);
      // frequencyNumber is a string in the spec, whichever form it arrives in; unknown keys are dropped.
      expect(numeric.json().updateSchedule).toEqual({ frequency: 'weekly', frequencyNumber: '2', dayOfWeek: 'monday', daysOfWeek: [1, 3] });
      const cleared = await put({ updateSchedule: null });
      expect(cleared.json().updateSchedule).toBeNull();
    });

    it('rejects wrong types and unsafe links, naming the field', async () => {
      expectFieldError(await put({ public: 'yes' }), 'body.public');
      expectFieldError(await put({ passwordProtected: 1 }), 'body.passwordProtected');
      expectFieldError(await put({ dashboardTitle: 42 }), 'body.dashboardTitle');
      expectFieldError(await put({ logoLink: 'javascript:alert(1)' }), 'body.logoLink');
      expectFieldError(await put({ logo: 'data:image/svg+xml,<svg onload=alert(1)>' }), 'body.logo');
      expectFieldError(await put({ password: 'short' }), 'body.password');
      expect((await put({ logo: 'uploads/logo.png', logoLink: '' })).json()).toMatchObject({ logo: 'uploads/logo.png', logoLink: null });
    });

    it('rejects non-integer path ids naming the parameter', async () => {
      const res = await t.request({ method: 'GET', url: '/project/abc', token: owner.token });
      expectFieldError(res, 'params.id');
      expectFieldError(await t.request({ method: 'GET', url: '/project/team/x1', token: owner.token }), 'params.team_id');
    });
  });

  describe('password', () => {
    it('accepts passwordProtected without a password, and the report stays closed until one is set', async () => {
      const fresh = await createProject(t, owner, { name: 'Locked' });
      const locked = await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { passwordProtected: true, public: true } });
      expect(locked.statusCode, locked.body).toBe(200);
      expect(locked.json()).toMatchObject({ passwordProtected: true, public: true });
      const brewName = locked.json<{ brewName: string }>().brewName;
      const view = (pass?: string) =>
        t.request({ method: 'GET', url: `/project/dashboard/${brewName}`, ...(pass === undefined ? {} : { headers: { pass } }) });
      // Fails closed for anonymous viewers: no password can match one that was never set.
      expect((await view()).json()).toMatchObject({ code: 'PASSWORD_REQUIRED' });
      for (const guess of ['', 'anything', 'null']) expect((await view(guess)).statusCode).toBe(403);
      const created = await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Locked 2', team_id: owner.teamId, passwordProtected: true } });
      expect(created.statusCode, created.body).toBe(200);

      const set = await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { password: 'open-sesame-42' } });
      expect(set.statusCode).toBe(200);
      expect(set.json().passwordProtected).toBe(true);
      expect(set.json()).not.toHaveProperty('password');
      expect((await view('open-sesame-42')).statusCode).toBe(200);
      expect((await view('wrong-password')).json()).toMatchObject({ code: 'PASSWORD_INVALID' });

      // The hash survives switching protection off and on again.
      expect((await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { passwordProtected: false } })).statusCode).toBe(200);
      expect((await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { passwordProtected: true } })).statusCode).toBe(200);
      // Clearing the password of a protected dashboard closes it again (no password matches).
      expect((await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { password: null } })).statusCode).toBe(200);
      expect((await view('open-sesame-42')).statusCode).toBe(403);
      const off = await t.request({ method: 'PUT', url: `/project/${fresh.id}`, token: owner.token, payload: { passwordProtected: false, password: null } });
      expect(off.statusCode).toBe(200);
      expect(await t.container.projects.checkPassword(owner.teamId, fresh.id, 'open-sesame-42')).toBe(false);
    });

    it('creates a protected dashboard when the password comes along', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/project',
        token: owner.token,
        payload: { name: 'Protected', team_id: owner.teamId, passwordProtected: true, password: 'hunter2hunter2' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ passwordProtected: true });
      expect(res.body).not.toContain('hunter2hunter2');
    });
  });

  describe('tenancy', () => {
    it('answers 404 for another team’s dashboard and 403 for a team you are not in', async () => {
      const stranger = await sharedUser(t, 'Stranger');
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.request({ method, url: `/project/${project.id}`, token: stranger.token, ...(method === 'PUT' ? { payload: { name: 'pwned' } } : {}) });
        expect(res.statusCode, method).toBe(404);
        expect(res.body).not.toContain(project.brewName);
      }
      expect((await t.request({ method: 'GET', url: `/project/team/${owner.teamId}`, token: stranger.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'POST', url: '/project', token: stranger.token, payload: { name: 'x', team_id: owner.teamId } })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url: '/project/999999', token: owner.token })).statusCode).toBe(404);
      expect((await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'x', team_id: 999999 } })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/project/${project.id}` })).statusCode).toBe(401);
      const still = await t.request({ method: 'GET', url: `/project/${project.id}`, token: owner.token });
      expect(still.json().name).not.toBe('pwned');
    });

    it('treats an API key of another team like a stranger', async () => {
      const other = await sharedUser(t, 'Stranger');
      const key = await t.request({ method: 'POST', url: `/team/${other.teamId}/apikey`, token: other.token, payload: { name: 'ci' } });
      const token = key.json().token as string;
      expect((await t.request({ method: 'GET', url: `/project/${project.id}`, token })).statusCode).toBe(404);
      expect((await t.request({ method: 'POST', url: '/project', token, payload: { name: 'mine', team_id: other.teamId } })).statusCode).toBe(200);
    });
  });

  describe('roles', () => {
    let own: Json;
    let notOwn: Json;
    const people = {} as Record<Role, Person>;
    beforeAll(async () => {
      own = await createProject(t, owner, { name: 'Own' });
      notOwn = await createProject(t, owner, { name: 'Not own' });
      await t.request({ method: 'POST', url: `/project/${own.id}/share/policy`, token: owner.token });
      people.teamOwner = owner;
      for (const role of ['teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        people[role] = await addMember(t, owner, role, role.startsWith('project') ? [own.id] : []);
      }
    });

    const matrix: [Role, { create: boolean; read: boolean; update: boolean; remove: boolean; policies: boolean }][] = [
      ['teamOwner', { create: true, read: true, update: true, remove: true, policies: true }],
      ['teamAdmin', { create: true, read: true, update: true, remove: true, policies: true }],
      ['projectAdmin', { create: false, read: true, update: true, remove: false, policies: true }],
      ['projectEditor', { create: false, read: true, update: true, remove: false, policies: false }],
      ['projectViewer', { create: false, read: true, update: false, remove: false, policies: false }],
    ];

    it.each(matrix)('%s', async (role, allowed) => {
      const who = people[role];
      const status = (ok: boolean) => (ok ? 200 : 403);
      const create = await t.request({ method: 'POST', url: '/project', token: who.token, payload: { name: `by ${role}`, team_id: owner.teamId } });
      expect(create.statusCode).toBe(status(allowed.create));

      const read = await t.request({ method: 'GET', url: `/project/${own.id}`, token: who.token });
      expect(read.statusCode).toBe(status(allowed.read));
      expect(read.json().SharePolicies === undefined).toBe(!allowed.policies);

      const update = await t.request({ method: 'PUT', url: `/project/${own.id}`, token: who.token, payload: { description: `edited by ${role}` } });
      expect(update.statusCode).toBe(status(allowed.update));

      const teamWide = role === 'teamOwner' || role === 'teamAdmin';
      // Project roles see only their own dashboards.
      expect((await t.request({ method: 'GET', url: `/project/${notOwn.id}`, token: who.token })).statusCode).toBe(teamWide ? 200 : 403);
      expect((await t.request({ method: 'PUT', url: `/project/${notOwn.id}`, token: who.token, payload: { description: 'x' } })).statusCode).toBe(teamWide ? 200 : 403);
      const list = await t.request({ method: 'GET', url: `/project/team/${owner.teamId}`, token: who.token });
      expect(list.statusCode).toBe(200);
      const ids = list.json().map((p: Json) => p.id);
      expect(ids).toContain(own.id);
      expect(ids.includes(notOwn.id)).toBe(teamWide);

      if (allowed.create) {
        const del = await t.request({ method: 'DELETE', url: `/project/${create.json().id}`, token: who.token });
        expect(del.statusCode).toBe(200);
      } else {
        expect((await t.request({ method: 'DELETE', url: `/project/${own.id}`, token: who.token })).statusCode).toBe(403);
      }
    });

    it('lets only team-wide roles change header and footer code (it runs on public pages)', async () => {
      const editor = people.projectEditor;
      const res = await t.request({ method: 'PUT', url: `/project/${own.id}`, token: editor.token, payload: { headerCode: '<script>steal()</script>' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toContain('headerCode');
      // Sending the current value back (a full-object round trip) is not a change.
      const current = (await t.request({ method: 'GET', url: `/project/${own.id}`, token: editor.token })).json();
      const echo = await t.request({ method: 'PUT', url: `/project/${own.id}`, token: editor.token, payload: { headerCode: current.headerCode, footerCode: current.footerCode, name: 'Own' } });
      expect(echo.statusCode).toBe(200);
      const admin = await t.request({ method: 'PUT', url: `/project/${own.id}`, token: people.teamAdmin.token, payload: { headerCode: '<b>hi</b>' } });
      expect(admin.statusCode).toBe(200);
    });
  });

  describe('public client request shapes', () => {
    it('serves the mcp calls (JSON content type on every call, no body on GET and DELETE)', async () => {
      const json = { 'content-type': 'application/json' };
      const list = await t.request({ method: 'GET', url: `/project/team/${owner.teamId}`, token: owner.token, headers: json });
      expect(list.statusCode).toBe(200);
      expect(Array.isArray(list.json())).toBe(true);
      const created = await t.request({ method: 'POST', url: '/project', token: owner.token, headers: json, payload: JSON.stringify({ name: 'mcp', team_id: owner.teamId }) });
      expect(created.statusCode).toBe(200);
      const id = created.json().id;
      const update = await t.request({
        method: 'PUT',
        url: `/project/${id}`,
        token: owner.token,
        headers: json,
        payload: JSON.stringify({ public: true, updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '15', time: { hour: 0, minute: 0, second: 0, millisecond: 0 } } }),
      });
      expect(update.statusCode).toBe(200);
      expect(update.json().updateSchedule).toEqual({ frequency: 'every_x_minutes', frequencyNumber: '15', time: { hour: 0, minute: 0, second: 0, millisecond: 0 } });
      const get = await t.request({ method: 'GET', url: `/project/${id}`, token: owner.token, headers: json });
      expect(get.json()).toMatchObject({ id, public: true, Charts: [] });
      expect((await t.request({ method: 'DELETE', url: `/project/${id}`, token: owner.token, headers: json })).json()).toEqual({ removed: true });
    });

    it('serves the cli calls (Accept only, body sent as given)', async () => {
      const accept = { accept: 'application/json' };
      const created = await t.request({
        method: 'POST',
        url: '/project',
        token: owner.token,
        headers: { ...accept, 'content-type': 'application/json' },
        payload: `{"name":"cli board","team_id":${owner.teamId}}`,
      });
      expect(created.statusCode).toBe(200);
      const id = created.json().id;
      expect((await t.request({ method: 'GET', url: `/project/${id}`, token: owner.token, headers: accept })).statusCode).toBe(200);
      expect((await t.request({ method: 'DELETE', url: `/project/${id}`, token: owner.token, headers: accept })).json()).toEqual({ removed: true });
    });
  });

  it('exposes lastUpdatedAt only through the scheduler, never a body', async () => {
    const res = await t.request({ method: 'PUT', url: `/project/${project.id}`, token: owner.token, payload: { lastUpdatedAt: '2020-01-01T00:00:00.000Z' } });
    expect(res.json().lastUpdatedAt).toBeNull();
    const at = now();
    await t.container.projects.markRefreshed(project.id, at);
    expect((await t.request({ method: 'GET', url: `/project/${project.id}`, token: owner.token })).json().lastUpdatedAt).toBe(at);
  });
});

describe.each<StoreKind>(['sqlite', 'postgres'])('GET /project/{id} store queries (%s)', (store) => {
  let t: TestApp;
  let counting = false;
  const statements: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ store, onStoreQuery: (sql) => void (counting && statements.push(sql)) });
  });
  afterAll(() => t.close());

  /** The statements the store ran to answer one GET /project/{id}, and the answer. */
  async function readDashboard(projectId: number, token: string): Promise<{ statements: string[]; body: Json }> {
    statements.length = 0;
    counting = true;
    const res = await t.request({ method: 'GET', url: `/project/${projectId}`, token });
    counting = false;
    expect(res.statusCode, res.body).toBe(200);
    return { statements: [...statements], body: res.json() };
  }

  it('runs the same few statements for 1, 5 and 20 charts, charts and their configs in two', async () => {
    const owner = await t.signup('Counter');
    const project = await createProject(t, owner);
    const dataset = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets`, token: owner.token, payload: { name: 'Orders', project_ids: [project.id] } });
    expect(dataset.statusCode, dataset.body).toBe(200);
    expect((await t.request({ method: 'POST', url: `/project/${project.id}/share/policy`, token: owner.token })).statusCode).toBe(200);
    const viewer = await addMember(t, owner, 'projectViewer', [project.id]);

    const counts: Record<number, { owner: number; viewer: number }> = {};
    let charts = 0;
    for (const size of [1, 5, 20]) {
      for (; charts < size; charts++) {
        const res = await t.request({
          method: 'POST',
          url: `/project/${project.id}/chart/quick-create`,
          token: owner.token,
          payload: {
            name: `Chart ${charts}`,
            type: 'line',
            chartDatasetConfigs: [
              { dataset_id: dataset.json().id, xAxis: 'root[].day', yAxis: 'root[].amount', yAxisOperation: 'sum' },
              { dataset_id: dataset.json().id, xAxis: 'root[].day', yAxis: 'root[].id', yAxisOperation: 'count' },
            ],
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const asOwner = await readDashboard(project.id, owner.token);
      expect(asOwner.body.Charts).toHaveLength(size);
      expect(asOwner.body.Charts.every((c: Json) => c.ChartDatasetConfigs.length === 2)).toBe(true);
      expect(asOwner.body.SharePolicies).toHaveLength(1);
      const asViewer = await readDashboard(project.id, viewer.token);
      expect(asViewer.body.Charts).toHaveLength(size);
      expect(asViewer.body.SharePolicies).toBeUndefined();
      // Charts, then all their dataset configs in one statement, whatever their number.
      expect(asOwner.statements.filter((sql) => /\bfrom "(charts|chart_dataset_configs)"/.test(sql))).toHaveLength(2);
      counts[size] = { owner: asOwner.statements.length, viewer: asViewer.statements.length };
    }
    // Token, project, membership, charts, configs, the snapshot schedule (+ share policies for a manager).
    expect(counts[1]!.owner).toBeLessThanOrEqual(7);
    expect(counts[1]!.viewer).toBeLessThanOrEqual(6);
    expect(counts[5]).toEqual(counts[1]);
    expect(counts[20]).toEqual(counts[1]);
  });
});
