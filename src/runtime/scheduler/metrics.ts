import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Refresh and scheduler metrics, on a registry of their own that `/metrics` serves with the HTTP ones. */
export class RefreshMetrics {
  readonly registry = new Registry();
  private readonly runs: Counter<'trigger' | 'status'>;
  private readonly duration: Histogram<'trigger' | 'status'>;
  private readonly lastTick: Gauge;
  private readonly tickDuration: Histogram;
  private readonly requeued: Counter;
  private depthSource: () => Promise<number> | number = () => 0;

  constructor() {
    const registers = [this.registry];
    this.runs = new Counter({ name: 'plotline_refresh_runs_total', help: 'Refreshes by trigger (manual, schedule, auto) and status', labelNames: ['trigger', 'status'] as const, registers });
    this.duration = new Histogram({
      name: 'plotline_refresh_duration_seconds',
      help: 'Refresh duration by trigger and status',
      labelNames: ['trigger', 'status'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.lastTick = new Gauge({ name: 'plotline_scheduler_last_tick_timestamp_seconds', help: 'When this process last ran a scheduler tick (unix seconds)', registers });
    this.requeued = new Counter({
      name: 'plotline_refresh_requeued_total',
      help: 'Claimed refreshes found missing from the queue and enqueued again',
      registers,
    });
    this.tickDuration = new Histogram({ name: 'plotline_scheduler_tick_duration_seconds', help: 'Time to find and claim due refreshes', buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30], registers });
    const depth = () => this.depthSource();
    new Gauge({
      name: 'plotline_refresh_queue_depth',
      help: 'Refreshes waiting or running (this process, or the shared queue with Redis)',
      registers,
      async collect() {
        this.set(await depth());
      },
    });
  }

  observeRun(trigger: string, status: string, seconds: number): void {
    this.runs.inc({ trigger, status });
    this.duration.observe({ trigger, status }, seconds);
  }

  observeTick(at: Date, seconds: number): void {
    this.lastTick.set(at.getTime() / 1000);
    this.tickDuration.observe(seconds);
  }

  observeRequeued(): void {
    this.requeued.inc();
  }

  queueDepthFrom(source: () => Promise<number> | number): void {
    this.depthSource = source;
  }
}
