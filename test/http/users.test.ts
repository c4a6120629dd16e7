import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('users and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const signupBody = (email: string) => ({ name: 'Grace', email, password: 'correct horse battery' });

  it('signs up: answers {id, name, email, token} and creates a personal team owned by the user', async () => {
    const res = await t.request({ method: 'POST', url: '/user', payload: signupBody('grace@example.com') });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['email', 'id', 'name', 'token']);
    expect(body.token).toMatch(/^pls_/);
    const teams = await t.request({ method: 'GET', url: '/team', token: body.token });
    expect(teams.json()).toMatchObject([{ name: "Grace's team", TeamRoles: [{ user_id: body.id, role: 'teamOwner' }], Projects: [] }]);
  });

  it('stores only a hash of the session token and a scrypt hash of the password', async () => {
    const res = await t.request({ method: 'POST', url: '/user', payload: signupBody('hashes@example.com') });
    const { token, id } = res.json();
    const session = await t.container.store.db.selectFrom('sessions').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(session.token_hash).toBe(hashToken(token));
    const user = await t.container.store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain('correct horse');
  });

  it('rejects a taken email (case-insensitive) with 409', async () => {
    await t.request({ method: 'POST', url: '/user', payload: signupBody('dup@example.com') });
    const res = await t.request({ method: 'POST', url: '/user', payload: signupBody('DUP@example.com') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('rejects short passwords and bad emails with 400 naming the field', async () => {
    const short = await t.request({ method: 'POST', url: '/user', payload: { name: 'A', email: 'a@example.com', password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().details[0].path).toBe('body.password');
    const email = await t.request({ method: 'POST', url: '/user', payload: { name: 'A', email: 'not-an-email', password: 'long enough pw' } });
    expect(email.statusCode).toBe(400);
    expect(email.json().details[0].path).toBe('body.email');
  });

  it('logs in; wrong password and unknown email get the same 401', async () => {
    await t.request({ method: 'POST', url: '/user', payload: signupBody('login@example.com') });
    const ok = await t.request({ method: 'POST', url: '/user/login', payload: { email: 'Login@Example.com', password: 'correct horse battery' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'login@example.com', name: 'Grace' });
    const wrong = await t.request({ method: 'POST', url: '/user/login', payload: { email: 'login@example.com', password: 'wrong password!' } });
    const unknown = await t.request({ method: 'POST', url: '/user/login', payload: { email: 'nobody@example.com', password: 'wrong password!' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('GET /user/me answers the user; logout ends that session only', async () => {
    await t.request({ method: 'POST', url: '/user', payload: signupBody('me@example.com') });
    const a = (await t.request({ method: 'POST', url: '/user/login', payload: { email: 'me@example.com', password: 'correct horse battery' } })).json().token;
    const b = (await t.request({ method: 'POST', url: '/user/login', payload: { email: 'me@example.com', password: 'correct horse battery' } })).json().token;
    const me = await t.request({ method: 'GET', url: '/user/me', token: a });
    expect(me.statusCode).toBe(200);
    expect(Object.keys(me.json()).sort()).toEqual(['createdAt', 'email', 'id', 'name']);
    const out = await t.request({ method: 'POST', url: '/user/logout', token: a });
    expect(out.json()).toEqual({ loggedOut: true });
    expect((await t.request({ method: 'GET', url: '/user/me', token: a })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/user/me', token: b })).statusCode).toBe(200);
  });

  it('rejects missing, malformed, unknown and expired tokens with 401', async () => {
    const res = await t.request({ method: 'POST', url: '/user', payload: signupBody('expired@example.com') });
    const { token, id } = res.json();
    expect((await t.request({ method: 'GET', url: '/user/me' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/user/me', headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/user/me', token: 'pls_unknown' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/user/me', token: 'garbage' })).statusCode).toBe(401);
    await t.container.store.db.updateTable('sessions').set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', id).execute();
    const expired = await t.request({ method: 'GET', url: '/user/me', token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('sessions last 30 days', async () => {
    const res = await t.request({ method: 'POST', url: '/user', payload: signupBody('thirty@example.com') });
    const session = await t.container.store.db.selectFrom('sessions').selectAll().where('user_id', '=', res.json().id).executeTakeFirstOrThrow();
    const days = (new Date(session.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });
});

describe('sign-up policy and rate limits', () => {
  it('PLOTLINE_SIGNUP=closed allows the first user only', async () => {
    const t = await buildTestApp({ env: { PLOTLINE_SIGNUP: 'closed' } });
    try {
      const first = await t.request({ method: 'POST', url: '/user', payload: { name: 'Admin', email: 'admin@example.com', password: 'long enough pw' } });
      expect(first.statusCode).toBe(200);
      const second = await t.request({ method: 'POST', url: '/user', payload: { name: 'Eve', email: 'eve@example.com', password: 'long enough pw' } });
      expect(second.statusCode).toBe(403);
      expect(second.json()).toMatchObject({ code: 'SIGNUP_CLOSED' });
      expect(await t.container.store.db.selectFrom('users').select('id').execute()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('login and sign-up answer 429 with retry-after past the limit', async () => {
    const t = await buildTestApp({ rateLimit: { global: 1000, auth: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.request({ method: 'POST', url: '/user/login', payload: { email: 'x@example.com', password: 'whatever1' } });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('sign-up is rate limited per client address too', async () => {
    const t = await buildTestApp({ rateLimit: { global: 1000, auth: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.request({ method: 'POST', url: '/user', payload: { name: 'N', email: `n${i}@example.com`, password: 'long enough pw' } });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await t.container.store.db.selectFrom('users').select('id').execute()).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});
