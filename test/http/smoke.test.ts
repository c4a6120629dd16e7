import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('signs up and lists the personal team', async () => {
    const user = await t.signup('Ada');
    const res = await t.request({ method: 'GET', url: `/team/${user.teamId}`, token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.teamId, name: "Ada's team", TeamRoles: [{ user_id: user.userId, role: 'teamOwner' }] });
  });
});
