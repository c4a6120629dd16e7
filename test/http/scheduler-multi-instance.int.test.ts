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
import { BullmqDispatcher } from '../../src/runtime/scheduler/bullmq-dispatcher.js';
import { announceSkip, probeRedis, REDIS_TEST_URL } from '../helpers/services.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { createDashboard, createSourceDb, kpiValue, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

interface Instance {
  app: FastifyInstance;
  container: Container;
  dir: string;
}

/**
 * Two instances on one Postgres store tick at the same moments (and one of them late): each
 * period of each dashboard and chart runs exactly once. Without Redis the claim rows decide;
 * with Redis the claimed refreshes go through one BullMQ queue that both instances work.
 */
describe.each([
  { redis: false, label: 'Postgres, no Redis (claims in the store)' },
  { redis: true, label: 'Postgres + Redis (BullMQ)' },
])('exactly once per period across two instances: $label', { timeout: 120_000 }, async ({ redis }) => {
  const skip = redis ? announceSkip(await probeRedis(), 'scheduler exactly-once suite on BullMQ (Redis)') : false;
  let store: { url: string; drop(): Promise<void> };
  let source: SourceDb;
  const instances: Instance[] = [];
  const clock = steppedClock('2026-03-02T09:00:00.000Z');
  // For the free-running test: the stepped clock until it starts, then 120 times faster than the wall.
  let fastFrom: number | undefined;
  const now = () => (fastFrom === undefined ? clock.now() : new Date(clock.now().getTime() + (Date.now() - fastFrom) * 120));
  const prefix = `plotline-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    if (skip) return;
    store = await createTempDatabase(inject('postgresUrl'));
    source = await createSourceDb(inject('postgresUrl'));
    const keys = { PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex') };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-sched-'));
      const config = loadConfig({
        ...keys,
        PLOTLINE_DATA_DIR: dir,
        DATABASE_URL: store.url,
        LOG_LEVEL: 'silent',
        ...(redis ? { REDIS_URL: `${REDIS_TEST_URL.replace(/\/$/, '')}/0` } : {}),
      });
      const container = await createContainer(config, { scheduler: { clock: now, queuePrefix: prefix, tickMs: 100 }, passwordHashing: TEST_PASSWORD_HASHING });
      instances.push({ dir, container, app: await buildApp(container, { logLevel: 'silent', defaultMetrics: false, rateLimit: { global: 100_000, auth: 100_000 } }) });
    }
    // Both work the queue (BullMQ) or run their own claims (embedded); the test ticks by hand.
    for (const instance of instances) await instance.container.scheduler.dispatcher.startWorking();
  });
  afterAll(async () => {
    const first = instances[0]?.container.scheduler.dispatcher;
    if (first instanceof BullmqDispatcher) await first.obliterate().catch(() => undefined);
    for (const { app, container, dir } of instances) {
      await app.close();
      await container.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await source?.drop();
    await store?.drop();
  });

  const call = (i: number): Call => (method, url, token, payload) =>
    instances[i]!.app.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const idle = () => Promise.all(instances.map((i) => i.container.scheduler.dispatcher.idle()));

  it.skipIf(skip)('ten periods, both instances ticking together, one late: ten runs of each dashboard and chart', async () => {
    const signup = await call(0)('POST', '/user', undefined, { name: 'Sched', email: `${prefix}@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teamId = (await call(1)('GET', '/team', token)).json()[0].id;
    const person = { token, teamId };
    const minutes = await createDashboard(call(0), person, source.url, { project: { updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '1' } } });
    const auto = await createDashboard(call(1), person, source.url, { connectionId: minutes.connectionId, chart: { autoUpdate: 60 } });

    let value = 3;
    const claimedBy = [0, 0];
    for (let period = 1; period <= 10; period++) {
      await source.exec('insert into metrics values (1)');
      value += 1;
      // Both instances tick at the same instant...
      const reports = await Promise.all(instances.map((i) => i.container.scheduler.tick()));
      reports.forEach((r, i) => (claimedBy[i]! += r.claimed));
      await idle();
      // ...and a late tick of the first one (a GC pause, a slow timer) finds nothing left to run.
      const late = await instances[0]!.container.scheduler.tick();
      expect(late.claimed).toBe(0);
      await idle();
      const project = (await call(period % 2)('GET', `/project/${minutes.projectId}`, token)).json();
      expect(kpiValue(project.Charts[0])).toBe(value);
      clock.advance(60_000);
    }
    const dashRuns = (await call(0)('GET', `/project/${minutes.projectId}/runs`, token)).json();
    expect(dashRuns.total).toBe(10);
    expect(new Set(dashRuns.runs.map((r: { startedAt: string }) => r.startedAt)).size).toBe(10);
    expect(dashRuns.runs.every((r: { trigger: string; status: string }) => r.trigger === 'schedule' && r.status === 'success')).toBe(true);
    const chartRuns = (await call(1)('GET', `/project/${auto.projectId}/chart/${auto.chartId}/runs`, token)).json();
    expect(chartRuns.total).toBe(10);
    expect(chartRuns.runs.every((r: { trigger: string }) => r.trigger === 'auto')).toBe(true);
    // Twenty periods in all, each claimed by exactly one of the two.
    expect(claimedBy[0]! + claimedBy[1]!).toBe(20);
    if (redis) expect(instances[0]!.container.scheduler.dispatcher).toBeInstanceOf(BullmqDispatcher);
    process.stdout.write(`[scheduler exactly-once, ${redis ? 'BullMQ' : 'claims'}] 20 periods, runs: dashboard ${dashRuns.total}, chart ${chartRuns.total}; claimed by instance A ${claimedBy[0]}, B ${claimedBy[1]}\n`);
  });

  it.skipIf(skip)('free-running: both schedulers on their own timers, each claimed period runs once and periods are a minute apart', async () => {
    const signup = await call(1)('POST', '/user', undefined, { name: 'Free', email: `free-${prefix}@example.com`, password: 'a long password' });
    const token = signup.json().token;
    const teamId = (await call(0)('GET', '/team', token)).json()[0].id;
    const d = await createDashboard(call(0), { token, teamId }, source.url, { project: { updateSchedule: { frequency: 'every_x_minutes', frequencyNumber: '1' } } });
    fastFrom = Date.now();
    await Promise.all(instances.map((i) => i.container.scheduler.start()));
    // About 4 s of wall time: some eight scheduled minutes.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    // Stop claiming, then let every claimed period's refresh finish (a loaded machine runs them late).
    await Promise.all(instances.map((i) => i.container.scheduler.pause()));
    await idle();
    await Promise.all(instances.map((i) => i.container.scheduler.stop()));
    const db = instances[0]!.container.store.db;
    const claims = await db.selectFrom('refresh_claims').select(['period', 'claimedAt']).where('entity_type', '=', 'dashboard').where('entity_id', '=', d.projectId).orderBy('claimedAt').execute();
    const runs = (await call(1)('GET', `/project/${d.projectId}/runs?limit=200`, token)).json();
    expect(claims.length).toBeGreaterThanOrEqual(3);
    expect(runs.total).toBe(claims.length);
    expect(new Set(claims.map((c) => c.period)).size).toBe(claims.length);
    const at = claims.map((c) => new Date(c.claimedAt).getTime());
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(58_000);
    process.stdout.write(`[scheduler free-running, ${redis ? 'BullMQ' : 'claims'}] ${claims.length} periods claimed, ${runs.total} runs\n`);
  });
});
