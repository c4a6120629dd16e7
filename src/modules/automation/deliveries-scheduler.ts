import type { Logger } from 'pino';
import type { DeliveriesRepository } from './deliveries-repository.js';
import type { DeliveryRunner } from './deliveries-runner.js';
import { deliveryDue } from './deliveries-schedule.js';

export interface DeliverySchedulerOptions {
  clock: () => Date;
  tickMs: number;
  /** Delivery history is kept this many days. */
  historyDays: number;
  logger: Logger;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Scheduled deliveries, one tick a minute (and one at start) beside the refresh scheduler: every
 * active subscription whose slot has passed is claimed for that slot in the store (a
 * `refresh_claims` row, kind `subscription`: of several processes ticking at once, exactly one
 * inserts it) and delivered by the process that won it. A delivery runs past its tick (retries
 * wait), so ticks do not wait for them; `idle()` does.
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

  /** One tick; answers how many periods this process claimed. A tick in progress is not overlapped. */
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
    let claimed = 0;
    for (const sub of await this.deliveries.active()) {
      // Still delivering an earlier period here: this one waits for a later tick.
      if (this.running.has(sub.id)) continue;
      const due = deliveryDue(sub.schedule, { lastSentAt: sub.lastSentAt, createdAt: sub.createdAt, now });
      if (!due.due || due.period === null) continue;
      if (!(await this.deliveries.claim({ id: sub.id, teamId: sub.team_id }, due.period, at))) continue;
      claimed += 1;
      const period = due.period;
      this.running.add(sub.id);
      const work = this.runner
        .deliver(sub, 'schedule', period)
        .then((run) => this.deliveries.finishClaim(sub.id, period, run.status === 'failed' ? 'failed' : 'done'))
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
    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      const pruned = await this.deliveries.pruneRuns(new Date(now.getTime() - this.options.historyDays * 86_400_000).toISOString());
      if (pruned > 0) this.options.logger.info({ runs: pruned }, 'pruned delivery history');
    }
    if (claimed > 0) this.options.logger.info({ claimed }, 'delivery tick');
    return claimed;
  }
}
