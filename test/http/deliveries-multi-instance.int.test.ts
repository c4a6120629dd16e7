import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_PASSWORD_HASHING } from '../helpers/app.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';
import { announceSkip, probeRedis, REDIS_TEST_URL } from '../helpers/services.js';
import { startHookReceiver, type HookReceiver } from '../helpers/loopback-peers.js';
import { createTempDatabase } from '../helpers/postgres-server.js';
import { createDashboard, createSourceDb, steppedClock, type Call, type SourceDb } from '../helpers/refresh-fixture.js';

interface Instance {
  app: FastifyInstance;
  container: Container;
  dir: string;
}

/**
 * Two instances on one Postgres store (and one Redis) tick their delivery schedulers at the same
 * moments, and one of them late: every period of a subscription is delivered exactly once, by
 * whichever instance claimed it. The clock is stepped by hand; nothing here reads the wall clock.
 */
describe.each([
  { redis: false, label: 'Postgres' },
  { redis: true, label: 'Postgres + Redis' },
])('deliveries exactly once per period across two instances: $label', { timeout: 120_000 }, async ({ redis }) => {
  const skip = redis ? announceSkip(await probeRedis(), 'deliveries exactly-once suite with Redis') : false;
  let store: { url: string; drop(): Promise<void> };
  let source: SourceDb;
  let receiver: HookReceiver;
  let hookUrl: string;
  const instances: Instance[] = [];
  /** Instances that stop mid-delivery, closed with the others. */
  const doomed: Instance[] = [];
  let keys: Record<string, string>;
  const clock = steppedClock('2026-03-02T08:00:00.000Z');
  const prefix = `plotline-test-${randomBytes(4).toString('hex')}`;

  /** One more instance on the store (tests pass `deliveryHeartbeatMs: 0`: it reports at each send and tick only). */
  const open = async (secrets: Record<string, string>, scheduler: { deliveryHeartbeatMs?: number } = {}): Promise<Instance> => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-deliv-'));
    mkdirSync(dir, { recursive: true });
    const config = loadConfig({
      ...secrets,
      PLOTLINE_DATA_DIR: dir,
      DATABASE_URL: store.url,
      LOG_LEVEL: 'silent',
      PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      ...(redis ? { REDIS_URL: `${REDIS_TEST_URL.replace(/\/$/, '')}/0` } : {}),
    });
    const container = await createContainer(config, { scheduler: { clock: clock.now, queuePrefix: prefix, tickMs: 100, ...scheduler }, passwordHashing: TEST_PASSWORD_HASHING });
    return { dir, container, app: await buildApp(container, { logLevel: 'silent', defaultMetrics: false, rateLimit: { global: 100_000, auth: 100_000 } }) };
  };

  beforeAll(async () => {
    if (skip) return;
    receiver = await startHookReceiver();
    hookUrl = `${receiver.origin}/hook`;
    store = await createTempDatabase(inject('postgresUrl'));
    source = await createSourceDb(inject('postgresUrl'));
    keys = { PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex') };
    for (let i = 0; i < 2; i++) instances.push(await open(keys));
  });
  afterAll(async () => {
    for (const { app, container, dir } of [...instances, ...doomed]) {
      await app.close();
      await container.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await source?.drop();
    await store?.drop();
    await receiver?.close();
  });

  const call = (i: number): Call => (method, url, token, payload) =>
    instances[i]!.app.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  it.skipIf(skip)('seven daily periods, both instances ticking together and one late: seven deliveries, each claimed once', async () => {
    const signup = await call(0)('POST', '/user', undefined, { name: 'Deliv', email: `${prefix}@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teamId = (await call(1)('GET', '/team', token)).json()[0].id;
    const d = await createDashboard(call(0), { token, teamId }, source.url, { chart: { type: 'table' } });
    const created = await call(1)('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, token, {
      schedule: { frequency: 'daily', time: { hour: 9, minute: 0 }, timezone: 'UTC' },
      format: 'csv',
      webhook: { url: hookUrl },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sid = created.json().id;

    const claimedBy = [0, 0];
    // Before the first slot: nobody delivers.
    const early = await Promise.all(instances.map((i) => i.container.deliveryScheduler.tick()));
    expect(early).toEqual([0, 0]);
    for (let day = 0; day < 7; day++) {
      clock.advance(day === 0 ? 3_600_000 : 86_400_000); // 09:00 each day
      const claims = await Promise.all(instances.map((i) => i.container.deliveryScheduler.tick()));
      claims.forEach((n, i) => (claimedBy[i]! += n));
      await Promise.all(instances.map((i) => i.container.deliveryScheduler.idle()));
      // A late tick of either instance finds the period taken.
      expect(await instances[day % 2]!.container.deliveryScheduler.tick()).toBe(0);
      expect(receiver.received).toHaveLength(day + 1);
    }
    expect(claimedBy[0]! + claimedBy[1]!).toBe(7);
    const runs = (await call(0)('GET', `/project/${d.projectId}/chart/${d.chartId}/subscriptions/${sid}/runs`, token)).json();
    expect(runs.total).toBe(7);
    expect(new Set(runs.runs.map((r: { period: string }) => r.period)).size).toBe(7);
    expect(runs.runs.every((r: { status: string; trigger: string }) => r.status === 'sent' && r.trigger === 'schedule')).toBe(true);
    const db = instances[0]!.container.store.db;
    const rows = await db.selectFrom('refresh_claims').select(['period', 'state']).where('entity_type', '=', 'subscription').where('entity_id', '=', sid).execute();
    expect(rows).toHaveLength(7);
    expect(rows.every((r) => r.state === 'done')).toBe(true);
    process.stdout.write(`[deliveries exactly-once, ${redis ? 'Postgres + Redis' : 'Postgres'}] 7 periods, ${receiver.received.length} deliveries; claimed by instance A ${claimedBy[0]}, B ${claimedBy[1]}\n`);
  });

  it.skipIf(skip)('deliveries whose process died mid-way, both instances ticking together past the lease: each resumed by exactly one, each waiting target sent once', async () => {
    const signup = await call(0)('POST', '/user', undefined, { name: 'Resume', email: `${prefix}-resume@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teamId = (await call(1)('GET', '/team', token)).json()[0].id;
    const d = await createDashboard(call(0), { token, teamId }, source.url, { chart: { type: 'table' } });
    // Daily at the next minute; three subscriptions, each with two Slack webhooks and a webhook.
    const slot = new Date(Math.floor(clock.now().getTime() / 60_000) * 60_000 + 60_000);
    const subs: { id: number; paths: { s1: string; s2: string; hook: string } }[] = [];
    for (let i = 0; i < 3; i++) {
      const paths = { s1: `/slack/${prefix}-${i}-1`, s2: `/slack/${prefix}-${i}-2`, hook: `/hook/${prefix}-${i}` };
      const created = await call(i % 2)('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, token, {
        schedule: { frequency: 'daily', time: { hour: slot.getUTCHours(), minute: slot.getUTCMinutes() }, timezone: 'UTC' },
        format: 'csv',
        slackWebhooks: [`${receiver.origin}${paths.s1}`, `${receiver.origin}${paths.s2}`],
        webhook: { url: `${receiver.origin}${paths.hook}` },
      });
      expect(created.statusCode, created.body).toBe(200);
      subs.push({ id: created.json().id, paths });
    }
    const count = (path: string) => receiver.received.filter((r) => r.path === path).length;
    const holds = subs.map((sub) => receiver.hold(sub.paths.s2));
    const resumedBy = async (instance: Instance) => {
      const metric = (await instance.container.deliveryMetrics.registry.getMetricsAsJSON()).find((m) => m.name === 'plotline_delivery_interrupted_total');
      return (metric?.values ?? []).find((v) => v.labels['outcome'] === 'resumed')?.value ?? 0;
    };
    const before = await Promise.all(instances.map(resumedBy));

    // A third instance claims the three periods, sends each first Slack message and stalls on the
    // second: it is heard from no more, as a process that died.
    const stalled = await open(keys, { deliveryHeartbeatMs: 0 });
    doomed.push(stalled);
    clock.advance(slot.getTime() - clock.now().getTime());
    expect(await stalled.container.deliveryScheduler.tick()).toBe(3);
    await expect.poll(() => holds.every((h) => h.arrived), { timeout: 30_000 }).toBe(true);
    expect(subs.map((s) => count(s.paths.s1))).toEqual([1, 1, 1]);

    clock.advance(11 * 60_000);
    const started = await Promise.all(instances.map((i) => i.container.deliveryScheduler.tick()));
    await Promise.all(instances.map((i) => i.container.deliveryScheduler.idle()));
    expect(started[0]! + started[1]!).toBe(3);
    const resumed = (await Promise.all(instances.map(resumedBy))).map((n, i) => n - before[i]!);
    expect(resumed[0]! + resumed[1]!).toBe(3);
    // Each waiting target once; the first Slack webhooks not again; the sends in flight at the stop once more.
    expect(subs.map((s) => [count(s.paths.s1), count(s.paths.s2), count(s.paths.hook)])).toEqual([
      [1, 2, 1],
      [1, 2, 1],
      [1, 2, 1],
    ]);
    const db = instances[0]!.container.store.db;
    for (const sub of subs) {
      const runs = await db.selectFrom('subscription_runs').select(['id', 'status', 'resumed_from']).where('subscription_id', '=', sub.id).orderBy('id').execute();
      expect(runs).toEqual([
        { id: runs[0]!.id, status: 'interrupted', resumed_from: null },
        { id: runs[1]!.id, status: 'sent', resumed_from: runs[0]!.id },
      ]);
      const claims = await db.selectFrom('refresh_claims').select(['state', 'attempts']).where('entity_type', '=', 'subscription').where('entity_id', '=', sub.id).execute();
      expect(claims).toEqual([{ state: 'done', attempts: 2 }]);
    }

    // The stalled instance wakes up: its runs were taken over, it sends nothing more; late ticks find nothing.
    for (const hold of holds) hold.release();
    await stalled.container.deliveryScheduler.idle();
    expect(await Promise.all(instances.map((i) => i.container.deliveryScheduler.tick()))).toEqual([0, 0]);
    expect(subs.map((s) => [count(s.paths.s1), count(s.paths.s2), count(s.paths.hook)])).toEqual([
      [1, 2, 1],
      [1, 2, 1],
      [1, 2, 1],
    ]);
    process.stdout.write(`[deliveries resumed, ${redis ? 'Postgres + Redis' : 'Postgres'}] 3 interrupted deliveries; resumed by instance A ${resumed[0]}, B ${resumed[1]}\n`);
  });

  it.skipIf(skip)('every six hours, both instances ticking together every three and one late: one delivery per interval, each period claimed once', async () => {
    const signup = await call(0)('POST', '/user', undefined, { name: 'Every', email: `${prefix}-every@example.com`, password: 'a long password' });
    expect(signup.statusCode, signup.body).toBe(200);
    const token = signup.json().token;
    const teamId = (await call(1)('GET', '/team', token)).json()[0].id;
    const d = await createDashboard(call(0), { token, teamId }, source.url, { chart: { type: 'table' } });
    const hook = `/hook/${prefix}-every-6-hours`;
    const created = await call(1)('POST', `/project/${d.projectId}/chart/${d.chartId}/subscriptions`, token, {
      schedule: { frequency: 'every_x_hours', frequencyNumber: 6 },
      format: 'csv',
      webhook: { url: `${receiver.origin}${hook}` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sub = created.json();
    const count = () => receiver.received.filter((r) => r.path === hook).length;
    // The other tests' subscriptions may fall due on these ticks too: only this one's are counted.
    for (let step = 1; step <= 8; step++) {
      clock.advance(3 * 3_600_000);
      await Promise.all(instances.map((i) => i.container.deliveryScheduler.tick()));
      await Promise.all(instances.map((i) => i.container.deliveryScheduler.idle()));
      expect(await instances[step % 2]!.container.deliveryScheduler.tick()).toBe(0);
      expect(count(), `after ${step * 3} hours`).toBe(Math.floor(step / 2));
    }
    const db = instances[0]!.container.store.db;
    const claims = await db.selectFrom('refresh_claims').select(['period', 'state']).where('entity_type', '=', 'subscription').where('entity_id', '=', sub.id).execute();
    expect(claims).toHaveLength(4);
    expect(claims.every((c) => c.state === 'done' && c.period.startsWith('after:'))).toBe(true);
    expect(claims.map((c) => c.period)).toContain(`after:${sub.createdAt as string}`);
  });
});
