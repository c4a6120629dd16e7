import { Counter, Registry } from 'prom-client';

/** Delivery metrics, on a registry of their own that `/metrics` serves with the others. */
export class DeliveryMetrics {
  readonly registry = new Registry();
  private readonly sends: Counter<'medium' | 'outcome'>;
  private readonly runs: Counter<'trigger' | 'status'>;

  constructor() {
    const registers = [this.registry];
    this.sends = new Counter({
      name: 'plotline_delivery_sends_total',
      help: 'Sends of scheduled deliveries and alert pictures by medium (email, slack, webhook, integration) and outcome (sent; retried: a try failed and another follows; failed: gave up)',
      labelNames: ['medium', 'outcome'] as const,
      registers,
    });
    this.runs = new Counter({ name: 'plotline_delivery_runs_total', help: 'Deliveries by trigger (schedule, manual) and status (sent, partial, failed)', labelNames: ['trigger', 'status'] as const, registers });
  }

  send(medium: string, outcome: 'sent' | 'retried' | 'failed'): void {
    this.sends.inc({ medium, outcome });
  }

  run(trigger: string, status: string): void {
    this.runs.inc({ trigger, status });
  }
}
