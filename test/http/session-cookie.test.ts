import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// inject() reaches the app as http://localhost:80 unless a Host header says otherwise.
const OWN = 'http://localhost:80';

describe('browser sessions: HttpOnly cookie and Origin check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { APP_URL: 'https://editor.example.com' } });
  });
  afterAll(() => t.close());

  const body = (tag: string) => ({ name: 'Ada', email: `ada-${tag}-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' });

  function sessionCookie(res: { headers: Record<string, unknown> }): { value: string; attributes: string[] } {
    const raw = res.headers['set-cookie'];
    const line = (Array.isArray(raw) ? raw : [raw]).find((c) => typeof c === 'string' && c.startsWith('plotline_session=')) as string | undefined;
    if (!line) throw new Error('no session cookie');
    const [pair, ...attributes] = line.split(/;\s*/);
    return { value: pair!.slice('plotline_session='.length), attributes };
  }

  it('sign-up with ?session=cookie sets HttpOnly SameSite=Strict (no Secure over http) and keeps the token out of the body', async () => {
    const res = await t.request({ method: 'POST', url: '/user?session=cookie', headers: { origin: OWN }, payload: body('signup') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    const cookie = sessionCookie(res);
    expect(cookie.value).toMatch(/^pls_/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect(cookie.attributes).not.toContain('Secure');
    expect(res.body).not.toContain(cookie.value);
  });

  it('adds Secure when the request came over https (trusted proxy)', async () => {
    const proxied = await buildTestApp({ env: { PLOTLINE_TRUST_PROXY: 'true' } });
    try {
      const res = await proxied.request({
        method: 'POST',
        url: '/user?session=cookie',
        headers: { origin: 'https://plotline.example.com', host: 'plotline.example.com', 'x-forwarded-proto': 'https' },
        payload: body('https'),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(sessionCookie(res).attributes).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });

  it('the cookie authenticates reads; writes need a same-origin Origin header', async () => {
    const login = body('rw');
    await t.request({ method: 'POST', url: '/user', payload: login });
    const res = await t.request({ method: 'POST', url: '/user/login?session=cookie', headers: { origin: OWN }, payload: { email: login.email, password: login.password } });
    const cookie = `plotline_session=${sessionCookie(res).value}`;

    const me = await t.request({ method: 'GET', url: '/user/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: login.email });

    const teams = await t.request({ method: 'GET', url: '/team', headers: { cookie } });
    const teamId = teams.json()[0].id as number;
    const write = (headers: Record<string, string>) =>
      t.request({ method: 'POST', url: '/project', headers: { cookie, ...headers }, payload: { name: 'P', team_id: teamId } });

    const none = await write({});
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ code: 'CSRF_ORIGIN_REQUIRED' });
    const foreign = await write({ origin: 'https://evil.example.net' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'CSRF_ORIGIN_MISMATCH' });
    expect(foreign.json().error).toContain('https://evil.example.net');
    expect((await write({ origin: 'null' })).statusCode).toBe(403);

    const own = await write({ origin: OWN });
    expect(own.statusCode, own.body).toBe(200);
    const app = await write({ origin: 'https://editor.example.com' });
    expect(app.statusCode).toBe(200);

    // Nothing was written by the refused requests.
    const projects = await t.request({ method: 'GET', url: `/project/team/${teamId}`, headers: { cookie } });
    expect(projects.json()).toHaveLength(2);
  });

  it('a cookie login from a foreign Origin is refused and sets no cookie (login CSRF)', async () => {
    const login = body('foreign');
    await t.request({ method: 'POST', url: '/user', payload: login });
    const res = await t.request({ method: 'POST', url: '/user/login?session=cookie', headers: { origin: 'https://evil.example.net' }, payload: { email: login.email, password: login.password } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('logout ends the session and clears the cookie', async () => {
    const res = await t.request({ method: 'POST', url: '/user?session=cookie', headers: { origin: OWN }, payload: body('logout') });
    const cookie = `plotline_session=${sessionCookie(res).value}`;
    const out = await t.request({ method: 'POST', url: '/user/logout', headers: { cookie, origin: OWN } });
    expect(out.statusCode).toBe(200);
    const cleared = sessionCookie(out);
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toContain('Max-Age=0');
    const after = await t.request({ method: 'GET', url: '/user/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('bearer tokens work as before, without Origin, and an API key in the cookie is refused', async () => {
    const user = await t.signup('Bearer');
    const write = await t.request({ method: 'POST', url: '/project', token: user.token, payload: { name: 'Q', team_id: user.teamId } });
    expect(write.statusCode).toBe(200);
    const key = await t.request({ method: 'POST', url: `/team/${user.teamId}/apikey`, token: user.token, payload: { name: 'k', role: 'teamAdmin' } });
    expect(key.statusCode, key.body).toBe(200);
    const asCookie = await t.request({ method: 'GET', url: '/user/me', headers: { cookie: `plotline_session=${key.json().token}` } });
    expect(asCookie.statusCode).toBe(401);
    // An explicit Authorization header wins over any cookie.
    const both = await t.request({ method: 'POST', url: '/project', token: user.token, headers: { cookie: 'plotline_session=pls_nonsense' }, payload: { name: 'R', team_id: user.teamId } });
    expect(both.statusCode).toBe(200);
  });
});
