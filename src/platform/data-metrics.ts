import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CacheStatus } from '../runtime/cache/index.js';
import type { SourceRunEvent } from '../sources/registry.js';

/**
 * Metrics of the data path: source runs (duration, errors, rows) by connection type, result-cache
 * answers by namespace (charts, datasets, share views), and pooled connections in use and waited
 * for. Owned by the container (fed by the registry and the cache); each app registers them on
 * its own registry at `/metrics`. Labels are types, codes and namespaces, never ids or values.
 */
export class DataPathMetrics {
  private readonly runs = new Histogram({
    name: 'plotline_source_query_duration_seconds',
    help: 'Source runs by connection type and outcome (ok or error code)',
    labelNames: ['type', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [],
  });
  private readonly errors = new Counter({
    name: 'plotline_source_query_errors_total',
    help: 'Failed source runs by connection type and error code',
    labelNames: ['type', 'code'] as const,
    registers: [],
  });
  private readonly rows = new Counter({
    name: 'plotline_source_rows_read_total',
    help: 'Rows read from sources by connection type',
    labelNames: ['type'] as const,
    registers: [],
  });
  private readonly truncated = new Counter({
    name: 'plotline_source_truncated_runs_total',
    help: 'Source runs that a row limit cut, by connection type',
    labelNames: ['type'] as const,
    registers: [],
  });
  private readonly cache = new Counter({
    name: 'plotline_cache_requests_total',
    help: 'Result cache answers by namespace (chart, dataset, share-chart) and status (hit, stale, miss)',
    labelNames: ['namespace', 'status'] as const,
    registers: [],
  });
  private readonly pool: Gauge<'family' | 'state'>;

  constructor(poolStats: () => { family: string; inUse: number; waiting: number }[]) {
    this.pool = new Gauge({
      name: 'plotline_source_pool_connections',
      help: 'Runs holding (in_use) and waiting for (waiting) a pooled source connection, by source family',
      labelNames: ['family', 'state'] as const,
      registers: [],
      collect() {
        this.reset();
        for (const stat of poolStats()) {
          this.inc({ family: stat.family, state: 'in_use' }, stat.inUse);
          this.inc({ family: stat.family, state: 'waiting' }, stat.waiting);
        }
      },
    });
  }

  sourceRun(event: SourceRunEvent): void {
    this.runs.observe({ type: event.type, outcome: event.outcome }, event.durationMs / 1000);
    if (event.outcome !== 'ok') this.errors.inc({ type: event.type, code: event.outcome });
    if (event.rows > 0) this.rows.inc({ type: event.type }, event.rows);
    if (event.truncated) this.truncated.inc({ type: event.type });
  }

  cacheResult(key: string, status: CacheStatus): void {
    const namespace = key.slice(0, Math.max(0, key.indexOf(':'))) || 'other';
    this.cache.inc({ namespace, status });
  }

  register(registry: Registry): void {
    const metrics: Parameters<Registry['registerMetric']>[0][] = [this.runs, this.errors, this.rows, this.truncated, this.cache, this.pool] as never[];
    for (const metric of metrics) registry.registerMetric(metric);
  }
}
