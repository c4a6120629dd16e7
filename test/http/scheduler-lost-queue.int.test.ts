import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';
import { loggerOptions } from '../../src/platform/logging.js';
import { BullmqDispatcher } from '../../src/runtime/scheduler/bullmq-dispatcher.js';
import { announceSkip, ownRedis, redisServerMissing, type OwnRedis } from '../helpers/services.js';
import { buildTestApp, LogCapture, TEST_PASSWORD_HASHING, type TestApp } from '../helpers/app.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { createDashboard, createSourceDb, kpiValue, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

/*
 * A refresh claimed and queued in BullMQ, when Redis restarts empty (no persistence) before a
 * worker took the job: the claim stays in the store as `enqueued`, the next tick finds it missing
 * from the queue, logs it and enqueues it again, and the refresh runs once. `lastUpdatedAt` moves
 * only when it runs. The Redis is a redis-server of this test's own, really restarted; the shared
 * one is never touched.
 */

const missing = redisServerMissing();
const skip = announceSkip({ ok: !missing, reason: missing ?? '' }, 'lost queued refresh suite');

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(skip)('a queued refresh survives a Redis that restarts empty', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let source: SourceDb;
  let call: Call;
  const clock = steppedClock('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    redis = await ownRedis();
    source = await createSourceDb(inject('postgresUrl'));
    t = await buildTestApp({ env: { REDIS_URL: redis.url }, scheduler: { clock: clock.now, queuePrefix: `plsch-${randomBytes(4).toString('hex')}` } });
    call = (method, url, token, payload) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
    await source?.drop();
  });

  it('the lost claim is found at the next tick, enqueued again and run once; lastUpdatedAt moves only then', async () => {
    const owner = await t.signup('Owner');
    // Hourly: the minute the recovery takes brings no new period, so only the lost one can run.
    const d = await createDashboard(call, owner, source.url, { project: { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: '1' } } });
    const get = async (url: string) => (await call('GET', url, owner.token)).json();
    const dispatcher = t.container.scheduler.dispatcher;
    expect(dispatcher).toBeInstanceOf(BullmqDispatcher);

    // Claimed and queued, with no worker taking jobs yet: nothing ran, so nothing says it did.
    const first = await t.container.scheduler.tick();
    expect(first.claimed).toBe(1);
    expect(await dispatcher.depth()).toBe(1);
    let project = await get(`/project/${d.projectId}`);
    expect(project.lastUpdatedAt).toBeNull();
    expect(kpiValue(project.Charts[0])).toBeNull();
    expect((await get(`/project/${d.projectId}/runs`)).total).toBe(0);

    // Redis restarts without persistence: the job is gone.
    await redis.stop();
    await redis.start();
    await until(async () => (await dispatcher.depth()) === 0, 'the queue to answer again, empty');
    await dispatcher.startWorking();

    // Within the grace period the claim is left alone (it may still be on its way to the queue).
    clock.advance(10_000);
    expect(await t.container.scheduler.tick()).toMatchObject({ claimed: 0, requeued: 0 });
    expect((await get(`/project/${d.projectId}`)).lastUpdatedAt).toBeNull();

    // The next scheduler period: found lost, logged, enqueued again, run.
    clock.advance(50_000);
    const ranAt = clock.now().toISOString();
    const recovery = await t.container.scheduler.tick();
    expect(recovery).toMatchObject({ claimed: 0, requeued: 1 });
    const lost = t.logs.lines.map((line) => JSON.parse(line) as { msg?: string; id?: number; period?: string }).filter((line) => line.msg?.includes('not in the queue (lost)'));
    expect(lost).toEqual([expect.objectContaining({ id: d.projectId, period: 'first' })]);
    await until(async () => (await get(`/project/${d.projectId}/runs`)).total === 1, 'the refresh to run');
    await dispatcher.idle();

    const runs = await get(`/project/${d.projectId}/runs`);
    expect(runs.runs[0]).toMatchObject({ trigger: 'schedule', status: 'success', startedAt: ranAt });
    project = await get(`/project/${d.projectId}`);
    expect(kpiValue(project.Charts[0])).toBe(3);
    expect(project.lastUpdatedAt).toBe(ranAt);
    const claims = await t.container.store.db.selectFrom('refresh_claims').select(['state', 'attempts']).where('entity_type', '=', 'dashboard').where('entity_id', '=', d.projectId).execute();
    expect(claims).toEqual([{ state: 'done', attempts: 2 }]);

    // Exactly once: a stray copy of the job finds its claim taken, and later ticks find nothing lost or due.
    await dispatcher.dispatch({ kind: 'dashboard', teamId: owner.teamId, id: d.projectId, period: 'first' });
    await dispatcher.idle();
    expect(t.logs.text).toContain('its claim was taken by another copy of the job');
    clock.advance(30_000);
    expect(await t.container.scheduler.tick()).toMatchObject({ claimed: 0, requeued: 0 });
    expect((await get(`/project/${d.projectId}/runs`)).total).toBe(1);
    const metrics = (await call('GET', '/metrics')).body;
    expect(metrics).toMatch(/plotline_refresh_requeued_total 1/);
  }, 90_000);
});

