import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { RELOG_GRACE_MS } from '../../src/modules/identity/users-service.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { teamWithEveryRole } from '../helpers/fixtures.js';

// What Chartbrew's web client (v5.3.0, client/src/slices) sends on these calls: JSON Accept and
// Content-Type headers on every request, the session as a bearer token, and no body on relog.
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const OWN_ORIGIN = 'http://localhost:4019';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe.each<StoreKind>(['sqlite', 'postgres'])("Chartbrew's web app: identity calls (%s)", (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ store });
  });
  afterAll(() => t?.close());

  const sessionOf = (token: string) =>
    t.container.store.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();

  describe('GET /app/users', () => {
    it('says whether anyone has signed up, and nothing else; the API answers although /app/* is the editor', async () => {
      const before = await t.request({ method: 'GET', url: '/app/users', headers: JSON_HEADERS });
      expect(before.statusCode).toBe(200);
      expect(before.headers['content-type']).toMatch(/^application\/json/);
      expect(before.json()).toEqual({ areThereAnyUsers: false });
      await t.signup('First');
      const after = await t.request({ method: 'GET', url: '/app/users', headers: JSON_HEADERS });
      expect(after.json()).toEqual({ areThereAnyUsers: true });
      expect(after.body).toBe('{"areThereAnyUsers":true}');
      // Any other path under /app/ is still the editor's page.
      const page = await t.request({ method: 'GET', url: '/app/members' });
      if (page.statusCode === 503) expect(page.json()).toMatchObject({ code: 'PAGES_NOT_BUILT' });
      else expect(page.headers['content-type']).toMatch(/^text\/html/);
    });
  });

  describe('POST /user/relog', () => {
    it('answers the user with a new session token, like login; the presented one ends after the grace period', async () => {
      const me = await t.signup('Relog');
      const before = Date.now();
      const res = await t.request({ method: 'POST', url: '/user/relog', token: me.token, headers: JSON_HEADERS });
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['email', 'id', 'name', 'token']);
      expect(body).toMatchObject({ id: me.userId, name: 'Relog', email: me.email });
      expect(body.token).toMatch(/^pls_/);
      expect(body.token).not.toBe(me.token);

      // The new session is a fresh 30-day one, and it works.
      const fresh = await sessionOf(body.token);
      const freshDays = (new Date(fresh.expiresAt).getTime() - before) / 86_400_000;
      expect(freshDays).toBeGreaterThanOrEqual(30);
      expect((await t.request({ method: 'GET', url: '/user/me', token: body.token })).json()).toMatchObject({ id: me.userId });

      // The old one still works (other tabs, requests in flight) but ends RELOG_GRACE_MS after the call.
      const old = await sessionOf(me.token);
      const oldEnd = new Date(old.expiresAt).getTime();
      expect(oldEnd).toBeGreaterThanOrEqual(before + RELOG_GRACE_MS);
      expect(oldEnd).toBeLessThanOrEqual(after + RELOG_GRACE_MS);
      expect((await t.request({ method: 'GET', url: '/user/me', token: me.token })).statusCode).toBe(200);

      // Once that moment has passed, the old token is refused and the new one is not.
      await t.container.store.db.updateTable('sessions').set({ expiresAt: new Date(before - 1000).toISOString() }).where('id', '=', old.id).execute();
      expect((await t.request({ method: 'GET', url: '/user/me', token: me.token })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url: '/user/me', token: body.token })).statusCode).toBe(200);
    });

    it('a second relog of the already shortened session does not lengthen it', async () => {
      const me = await t.signup('Twice');
      const first = (await t.request({ method: 'POST', url: '/user/relog', token: me.token, headers: JSON_HEADERS })).json();
      const shortened = new Date((await sessionOf(me.token)).expiresAt).getTime();
      const again = await t.request({ method: 'POST', url: '/user/relog', token: me.token, headers: JSON_HEADERS });
      expect(again.statusCode).toBe(200);
      expect(new Date((await sessionOf(me.token)).expiresAt).getTime()).toBe(shortened);
      expect(again.json().token).not.toBe(first.token);
    });

    it('401 without a session: no token, an unknown or expired one, an API key', async () => {
      const none = await t.request({ method: 'POST', url: '/user/relog', headers: JSON_HEADERS });
      expect(none.statusCode).toBe(401);
      const unknown = await t.request({ method: 'POST', url: '/user/relog', token: 'pls_nothing', headers: JSON_HEADERS });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toMatchObject({ code: 'INVALID_TOKEN' });

      const me = await t.signup('Keys');
      const teamKey = (await t.request({ method: 'POST', url: `/team/${me.teamId}/apikey`, token: me.token, payload: { name: 'ci' } })).json().token;
      const personalKey = (await t.request({ method: 'POST', url: '/user/apikey', token: me.token, payload: { name: 'cli' } })).json().token;
      for (const token of [teamKey, personalKey]) {
        const res = await t.request({ method: 'POST', url: '/user/relog', token, headers: JSON_HEADERS });
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toMatchObject({ code: 'SESSION_REQUIRED' });
      }
      expect(await t.container.store.db.selectFrom('sessions').select('id').where('user_id', '=', me.userId).execute()).toHaveLength(1);

      const expired = await t.signup('Expired');
      await t.container.store.db.updateTable('sessions').set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', expired.userId).execute();
      expect((await t.request({ method: 'POST', url: '/user/relog', token: expired.token, headers: JSON_HEADERS })).statusCode).toBe(401);
    });

    it("with the editor's cookie: the new token replaces the cookie and stays out of the body", async () => {
      const login = { name: 'Cookie', email: `cookie-${store}@example.com`, password: 'correct horse battery' };
      const signup = await t.request({ method: 'POST', url: '/user?session=cookie', headers: { origin: OWN_ORIGIN }, payload: login });
      const cookie = cookieValue(signup.headers['set-cookie']);
      const res = await t.request({ method: 'POST', url: '/user/relog', headers: { ...JSON_HEADERS, origin: OWN_ORIGIN, cookie: `plotline_session=${cookie}` } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).not.toHaveProperty('token');
      const renewed = cookieValue(res.headers['set-cookie']);
      expect(renewed).toMatch(/^pls_/);
      expect(renewed).not.toBe(cookie);
      expect(res.body).not.toContain(renewed);
      const me = await t.request({ method: 'GET', url: '/user/me', headers: { cookie: `plotline_session=${renewed}` } });
      expect(me.json()).toMatchObject({ email: login.email });
      // A cookie write from a foreign page is refused before anything is renewed.
      const foreign = await t.request({ method: 'POST', url: '/user/relog', headers: { origin: 'https://evil.example', cookie: `plotline_session=${renewed}` } });
      expect(foreign.statusCode).toBe(403);
    });
  });

  describe('GET /team/{id}/members', () => {
    it('each member carries TeamRoles with its role in this team, beside the fields it had', async () => {
      const rt = await teamWithEveryRole(t);
      const res = await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: rt.people.teamOwner.token, headers: JSON_HEADERS });
      expect(res.statusCode).toBe(200);
      const members = res.json() as Record<string, unknown>[];
      expect(members).toHaveLength(5);
      for (const member of members) {
        expect(Object.keys(member).sort()).toEqual(['TeamRoles', 'canExport', 'email', 'id', 'name', 'projects', 'role', 'team_id', 'user_id']);
        expect(member['TeamRoles']).toEqual([
          { id: member['id'], team_id: rt.teamId, user_id: member['user_id'], role: member['role'], projects: member['projects'], canExport: member['canExport'] },
        ]);
      }
      const viewer = members.find((m) => m['role'] === 'projectViewer')!;
      expect(viewer['TeamRoles']).toEqual([expect.objectContaining({ role: 'projectViewer', projects: [rt.projectId], canExport: false })]);
      // Only a member's own team: the owner's other (personal) teams stay out.
      expect(members.flatMap((m) => m['TeamRoles'] as { team_id: number }[]).every((r) => r.team_id === rt.teamId)).toBe(true);
    });
    it("a project role reads its own row with TeamRoles (the app's dashboard page needs it), and no other member", async () => {
      const rt = await teamWithEveryRole(t);
      for (const who of ['projectAdmin', 'projectEditor', 'projectViewer'] as const) {
        const person = rt.people[who];
        const res = await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: person.token, headers: JSON_HEADERS });
        expect(res.statusCode, res.body).toBe(200);
        const members = res.json() as Record<string, any>[];
        expect(members.map((m) => m['user_id'])).toEqual([person.userId]);
        expect(members[0]!['TeamRoles']).toEqual([expect.objectContaining({ team_id: rt.teamId, user_id: person.userId, role: who, projects: [rt.projectId] })]);
        expect(res.body).not.toContain(rt.people.teamOwner.email);
      }
      // Still nothing for someone outside the team.
      const outsider = await t.signup('Outsider');
      expect((await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: outsider.token })).statusCode).toBe(403);
    });
  });

  describe("PUT /team/{id}/role and DELETE /team/{id}/member/{userId} (the app's team settings)", () => {
    it("change a member's role row as the app sends it, with the members rules; remove a member", async () => {
      const rt = await teamWithEveryRole(t);
      const owner = rt.people.teamOwner;
      const viewer = rt.people.projectViewer;
      const members = async () => (await t.request({ method: 'GET', url: `/team/${rt.teamId}/members`, token: owner.token })).json() as Record<string, any>[];
      const roleOf = async (userId: number) => (await members()).find((m) => m['user_id'] === userId)!['TeamRoles'][0];
      const put = (token: string, payload: Record<string, unknown>) => t.request({ method: 'PUT', url: `/team/${rt.teamId}/role`, token, headers: JSON_HEADERS, payload });

      // The app sends the role row it read back, with its changes.
      const row = await roleOf(viewer.userId);
      const res = await put(owner.token, { ...row, role: 'projectEditor', canExport: true, createdAt: '2025-01-01T00:00:00.000Z' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...row, role: 'projectEditor', canExport: true });
      expect(await roleOf(viewer.userId)).toEqual({ ...row, role: 'projectEditor', canExport: true });
      // A row's team cannot be moved: team_id is read-only, the row is found by the path's team.
      expect((await put(owner.token, { ...row, team_id: 999_999, role: 'projectViewer' })).statusCode).toBe(200);
      expect(await roleOf(viewer.userId)).toMatchObject({ team_id: rt.teamId, role: 'projectViewer' });

      // The members rules: nobody grants above their own role, project roles manage nobody, unknown keys are named.
      const admin = rt.people.teamAdmin;
      const promote = await put(admin.token, { user_id: viewer.userId, role: 'teamOwner' });
      expect(promote.statusCode, promote.body).toBe(403);
      expect(promote.json().code).toBe('ROLE_TOO_HIGH');
      expect((await put(rt.people.projectAdmin.token, { user_id: viewer.userId, canExport: false })).statusCode).toBe(403);
      const unknown = await put(owner.token, { user_id: viewer.userId, colour: 'blue' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ details: [{ path: 'body.colour', message: 'is not a known field' }] });
      expect((await put(owner.token, { user_id: rt.people.stranger.userId, role: 'projectViewer' })).statusCode).toBe(404);

      // Removing: the member is gone; the last owner cannot be removed.
      const removed = await t.request({ method: 'DELETE', url: `/team/${rt.teamId}/member/${viewer.userId}`, token: owner.token, headers: JSON_HEADERS });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toEqual({ removed: true });
      expect((await members()).some((m) => m['user_id'] === viewer.userId)).toBe(false);
      const lastOwner = await t.request({ method: 'DELETE', url: `/team/${rt.teamId}/member/${owner.userId}`, token: owner.token });
      expect(lastOwner.statusCode).toBe(409);
      expect(lastOwner.json().code).toBe('LAST_OWNER');
    });
  });

  describe('GET /update', () => {
    it('answers the running version without asking anyone, signed in or not', async () => {
      const anonymous = await t.request({ method: 'GET', url: '/update', headers: { accept: 'application/json' } });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json()).toEqual({ version: packageVersion, latest: null, updateAvailable: false, upToDate: true });
      const me = await t.signup('Version');
      const signedIn = await t.request({ method: 'GET', url: '/update', token: me.token });
      expect(signedIn.json()).toEqual(anonymous.json());
    });
  });
});

function cookieValue(raw: unknown): string {
  const lines = (Array.isArray(raw) ? raw : [raw]).filter((line): line is string => typeof line === 'string');
  const line = lines.find((l) => l.startsWith('plotline_session='));
  if (!line) throw new Error(`no plotline_session cookie in ${String(raw)}`);
  return line.slice('plotline_session='.length).split(';')[0]!;
}
