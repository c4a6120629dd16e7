import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// The configured origins (BASE_URL, APP_URL); inject() itself reaches the app as http://localhost:80.
const OWN = 'http://localhost:4019';
const APP = 'http://editor.example.com';

const body = (tag: string) => ({ name: 'Ada', email: `ada-${tag}-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' });

function sessionCookie(res: { headers: Record<string, unknown> }, name = 'plotline_session'): { value: string; attributes: string[] } {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : [raw]).find((c) => typeof c === 'string' && c.startsWith(`${name}=`)) as string | undefined;
  if (!line) throw new Error(`no ${name} cookie in ${String(raw)}`);
  const [pair, ...attributes] = line.split(/;\s*/);
  return { value: pair!.slice(name.length + 1), attributes };
}

describe('browser sessions: HttpOnly cookie and Origin check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { BASE_URL: OWN, APP_URL: APP } });
  });
  afterAll(() => t.close());

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

  it('a request over https (trusted proxy) gets the __Host- cookie, read back under that name only', async () => {
    const proxied = await buildTestApp({ env: { PLOTLINE_TRUST_PROXY: 'true', BASE_URL: 'http://localhost:4019', APP_URL: 'https://plotline.example.com' } });
    try {
      const res = await proxied.request({
        method: 'POST',
        url: '/user?session=cookie',
        headers: { origin: 'https://plotline.example.com', host: 'plotline.example.com', 'x-forwarded-proto': 'https' },
        payload: body('https'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const cookie = sessionCookie(res, '__Host-plotline_session');
      expect(cookie.attributes).toEqual(expect.arrayContaining(['Secure', 'Path=/', 'HttpOnly', 'SameSite=Strict']));
      const me = await proxied.request({ method: 'GET', url: '/user/me', headers: { cookie: `__Host-plotline_session=${cookie.value}`, 'x-forwarded-proto': 'https' } });
      expect(me.statusCode, me.body).toBe(200);
      const plain = await proxied.request({ method: 'GET', url: '/user/me', headers: { cookie: `plotline_session=${cookie.value}`, 'x-forwarded-proto': 'https' } });
      expect(plain.statusCode).toBe(401);
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
    const app = await write({ origin: APP });
    expect(app.statusCode).toBe(200);
    // The same port on another loopback name is the same server.
    expect((await write({ origin: 'http://127.0.0.1:4019' })).statusCode).toBe(200);

    // Nothing was written by the refused requests.
    const projects = await t.request({ method: 'GET', url: `/project/team/${teamId}`, headers: { cookie } });
    expect(projects.json()).toHaveLength(3);
  });

  it("the Origin is compared with BASE_URL and APP_URL, never with the request's Host header", async () => {
    const res = await t.request({ method: 'POST', url: '/user?session=cookie', headers: { origin: OWN }, payload: body('host') });
    const cookie = `plotline_session=${sessionCookie(res).value}`;
    const teamId = (await t.request({ method: 'GET', url: '/team', headers: { cookie } })).json()[0].id as number;
    const write = (headers: Record<string, string>) => t.request({ method: 'POST', url: '/project', headers: { cookie, ...headers }, payload: { name: 'P', team_id: teamId } });

    // A name that resolves to this server (DNS rebinding), with Origin and Host agreeing.
    const rebound = await write({ host: 'rebound.example.net:4019', origin: 'http://rebound.example.net:4019' });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toMatchObject({ code: 'CSRF_ORIGIN_MISMATCH' });
    expect(rebound.json().error).toContain('BASE_URL or APP_URL');
    // The address the request reached, but not a configured one.
    expect((await write({ origin: 'http://localhost:80' })).statusCode).toBe(403);
    expect((await write({ host: 'localhost:4020', origin: 'http://localhost:4020' })).statusCode).toBe(403);
    // A cookie login from such a page is refused too.
    const login = await t.request({ method: 'POST', url: '/user/login?session=cookie', headers: { host: 'rebound.example.net:4019', origin: 'http://rebound.example.net:4019' }, payload: { email: 'x@example.com', password: 'whatever it is' } });
    expect(login.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/project/team/${teamId}`, headers: { cookie } })).json()).toHaveLength(0);
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

describe('browser sessions behind https (BASE_URL or APP_URL is https)', () => {
  const SITE = 'https://plotline.example.com';
  let t: TestApp;
  beforeAll(async () => {
    // The proxy in front terminates TLS and is not trusted: requests reach the process as plain http.
    t = await buildTestApp({ env: { BASE_URL: SITE, APP_URL: SITE } });
  });
  afterAll(() => t.close());

  it('the session cookie is __Host-plotline_session: Secure, Path=/, no Domain, whatever the request looks like', async () => {
    const res = await t.request({ method: 'POST', url: '/user?session=cookie', headers: { origin: SITE }, payload: body('host-prefix') });
    expect(res.statusCode, res.body).toBe(200);
    const raw = [res.headers['set-cookie']].flat();
    expect(raw.some((line) => String(line).startsWith('plotline_session='))).toBe(false);
    const cookie = sessionCookie(res, '__Host-plotline_session');
    expect(cookie.value).toMatch(/^pls_/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Secure', 'Path=/', 'HttpOnly', 'SameSite=Strict']));
    expect(cookie.attributes.some((a) => /^domain=/i.test(a))).toBe(false);

    // Read back under that name; the unprefixed name (which a sibling subdomain or a plain-http
    // page could plant) is not read at all.
    const me = await t.request({ method: 'GET', url: '/user/me', headers: { cookie: `__Host-plotline_session=${cookie.value}` } });
    expect(me.statusCode, me.body).toBe(200);
    const planted = await t.request({ method: 'GET', url: '/user/me', headers: { cookie: `plotline_session=${cookie.value}` } });
    expect(planted.statusCode).toBe(401);

    const out = await t.request({ method: 'POST', url: '/user/logout', headers: { cookie: `__Host-plotline_session=${cookie.value}`, origin: SITE } });
    expect(out.statusCode, out.body).toBe(200);
    const cleared = sessionCookie(out, '__Host-plotline_session');
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Secure', 'Path=/']));
  });
});

describe('pages that refuse to be framed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('/docs and the editor answer X-Frame-Options: DENY and frame-ancestors none; the embed page stays embeddable', async () => {
    for (const url of ['/docs', '/docs/', '/app/', '/app/projects/1']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
    const report = await t.request({ method: 'GET', url: '/report/some-board' });
    expect(report.headers['x-frame-options']).toBe('DENY');
    const embed = await t.request({ method: 'GET', url: '/chart/abc/embedded' });
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(String(embed.headers['content-security-policy'])).toContain('frame-ancestors *');
  });
});
