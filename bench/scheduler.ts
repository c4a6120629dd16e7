/**
 * One scheduler tick over 1,000 scheduled dashboards (and 1,000 auto-updating charts), on the
 * embedded SQLite store and on Postgres: reading the candidates, computing due-ness in each
 * dashboard's zone with luxon, and claiming every due period in the store. The refreshes
 * themselves are not part of a tick (they go to the dispatcher, here one that only holds them;
 * between ticks, outside the timing, each is started as a worker starts it, which moves the
 * dashboard's `lastUpdatedAt`).
 *   (a) all due: every dashboard and chart due, so 2,000 claims (each one transaction);
 *   (b) none due: the steady state between periods (mixed frequencies and zones).
 * Medians of 5 ticks after one warm-up. The last line printed is one JSON object with every figure.
 *
 *   npm run bench:scheduler        (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { RefreshRepository } from '../src/modules/automation/refreshes-repository.js';
import { ChartsRepository } from '../src/modules/dashboards/charts-repository.js';
import { ProjectsRepository } from '../src/modules/dashboards/projects-repository.js';
import type { Dispatcher, RefreshJob } from '../src/runtime/scheduler/dispatch.js';
import { RefreshMetrics } from '../src/runtime/scheduler/metrics.js';
import { Scheduler } from '../src/runtime/scheduler/scheduler.js';
import { createStore, migrateToLatest, type Db, type Store } from '../src/store/index.js';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DASHBOARDS = 1_000;
const RUNS = Number(process.env['RUNS'] ?? 5);
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'];

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

class CountingDispatcher implements Dispatcher {
  count = 0;
  private held: RefreshJob[] = [];
  async dispatch(job: RefreshJob) {
    this.count += 1;
    this.held.push(job);
    return true;
  }
  /** What a worker does first with each job: takes its claim (and moves `lastUpdatedAt`). */
  async startHeld(repo: RefreshRepository, at: string) {
    for (const job of this.held.splice(0)) {
      if (job.period === undefined) continue;
      const started = (trx: Db) =>
        job.kind === 'dashboard'
          ? new ProjectsRepository(trx).markRefreshed(job.id, at, trx)
          : new ChartsRepository(trx).markAutoUpdated(job.id, at, trx);
      await repo.start({ kind: job.kind, id: job.id, period: job.period }, at, false, started);
    }
  }
  busy() {
    return false;
  }
  async depth() {
    return 0;
  }
  async startWorking() {}
  async idle() {}
  async close() {}
}

async function seed(store: Store, mixed: boolean): Promise<void> {
  const at = new Date('2026-01-01T00:00:00Z').toISOString();
  const team = await store.db.insertInto('teams').values({ name: 'bench', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
  const schedules = [
    { frequency: 'every_x_minutes', frequencyNumber: '1' },
    { frequency: 'daily', time: { hour: 9, minute: 30 }, daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
    { frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 8 } },
    { frequency: 'every_x_hours', frequencyNumber: '6' },
  ];
  for (let i = 0; i < DASHBOARDS; i += 100) {
    const rows = Array.from({ length: 100 }, (_, k) => ({
      team_id: team.id,
      name: `d${i + k}`,
      brewName: `bench-${i + k}`,
      timezone: ZONES[(i + k) % ZONES.length]!,
      updateSchedule: JSON.stringify(mixed ? schedules[(i + k) % schedules.length] : schedules[0]),
      lastUpdatedAt: null,
      createdAt: at,
      updatedAt: at,
    }));
    const projects = await store.db.insertInto('projects').values(rows).returning('id').execute();
    await store.db
      .insertInto('charts')
      .values(projects.map((p) => ({ project_id: p.id, name: 'c', type: 'line', autoUpdate: 60, createdAt: at, updatedAt: at })))
      .execute();
  }
}

async function measure(label: string, makeStore: () => Promise<{ store: Store; drop(): Promise<void> }>) {
  const result: Record<string, number> = {};
  for (const mixed of [false, true]) {
    const { store, drop } = await makeStore();
    try {
      await migrateToLatest(store);
      await seed(store, mixed);
      let now = Date.parse('2026-01-05T12:00:00Z');
      const dispatcher = new CountingDispatcher();
      const repo = new RefreshRepository(store.db);
      const scheduler = new Scheduler(repo, dispatcher, {
        clock: () => new Date(now),
        tickMs: 60_000,
        historyDays: 30,
        logger: pino({ level: 'silent' }),
        metrics: new RefreshMetrics(),
      });
      // Warm-up: the first tick claims every never-run dashboard and chart.
      await scheduler.tick();
      await dispatcher.startHeld(repo, new Date(now).toISOString());
      const times: number[] = [];
      const claimed: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        now += mixed ? 1_000 : 60_000;
        const report = await scheduler.tick();
        times.push(report.durationMs);
        claimed.push(report.claimed);
        await dispatcher.startHeld(repo, new Date(now).toISOString());
      }
      const key = mixed ? 'noneDue' : 'allDue';
      result[`${key}TickMs`] = Math.round(median(times) * 10) / 10;
      result[`${key}Claims`] = median(claimed);
      process.stderr.write(`${label} ${key}: median ${result[`${key}TickMs`]} ms, ${result[`${key}Claims`]} claims per tick (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)\n`);
    } finally {
      await store.close();
      await drop();
    }
  }
  return result;
}

async function main() {
  const figures: Record<string, unknown> = { dashboards: DASHBOARDS, autoUpdateCharts: DASHBOARDS, runs: RUNS };
  figures['sqlite'] = await measure('sqlite', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-bench-sched-'));
    return { store: createStore({ kind: 'sqlite', file: path.join(dir, 'bench.db') }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  });
  try {
    figures['postgres'] = await measure('postgres', async () => {
      const name = `plotline_bench_sched_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(SERVER);
      url.pathname = `/${name}`;
      return {
        store: createStore({ kind: 'postgres', url: url.toString() }),
        drop: async () => {
          const c = new pg.Client({ connectionString: SERVER });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`);
          await c.end();
        },
      };
    });
  } catch (error) {
    process.stderr.write(`postgres skipped: ${(error as Error).message}\n`);
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

await main();
