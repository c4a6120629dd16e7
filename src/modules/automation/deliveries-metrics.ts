import { Counter, Registry } from 'prom-client';

/** Delivery metrics, on a registry of their own that `/metrics` serves with the others. */
export class DeliveryMetrics {
  readonly registry = new Registry();
  private readonly sends: Counter<'medium' | 'outcome'>;
  private readonly runs: Counter<'trigger' | 'status'>;
  private readonly interruptions: Counter<'outcome'>;

  constructor() {
    const registers = [this.registry];
    this.sends = new Counter({
      name: 'plotline_delivery_sends_total',
      help: 'Sends of scheduled deliveries and alert pictures by medium (email, slack, webhook, integration) and outcome (sent; retried: a try failed and another follows; failed: gave up)',
      labelNames: ['medium', 'outcome'] as const,
      registers,
    });
    this.runs = new Counter({ name: 'plotline_delivery_runs_total', help: 'Deliveries by trigger (schedule, manual) and status (sent, partial, failed)', labelNames: ['trigger', 'status'] as const, registers });
    this.interruptions = new Counter({
      name: 'plotline_delivery_interrupted_total',
      help: 'Deliveries whose process stopped mid-delivery (silent past PLOTLINE_DELIVERY_LEASE_MS), taken over by this process: resumed (sent to the targets not yet reached) or not_resumed (a send now, a paused subscription, a later slot due, or interrupted too often)',
      labelNames: ['outcome'] as const,
      registers,
    });
  }

  send(medium: string, outcome: 'sent' | 'retried' | 'failed'): void {
    this.sends.inc({ medium, outcome });
  }

  run(trigger: string, status: string): void {
    this.runs.inc({ trigger, status });
  }

  interrupted(outcome: 'resumed' | 'not_resumed'): void {
    this.interruptions.inc({ outcome });
  }
}