describe.skipIf(skip)('two instances find the same lost claim: one enqueues it, it runs once', () => {
  let redis: OwnRedis;
  let store: { url: string; drop(): Promise<void> };
  let source: SourceDb;
  const instances: { app: FastifyInstance; container: Container; dir: string; logs: LogCapture }[] = [];
  const clock = steppedClock('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    redis = await ownRedis();
    store = await createTempDatabase(inject('postgresUrl'));
    source = await createSourceDb(inject('postgresUrl'));
    const keys = { PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex') };
    const prefix = `plsch-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'plsch-lost-'));
      const config = loadConfig({ ...keys, PLOTLINE_DATA_DIR: dir, DATABASE_URL: store.url, REDIS_URL: redis.url, LOG_LEVEL: 'info' });
      const logs = new LogCapture();
      const container = await createContainer(config, { logger: pino(loggerOptions('info'), logs), scheduler: { clock: clock.now, queuePrefix: prefix }, passwordHashing: TEST_PASSWORD_HASHING });
      instances.push({ dir, container, logs, app: await buildApp(container, { logStream: logs, defaultMetrics: false, rateLimit: { global: 100_000, auth: 100_000 } }) });
    }
  });
  afterAll(async () => {
    for (const { app, container, dir } of instances) {
      await app.close();
      await container.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await redis?.stop();
    await source?.drop();
    await store?.drop();
  });

  it('after Redis restarts empty, both tick at once: one hands the claim over again, and the dashboard refreshes once', async () => {
    const call: Call = (method, url, token, payload) =>
      instances[0]!.app.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
    const signup = await call('POST', '/user', undefined, { name: 'Two', email: `two-${randomBytes(3).toString('hex')}@example.com`, password: 'a long password' });
    const token = signup.json().token as string;
    const teamId = (await call('GET', '/team', token)).json()[0].id as number;
    const d = await createDashboard(call, { token, teamId }, source.url, { project: { updateSchedule: { frequency: 'every_x_hours', frequencyNumber: '1' } } });
    const dispatchers = instances.map((i) => i.container.scheduler.dispatcher);

    expect((await instances[0]!.container.scheduler.tick()).claimed).toBe(1);
    expect(await dispatchers[0]!.depth()).toBe(1);
    await redis.stop();
    await redis.start();
    for (const dispatcher of dispatchers) await until(async () => (await dispatcher.depth()) === 0, 'the queue to answer again, empty');
    for (const dispatcher of dispatchers) await dispatcher.startWorking();

    clock.advance(60_000);
    const reports = await Promise.all(instances.map((i) => i.container.scheduler.tick()));
    expect(reports.map((r) => r.requeued).sort()).toEqual([0, 1]);
    expect(reports.every((r) => r.claimed === 0)).toBe(true);
    await until(async () => (await call('GET', `/project/${d.projectId}/runs`, token)).json().total === 1, 'the refresh to run');
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.idle()));

    // And later ticks of both find nothing lost: one run, one warning in all.
    clock.advance(60_000);
    const later = await Promise.all(instances.map((i) => i.container.scheduler.tick()));
    expect(later.map((r) => [r.claimed, r.requeued])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect((await call('GET', `/project/${d.projectId}/runs`, token)).json().total).toBe(1);
    expect(kpiValue((await call('GET', `/project/${d.projectId}`, token)).json().Charts[0])).toBe(3);
    const warnings = instances.flatMap((i) => i.logs.lines).filter((line) => line.includes('not in the queue (lost)'));
    expect(warnings).toHaveLength(1);
  }, 90_000);
});
