import type { Logger } from 'pino';
import { chartDue, dashboardDue, scheduleZone, type ScheduleSpec } from './due.js';
import { jobKey, type Dispatcher, type RefreshJob } from './dispatch.js';
import type { RefreshMetrics } from './metrics.js';

/** What the scheduler reads and writes in the store (the refresh repository implements it). */
export interface SchedulerStore {
  scheduledDashboards(): Promise<{ id: number; team_id: number; timezone: string | null; updateSchedule: unknown; lastUpdatedAt: string | null }[]>;
  autoUpdateCharts(): Promise<{ id: number; team_id: number; type: string | null; autoUpdate: number | null; lastAutoUpdate: string | null }[]>;
  /** Inserts claim rows, `enqueued` (doing nothing on conflict); answers the won ones as `kind_id`. */
  claim(items: { kind: 'dashboard' | 'chart'; id: number; period: string; teamId: number }[], at: string): Promise<Set<string>>;
  /** Claims handed to the queue at or before `before` that no worker has started. */
  enqueuedBefore(before: string): Promise<LostCandidate[]>;
  /** Marks such a claim handed over again; true for exactly one of the processes that try. */
  requeue(claim: LostCandidate, at: string): Promise<boolean>;
  prune(before: string, claimsBefore: string): Promise<{ runs: number; claims: number }>;
}

/** A claim still waiting for a worker (see `SchedulerStore.enqueuedBefore`). */
export interface LostCandidate {
  kind: 'dashboard' | 'chart';
  id: number;
  period: string;
  teamId: number;
  enqueuedAt: string;
  attempts: number;
}

export interface SchedulerOptions {
  /** The clock (tests inject a fixed or stepped one). */
  clock: () => Date;
  /** Time between ticks (one minute; tests use a short one). */
  tickMs: number;
  /** Run history is kept this many days. */
  historyDays: number;
  /**
   * A claim still waiting this long after it was handed to the queue, and not in the queue, was
   * lost (a Redis restarted empty): the next tick hands it over again. Default 30 s, half of the
   * one-minute tick, so a lost claim runs at the next tick.
   */
  lostAfterMs?: number;
  logger: Logger;
  metrics: RefreshMetrics;
}

export interface TickReport {
  at: string;
  dueDashboards: number;
  dueCharts: number;
  /** Periods this process claimed and handed to the dispatcher. */
  claimed: number;
  /** Due periods another process had claimed already (or that are still running here). */
  skipped: number;
  /** Claims found lost from the queue and handed to it again. */
  requeued: number;
  durationMs: number;
}

const PRUNE_EVERY_MS = 10 * 60_000;
const CLAIMS_KEPT_MS = 24 * 3_600_000;
const LOST_AFTER_MS = 30_000;

