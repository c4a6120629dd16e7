import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertProject, ROLE_NAMES, sharedUser, teamWithEveryRole, type RoleTeam } from '../helpers/fixtures.js';

describe('teams', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('creates a team from {name} alone with the documented defaults', async () => {
    const me = await sharedUser(t, 'User');
    const res = await t.request({ method: 'POST', url: '/team', token: me.token, payload: { name: 'Analytics' } });
    expect(res.statusCode).toBe(200);
    const team = res.json();
    expect(team).toMatchObject({ name: 'Analytics', showBranding: true, allowReportRefresh: false, allowReportExport: false });
    expect(team.TeamRoles).toEqual([{ id: expect.any(Number), team_id: team.id, user_id: me.userId, role: 'teamOwner', projects: [], canExport: false }]);
    expect(new Date(team.createdAt).toISOString()).toBe(team.createdAt);
  });

  it('accepts all four CreateTeam fields (the MCP client always sends them)', async () => {
    const me = await sharedUser(t, 'User');
    const res = await t.request({
      method: 'POST',
      url: '/team',
      token: me.token,
      payload: { name: 'Four', showBranding: false, allowReportRefresh: true, allowReportExport: true },
    });
    expect(res.json()).toMatchObject({ name: 'Four', showBranding: false, allowReportRefresh: true, allowReportExport: true });
  });

  it('GET /team lists only the caller’s teams, each with its projects', async () => {
    const a = await t.signup('A');
    const b = await t.signup('B');
    const projectId = await insertProject(t, a.teamId, 'Sales');
    const list = (await t.request({ method: 'GET', url: '/team', token: a.token })).json();
    expect(list.map((x: { id: number }) => x.id)).toEqual([a.teamId]);
    expect(list[0].Projects).toEqual([{ id: projectId, name: 'Sales' }]);
    const other = (await t.request({ method: 'GET', url: '/team', token: b.token })).json();
    expect(other.map((x: { id: number }) => x.id)).toEqual([b.teamId]);
  });

  it('PUT updates name and the three flags only', async () => {
    const me = await t.signup('Upd');
    const res = await t.request({
      method: 'PUT',
      url: `/team/${me.teamId}`,
      token: me.token,
      payload: { name: 'Renamed', allowReportExport: true, id: 999, createdAt: '2000-01-01T00:00:00.000Z' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: me.teamId, name: 'Renamed', allowReportExport: true });
    expect(res.json().createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('a missing team is 404, a team the caller is not in is 403 and leaks nothing', async () => {
    const me = await sharedUser(t, 'User');
    const other = await sharedUser(t, 'Other');
    const missing = await t.request({ method: 'GET', url: '/team/999999', token: me.token });
    expect(missing.statusCode).toBe(404);
    const foreign = await t.request({ method: 'GET', url: `/team/${other.teamId}`, token: me.token });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('Other');
    expect(Object.keys(foreign.json()).sort()).toEqual(['code', 'error']);
  });

  it('GET /team/user/:id: own teams; another user only where the caller administers a shared team', async () => {
    const owner = await t.signup('Boss');
    const member = await t.signup('Member');
    const outsider = await sharedUser(t, 'Other');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: member.email, role: 'teamAdmin' } });
    const mine = (await t.request({ method: 'GET', url: `/team/user/${member.userId}`, token: member.token })).json();
    expect(mine.map((x: { id: number }) => x.id).sort()).toEqual([member.teamId, owner.teamId].sort());
    const asOwner = (await t.request({ method: 'GET', url: `/team/user/${member.userId}`, token: owner.token })).json();
    expect(asOwner.map((x: { id: number }) => x.id)).toEqual([owner.teamId]);
    const asOutsider = (await t.request({ method: 'GET', url: `/team/user/${member.userId}`, token: outsider.token })).json();
    expect(asOutsider).toEqual([]);
  });

  it('DELETE /team removes the team and everything it owns', async () => {
    const me = await sharedUser(t, 'User');
    const team = (await t.request({ method: 'POST', url: '/team', token: me.token, payload: { name: 'Doomed' } })).json();
    await insertProject(t, team.id);
    const res = await t.request({ method: 'DELETE', url: `/team/${team.id}`, token: me.token });
    expect(res.json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: `/team/${team.id}`, token: me.token })).statusCode).toBe(404);
    const db = t.container.store.db;
    expect(await db.selectFrom('projects').select('id').where('team_id', '=', team.id).execute()).toEqual([]);
    expect(await db.selectFrom('team_roles').select('id').where('team_id', '=', team.id).execute()).toEqual([]);
  });
});

