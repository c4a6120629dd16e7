import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertProject } from '../helpers/fixtures.js';

type Json = Record<string, unknown>;

/** Saved queries, called as Chartbrew's client calls them (client/src/slices/savedQuery.js). */
describe.each<StoreKind>(['sqlite', 'postgres'])('saved queries (%s)', (store) => {
  let t: TestApp;
  let owner: { token: string; teamId: number; userId: number; email: string };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
    t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Json }) });

  beforeAll(async () => {
    t = await buildTestApp({ store });
    owner = await t.signup('Ada');
  });
  afterAll(() => t?.close());

  it('create, list by ?type=, update with the saved query sent back, delete', async () => {
    const base = `/team/${owner.teamId}/savedQuery`;
    const created = await call('POST', base, owner.token, { query: 'select * from orders', summary: 'All orders', type: 'postgres' });
    expect(created.statusCode, created.body).toBe(200);
    const saved = created.json<Json>();
    expect(saved).toEqual({
      id: expect.any(Number),
      team_id: owner.teamId,
      user_id: owner.userId,
      summary: 'All orders',
      query: 'select * from orders',
      type: 'postgres',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      User: { id: owner.userId, name: 'Ada' },
    });
    await call('POST', base, owner.token, { query: 'db.orders.find()', summary: 'Mongo', type: 'mongodb' });

    expect((await call('GET', `${base}?type=postgres`, owner.token)).json()).toEqual([saved]);
    expect((await call('GET', `${base}?type=mongodb`, owner.token)).json<Json[]>().map((q) => q['summary'])).toEqual(['Mongo']);
    expect((await call('GET', base, owner.token)).json<Json[]>()).toHaveLength(2);
    // The client builds `?type=${type}` even when it has none.
    expect((await call('GET', `${base}?type=undefined`, owner.token)).json()).toEqual([]);

    // updateSavedQuery sends the whole saved query, changed, to /savedQuery/{data.id}.
    const updated = await call('PUT', `${base}/${saved['id']}`, owner.token, { ...saved, query: 'select id from orders' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ id: saved['id'], query: 'select id from orders', summary: 'All orders', user_id: owner.userId });

    const removed = await call('DELETE', `${base}/${saved['id']}`, owner.token);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toBe(true);
    expect((await call('PUT', `${base}/${saved['id']}`, owner.token, { query: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${saved['id']}`, owner.token)).statusCode).toBe(404);
  });

  it('team owners and admins only; another team neither sees nor changes them', async () => {
    const base = `/team/${owner.teamId}/savedQuery`;
    const saved = (await call('POST', base, owner.token, { query: 'select 1', summary: 'one', type: 'mysql' })).json<Json>();
    const projectId = await insertProject(t, owner.teamId);
    const admin = await t.signup('Admin');
    const editor = await t.signup('Editor');
    for (const [person, role] of [
      [admin, 'teamAdmin'],
      [editor, 'projectAdmin'],
    ] as const) {
      const res = await call('POST', `/team/${owner.teamId}/members`, owner.token, { email: person.email, role, projects: role === 'projectAdmin' ? [projectId] : [] });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await call('GET', `${base}?type=mysql`, admin.token)).json<Json[]>().map((q) => q['id'])).toContain(saved['id']);
    expect((await call('GET', base, editor.token)).statusCode).toBe(403);
    expect((await call('POST', base, editor.token, { query: 'x' })).statusCode).toBe(403);

    const stranger = await t.signup('Stranger');
    expect((await call('GET', base, stranger.token)).statusCode).toBe(403);
    // Its own team's route with this team's id: not found there.
    expect((await call('PUT', `/team/${stranger.teamId}/savedQuery/${saved['id']}`, stranger.token, { query: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/team/${stranger.teamId}/savedQuery/${saved['id']}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}?type=mysql`, owner.token)).json<Json[]>().find((q) => q['id'] === saved['id'])).toMatchObject({ query: 'select 1' });
  });
});