/**
 * One tick a minute (and one at start): hands over again claims that were lost from the queue,
 * finds dashboards whose schedule is due and charts whose auto-update has elapsed, claims each
 * period in the store (the insert does nothing when another process won it) and hands the winners
 * to the dispatcher. Every process may tick; a worker runs a claim only if it can move the claim
 * from `enqueued` to `running`, so a claim handed over twice still runs once.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickReport> | undefined;
  private lastPrune = 0;
  private stopped = false;

  constructor(
    private readonly store: SchedulerStore,
    readonly dispatcher: Dispatcher,
    private readonly options: SchedulerOptions,
  ) {
    options.metrics.queueDepthFrom(() => dispatcher.depth().catch(() => 0));
  }

  /** Starts working and ticking: once now, then every `tickMs`. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.dispatcher.startWorking();
    void this.safeTick();
    this.timer = setInterval(() => void this.safeTick(), this.options.tickMs);
    this.timer.unref();
  }

  /** Stops ticking and waits for the tick in progress; refreshes already handed to the dispatcher go on. */
  async pause(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Stops ticking, waits for the tick in progress and closes the dispatcher (running refreshes finish). */
  async stop(): Promise<void> {
    await this.pause();
    await this.dispatcher.close();
  }

  /** One tick; a tick still in progress is not overlapped (the call waits for it). */
  tick(): Promise<TickReport> {
    this.running ??= this.tickNow().finally(() => (this.running = undefined));
    return this.running;
  }

  private async safeTick(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.tick();
    } catch (err) {
      this.options.logger.error({ err }, 'scheduler tick failed');
    }
  }

  private async tickNow(): Promise<TickReport> {
    const started = performance.now();
    const now = this.options.clock();
    const at = now.toISOString();
    const report: TickReport = { at, dueDashboards: 0, dueCharts: 0, claimed: 0, skipped: 0, requeued: 0, durationMs: 0 };

    // First the claims lost from the queue, so that they count as waiting below.
    report.requeued = await this.requeueLost(now, at);

    const due: (RefreshJob & { period: string })[] = [];
    for (const dashboard of await this.store.scheduledDashboards()) {
      const schedule = dashboard.updateSchedule as ScheduleSpec | null;
      const answer = dashboardDue(schedule, { timezone: scheduleZone(dashboard.timezone, schedule), lastUpdatedAt: dashboard.lastUpdatedAt, now });
      if (!answer.due || answer.period === null) continue;
      report.dueDashboards += 1;
      due.push({ kind: 'dashboard', teamId: dashboard.team_id, id: dashboard.id, period: answer.period });
    }
    for (const chart of await this.store.autoUpdateCharts()) {
      const answer = chartDue(chart, now);
      if (!answer.due || answer.period === null) continue;
      report.dueCharts += 1;
      due.push({ kind: 'chart', teamId: chart.team_id, id: chart.id, period: answer.period });
    }
    // Still waiting or running from an earlier period: leave this period unclaimed for a later tick
    // (claiming it would coalesce it into that refresh, and the period would never run itself).
    const busy = await Promise.all(due.map((job) => this.dispatcher.busy(job)));
    const free = due.filter((_, i) => !busy[i]);
    const won = await this.store.claim(free, at);
    for (const job of free) {
      if (!won.has(jobKey(job))) continue;
      report.claimed += 1;
      await this.dispatcher.dispatch({ kind: job.kind, teamId: job.teamId, id: job.id, period: job.period });
    }
    report.skipped = due.length - report.claimed;

    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      const before = new Date(now.getTime() - this.options.historyDays * 86_400_000).toISOString();
      const pruned = await this.store.prune(before, new Date(now.getTime() - CLAIMS_KEPT_MS).toISOString());
      if (pruned.runs > 0) this.options.logger.info({ runs: pruned.runs }, 'pruned refresh history');
    }

    report.durationMs = performance.now() - started;
    this.options.metrics.observeTick(now, report.durationMs / 1000);
    if (report.claimed > 0 || report.requeued > 0) this.options.logger.info({ claimed: report.claimed, skipped: report.skipped, requeued: report.requeued }, 'scheduler tick');
    return report;
  }

  /**
   * Claims handed to the queue more than `lostAfterMs` ago that no worker has started and that the
   * queue no longer holds (no job waiting or running for that dashboard or chart): the queue lost
   * them, as a Redis restarted without persistence does. Each is handed over again, by exactly
   * one process (the store's compare-and-set); a copy that still turns up later finds its claim
   * taken and does not run. Answers how many were handed over.
   */
  private async requeueLost(now: Date, at: string): Promise<number> {
    const before = new Date(now.getTime() - (this.options.lostAfterMs ?? LOST_AFTER_MS)).toISOString();
    const candidates = await this.store.enqueuedBefore(before);
    const busy = await Promise.all(candidates.map((claim) => this.dispatcher.busy(claim)));
    let requeued = 0;
    for (const [i, claim] of candidates.entries()) {
      if (busy[i] || !(await this.store.requeue(claim, at))) continue;
      requeued += 1;
      this.options.metrics.observeRequeued();
      this.options.logger.warn(
        { kind: claim.kind, id: claim.id, teamId: claim.teamId, period: claim.period, enqueuedAt: claim.enqueuedAt, attempts: claim.attempts + 1 },
        'claimed refresh was not in the queue (lost); enqueued again',
      );
      await this.dispatcher.dispatch({ kind: claim.kind, teamId: claim.teamId, id: claim.id, period: claim.period });
    }
    return requeued;
  }
}