describe('members', () => {
  let t: TestApp;
  let rt: RoleTeam;
  beforeAll(async () => {
    t = await buildTestApp();
    rt = await teamWithEveryRole(t);
  });
  afterAll(() => t.close());

  it('lists members with name, email, role and projects', async () => {
    const res = await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: rt.people.teamOwner.token });
    expect(res.statusCode).toBe(200);
    const roles = res.json().map((m: { role: string }) => m.role);
    expect(roles).toEqual(['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer']);
    const viewer = res.json().find((m: { role: string }) => m.role === 'projectViewer');
    expect(viewer).toMatchObject({ email: rt.people.projectViewer.email, projects: [rt.projectId] });
  });

  it('adding: unknown email 404, existing member 409, project ids of another team 400', async () => {
    const owner = rt.people.teamOwner;
    const unknown = await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: owner.token, payload: { email: 'ghost@example.com', role: 'projectViewer' } });
    expect(unknown.statusCode).toBe(404);
    const again = await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: owner.token, payload: { email: rt.people.teamAdmin.email, role: 'projectViewer' } });
    expect(again.statusCode).toBe(409);
    const elsewhere = await insertProject(t, rt.people.stranger.teamId);
    const newcomer = await t.signup('Newcomer');
    const foreign = await t.request({
      method: 'POST',
      url: `/team/${rt.teamId}/members`,
      token: owner.token,
      payload: { email: newcomer.email, role: 'projectViewer', projects: [elsewhere] },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details[0].path).toBe('body.projects');
  });

  it('nobody grants above their own role; only owners make owners', async () => {
    const admin = rt.people.teamAdmin;
    const newcomer = await t.signup('Promo');
    const asOwner = await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: admin.token, payload: { email: newcomer.email, role: 'teamOwner' } });
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.json().code).toBe('ROLE_TOO_HIGH');
    const asAdmin = await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: admin.token, payload: { email: newcomer.email, role: 'teamAdmin' } });
    expect(asAdmin.statusCode).toBe(200);
    const demoteOwner = await t.request({ method: 'PUT', url: `/team/${rt.teamId}/members/${rt.people.teamOwner.userId}`, token: admin.token, payload: { role: 'teamAdmin' } });
    expect(demoteOwner.statusCode).toBe(403);
  });

  it('the last owner cannot be demoted or leave; a second owner unblocks it', async () => {
    const owner = await t.signup('Solo');
    const demote = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/members/${owner.userId}`, token: owner.token, payload: { role: 'teamAdmin' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('LAST_OWNER');
    const leave = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/members/${owner.userId}`, token: owner.token });
    expect(leave.statusCode).toBe(409);
    const second = await t.signup('Second');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: second.email, role: 'teamOwner' } });
    const leaveNow = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/members/${owner.userId}`, token: owner.token });
    expect(leaveNow.json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: owner.token })).statusCode).toBe(403);
  });

  it('a member may leave on their own; changing projects of a project role works', async () => {
    const owner = await t.signup('Lead');
    const projectId = await insertProject(t, owner.teamId);
    const other = await insertProject(t, owner.teamId);
    const viewer = await t.signup('Viewer');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: viewer.email, role: 'projectViewer', projects: [projectId] } });
    const moved = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/members/${viewer.userId}`, token: owner.token, payload: { projects: [other] } });
    expect(moved.json()).toMatchObject({ role: 'projectViewer', projects: [other] });
    const leave = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/members/${viewer.userId}`, token: viewer.token });
    expect(leave.statusCode).toBe(200);
    const gone = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/members/${viewer.userId}`, token: owner.token, payload: { role: 'projectEditor' } });
    expect(gone.statusCode).toBe(404);
  });
});

