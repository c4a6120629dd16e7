import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertProject } from '../helpers/fixtures.js';

describe('team API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('creates a key (token shown once, default role teamAdmin) and lists keys without tokens', async () => {
    const owner = await t.signup('Owner');
    const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'ci' } });
    expect(created.statusCode).toBe(200);
    const key = created.json();
    expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'name', 'projects', 'role', 'token']);
    expect(key).toMatchObject({ name: 'ci', role: 'teamAdmin' });
    expect(key.token).toMatch(/^plk_/);
    const list = await t.request({ method: 'GET', url: `/team/${owner.teamId}/apikey`, token: owner.token });
    expect(list.json()).toEqual([{ id: key.id, name: 'ci', role: 'teamAdmin', projects: [], createdAt: key.createdAt, lastUsedAt: null }]);
    expect(list.body).not.toContain(key.token);
    const row = await t.container.store.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(key.token));
  });

  it('a key acts inside its own team with its role, and gets 403 on another team', async () => {
    const owner = await t.signup('KeyOwner');
    const other = await t.signup('OtherTeam');
    const key = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'k' } })).json();
    const own = await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token });
    expect(own.statusCode).toBe(200);
    const teams = await t.request({ method: 'GET', url: '/team', token: key.token });
    expect(teams.json().map((x: { id: number }) => x.id)).toEqual([owner.teamId]);
    const foreign = await t.request({ method: 'GET', url: `/team/${other.teamId}`, token: key.token });
    expect(foreign.statusCode).toBe(403);
    const create = await t.request({ method: 'POST', url: '/team', token: key.token, payload: { name: 'from key' } });
    expect(create.statusCode).toBe(403);
    const deleteTeam = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}`, token: key.token });
    expect(deleteTeam.statusCode).toBe(403);
    const used = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/apikey`, token: owner.token })).json();
    expect(used[0].lastUsedAt).not.toBeNull();
  });

  it('a project-role key sees only its projects and cannot manage the team', async () => {
    const owner = await t.signup('Scoped');
    const projectId = await insertProject(t, owner.teamId, 'Mine');
    await insertProject(t, owner.teamId, 'Hidden');
    const key = (
      await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'viewer', role: 'projectViewer', projects: [projectId] } })
    ).json();
    expect(key).toMatchObject({ role: 'projectViewer', projects: [projectId] });
    const teams = (await t.request({ method: 'GET', url: '/team', token: key.token })).json();
    expect(teams[0].Projects).toEqual([{ id: projectId, name: 'Mine' }]);
    expect((await t.request({ method: 'PUT', url: `/team/${owner.teamId}`, token: key.token, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}/apikey`, token: key.token })).statusCode).toBe(403);
  });

  it('never grants a key above its creator’s role', async () => {
    const owner = await t.signup('Top');
    const admin = await t.signup('Admin');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: admin.email, role: 'teamAdmin' } });
    const tooHigh = await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: admin.token, payload: { name: 'x', role: 'teamOwner' } });
    expect(tooHigh.statusCode).toBe(403);
    const ok = await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: admin.token, payload: { name: 'x', role: 'teamAdmin' } });
    expect(ok.statusCode).toBe(200);
  });

  it('a deleted key stops working at once; deleting it again is 404', async () => {
    const owner = await t.signup('Revoker');
    const key = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'temp' } })).json();
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/apikey/${key.id}`, token: owner.token });
    expect(del.json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/apikey/${key.id}`, token: owner.token })).statusCode).toBe(404);
  });

  it('a key of another team cannot be deleted through this team (404)', async () => {
    const a = await t.signup('A');
    const b = await t.signup('B');
    const key = (await t.request({ method: 'POST', url: `/team/${b.teamId}/apikey`, token: b.token, payload: { name: 'b' } })).json();
    expect((await t.request({ method: 'DELETE', url: `/team/${a.teamId}/apikey/${key.id}`, token: a.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/team/${b.teamId}`, token: key.token })).statusCode).toBe(200);
  });
});
