import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';

type Json = Record<string, any>;

/**
 * The share dialogs of Chartbrew's web app, call by call as the app makes them: it creates a
 * policy (no body), signs a link by itself when the policy answers `token_version >= 2`, saves the
 * dialog's settings with `expires_at` taken from a `datetime-local` input (`2099-12-01T10:00`: no
 * seconds, no zone), then signs the link again with the same `exp`.
 */
describe.each<StoreKind>(['sqlite', 'postgres'])("Chartbrew's share dialogs (%s store)", (store) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['signup']>>;
  /** A dashboard in Paris (UTC+1 in December) with one report chart, and one without a time zone. */
  let paris: { id: number; brewName: string; chartId: number };
  let utc: { id: number; brewName: string; chartId: number };

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.request({ method, url, token: owner.token, headers: { accept: 'application/json' }, ...(payload === undefined ? {} : { payload: payload as Json }) });

  async function dashboardIn(name: string, timezone: string | null) {
    const project = (await call('POST', '/project', { name, team_id: owner.teamId, ...(timezone ? { timezone } : {}) })).json();
    const chart = (await call('POST', `/project/${project.id}/chart`, { name: 'Notes', type: 'markdown', content: 'hello' })).json();
    return { id: project.id as number, brewName: project.brewName as string, chartId: chart.id as number };
  }

  /** What the app's `_generateTokenForPolicy` sends once it has picked a policy. */
  const signFor = (base: string, policy: Json, exp = '') =>
    call('POST', base.replace(/policy$/, 'token'), { sharePolicyId: policy.id, share_policy: { params: policy.params, allow_params: policy.allow_params }, exp });

  beforeAll(async () => {
    t = await buildTestApp({ store, env: { APP_URL: 'https://charts.example.com' } });
    owner = await t.signup('Owner');
    paris = await dashboardIn('Paris board', 'Europe/Paris');
    utc = await dashboardIn('Zoneless board', null);
  });
  afterAll(() => t?.close());

  it.each(['dashboard', 'chart'] as const)('%s: a new policy answers token_version 2, so the app signs a link that opens', async (kind) => {
    const base = kind === 'dashboard' ? `/project/${paris.id}/share/policy` : `/project/${paris.id}/chart/${paris.chartId}/share/policy`;
    const created = await t.request({ method: 'POST', url: base, token: owner.token, headers: { 'content-type': 'application/json' } });
    expect(created.statusCode, created.body).toBe(200);
    const policy = created.json();
    expect(policy.token_version).toBeGreaterThanOrEqual(2);

    const signed = await signFor(base, policy);
    expect(signed.statusCode, signed.body).toBe(200);
    const { token, url, sharePolicy } = signed.json();
    expect(sharePolicy).toMatchObject({ id: policy.id, token_version: policy.token_version });
    const open = kind === 'dashboard' ? `/project/${paris.brewName}/report?token=${token}` : `/chart/share/${policy.share_string}?token=${token}`;
    expect(url).toContain(token);
    const res = await t.request({ method: 'GET', url: open, headers: { authorization: 'Bearer undefined' } });
    expect(res.statusCode, res.body).toBe(200);

    // The policy list the dialog reads (the dashboard's `SharePolicies` too) carries the version.
    const listed = (await call('GET', base)).json().find((p: Json) => p.id === policy.id);
    expect(listed.token_version).toBe(policy.token_version);
    if (kind === 'dashboard') {
      const project = (await call('GET', `/project/${paris.id}`)).json();
      expect(project.SharePolicies.find((p: Json) => p.id === policy.id).token_version).toBe(policy.token_version);
    }
  });

  it('revoking still ends the links signed so far: the version moves on, old tokens are refused, new ones open', async () => {
    const base = `/project/${paris.id}/share/policy`;
    const policy = (await call('POST', base)).json();
    const before = (await signFor(base, policy)).json().token;
    const revoked = (await call('POST', `${base}/${policy.id}/revoke`)).json();
    expect(revoked.token_version).toBe(policy.token_version + 1);
    const old = await t.request({ method: 'GET', url: `/project/${paris.brewName}/report?token=${before}` });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ code: 'SHARE_TOKEN_REVOKED' });
    // The app re-reads the policy, still sees a version of 2 or more, and signs a new link.
    expect(revoked.token_version).toBeGreaterThanOrEqual(2);
    const after = (await signFor(base, revoked)).json().token;
    expect((await t.request({ method: 'GET', url: `/project/${paris.brewName}/report?token=${after}` })).statusCode).toBe(200);
  });

  it.each([
    ['a dashboard in Europe/Paris', () => `/project/${paris.id}/share/policy`, '2099-12-01T09:00:00.000Z'],
    ["a chart of that dashboard (its dashboard's zone)", () => `/project/${paris.id}/chart/${paris.chartId}/share/policy`, '2099-12-01T09:00:00.000Z'],
    ['a dashboard without a time zone (UTC)', () => `/project/${utc.id}/share/policy`, '2099-12-01T10:00:00.000Z'],
  ])('expires_at from a datetime-local input, on %s', async (_what, base, instant) => {
    const policy = (await call('POST', base())).json();
    // What `_onUpdatePolicy` sends: complete params only, allow_params, the input's value.
    const saved = await call('PUT', `${base()}/${policy.id}`, { params: [{ key: 'region', value: 'emea' }], allow_params: true, expires_at: '2099-12-01T10:00' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ expires_at: instant, params: [{ key: 'region', value: 'emea' }], allow_params: true });

    // Then it signs again with the same value as `exp`: the same instant.
    const signed = await call('POST', base().replace(/policy$/, 'token'), { sharePolicyId: policy.id, exp: '2099-12-01T10:00' });
    expect(signed.statusCode, signed.body).toBe(200);
    const payload = JSON.parse(Buffer.from(signed.json().token.split('.')[1], 'base64url').toString());
    expect(payload.exp).toBe(Date.parse(instant) / 1000);

    // Seconds are taken too, and a value with its zone is read as it says.
    expect((await call('PUT', `${base()}/${policy.id}`, { expires_at: '2099-12-01T10:00:30' })).json().expires_at).toBe(instant.replace(':00.000Z', ':30.000Z'));
    expect((await call('PUT', `${base()}/${policy.id}`, { expires_at: '2099-12-01T10:00:00+02:00' })).json().expires_at).toBe('2099-12-01T08:00:00.000Z');
    // Emptied (null, or ""): no expiry.
    expect((await call('PUT', `${base()}/${policy.id}`, { expires_at: null })).json().expires_at).toBeNull();
    expect((await call('PUT', `${base()}/${policy.id}`, { expires_at: '' })).json().expires_at).toBeNull();
  });

  it('a passed local expires_at closes the link', async () => {
    const base = `/project/${paris.id}/share/policy`;
    const policy = (await call('POST', base)).json();
    const token = (await signFor(base, policy)).json().token;
    expect((await call('PUT', `${base}/${policy.id}`, { expires_at: '2001-01-01T10:00' })).json().expires_at).toBe('2001-01-01T09:00:00.000Z');
    const res = await t.request({ method: 'GET', url: `/project/${paris.brewName}/report?token=${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'SHARE_POLICY_EXPIRED' });
  });

  it.each(['tomorrow', '2099-13-01T10:00', '2099-02-30T10:00', '2099-12-01T25:00', '2099-12-01T10', '2099-12-01', '01/12/2099 10:00', '2099-12-01T10:00:00 CET', 'x'.repeat(65)])(
    'refuses expires_at %s with a 400 naming the field',
    async (value) => {
      const base = `/project/${paris.id}/share/policy`;
      const policy = (await call('POST', base)).json();
      const res = await call('PUT', `${base}/${policy.id}`, { expires_at: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(new Set(res.json().details.map((d: Json) => d.path))).toEqual(new Set(['body.expires_at']));
      expect((await call('GET', base)).json().find((p: Json) => p.id === policy.id).expires_at).toBeNull();
    },
  );

  it.each(['soon', '2099-13-01T10:00', '2099-12-01T10'])('refuses exp %s with a 400 naming body.exp', async (exp) => {
    const base = `/project/${paris.id}/share/policy`;
    const policy = (await call('POST', base)).json();
    const res = await call('POST', base.replace(/policy$/, 'token'), { sharePolicyId: policy.id, exp });
    expect(res.statusCode).toBe(400);
    expect(new Set(res.json().details.map((d: Json) => d.path))).toEqual(new Set(['body.exp']));
  });
});
