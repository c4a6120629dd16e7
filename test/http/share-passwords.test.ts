import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/*
 * A dashboard password has one attempt budget per client address and dashboard, whichever public
 * route carries it (the report's data at either of its addresses, a report chart's export), and a route the caller may not
 * use never tells a right password from a wrong one.
 */
describe('dashboard password attempts', () => {
  const ATTEMPTS = 4;
  const PASSWORD = 'the right dashboard password';
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['signup']>>;

  beforeAll(async () => {
    t = await buildTestApp({ env: { PLOTLINE_SHARE_PASSWORD_ATTEMPTS: String(ATTEMPTS) } });
    owner = await t.signup('Owner');
  });
  afterAll(() => t?.close());

  /** A public, password-protected dashboard with one report chart. */
  async function protectedDashboard(): Promise<{ brewName: string; chartId: number }> {
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Board', team_id: owner.teamId } })).json();
    const put = await t.request({ method: 'PUT', url: `/project/${project.id}`, token: owner.token, payload: { public: true, passwordProtected: true, password: PASSWORD } });
    expect(put.statusCode, put.body).toBe(200);
    const chart = await t.request({ method: 'POST', url: `/project/${project.id}/chart`, token: owner.token, payload: { name: 'Notes', type: 'markdown', content: 'hello' } });
    expect(chart.statusCode, chart.body).toBe(200);
    return { brewName: project.brewName as string, chartId: chart.json().id as number };
  }

  const allowExports = async (allow: boolean) => {
    const res = await t.request({ method: 'PUT', url: `/team/${owner.teamId}`, token: owner.token, payload: { allowReportExport: allow } });
    expect(res.statusCode, res.body).toBe(200);
  };

  const report = (brewName: string, pass: string | undefined, remoteAddress = '127.0.0.1') =>
    t.request({ method: 'GET', url: `/project/dashboard/${brewName}`, remoteAddress, headers: pass === undefined ? {} : { pass } });
  /** The same report where Chartbrew's web app reads it. */
  const chartbrewReport = (brewName: string, pass: string | undefined, remoteAddress = '127.0.0.1') =>
    t.request({ method: 'GET', url: `/project/${brewName}/report`, remoteAddress, headers: pass === undefined ? {} : { pass } });
  const exportCsv = (d: { brewName: string; chartId: number }, pass: string | undefined, remoteAddress = '127.0.0.1') =>
    t.request({ method: 'GET', url: `/project/dashboard/${d.brewName}/chart/${d.chartId}/export?format=csv`, remoteAddress, headers: pass === undefined ? {} : { pass } });

  it('wrong passwords spread over the report routes and the export route spend one budget; then even the right one is 429', async () => {
    await allowExports(true);
    const board = await protectedDashboard();
    const other = await protectedDashboard();

    // Right passwords spend nothing: more of them than the budget all answer.
    for (let i = 0; i < ATTEMPTS + 2; i += 1) {
      expect((await report(board.brewName, PASSWORD)).statusCode).toBe(200);
      expect((await exportCsv(board, PASSWORD)).statusCode).toBe(200);
    }

    const wrong: [number, string][] = [];
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const guess = `guess ${i}`;
      const res = i % 3 === 0 ? await report(board.brewName, guess) : i % 3 === 1 ? await chartbrewReport(board.brewName, guess) : await exportCsv(board, guess);
      wrong.push([res.statusCode, res.json().code]);
    }
    expect(wrong).toEqual(Array.from({ length: ATTEMPTS }, () => [403, 'PASSWORD_INVALID']));

    // The budget is spent on every route, and the right password is no longer checked.
    const spent = [
      await exportCsv(board, 'one more'),
      await report(board.brewName, 'one more'),
      await report(board.brewName, PASSWORD),
      await chartbrewReport(board.brewName, PASSWORD),
      await exportCsv(board, PASSWORD),
    ];
    for (const res of spent) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
    }

    // The budget is this dashboard's, for this address.
    expect((await report(other.brewName, PASSWORD)).statusCode).toBe(200);
    expect((await report(board.brewName, PASSWORD, '10.20.30.40')).statusCode).toBe(200);
  });

  it('with exports off, the export route answers the same to a right, a wrong and no password, and spends no attempt', async () => {
    await allowExports(false);
    const board = await protectedDashboard();
    const answers = [await exportCsv(board, PASSWORD), await exportCsv(board, 'wrong password'), await exportCsv(board, undefined)];
    for (const res of answers) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'EXPORT_NOT_ALLOWED' });
    }
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);

    for (let i = 0; i < ATTEMPTS + 2; i += 1) expect((await exportCsv(board, `guess ${i}`)).json().code).toBe('EXPORT_NOT_ALLOWED');
    expect((await report(board.brewName, PASSWORD)).statusCode).toBe(200);
  });
});
