import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertProject, sharedUser } from '../helpers/fixtures.js';

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
    const other = await sharedUser(t, 'Other');
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
    const owner = await sharedUser(t, 'User');
    const key = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'temp' } })).json();
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/apikey/${key.id}`, token: owner.token });
    expect(del.json()).toEqual({ deleted: true });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/apikey/${key.id}`, token: owner.token })).statusCode).toBe(404);
  });

  it('a key of another team cannot be deleted through this team (404)', async () => {
    const a = await sharedUser(t, 'User');
    const b = await sharedUser(t, 'Other');
    const key = (await t.request({ method: 'POST', url: `/team/${b.teamId}/apikey`, token: b.token, payload: { name: 'b' } })).json();
    expect((await t.request({ method: 'DELETE', url: `/team/${a.teamId}/apikey/${key.id}`, token: a.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/team/${b.teamId}`, token: key.token })).statusCode).toBe(200);
  });
});

describe("a key's rights follow its creator's current rights", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function adminWithKey() {
    const owner = await t.signup('Owner');
    const admin = await t.signup('Admin');
    const added = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: admin.email, role: 'teamAdmin' } });
    expect(added.statusCode, added.body).toBe(200);
    const key = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: admin.token, payload: { name: 'admin key' } })).json();
    expect(key.role).toBe('teamAdmin');
    return { owner, admin, key };
  }

  it('a demoted creator takes the key down with them: no member or key management, only their projects', async () => {
    const { owner, admin, key } = await adminWithKey();
    const projectId = await insertProject(t, owner.teamId, 'Kept');
    await insertProject(t, owner.teamId, 'Other');
    const outsider = await t.signup('Outsider');
    const demote = await t.request({
      method: 'PUT',
      url: `/team/${owner.teamId}/members/${admin.userId}`,
      token: owner.token,
      payload: { role: 'projectViewer', projects: [projectId] },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    // Before the fix the key kept teamAdmin: it could add members, mint keys and promote its creator.
    const add = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: key.token, payload: { email: outsider.email, role: 'teamAdmin' } });
    expect(add.statusCode).toBe(403);
    const mint = await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: key.token, payload: { name: 'more' } });
    expect(mint.statusCode).toBe(403);
    const promote = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/members/${admin.userId}`, token: key.token, payload: { role: 'teamAdmin' } });
    expect(promote.statusCode).toBe(403);
    const teams = (await t.request({ method: 'GET', url: '/team', token: key.token })).json();
    expect(teams[0].Projects).toEqual([{ id: projectId, name: 'Kept' }]);
    const me = (await t.request({ method: 'GET', url: '/user/me', token: key.token })).json();
    expect(me.apiKey).toMatchObject({ type: 'team', role: 'projectViewer', projects: [projectId] });
    // Promoted back, the key regains no more than its own role.
    await t.request({ method: 'PUT', url: `/team/${owner.teamId}/members/${admin.userId}`, token: owner.token, payload: { role: 'teamAdmin' } });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}/apikey`, token: key.token })).statusCode).toBe(200);
  });

  it("a removed creator's keys stop working and cannot re-add the creator", async () => {
    const { owner, admin, key } = await adminWithKey();
    const removed = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/members/${admin.userId}`, token: owner.token });
    expect(removed.statusCode).toBe(200);
    const readd = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: key.token, payload: { email: admin.email, role: 'teamAdmin' } });
    expect(readd.statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(401);
    const left = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/apikey`, token: owner.token })).json();
    expect(left.map((k: { id: number }) => k.id)).not.toContain(key.id);
    // Re-added later by the owner, the old key stays revoked.
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: admin.email, role: 'teamAdmin' } });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}`, token: key.token })).statusCode).toBe(401);
  });

  it('GET /user/me with a team key shows the key, not its creator', async () => {
    const { admin, key } = await adminWithKey();
    const me = await t.request({ method: 'GET', url: '/user/me', token: key.token });
    expect(me.statusCode).toBe(200);
    expect(me.body).not.toContain(admin.email);
    expect(me.json()).toMatchObject({ id: key.id, name: 'admin key', apiKey: { id: key.id, type: 'team', role: 'teamAdmin' } });
    expect(me.json().email).toBeUndefined();
  });
});