describe('every team route, for each role and a stranger', () => {
  let t: TestApp;
  let rt: RoleTeam;
  beforeAll(async () => {
    t = await buildTestApp();
    rt = await teamWithEveryRole(t);
  });
  afterAll(() => t.close());

  type Who = (typeof ROLE_NAMES)[number];
  const expectations: { name: string; run: (who: Who) => Promise<number>; allowed: Who[] }[] = [
    {
      name: 'GET /team/:id',
      run: async (who) => (await t.request({ method: 'GET', url: `/team/${rt.teamId}`, token: rt.people[who].token })).statusCode,
      allowed: ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'],
    },
    {
      name: 'PUT /team/:id',
      run: async (who) => (await t.request({ method: 'PUT', url: `/team/${rt.teamId}`, token: rt.people[who].token, payload: { name: `by ${who}` } })).statusCode,
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      // Project roles get their own row only (the content is checked by its own test).
      name: 'GET /team/:id/members',
      run: async (who) => (await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: rt.people[who].token })).statusCode,
      allowed: ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'],
    },
    {
      name: 'POST /team/:id/members',
      run: async (who) => {
        const newcomer = await t.signup(`new-${who}`);
        return (await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: rt.people[who].token, payload: { email: newcomer.email, role: 'projectViewer', projects: [rt.projectId] } })).statusCode;
      },
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'PUT /team/:id/members/:user_id',
      run: async (who) =>
        (await t.request({ method: 'PUT', url: `/team/${rt.teamId}/members/${rt.people.projectViewer.userId}`, token: rt.people[who].token, payload: { projects: [rt.projectId] } })).statusCode,
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'DELETE /team/:id/members/:user_id',
      run: async (who) => {
        const victim = await t.signup(`victim-${who}`);
        await t.request({ method: 'POST', url: `/team/${rt.teamId}/members`, token: rt.people.teamOwner.token, payload: { email: victim.email, role: 'projectViewer', projects: [rt.projectId] } });
        return (await t.request({ method: 'DELETE', url: `/team/${rt.teamId}/members/${victim.userId}`, token: rt.people[who].token })).statusCode;
      },
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'POST /team/:id/apikey',
      run: async (who) => (await t.request({ method: 'POST', url: `/team/${rt.teamId}/apikey`, token: rt.people[who].token, payload: { name: 'k', role: 'projectViewer', projects: [rt.projectId] } })).statusCode,
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'GET /team/:id/apikey',
      run: async (who) => (await t.request({ method: 'GET', url: `/team/${rt.teamId}/apikey`, token: rt.people[who].token })).statusCode,
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'DELETE /team/:id/apikey/:id',
      run: async (who) => {
        const key = (await t.request({ method: 'POST', url: `/team/${rt.teamId}/apikey`, token: rt.people.teamOwner.token, payload: { name: 'victim' } })).json();
        return (await t.request({ method: 'DELETE', url: `/team/${rt.teamId}/apikey/${key.id}`, token: rt.people[who].token })).statusCode;
      },
      allowed: ['teamOwner', 'teamAdmin'],
    },
    {
      name: 'DELETE /team/:id',
      run: async (who) => {
        // A fresh team per attempt, with the same cast, so a successful delete does not affect other rows.
        const team = (await t.request({ method: 'POST', url: '/team', token: rt.people.teamOwner.token, payload: { name: 'Throwaway' } })).json();
        for (const role of ['teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
          await t.request({ method: 'POST', url: `/team/${team.id}/members`, token: rt.people.teamOwner.token, payload: { email: rt.people[role].email, role } });
        }
        return (await t.request({ method: 'DELETE', url: `/team/${team.id}`, token: rt.people[who].token })).statusCode;
      },
      allowed: ['teamOwner'],
    },
  ];

  for (const route of expectations) {
    for (const who of ROLE_NAMES) {
      const allowed = route.allowed.includes(who);
      it(`${route.name} as ${who} → ${allowed ? 200 : 403}`, async () => {
        expect(await route.run(who)).toBe(allowed ? 200 : 403);
      });
    }
  }

  it('project roles read only id, name and their own role', async () => {
    const res = (await t.request({ method: 'GET', url: `/team/${rt.teamId}`, token: rt.people.projectEditor.token })).json();
    expect(Object.keys(res).sort()).toEqual(['TeamRoles', 'id', 'name']);
    expect(res.TeamRoles).toHaveLength(1);
    expect(res.TeamRoles[0].user_id).toBe(rt.people.projectEditor.userId);
  });
});
