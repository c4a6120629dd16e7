import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RESERVED_BREW_NAMES } from '../../src/modules/dashboards/projects-validation.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { createOrdersTable, SECRETS, seedDashboard, type Requester, type SeededDashboard } from '../browser/share-seed.js';

type Json = Record<string, any>;

/**
 * `GET /project/{brewName}/report`: where Chartbrew's web app reads its report page
 * (`/report/{brewName}?token=…`). It is the public dashboard route under another address: the same
 * answer and the same rules (token, password in the `pass` header, pinned params, report filters).
 * Requests are sent as the app sends them: every parameter of the page's address passed on, a
 * `Bearer undefined` header when nobody is signed in, the password in `pass`.
 */
describe.each<StoreKind>(['sqlite', 'postgres'])("Chartbrew's report route (%s store)", (store) => {
  let t: TestApp;
  let source: { url: string; drop(): Promise<void> };
  let storeDb: { url: string; drop(): Promise<void> } | undefined;
  let seed: SeededDashboard;
  let owner: string;

  const api: Requester = ({ payload, ...options }) => t.request({ ...options, ...(payload !== undefined ? { payload: payload as Json } : {}) });
  const policyBase = () => `/project/${seed.projectId}/share/policy`;
  /** What the client's report page sends: Accept, its (absent) session as "Bearer undefined", the password in `pass`. */
  const clientHeaders = (pass?: string) => ({ accept: 'application/json', authorization: 'Bearer undefined', ...(pass === undefined ? {} : { pass }) });
  const report = (brewName: string, query: string, pass?: string) => t.request({ method: 'GET', url: `/project/${encodeURIComponent(brewName)}/report${query}`, headers: clientHeaders(pass) });
  const dashboard = (brewName: string, query: string, pass?: string) => t.request({ method: 'GET', url: `/project/dashboard/${encodeURIComponent(brewName)}${query}`, headers: clientHeaders(pass) });

  async function newPolicy(body?: Json): Promise<Json> {
    const created = await t.request({ method: 'POST', url: policyBase(), token: owner });
    expect(created.statusCode, created.body).toBe(200);
    if (!body) return created.json();
    const updated = await t.request({ method: 'PUT', url: `${policyBase()}/${created.json().id}`, token: owner, payload: body });
    expect(updated.statusCode, updated.body).toBe(200);
    return updated.json();
  }

  async function issue(policyId: number, projectId = seed.projectId, as = owner): Promise<string> {
    const res = await t.request({ method: 'POST', url: `/project/${projectId}/share/token`, token: as, payload: { sharePolicyId: policyId, exp: '' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token;
  }

  const kpi = (body: Json) => body.Charts.find((c: Json) => c.id === seed.charts.kpi).chartData.values[0].value;

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'));
    await createOrdersTable(source.url);
    storeDb = store === 'postgres' ? await createTempDatabase(inject('postgresUrl')) : undefined;
    t = await buildTestApp({ env: { APP_URL: 'https://dash.example.com', ...(storeDb ? { DATABASE_URL: storeDb.url } : {}) }, rateLimit: { global: 100_000, auth: 100_000, share: 100_000 } });
    seed = await seedDashboard(api, source.url);
    owner = seed.ownerToken;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    // pg's pool.end() resolves before its sockets are closed; give them a moment before the forced drops.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await storeDb?.drop();
    await source?.drop();
  });

  it("answers exactly what the dashboard route answers for the link's token, with the page's own parameters passed on", async () => {
    const policy = await newPolicy();
    const token = await issue(policy.id);
    const query = `?token=${encodeURIComponent(token)}&theme=dark&removeStyling=true&removeHeader=false`;
    const res = await report(seed.brewName, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const body = res.json();
    expect(body).toMatchObject({ name: 'Sales overview', brewName: seed.brewName, theme: 'dark', showBranding: true });
    expect(body.Charts).toHaveLength(8);
    expect(kpi(body)).toBe(96);
    expect(body).toEqual((await dashboard(seed.brewName, query)).json());
  });

  it('refuses what the dashboard route refuses, with the same codes', async () => {
    const policy = await newPolicy();
    const token = await issue(policy.id);
    expect((await report(seed.brewName, '')).json()).toMatchObject({ code: 'SHARE_TOKEN_REQUIRED' });
    expect((await report(seed.brewName, '?token=not.a.token')).json()).toMatchObject({ code: 'SHARE_TOKEN_INVALID' });
    expect((await report('no-such-dashboard', `?token=${token}`)).statusCode).toBe(404);

    // A token of another dashboard of the team does not open this one.
    const otherProject = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name: 'Elsewhere', team_id: seed.teamId } })).json();
    await t.request({ method: 'POST', url: `/project/${otherProject.id}/share/policy`, token: owner });
    const foreign = (await t.request({ method: 'POST', url: `/project/${otherProject.id}/share/token`, token: owner })).json().token;
    expect((await report(seed.brewName, `?token=${foreign}`)).json()).toMatchObject({ code: 'SHARE_TOKEN_INVALID' });

    // Revoked, disabled and expired policies close the link here too.
    expect((await t.request({ method: 'POST', url: `${policyBase()}/${policy.id}/revoke`, token: owner })).statusCode).toBe(200);
    expect((await report(seed.brewName, `?token=${token}`)).json()).toMatchObject({ code: 'SHARE_TOKEN_REVOKED' });
    const fresh = await issue(policy.id);
    expect((await report(seed.brewName, `?token=${fresh}`)).statusCode).toBe(200);
    await t.request({ method: 'PUT', url: `${policyBase()}/${policy.id}`, token: owner, payload: { visibility: 'disabled' } });
    const disabled = await report(seed.brewName, `?token=${fresh}`);
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toMatchObject({ code: 'SHARE_POLICY_DISABLED' });
    await t.request({ method: 'DELETE', url: `${policyBase()}/${policy.id}`, token: owner });
    expect((await report(seed.brewName, `?token=${fresh}`)).json()).toMatchObject({ code: 'SHARE_POLICY_DELETED' });
  });

  it('pins the policy params, and reads URL params only when the policy allows them (the page switches never)', async () => {
    const locked = await newPolicy({ params: [{ key: 'status', value: 'refunded' }], allow_params: true });
    const token = await issue(locked.id);
    expect(kpi((await report(seed.brewName, `?token=${token}`)).json())).toBe(24);
    const moved = await report(seed.brewName, `?token=${token}&status=paid`);
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toMatchObject({ code: 'SHARE_PARAM_LOCKED' });
    expect(moved.json().error).toContain('querystring.status');
    // The page's display switches are not variables: they cannot move a pinned param either.
    const pinnedSwitch = await newPolicy({ params: [{ key: 'removeStyling', value: 'x' }], allow_params: true });
    const switchToken = await issue(pinnedSwitch.id);
    expect((await report(seed.brewName, `?token=${switchToken}&removeStyling=true&removeHeader=true&accessToken=abc`)).statusCode).toBe(200);

    const closed = await newPolicy({ allow_params: false });
    const closedToken = await issue(closed.id);
    // Without allow_params, a URL param changes nothing: the saved data (96 paid orders) shows.
    expect(kpi((await report(seed.brewName, `?token=${closedToken}&status=refunded`)).json())).toBe(96);
    const open = await newPolicy({ allow_params: true });
    const openToken = await issue(open.id);
    expect(kpi((await report(seed.brewName, `?token=${openToken}&status=refunded`)).json())).toBe(24);
  });

  it('shows the report filters only (onReport), and only report charts', async () => {
    const make = async (onReport: boolean, field: string) => {
      const res = await t.request({
        method: 'POST',
        url: `/project/${seed.projectId}/dashboard-filter`,
        token: owner,
        payload: { configuration: { type: 'field', field: `root[].${field}`, operator: 'is', value: '' }, onReport },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const shown = await make(true, 'country');
    const hidden = await make(false, 'status');
    await t.request({ method: 'PUT', url: `/project/${seed.projectId}/chart/${seed.charts.table}`, token: owner, payload: { onReport: false } });
    const token = await issue((await newPolicy()).id);
    const body = (await report(seed.brewName, `?token=${token}`)).json();
    const ids = body.DashboardFilters.map((f: Json) => f.id);
    expect(ids).toContain(shown);
    expect(ids).not.toContain(hidden);
    expect(body.Charts.map((c: Json) => c.id)).not.toContain(seed.charts.table);
    await t.request({ method: 'PUT', url: `/project/${seed.projectId}/chart/${seed.charts.table}`, token: owner, payload: { onReport: true } });
  });

  it('asks for the password in the pass header, as the dashboard route does; a token does not replace it', async () => {
    const board = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name: 'Protected board', team_id: seed.teamId } })).json();
    await t.request({ method: 'PUT', url: `/project/${board.id}`, token: owner, payload: { public: true, passwordProtected: true, password: SECRETS.dashboardPassword } });
    expect((await report(board.brewName, '')).json()).toMatchObject({ code: 'PASSWORD_REQUIRED' });
    expect((await report(board.brewName, '', 'wrong')).json()).toMatchObject({ code: 'PASSWORD_INVALID' });
    expect((await report(board.brewName, '', SECRETS.dashboardPassword)).statusCode).toBe(200);
    await t.request({ method: 'POST', url: `/project/${board.id}/share/policy`, token: owner });
    const token = (await t.request({ method: 'POST', url: `/project/${board.id}/share/token`, token: owner })).json().token;
    expect((await report(board.brewName, `?token=${token}`)).json()).toMatchObject({ code: 'PASSWORD_REQUIRED' });
    expect((await report(board.brewName, `?token=${token}`, SECRETS.dashboardPassword)).statusCode).toBe(200);
    // Never as a query parameter.
    expect((await report(board.brewName, `?pass=${encodeURIComponent(SECRETS.dashboardPassword)}`)).json()).toMatchObject({ code: 'PASSWORD_REQUIRED' });
  });

  it('reads the segment as a brewName, never an id: a dashboard id is not found, a numeric brewName is', async () => {
    const token = await issue((await newPolicy()).id);
    // The dashboard's own id, even with its valid token, names no dashboard here.
    expect((await report(String(seed.projectId), `?token=${token}`)).statusCode).toBe(404);

    // A dashboard named "2024" gets the brewName "2024"; its report opens, and /project/2024 is still the id route.
    const name = String(900_000 + Math.floor(Math.random() * 99_999));
    const numeric = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name, team_id: seed.teamId } })).json();
    expect(numeric.brewName).toMatch(/^\d+(-[0-9a-f]{6})?$/);
    await t.request({ method: 'POST', url: `/project/${numeric.id}/share/policy`, token: owner });
    const numericToken = (await t.request({ method: 'POST', url: `/project/${numeric.id}/share/token`, token: owner })).json().token;
    const res = await report(numeric.brewName, `?token=${numericToken}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name, brewName: numeric.brewName });
    expect((await t.request({ method: 'GET', url: `/project/${numeric.brewName}`, token: owner })).statusCode).not.toBe(200);
  });

  it('never gives a dashboard a brewName that a fixed /project/… route would take first', async () => {
    for (const name of ['Dashboard', 'Team', '???']) {
      const created = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name, team_id: seed.teamId } })).json();
      expect(RESERVED_BREW_NAMES.has(created.brewName), `${name} -> ${created.brewName}`).toBe(false);
      await t.request({ method: 'POST', url: `/project/${created.id}/share/policy`, token: owner });
      const token = (await t.request({ method: 'POST', url: `/project/${created.id}/share/token`, token: owner })).json().token;
      const res = await report(created.brewName, `?token=${token}`);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.json().brewName).toBe(created.brewName);
    }
  });
});

describe('the reserved brewNames are the fixed segments of /project/… routes', () => {
  it('lists every fixed second segment of the API document', async () => {
    const t = await buildTestApp();
    try {
      const paths = Object.keys((await t.request({ method: 'GET', url: '/openapi.json' })).json().paths as Json);
      const fixed = new Set(paths.flatMap((p) => /^\/project\/([^/{]+)\/.+/.exec(p)?.slice(1) ?? []));
      expect(fixed.size).toBeGreaterThan(0);
      expect([...fixed].sort()).toEqual([...RESERVED_BREW_NAMES].sort());
    } finally {
      await t.close();
    }
  });

  it("has its own rate limit per client address, of the share endpoints' size", async () => {
    const t = await buildTestApp({ rateLimit: { global: 100_000, auth: 100_000, share: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await t.request({ method: 'GET', url: '/project/nothing/report' })).statusCode);
      expect(statuses).toEqual([404, 404, 404, 429]);
      expect((await t.request({ method: 'GET', url: '/project/nothing/report' })).json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await t.request({ method: 'GET', url: '/project/dashboard/nothing' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
