import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_PASSWORD_HASHING } from '../helpers/app.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';
import { announceSkip, probeRedis, REDIS_TEST_URL } from '../helpers/services.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/**
 * Two API instances over one Postgres store and one Redis: sessions, data, the result cache and
 * rate limits are shared, so a load balancer may send any request to either.
 */
describe('two instances on Postgres + Redis', async () => {
  const skip = announceSkip(await probeRedis(), 'multi-instance suite (Redis)');
  let store: { url: string; drop(): Promise<void> };
  let source: { url: string; drop(): Promise<void> };
  const instances: { app: FastifyInstance; container: Container; dir: string }[] = [];
  const prefix = `plotline-test-${randomBytes(4).toString('hex')}`;
  // Rate-limit counters live in Redis beyond this run: each run comes from its own address.
  const client = `10.${[...randomBytes(3)].join('.')}`;

  beforeAll(async () => {
    if (skip) return;
    store = await createTempDatabase(inject('postgresUrl'));
    source = await createTempDatabase(inject('postgresUrl'), "create table t (n int); insert into t values (1), (2), (3);");
    const keys = { PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex') };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-multi-'));
      const config = loadConfig({ ...keys, PLOTLINE_DATA_DIR: dir, DATABASE_URL: store.url, REDIS_URL: `${REDIS_TEST_URL.replace(/\/$/, '')}/0`, LOG_LEVEL: 'silent', PLOTLINE_TRUST_PROXY: 'true', PLOTLINE_SHARE_PASSWORD_ATTEMPTS: '3' });
      // Both instances migrate at start, concurrently, as two processes would.
      instances.push({ dir, container: await createContainer(config, { passwordHashing: TEST_PASSWORD_HASHING }), app: undefined as unknown as FastifyInstance });
    }
    for (const instance of instances) {
      instance.app = await buildApp(instance.container, { logLevel: 'silent', defaultMetrics: false, rateLimit: { global: 100_000, auth: 5 } });
      await instance.app.ready();
    }
  });
  afterAll(async () => {
    for (const { app, container, dir } of instances) {
      await app.close();
      await container.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await store?.drop();
    await source?.drop();
  });

  const call = (i: number, method: string, url: string, token?: string, payload?: unknown) =>
    instances[i]!.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-forwarded-for': client },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it.skipIf(skip)('a session from one instance works on the other; data written on one is read on the other', async () => {
    const signup = await call(0, 'POST', '/user', undefined, { name: 'Multi', email: `${prefix}@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teams = (await call(1, 'GET', '/team', token)).json();
    expect(teams).toHaveLength(1);
    const url = new URL(source.url);
    const conn = (
      await call(1, 'POST', `/team/${teams[0].id}/connections`, token, { name: 's', type: 'postgres', host: url.hostname, port: url.port || '5432', dbName: url.pathname.slice(1), username: decodeURIComponent(url.username) })
    ).json();
    const ds = (await call(0, 'POST', `/team/${teams[0].id}/datasets/quick-create`, token, { name: 'd', dataRequests: [{ connection_id: conn.id, query: 'select n from t order by n' }] })).json();

    // The result cache is shared: computed on one instance, a hit on the other.
    const first = await call(0, 'GET', `/team/${teams[0].id}/datasets/${ds.id}/request?getCache=true`, token);
    expect(first.json()).toMatchObject({ data: [{ n: 1 }, { n: 2 }, { n: 3 }], cache: { status: 'miss' } });
    const second = await call(1, 'GET', `/team/${teams[0].id}/datasets/${ds.id}/request?getCache=true`, token);
    expect(second.json()).toMatchObject({ data: [{ n: 1 }, { n: 2 }, { n: 3 }], cache: { status: 'hit' } });

    // Logging out on one instance ends the session on both.
    await call(1, 'POST', '/user/logout', token);
    expect((await call(0, 'GET', '/user/me', token)).statusCode).toBe(401);
  });

  it.skipIf(skip)('a dashboard read on one instance shows a chart changed on the other', async () => {
    const signup = await call(0, 'POST', '/user', undefined, { name: 'Views', email: `views-${prefix}@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teamId = (await call(0, 'GET', '/team', token)).json()[0].id;
    const project = (await call(0, 'POST', '/project', token, { name: 'Shared board', team_id: teamId })).json();
    const chart = (await call(0, 'POST', `/project/${project.id}/chart`, token, { name: 'Before', type: 'bar' })).json();
    // Instance 1 keeps the dashboard's serialized charts...
    for (let i = 0; i < 2; i++) expect((await call(1, 'GET', `/project/${project.id}`, token)).json().Charts[0].name).toBe('Before');
    // ...until a write through instance 0 moves the version in the shared store.
    expect((await call(0, 'PUT', `/project/${project.id}/chart/${chart.id}`, token, { name: 'After' })).statusCode).toBe(200);
    expect((await call(1, 'GET', `/project/${project.id}`, token)).json().Charts[0].name).toBe('After');
  });

  it.skipIf(skip)('rate limits are counted across instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(i % 2, 'POST', '/user/login', undefined, { email: `nobody-${prefix}@example.com`, password: 'wrong password' });
      statuses.push(res.statusCode);
    }
    // Five logins per minute per address in all: alternating instances, the sixth is refused
    // (counted per instance, ten would pass).
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it.skipIf(skip)('wrong dashboard passwords sent to either instance spend one budget', async () => {
    // Its own address: the sign-up must not spend the login budget of the test above.
    const from = `10.${[...randomBytes(3)].join('.')}`;
    const send = (i: number, method: string, url: string, headers: Record<string, string>, payload?: object) =>
      instances[i]!.app.inject({ method: method as 'GET', url, headers: { ...headers, 'x-forwarded-for': from }, ...(payload ? { payload } : {}) });
    const signup = await send(0, 'POST', '/user', {}, { name: 'Guard', email: `guard-${prefix}@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const auth = { authorization: `Bearer ${signup.json().token}` };
    const teamId = (await send(0, 'GET', '/team', auth)).json()[0].id;
    const project = (await send(0, 'POST', '/project', auth, { name: 'Guarded', team_id: teamId })).json();
    expect((await send(0, 'PUT', `/project/${project.id}`, auth, { public: true, passwordProtected: true, password: 'right password' })).statusCode).toBe(200);
    expect((await send(0, 'PUT', `/team/${teamId}`, auth, { allowReportExport: true })).statusCode).toBe(200);
    const chart = (await send(0, 'POST', `/project/${project.id}/chart`, auth, { name: 'Notes', type: 'markdown', content: 'x' })).json();

    const report = `/project/dashboard/${project.brewName}`;
    const exported = `${report}/chart/${chart.id}/export?format=csv`;
    const answers: number[] = [];
    for (const [i, url] of [[0, report], [1, exported], [1, report], [0, exported], [1, report]] as const) answers.push((await send(i, 'GET', url, { pass: 'wrong' })).statusCode);
    // Three wrong passwords in all (counted per instance, six would be checked).
    expect(answers).toEqual([403, 403, 403, 429, 429]);
    expect((await send(0, 'GET', report, { pass: 'right password' })).statusCode).toBe(429);
  });
});
