import type { Logger } from 'pino';
import type { DeliveriesRepository, SilentRun, SubscriptionRecord, Takeover } from './deliveries-repository.js';
import type { DeliveryMetrics } from './deliveries-metrics.js';
import type { BegunRun, DeliveryRunner } from './deliveries-runner.js';
import { deliveryDue } from './deliveries-schedule.js';

export interface DeliverySchedulerOptions {
  clock: () => Date;
  tickMs: number;
  /** Delivery history is kept this many days. */
  historyDays: number;
  /**
   * A delivery whose run has not been heard from for this long (PLOTLINE_DELIVERY_LEASE_MS) lost
   * its process: it is taken over. Well above the tick and the runner's heartbeat.
   */
  leaseMs: number;
  metrics: DeliveryMetrics;
  logger: Logger;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * A period whose delivery was interrupted this many times is not resumed again: what stops the
 * process may be the delivery itself (a picture too large for its memory).
 */
export const MAX_STARTS = 3;

/**
 * Scheduled deliveries, one tick a minute (and one at start) beside the refresh scheduler: every
 * active subscription whose slot has passed is claimed for that slot in the store (a
 * `refresh_claims` row, kind `subscription`: of several processes ticking at once, exactly one
 * inserts it) and delivered by the process that won it. A delivery runs past its tick (retries
 * wait), so ticks do not wait for them; `idle()` does.
 *
 * Each tick first says that this process is still at its deliveries (their runs' heartbeat),
 * then takes over the deliveries of processes that stopped: a run still `running` and silent for
 * longer than the lease is marked `interrupted` by exactly one process, which sends the period to
 * the targets that run had not reached.
 */
export class DeliveryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly running = new Set<number>();
  private lastPrune = 0;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly runner: DeliveryRunner,
    private readonly options: DeliverySchedulerOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.safeTick();
    this.timer = setInterval(() => void this.safeTick(), this.options.tickMs);
    this.timer.unref();
  }

  /** Stops ticking; deliveries already started finish (`idle`). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking?.catch(() => undefined);
    await this.idle();
  }

  /**
   * One tick; answers how many deliveries this process started (periods claimed, and interrupted
   * deliveries resumed). A tick in progress is not overlapped.
   */
  tick(): Promise<number> {
    this.ticking ??= this.tickNow().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async safeTick(): Promise<void> {
    try {
      await this.tick();
    } catch (err) {
      this.options.logger.error({ err }, 'delivery scheduler tick failed');
    }
  }

  private async tickNow(): Promise<number> {
    const now = this.options.clock();
    const at = now.toISOString();
    await this.runner.heartbeat();
    const resumed = await this.takeOverSilent(now, at);
    let claimed = 0;
    for (const sub of await this.deliveries.active()) {
      // Still delivering an earlier period here: this one waits for a later tick.
      if (this.running.has(sub.id)) continue;
      const due = deliveryDue(sub.schedule, { lastSentAt: sub.lastSentAt, createdAt: sub.createdAt, now });
      if (!due.due || due.period === null) continue;
      const runId = await this.deliveries.claim({ id: sub.id, teamId: sub.team_id }, due.period, at);
      if (runId === undefined) continue;
      claimed += 1;
      this.deliverInBackground(sub, due.period, { id: runId, startedAt: at, carried: [], resumedFrom: null });
    }
    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      const pruned = await this.deliveries.pruneRuns(new Date(now.getTime() - this.options.historyDays * 86_400_000).toISOString());
      if (pruned > 0) this.options.logger.info({ runs: pruned }, 'pruned delivery history');
    }
    if (claimed > 0 || resumed > 0) this.options.logger.info({ claimed, resumed }, 'delivery tick');
    return claimed + resumed;
  }

  /**
   * Runs still `running` whose process has been silent for longer than the lease: that process
   * stopped (crash, deploy, out of memory). Each is taken over by exactly one process (the
   * store's conditional update) and marked `interrupted`; a scheduled period still current is
   * delivered again to the targets the run had not reached, the others are left as they are.
   * Answers how many were resumed here.
   */
  private async takeOverSilent(now: Date, at: string): Promise<number> {
    const before = new Date(now.getTime() - this.options.leaseMs).toISOString();
    let resumed = 0;
    for (const run of await this.deliveries.silentRuns(before)) {
      // This process's own deliveries said they were alive a moment ago; a run of one is not taken here.
      if (this.runner.delivering(run.id)) continue;
      const sub = await this.deliveries.findAnyTeam(run.subscription_id);
      if (!sub) continue;
      const takeover = this.decide(run, sub, now);
      // Delivering another period of it here: the interrupted one waits for a later tick.
      if (takeover.resume && this.running.has(sub.id)) continue;
      const taken = await this.deliveries.takeOver(run, takeover, before, at);
      if (!taken) continue;
      const log = { subscriptionId: sub.id, teamId: sub.team_id, period: run.period, interruptedRun: run.id, silentSince: run.heartbeatAt, sentBefore: taken.carried.length };
      if (!takeover.resume || taken.runId === null || run.period === null) {
        this.options.metrics.interrupted('not_resumed');
        this.options.logger.warn({ ...log, reason: takeover.resume ? undefined : takeover.reason }, 'interrupted delivery found (its process stopped); not resumed');
        continue;
      }
      resumed += 1;
      this.options.metrics.interrupted('resumed');
      this.options.logger.warn({ ...log, runId: taken.runId, starts: (run.starts ?? 1) + 1 }, 'interrupted delivery taken over (its process stopped); sending to the targets it had not reached');
      this.deliverInBackground(sub, run.period, { id: taken.runId, startedAt: at, carried: taken.carried, resumedFrom: run.id });
    }
    return resumed;
  }

  /** Whether an interrupted run is sent on, and why not. */
  private decide(run: SilentRun, sub: SubscriptionRecord, now: Date): Takeover {
    if (run.trigger === 'manual' || run.period === null) return { resume: false, reason: 'a send now is not resumed' };
    if (!sub.active) return { resume: false, reason: 'the subscription is paused' };
    if ((run.starts ?? 1) >= MAX_STARTS) return { resume: false, reason: `interrupted ${run.starts} times (the delivery itself may be what stops its process; see the server log)` };
    if (superseded(sub, run, now)) return { resume: false, reason: 'a later slot is due, and that delivery goes to every target' };
    return { resume: true };
  }

  private deliverInBackground(sub: SubscriptionRecord, period: string, begun: BegunRun): void {
    this.running.add(sub.id);
    const work = this.runner
      .deliver(sub, 'schedule', period, begun)
      // A delivery taken over by another process is that one's to finish.
      .then(({ run, lost }) => (lost ? undefined : this.deliveries.finishClaim(sub.id, period, run.status === 'failed' ? 'failed' : 'done')))
      .catch(async (err: unknown) => {
        this.options.logger.error({ err, subscriptionId: sub.id, period }, 'scheduled delivery failed');
        await this.deliveries.finishClaim(sub.id, period, 'failed').catch(() => undefined);
      })
      .finally(() => {
        this.running.delete(sub.id);
        this.inFlight.delete(work);
      });
    this.inFlight.add(work);
  }
}

/**
 * The next period of the schedule has come since `run`'s: that delivery goes to everyone, so the
 * older one is not finished. For a slot, a later slot has passed; for elapsed time, a whole
 * interval has passed since the period was claimed (when the subscription's `lastSentAt` moved).
 */
function superseded(sub: SubscriptionRecord, run: Pick<SilentRun, 'period' | 'claimedAt'>, now: Date): boolean {
  const period = run.period ?? '';
  const since = period.startsWith('slot:') ? period.slice('slot:'.length) : period.startsWith('after:') ? (run.claimedAt ?? sub.lastSentAt) : null;
  return since !== null && deliveryDue(sub.schedule, { lastSentAt: since, createdAt: sub.createdAt, now }).due;
}
