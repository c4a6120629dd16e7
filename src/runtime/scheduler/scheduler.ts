import type { Logger } from 'pino';
import { chartDue, dashboardDue, scheduleZone, type ScheduleSpec } from './due.js';
import { jobKey, type Dispatcher, type RefreshJob } from './dispatch.js';
import type { RefreshMetrics } from './metrics.js';

/** What the scheduler reads and writes in the store (the refresh repository implements it). */
export interface SchedulerStore {
  scheduledDashboards(): Promise<{ id: number; team_id: number; timezone: string | null; updateSchedule: unknown; lastUpdatedAt: string | null }[]>;
  autoUpdateCharts(): Promise<{ id: number; team_id: number; type: string | null; autoUpdate: number | null; lastAutoUpdate: string | null }[]>;
  /** Inserts claim rows (doing nothing on conflict); answers the won ones as `kind_id`. */
  claim(items: { kind: 'dashboard' | 'chart'; id: number; period: string }[], at: string): Promise<Set<string>>;
  prune(before: string, claimsBefore: string): Promise<{ runs: number; claims: number }>;
}

export interface SchedulerOptions {
  /** The clock (tests inject a fixed or stepped one). */
  clock: () => Date;
  /** Time between ticks (one minute; tests use a short one). */
  tickMs: number;
  /** Run history is kept this many days. */
  historyDays: number;
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
  durationMs: number;
}

const PRUNE_EVERY_MS = 10 * 60_000;
const CLAIMS_KEPT_MS = 24 * 3_600_000;

/**
 * One tick a minute (and one at start): finds dashboards whose schedule is due and charts whose
 * auto-update has elapsed, claims each period in the store (the insert does nothing when another
 * process won it) and hands the winners to the dispatcher. Every process may tick.
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
    const report: TickReport = { at, dueDashboards: 0, dueCharts: 0, claimed: 0, skipped: 0, durationMs: 0 };

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
      await this.dispatcher.dispatch({ kind: job.kind, teamId: job.teamId, id: job.id });
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
    if (report.claimed > 0) this.options.logger.info({ claimed: report.claimed, skipped: report.skipped }, 'scheduler tick');
    return report;
  }
}
