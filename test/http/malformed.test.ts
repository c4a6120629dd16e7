import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * Bad input gets a 4xx `{error, code}` naming the problem and changes nothing.
 */
describe('malformed requests', () => {
  let t: TestApp;
  let owner: { token: string; teamId: number; userId: number };
  let snapshot: unknown;

  const dump = async () => {
    const db = t.container.store.db;
    return {
      users: await db.selectFrom('users').select(['id', 'name', 'email', 'password_hash']).orderBy('id').execute(),
      teams: await db.selectFrom('teams').selectAll().orderBy('id').execute(),
      roles: await db.selectFrom('team_roles').selectAll().orderBy('id').execute(),
      keys: await db.selectFrom('api_keys').select(['id', 'name', 'role', 'team_id']).orderBy('id').execute(),
    };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/apikey`, token: owner.token, payload: { name: 'existing' } });
    snapshot = await dump();
  });
  afterAll(() => t.close());

  const big = 'x'.repeat(2 * 1024 * 1024);
  const json = { 'content-type': 'application/json' };
  const cases: [string, () => InjectOptions, number][] = [
    ['invalid JSON', () => ({ method: 'POST', url: '/team', headers: json, payload: '{"name": ' }), 400],
    ['JSON with trailing garbage', () => ({ method: 'POST', url: '/team', headers: json, payload: '{"name":"a"} x' }), 400],
    ['a JSON array instead of an object', () => ({ method: 'POST', url: '/team', headers: json, payload: '["a"]' }), 400],
    ['a JSON string instead of an object', () => ({ method: 'POST', url: '/team', headers: json, payload: '"a"' }), 400],
    ['no body on create', () => ({ method: 'POST', url: '/team', headers: json, payload: '' }), 400],
    ['name of the wrong type', () => ({ method: 'POST', url: '/team', payload: { name: 42 } }), 400],
    ['name null', () => ({ method: 'POST', url: '/team', payload: { name: null } }), 400],
    ['empty name', () => ({ method: 'POST', url: '/team', payload: { name: '' } }), 400],
    ['whitespace name', () => ({ method: 'POST', url: '/team', payload: { name: '   ' } }), 400],
    ['boolean given as "yes"', () => ({ method: 'POST', url: '/team', payload: { name: 'ok', showBranding: 'yes' } }), 400],
    ['boolean given as "true" string', () => ({ method: 'PUT', url: `/team/${owner.teamId}`, payload: { allowReportExport: 'true' } }), 400],
    ['boolean given as 1', () => ({ method: 'PUT', url: `/team/${owner.teamId}`, payload: { showBranding: 1 } }), 400],
    ['2 MB string in a field', () => ({ method: 'POST', url: '/team', payload: { name: big } }), 413],
    ['2 MB string in a field of a small field limit', () => ({ method: 'PUT', url: `/team/${owner.teamId}`, payload: { name: 'y'.repeat(5000) } }), 400],
    ['non-integer team id', () => ({ method: 'GET', url: '/team/abc' }), 400],
    ['fractional team id', () => ({ method: 'GET', url: '/team/1.5' }), 400],
    ['negative team id', () => ({ method: 'PUT', url: '/team/-1', payload: { name: 'x' } }), 400],
    ['team id beyond integer range', () => ({ method: 'GET', url: '/team/99999999999999999999' }), 400],
    ['non-integer user id', () => ({ method: 'GET', url: '/team/user/me' }), 400],
    ['non-integer key id', () => ({ method: 'DELETE', url: `/team/${owner.teamId}/apikey/x1` }), 400],
    ['unknown role for a member', () => ({ method: 'POST', url: `/team/${owner.teamId}/members`, payload: { email: 'a@b.co', role: 'superuser' } }), 400],
    ['projects as a string', () => ({ method: 'POST', url: `/team/${owner.teamId}/members`, payload: { email: 'a@b.co', role: 'projectViewer', projects: '1,2' } }), 400],
    ['project ids as strings', () => ({ method: 'POST', url: `/team/${owner.teamId}/apikey`, payload: { name: 'k', role: 'projectViewer', projects: ['one'] } }), 400],
    ['unknown role for a key', () => ({ method: 'POST', url: `/team/${owner.teamId}/apikey`, payload: { name: 'k', role: 'root' } }), 400],
    ['missing key name', () => ({ method: 'POST', url: `/team/${owner.teamId}/apikey`, payload: {} }), 400],
    ['email as an object on login', () => ({ method: 'POST', url: '/user/login', payload: { email: { $ne: null }, password: 'x' } }), 400],
    ['password as an array on sign-up', () => ({ method: 'POST', url: '/user', payload: { name: 'a', email: 'z@example.com', password: ['longpassword'] } }), 400],
    ['form-encoded body', () => ({ method: 'POST', url: '/team', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' }), 415],
    ['prototype pollution attempt', () => ({ method: 'POST', url: '/team', headers: json, payload: '{"name":"p","__proto__":{"admin":true}}' }), 400],
  ];

  it('has at least 20 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  for (const [name, make, status] of cases) {
    it(`${name} → ${status} {error, code}`, async () => {
      const options = make();
      const res = await t.request({ ...options, token: owner.token });
      expect(res.statusCode).toBe(status);
      const body = res.json();
      expect(typeof body.error).toBe('string');
      expect(body.error.length).toBeGreaterThan(0);
      expect(typeof body.code).toBe('string');
      expect(res.body).not.toMatch(/at .+\.(ts|js):\d+/); // never a stack trace
      if (status === 400 && body.code === 'VALIDATION_FAILED') {
        expect(body.details[0].path).toMatch(/^(body|params|querystring)/);
      }
    });
  }

  it('validation messages name the field', async () => {
    const res = await t.request({ method: 'POST', url: '/team', token: owner.token, payload: { name: 'ok', allowReportRefresh: 'yes' } });
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.allowReportRefresh' }] });
    expect(res.json().error).toContain('body.allowReportRefresh');
    const id = await t.request({ method: 'GET', url: '/team/abc', token: owner.token });
    expect(id.json().details[0].path).toBe('params.team_id');
  });

  it('left the store exactly as it was', async () => {
    expect(await dump()).toEqual(snapshot);
  });
});
