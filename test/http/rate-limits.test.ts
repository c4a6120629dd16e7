import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/*
 * Authenticated calls count per caller, anonymous ones per address. Every request here comes from
 * the same address (inject), as a backend integration behind one NAT would.
 */
describe('rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ rateLimit: { global: 3, auth: 100_000, authenticated: 6 } });
  });
  afterAll(async () => t?.close());

  it('limit authenticated routes per caller, not per address', async () => {
    const a = await t.signup('A');
    const b = await t.signup('B');
    const calls = async (token: string, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await t.request({ method: 'GET', url: '/team', token })).statusCode);
      return statuses;
    };
    // Sign-up made one call each; A spends the rest of its minute and is limited, B is not.
    expect(await calls(a.token, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await calls(b.token, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await t.request({ method: 'GET', url: '/team', token: a.token });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("a report chart's filter route counts viewers by address with the share limit, members as members", async () => {
    const shared = await buildTestApp({ rateLimit: { global: 100, auth: 100_000, authenticated: 100, share: 2 } });
    try {
      const owner = await shared.signup('Owner');
      const project = (await shared.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Board', team_id: owner.teamId } })).json().id;
      const chart = (await shared.request({ method: 'POST', url: `/project/${project}/chart`, token: owner.token, payload: { name: 'Notes', type: 'markdown' } })).json().id;
      const calls = async (token: string | undefined, n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++) statuses.push((await shared.request({ method: 'POST', url: `/project/${project}/chart/${chart}/filter`, token, payload: { filters: [] } })).statusCode);
        return statuses;
      };
      // Without a token the viewer is refused (401), and counted.
      expect(await calls(undefined, 3)).toEqual([401, 401, 429]);
      expect(await calls(owner.token, 3)).toEqual([200, 200, 200]);
    } finally {
      await shared.close();
    }
  });

  it('limit anonymous routes per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.request({ method: 'GET', url: '/healthz' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