describe('personal API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('act as their user in every team, create teams, and are listed, hashed and revocable', async () => {
    const ada = await t.signup('Ada');
    const other = await t.signup('Other');
    await t.request({ method: 'POST', url: `/team/${other.teamId}/members`, token: other.token, payload: { email: ada.email, role: 'teamAdmin' } });
    const created = await t.request({ method: 'POST', url: '/user/apikey', token: ada.token, payload: { name: 'mcp' } });
    expect(created.statusCode, created.body).toBe(200);
    const key = created.json();
    expect(key).toMatchObject({ name: 'mcp', ceiling: null });
    expect(key.token).toMatch(/^plu_/);
    const teams = (await t.request({ method: 'GET', url: '/team', token: key.token })).json();
    expect(teams.map((x: { id: number }) => x.id).sort()).toEqual([ada.teamId, other.teamId].sort());
    // What Chartbrew's MCP client does with its key: create a team (403 for team keys).
    const team = await t.request({ method: 'POST', url: '/team', token: key.token, payload: { name: 'From MCP' } });
    expect(team.statusCode, team.body).toBe(200);
    const me = (await t.request({ method: 'GET', url: '/user/me', token: key.token })).json();
    expect(me).toMatchObject({ id: ada.userId, email: ada.email, apiKey: { id: key.id, type: 'personal', role: null } });
    const list = await t.request({ method: 'GET', url: '/user/apikey', token: ada.token });
    expect(list.json()).toEqual([expect.objectContaining({ id: key.id, name: 'mcp', ceiling: null })]);
    expect(list.body).not.toContain(key.token);
    const row = await t.container.store.db.selectFrom('personal_api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(key.token));
    expect((await t.request({ method: 'POST', url: '/user/logout', token: key.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/user/apikey/${key.id}`, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/user/apikey/${key.id}`, token: ada.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/team', token: key.token })).statusCode).toBe(401);
  });

  it('a ceiling caps the role in every team and cannot be raised by the key itself', async () => {
    const ada = await t.signup('Capped');
    const projectId = await insertProject(t, ada.teamId, 'Seen');
    const key = (await t.request({ method: 'POST', url: '/user/apikey', token: ada.token, payload: { name: 'viewer', ceiling: 'projectViewer' } })).json();
    expect(key.ceiling).toBe('projectViewer');
    expect((await t.request({ method: 'PUT', url: `/team/${ada.teamId}`, token: key.token, payload: { name: 'x' } })).statusCode).toBe(403);
    // Capped to a project role, the key sees no other member: only the row of the user it acts for.
    const members = await t.request({ method: 'GET', url: `/team/${ada.teamId}/members`, token: key.token });
    expect(members.statusCode).toBe(200);
    expect((members.json() as { user_id: number }[]).map((m) => m.user_id)).toEqual([ada.userId]);
    expect((await t.request({ method: 'GET', url: `/project/${projectId}`, token: key.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/project/${projectId}`, token: key.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/team', token: key.token, payload: { name: 'no' } })).statusCode).toBe(403);
    const escalate = await t.request({ method: 'POST', url: '/user/apikey', token: key.token, payload: { name: 'wider', ceiling: null } });
    expect(escalate.statusCode).toBe(403);
  });

  it('a capped key manages no keys: it cannot list, create or delete personal or team keys', async () => {
    const ada = await t.signup('KeyKeeper');
    const mint = async (payload: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url: '/user/apikey', token: ada.token, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; token: string };
    };
    const deploy = await mint({ name: 'deploy' });
    const capped = await mint({ name: 'viewer', ceiling: 'projectViewer' });
    const admin = await mint({ name: 'admin-capped', ceiling: 'teamAdmin' });
    const teamKey = (await t.request({ method: 'POST', url: `/team/${ada.teamId}/apikey`, token: ada.token, payload: { name: 'ci' } })).json();
    const before = await t.container.store.db.selectFrom('personal_api_keys').select('id').where('user_id', '=', ada.userId).execute();

    for (const key of [capped, admin]) {
      const attempts = [
        { method: 'DELETE' as const, url: `/user/apikey/${deploy.id}` },
        { method: 'DELETE' as const, url: `/user/apikey/${key.id}` },
        { method: 'GET' as const, url: '/user/apikey' },
        { method: 'POST' as const, url: '/user/apikey', payload: { name: 'lower', ceiling: 'projectViewer' } },
        { method: 'GET' as const, url: `/team/${ada.teamId}/apikey` },
        { method: 'POST' as const, url: `/team/${ada.teamId}/apikey`, payload: { name: 'more', role: 'projectViewer', projects: [] } },
        { method: 'DELETE' as const, url: `/team/${ada.teamId}/apikey/${teamKey.id}` },
      ];
      for (const attempt of attempts) {
        const res = await t.request({ ...attempt, token: key.token });
        expect(res.statusCode, `${attempt.method} ${attempt.url}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'CAPPED_KEY' });
        expect(res.json().error).toMatch(/capped at \w+ cannot list, create or delete API keys/);
      }
    }
    // Nothing changed, and every key still works.
    const after = await t.container.store.db.selectFrom('personal_api_keys').select('id').where('user_id', '=', ada.userId).execute();
    expect(after).toEqual(before);
    for (const token of [deploy.token, capped.token, teamKey.token]) expect((await t.request({ method: 'GET', url: '/team', token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/team/${ada.teamId}/apikey`, token: ada.token })).json()).toHaveLength(1);
    // A session and an uncapped key (the user in full) still manage keys.
    expect((await t.request({ method: 'GET', url: '/user/apikey', token: deploy.token })).json()).toHaveLength(3);
    expect((await t.request({ method: 'DELETE', url: `/user/apikey/${admin.id}`, token: deploy.token })).statusCode).toBe(200);
  });

  it('team keys cannot make personal keys', async () => {
    const owner = await t.signup('TeamKeyOwner');
    const key = (await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'k' } })).json();
    expect((await t.request({ method: 'POST', url: '/user/apikey', token: key.token, payload: { name: 'p' } })).statusCode).toBe(403);
  });
});
