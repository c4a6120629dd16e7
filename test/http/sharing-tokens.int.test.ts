import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ShareTokens } from '../../src/modules/dashboards/share-tokens.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { createOrdersTable, SECRETS, seedDashboard, type Requester, type SeededDashboard } from '../browser/share-seed.js';

type Json = Record<string, any>;

/** A locked param value: it reaches the query as a variable, never a response. */
const TENANT = 'tenant-secret-42';

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function decode(token: string): { header: Json; payload: Json } {
  const [header, payload] = token.split('.');
  return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) };
}

/** A JWT signed by hand, to forge what jose would never produce (other algorithms, other keys). */
function forge(header: Json, payload: Json, key: Buffer | string, algorithm = 'sha256'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(algorithm, key).update(input).digest('base64url')}`;
}

describe.each<StoreKind>(['sqlite', 'postgres'])('share tokens and public share endpoints (%s store)', (store) => {
  let t: TestApp;
  let db: { url: string; drop(): Promise<void> };
  let storeDb: { url: string; drop(): Promise<void> } | undefined;
  let seed: SeededDashboard;
  let owner: string;
  let other: SeededDashboard;
  /** Every public response body, scanned for secrets at the end. */
  const publicBodies: string[] = [];

  const api: Requester = ({ payload, ...options }) => t.request({ ...options, ...(payload !== undefined ? { payload: payload as Json } : {}) });
  const dashboardPolicy = (projectId = seed.projectId) => `/project/${projectId}/share/policy`;
  const chartPolicy = (chartId: number, projectId = seed.projectId) => `/project/${projectId}/chart/${chartId}/share/policy`;

  async function pub(url: string, headers: Record<string, string> = {}) {
    const res = await t.request({ method: 'GET', url, headers });
    publicBodies.push(res.body);
    return res;
  }

  async function newPolicy(base: string, body?: Json): Promise<Json> {
    const created = await t.request({ method: 'POST', url: base, token: owner });
    expect(created.statusCode, created.body).toBe(200);
    if (!body) return created.json();
    const updated = await t.request({ method: 'PUT', url: `${base}/${created.json().id}`, token: owner, payload: body });
    expect(updated.statusCode, updated.body).toBe(200);
    return updated.json();
  }

  async function issue(base: string, payload?: unknown): Promise<{ token: string; url: string }> {
    const res = await t.request({ method: 'POST', url: base.replace(/policy$/, 'token'), token: owner, ...(payload !== undefined ? { payload: payload as Json } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const kpiValue = (body: Json, chartId = seed.charts.kpi) => body.Charts.find((c: Json) => c.id === chartId).chartData.values[0].value;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(db.url);
    // The Postgres store's database is made and dropped here, so that the drop can wait for the
    // pool's connections to finish closing (a forced drop racing them kills the worker).
    storeDb = store === 'postgres' ? await createTempDatabase(inject('postgresUrl')) : undefined;
    t = await buildTestApp({ env: { APP_URL: 'https://dash.example.com', ...(storeDb ? { DATABASE_URL: storeDb.url } : {}) }, rateLimit: { global: 100_000, auth: 100_000, share: 100_000 } });
    seed = await seedDashboard(api, db.url);
    owner = seed.ownerToken;
    other = await seedDashboard(api, db.url, 'Other board');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    // pg's pool.end() resolves before its sockets are closed; give them a moment before the forced drops.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await storeDb?.drop();
    await db?.drop();
  });

  describe('issuing', () => {
    it('needs a policy first (400 with a clear message), then answers {token, url}', async () => {
      const none = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ code: 'SHARE_POLICY_REQUIRED' });
      expect(none.json().error).toContain(`POST /project/${seed.projectId}/share/policy`);
      const chartNone = await t.request({ method: 'POST', url: `/project/${seed.projectId}/chart/${seed.charts.bar}/share/token`, token: owner, payload: {} });
      expect(chartNone.json().code).toBe('SHARE_POLICY_REQUIRED');

      const policy = await newPolicy(dashboardPolicy());
      const before = Math.floor(Date.now() / 1000);
      // No body, a JSON content type with no body, and {} all work.
      for (const extra of [{}, { headers: { 'content-type': 'application/json' } }, { payload: {} }]) {
        const res = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, ...extra });
        expect(res.statusCode, res.body).toBe(200);
        const { token, url, sharePolicy } = res.json();
        expect(Object.keys(res.json()).sort()).toEqual(['sharePolicy', 'token', 'url']);
        expect(sharePolicy).toEqual(policy);
        expect(url).toBe(`https://dash.example.com/report/${seed.brewName}?token=${token}`);
        const { header, payload } = decode(token);
        expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
        expect(JSON.parse(payload.sub)).toEqual({ type: 'Project', id: seed.projectId });
        expect(payload).toMatchObject({ pid: policy.id, ver: 1, aud: 'plotline:share' });
        expect(payload.iat).toBeGreaterThanOrEqual(before);
        expect(payload.exp - payload.iat).toBe(99_999 * 86_400);
      }
    });

    it('chart tokens point at the embed page of the policy share string', async () => {
      const policy = await newPolicy(chartPolicy(seed.charts.bar));
      const { token, url } = await issue(chartPolicy(seed.charts.bar));
      expect(url).toBe(`https://dash.example.com/chart/${policy.share_string}/embedded?token=${token}`);
      expect(JSON.parse(decode(token).payload.sub)).toEqual({ type: 'Chart', id: seed.charts.bar });
    });

    it('exp: a future date sets the expiry; past or unparsable is a 400', async () => {
      const exp = new Date(Date.now() + 3 * 86_400_000);
      const { token } = await issue(dashboardPolicy(), { exp: exp.toISOString() });
      expect(decode(token).payload.exp).toBe(Math.floor(exp.getTime() / 1000));
      for (const bad of ['2001-01-01T00:00:00Z', 'next tuesday', '31/12/2030']) {
        const res = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, payload: { exp: bad } });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().details[0].path).toBe('body.exp');
      }
      const wrongType = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, payload: { exp: 12 } });
      expect(wrongType.statusCode).toBe(400);
    });

    it('exp "" or null (what Chartbrew\'s client sends for no expiry) is no exp; the answer carries the policy as updated', async () => {
      const policy = await newPolicy(chartPolicy(seed.charts.bar));
      const params = [{ key: 'country', value: 'FR' }];
      for (const exp of ['', null]) {
        const res = await t.request({
          method: 'POST',
          url: `/project/${seed.projectId}/chart/${seed.charts.bar}/share/token`,
          token: owner,
          payload: { sharePolicyId: policy.id, share_policy: { params, allow_params: false }, exp },
        });
        expect(res.statusCode, res.body).toBe(200);
        const { token, sharePolicy } = res.json();
        const { payload } = decode(token);
        expect(payload.exp - payload.iat).toBe(99_999 * 86_400);
        expect(sharePolicy).toMatchObject({ id: policy.id, share_string: policy.share_string, params, allow_params: false });
        expect(sharePolicy.token_version).toBe(2);
      }
    });

    it('share_policy updates only params and allow_params of the policy before signing', async () => {
      const policy = await newPolicy(dashboardPolicy());
      await issue(dashboardPolicy(), { sharePolicyId: policy.id, share_policy: { params: [{ key: 'status', value: 'refunded' }], allow_params: true, visibility: 'disabled', expires_at: '2001-01-01T00:00:00Z' } });
      const list = (await t.request({ method: 'GET', url: dashboardPolicy(), token: owner })).json();
      const stored = list.find((p: Json) => p.id === policy.id);
      expect(stored).toMatchObject({ params: [{ key: 'status', value: 'refunded' }], allow_params: true, visibility: 'private', expires_at: null });
      const dup = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, payload: { share_policy: { params: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] } } });
      expect(dup.statusCode).toBe(400);
      const foreign = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, payload: { sharePolicyId: 999_999 } });
      expect(foreign.json().code).toBe('SHARE_POLICY_REQUIRED');
    });

    it('roles: owners, admins and projectAdmins of their own dashboards issue; others may not', async () => {
      const role = async (name: string, projects: number[] = [seed.projectId]) => {
        const person = await t.signup(name);
        await t.request({ method: 'POST', url: `/team/${seed.teamId}/members`, token: owner, payload: { email: person.email, role: name, projects } });
        return person.token;
      };
      const url = `/project/${seed.projectId}/share/token`;
      const expectStatus = async (token: string, status: number) => expect((await t.request({ method: 'POST', url, token })).statusCode).toBe(status);
      await expectStatus(await role('teamAdmin', []), 200);
      await expectStatus(await role('projectAdmin'), 200);
      const side = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name: 'Side board', team_id: seed.teamId } })).json();
      await expectStatus(await role('projectAdmin', [side.id]), 403);
      await expectStatus(await role('projectEditor'), 403);
      await expectStatus(await role('projectViewer'), 403);
      await expectStatus(other.ownerToken, 404);
      expect((await t.request({ method: 'POST', url })).statusCode).toBe(401);
    });
  });

  describe('verification on every use', () => {
    let policy: Json;
    let token: string;
    const report = (tok: string, extra = '') => pub(`/project/dashboard/${seed.brewName}?token=${encodeURIComponent(tok)}${extra}`);

    beforeAll(async () => {
      policy = await newPolicy(dashboardPolicy());
      ({ token } = await issue(dashboardPolicy(), { sharePolicyId: policy.id }));
    });

    it('a valid token opens the report (a Bearer header is ignored) with the dashboard and its data', async () => {
      const res = await pub(`/project/dashboard/${seed.brewName}?token=${token}`, { authorization: 'Bearer not-a-real-token' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const body = res.json();
      expect(body).toMatchObject({ name: 'Sales overview', dashboardTitle: 'Sales overview', backgroundColor: '#103751', titleColor: '#ffffff', showBranding: true, timezone: 'UTC', theme: 'os' });
      expect(body.Charts.map((c: Json) => c.type).sort()).toEqual(['bar', 'doughnut', 'kpi', 'line', 'markdown', 'matrix', 'pie', 'table']);
      expect(kpiValue(body)).toBe(96); // 120 orders, every fifth refunded
    });

    it('a tampered signature, alg none, another key or another HMAC are SHARE_TOKEN_INVALID', async () => {
      const [h, p, s] = token.split('.') as [string, string, string];
      const flipped = `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
      const { payload } = decode(token);
      const forged = [
        flipped,
        `${h}.${b64({ ...payload, pid: payload.pid + 1 })}.${s}`,
        `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
        `${b64({ alg: 'none' })}.${p}.${s}`,
        forge({ alg: 'HS256', typ: 'JWT' }, payload, Buffer.alloc(32, 7)),
        forge({ alg: 'HS256', typ: 'JWT' }, payload, t.config.encryptionKey),
        forge({ alg: 'HS512', typ: 'JWT' }, payload, t.config.shareSecret, 'sha512'),
        forge({ alg: 'HS256', typ: 'JWT' }, { ...payload, aud: 'something-else' }, t.config.shareSecret),
        'not.a.jwt',
        'x'.repeat(3000),
      ];
      for (const bad of forged) {
        const res = await report(bad);
        expect(res.statusCode, bad.slice(0, 40)).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'SHARE_TOKEN_INVALID' });
      }
      expect((await report('x'.repeat(5000))).statusCode).toBe(400);
      // The same claims signed properly do pass: the failures above are the forgery, not the claims.
      expect((await report(forge({ alg: 'HS256', typ: 'JWT' }, payload, t.config.shareSecret))).statusCode).toBe(200);
    });

    it('an expired token is SHARE_TOKEN_EXPIRED', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = await new ShareTokens(t.config.shareSecret).issue({ subject: { type: 'Project', id: seed.projectId }, policyId: policy.id, version: 1, expiresAt: now - 5 }, now - 100);
      const res = await report(expired);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('SHARE_TOKEN_EXPIRED');
    });

    it('a token for another dashboard or of another kind is refused', async () => {
      const otherPolicy = (await t.request({ method: 'POST', url: `/project/${other.projectId}/share/policy`, token: other.ownerToken })).json();
      const foreign = (await t.request({ method: 'POST', url: `/project/${other.projectId}/share/token`, token: other.ownerToken })).json().token;
      expect((await report(foreign)).json().code).toBe('SHARE_TOKEN_INVALID');
      expect((await pub(`/project/dashboard/${other.brewName}?token=${foreign}`)).statusCode).toBe(200);
      // Right subject, but a policy of another entity.
      const mixed = await new ShareTokens(t.config.shareSecret).issue({ subject: { type: 'Project', id: seed.projectId }, policyId: otherPolicy.id, version: 1 });
      expect((await report(mixed)).json().code).toBe('SHARE_TOKEN_INVALID');
      // A chart token on the dashboard endpoint.
      await newPolicy(chartPolicy(seed.charts.kpi));
      const chartToken = (await issue(chartPolicy(seed.charts.kpi))).token;
      expect((await report(chartToken)).json().code).toBe('SHARE_TOKEN_INVALID');
    });

    it('revoke: old tokens are SHARE_TOKEN_REVOKED, new ones work', async () => {
      const revoked = await t.request({ method: 'POST', url: `${dashboardPolicy()}/${policy.id}/revoke`, token: owner });
      expect(revoked.statusCode).toBe(200);
      // The policy answers its new version; tokens carry the stored counter, one below it.
      expect(revoked.json().token_version).toBe(3);
      const res = await report(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('SHARE_TOKEN_REVOKED');
      ({ token } = await issue(dashboardPolicy(), { sharePolicyId: policy.id }));
      expect(decode(token).payload.ver).toBe(2);
      expect((await report(token)).statusCode).toBe(200);
    });

    it('disabled policy is 403 SHARE_POLICY_DISABLED; passed expires_at is 401 SHARE_POLICY_EXPIRED', async () => {
      const put = (body: Json) => t.request({ method: 'PUT', url: `${dashboardPolicy()}/${policy.id}`, token: owner, payload: body });
      await put({ visibility: 'disabled' });
      let res = await report(token);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('SHARE_POLICY_DISABLED');
      await put({ visibility: 'private', expires_at: new Date(Date.now() - 60_000).toISOString() });
      res = await report(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('SHARE_POLICY_EXPIRED');
      const reissue = await t.request({ method: 'POST', url: `/project/${seed.projectId}/share/token`, token: owner, payload: { sharePolicyId: policy.id } });
      expect(reissue.json().code).toBe('SHARE_POLICY_EXPIRED');
      await put({ expires_at: null });
      expect((await report(token)).statusCode).toBe(200);
    });

    it('a deleted policy is 401 SHARE_POLICY_DELETED', async () => {
      const doomed = await newPolicy(dashboardPolicy());
      const { token: doomedToken } = await issue(dashboardPolicy(), { sharePolicyId: doomed.id });
      expect((await report(doomedToken)).statusCode).toBe(200);
      await t.request({ method: 'DELETE', url: `${dashboardPolicy()}/${doomed.id}`, token: owner });
      const res = await report(doomedToken);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('SHARE_POLICY_DELETED');
    });

    it('no token on a private dashboard is 401 SHARE_TOKEN_REQUIRED; unknown names are 404', async () => {
      expect((await pub(`/project/dashboard/${seed.brewName}`)).json().code).toBe('SHARE_TOKEN_REQUIRED');
      expect((await pub(`/project/dashboard/${seed.brewName}?token=`)).json().code).toBe('SHARE_TOKEN_REQUIRED');
      expect((await pub(`/project/dashboard/no-such-board?token=${token}`)).statusCode).toBe(404);
      expect((await pub(`/chart/share/no-such-share?token=${token}`)).statusCode).toBe(404);
    });

    it('theme is echoed; anything but light, dark or os is a 400', async () => {
      expect((await report(token, '&theme=dark')).json().theme).toBe('dark');
      const bad = await report(token, '&theme=neon');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('querystring.theme');
    });
  });

  describe('chart links', () => {
    let policy: Json;
    let token: string;
    const embed = (tok?: string, extra = '') => pub(`/chart/share/${policy.share_string}?${tok !== undefined ? `token=${encodeURIComponent(tok)}` : ''}${extra}`);

    beforeAll(async () => {
      policy = await newPolicy(chartPolicy(seed.charts.line));
      ({ token } = await issue(chartPolicy(seed.charts.line), { sharePolicyId: policy.id }));
    });

    it('answers the chart with display fields only, and echoes the theme', async () => {
      const res = await embed(token, '&theme=light');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(
        [
          'ChartDatasetConfigs', 'chartData', 'chartDataUpdated', 'content', 'dashedLastPoint', 'dataLabels', 'defaultRowsPerPage', 'displayLegend', 'horizontal', 'id', 'invertGrowth',
          'isLogarithmic', 'layout', 'maxValue', 'minValue', 'mode', 'name', 'onReport', 'pointRadius', 'ranges', 'showBranding', 'allowExport', 'showGrowth', 'stackPercent', 'missingValues', 'stacked', 'subType', 'theme', 'type', 'visualization', 'xLabelTicks',
        ].sort(),
      );
      expect(Object.keys(body.ChartDatasetConfigs[0]).sort()).toEqual(['datasetColor', 'fill', 'fillColor', 'formula', 'goal', 'id', 'legend', 'multiFill', 'order', 'pointRadius']);
      expect(body).toMatchObject({ id: seed.charts.line, type: 'line', theme: 'light', showBranding: true });
      expect(body.chartData.data.datasets[0].label).toBe('Orders');
    });

    it('a token of another chart, or of this chart under another policy, is refused', async () => {
      await newPolicy(chartPolicy(seed.charts.pie));
      const pieToken = (await issue(chartPolicy(seed.charts.pie))).token;
      expect((await embed(pieToken)).json().code).toBe('SHARE_TOKEN_INVALID');
      const second = await newPolicy(chartPolicy(seed.charts.line));
      const secondToken = (await issue(chartPolicy(seed.charts.line), { sharePolicyId: second.id })).token;
      expect((await embed(secondToken)).json().code).toBe('SHARE_TOKEN_INVALID');
      expect((await pub(`/chart/share/${second.share_string}?token=${secondToken}`)).statusCode).toBe(200);
      const dashboardToken = (await issue(dashboardPolicy())).token;
      expect((await embed(dashboardToken)).json().code).toBe('SHARE_TOKEN_INVALID');
    });

    it('a public chart needs no token but still honours a disabled policy; a private one does', async () => {
      expect((await embed()).json().code).toBe('SHARE_TOKEN_REQUIRED');
      await t.request({ method: 'PUT', url: `/project/${seed.projectId}/chart/${seed.charts.line}`, token: owner, payload: { public: true } });
      expect((await embed()).statusCode).toBe(200);
      // A token that is present is still checked.
      expect((await embed('garbage')).statusCode).toBe(401);
      await t.request({ method: 'PUT', url: `${chartPolicy(seed.charts.line)}/${policy.id}`, token: owner, payload: { visibility: 'disabled' } });
      expect((await embed()).statusCode).toBe(403);
      await t.request({ method: 'PUT', url: `${chartPolicy(seed.charts.line)}/${policy.id}`, token: owner, payload: { visibility: 'private' } });
      await t.request({ method: 'PUT', url: `/project/${seed.projectId}/chart/${seed.charts.line}`, token: owner, payload: { public: false } });
    });
  });

  describe('parameters', () => {
    it('locked params always apply and never move; other URL params are ignored unless allow_params', async () => {
      const policy = await newPolicy(dashboardPolicy(), { params: [{ key: 'status', value: 'refunded' }, { key: 'tenant', value: TENANT }], allow_params: false });
      const { token } = await issue(dashboardPolicy(), { sharePolicyId: policy.id });
      const view = async (extra = '', payload?: Json) => {
        const res = await t.request({ method: 'GET', url: `/project/dashboard/${seed.brewName}?token=${token}${extra}`, ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}) });
        publicBodies.push(res.body);
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      };
      expect(kpiValue(await view())).toBe(24);
      expect(kpiValue(await view('&status=paid'))).toBe(24);
      expect(kpiValue(await view('&status=paid&status=paid'))).toBe(24);
      expect(kpiValue(await view('', { variables: { status: 'paid' }, status: 'paid' }))).toBe(24);

      // Nothing was saved: the owner still sees the chart computed with the default.
      const stored = (await t.request({ method: 'GET', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}`, token: owner })).json();
      expect(stored.chartData.values[0].value).toBe(96);

      await t.request({ method: 'PUT', url: `${dashboardPolicy()}/${policy.id}`, token: owner, payload: { allow_params: true } });
      expect(kpiValue(await view())).toBe(24);
      // Allowing params never lets the URL move a pinned one: a 403 naming it; its own value changes nothing.
      const locked = await t.request({ method: 'GET', url: `/project/dashboard/${seed.brewName}?token=${token}&status=paid` });
      publicBodies.push(locked.body);
      expect(locked.statusCode).toBe(403);
      expect(locked.json()).toMatchObject({ code: 'SHARE_PARAM_LOCKED', details: [{ path: 'querystring.status' }] });
      expect(kpiValue(await view('&status=refunded'))).toBe(24);
      // token/theme/pass are never variables.
      expect(kpiValue(await view('&theme=dark'))).toBe(24);
      // A param the policy does not pin is the URL's to set.
      await t.request({ method: 'PUT', url: `${dashboardPolicy()}/${policy.id}`, token: owner, payload: { params: [{ key: 'tenant', value: TENANT }] } });
      expect(kpiValue(await view('&status=paid'))).toBe(96);
      expect(kpiValue(await view('&status=nothing-like-this'))).toBe(0);
      const storedAfter = (await t.request({ method: 'GET', url: `/project/${seed.projectId}/chart/${seed.charts.kpi}`, token: owner })).json();
      expect(storedAfter.chartData).toEqual(stored.chartData);
      expect(storedAfter.chartDataUpdated).toBe(stored.chartDataUpdated);
    });

    it('chart links apply their own policy params the same way', async () => {
      const policy = await newPolicy(chartPolicy(seed.charts.kpi), { params: [{ key: 'status', value: 'refunded' }] });
      const { token } = await issue(chartPolicy(seed.charts.kpi), { sharePolicyId: policy.id });
      const value = async (extra = '') => (await pub(`/chart/share/${policy.share_string}?token=${token}${extra}`)).json().chartData.values[0].value;
      expect(await value()).toBe(24);
      expect(await value('&status=paid')).toBe(24);
      await issue(chartPolicy(seed.charts.kpi), { sharePolicyId: policy.id, share_policy: { allow_params: true } });
      const locked = await pub(`/chart/share/${policy.share_string}?token=${token}&status=paid`);
      expect(locked.statusCode).toBe(403);
      expect(locked.json()).toMatchObject({ code: 'SHARE_PARAM_LOCKED', details: [{ path: 'querystring.status' }] });
      await issue(chartPolicy(seed.charts.kpi), { sharePolicyId: policy.id, share_policy: { params: [] } });
      expect(await value('&status=paid')).toBe(96);
    });

    it('too many or too long URL params are a 400 when they would be used', async () => {
      const policy = await newPolicy(chartPolicy(seed.charts.kpi), { allow_params: true });
      const { token } = await issue(chartPolicy(seed.charts.kpi), { sharePolicyId: policy.id });
      const many = Array.from({ length: 51 }, (_, i) => `&v${i}=1`).join('');
      expect((await pub(`/chart/share/${policy.share_string}?token=${token}${many}`)).statusCode).toBe(400);
      expect((await pub(`/chart/share/${policy.share_string}?token=${token}&status=${'x'.repeat(2001)}`)).statusCode).toBe(400);
    });
  });

  describe('public and password-protected dashboards', () => {
    it('public needs no token; protected needs the pass header too', async () => {
      const put = (body: Json) => t.request({ method: 'PUT', url: `/project/${other.projectId}`, token: other.ownerToken, payload: body });
      const url = `/project/dashboard/${other.brewName}`;
      expect((await pub(url)).json().code).toBe('SHARE_TOKEN_REQUIRED');
      await put({ public: true });
      expect((await pub(url)).statusCode).toBe(200);
      await put({ passwordProtected: true, password: SECRETS.dashboardPassword });
      let res = await pub(url);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PASSWORD_REQUIRED');
      res = await pub(url, { pass: 'wrong password' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PASSWORD_INVALID');
      res = await pub(url, { pass: SECRETS.dashboardPassword });
      expect(res.statusCode, res.body).toBe(200);
      // A token does not replace the password.
      await t.request({ method: 'POST', url: `/project/${other.projectId}/share/policy`, token: other.ownerToken });
      const token = (await t.request({ method: 'POST', url: `/project/${other.projectId}/share/token`, token: other.ownerToken })).json().token;
      expect((await pub(`${url}?token=${token}`)).json().code).toBe('PASSWORD_REQUIRED');
      expect((await pub(`${url}?token=${token}`, { pass: SECRETS.dashboardPassword })).statusCode).toBe(200);
      // The password never works as a query parameter.
      expect((await pub(`${url}?pass=${encodeURIComponent(SECRETS.dashboardPassword)}`)).json().code).toBe('PASSWORD_REQUIRED');
    });

    it('only charts shown on the report appear', async () => {
      await t.request({ method: 'PUT', url: `/project/${other.projectId}/chart/${other.charts.table}`, token: other.ownerToken, payload: { onReport: false } });
      const body = (await pub(`/project/dashboard/${other.brewName}`, { pass: SECRETS.dashboardPassword })).json();
      expect(body.Charts.map((c: Json) => c.id)).not.toContain(other.charts.table);
      expect(body.Charts.length).toBe(7);
    });
  });

  it('no public response carries a secret, a query, a policy, a password hash or a dataset id', async () => {
    const hashes = await t.container.store.db.selectFrom('projects').select('password_hash').where('password_hash', 'is not', null).execute();
    const policies = await t.container.store.db.selectFrom('share_policies').select(['share_string']).execute();
    expect(publicBodies.length).toBeGreaterThan(40);
    const forbidden = [
      SECRETS.connectionPassword,
      SECRETS.dashboardPassword,
      SECRETS.conditionValue,
      SECRETS.queryText,
      'select id, country',
      TENANT,
      '"params"',
      'password_hash',
      '"passwordProtected"',
      'dataset_id',
      'connection_id',
      'token_version',
      'allow_params',
      'share_string',
      'conditions',
      'team_id',
      ...hashes.map((h) => h.password_hash!),
      ...policies.map((p) => p.share_string),
    ];
    const hits = publicBodies.flatMap((body) => forbidden.filter((needle) => body.includes(needle)).map((needle) => `${needle} in ${body.slice(0, 120)}`));
    expect(hits).toEqual([]);
  });
});

describe('share frame', () => {
  it('is sandboxed by its own CSP, so owner code gets an opaque origin even when opened directly', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.request({ method: 'GET', url: '/share-frame' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-scripts;/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    } finally {
      await t.close();
    }
  });
});

describe('share endpoint rate limits', () => {
  // Dashboard password attempts have their own budget: test/http/share-passwords.test.ts.
  it('limits each client address on each endpoint', async () => {
    const t = await buildTestApp({ rateLimit: { global: 100_000, auth: 100_000, share: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await t.request({ method: 'GET', url: '/chart/share/nothing-here' })).statusCode);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const limited = await t.request({ method: 'GET', url: '/chart/share/nothing-here' });
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await t.request({ method: 'GET', url: '/project/dashboard/nothing' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
