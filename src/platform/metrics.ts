import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { UnauthorizedError } from '../errors/index.js';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DataPathMetrics } from './data-metrics.js';

/** Listen addresses only this machine can reach. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Why `/metrics` is exposed, when it is: the service listens on an address other machines can
 * reach (HOST not loopback) and no PLOTLINE_METRICS_TOKEN guards it. Said at boot (a warn line)
 * and in `/readyz` (`warnings`), so it is seen rather than found out.
 */
export function metricsExposureWarning(config: { host: string; metricsToken: string | undefined }): string | undefined {
  if (config.metricsToken !== undefined || isLoopbackHost(config.host)) return undefined;
  return `/metrics is open to anyone who can reach HOST=${config.host}: set PLOTLINE_METRICS_TOKEN (at least 16 characters) so it answers only "Authorization: Bearer <token>"`;
}

/** Prometheus metrics on a registry owned by the app (no global state between test apps). */
export function installMetrics(
  app: FastifyInstance,
  options: { defaultMetrics: boolean; dataPath?: DataPathMetrics; extra?: Registry[]; token?: string | undefined },
): Registry {
  const registry = new Registry();
  options.dataPath?.register(registry);
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'plotline_' });
  const requests = new Counter({
    name: 'plotline_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'plotline_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      // The route pattern, never the raw URL: ids and tokens stay out of label values.
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
  const expected = options.token === undefined ? undefined : createHash('sha256').update(`Bearer ${options.token}`).digest();
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      // Compared as hashes, so the check takes the same time whatever was sent.
      const given = createHash('sha256').update(request.headers.authorization ?? '').digest();
      if (!timingSafeEqual(given, expected)) {
        throw new UnauthorizedError('/metrics needs "Authorization: Bearer <PLOTLINE_METRICS_TOKEN>"');
      }
    }
    const texts = await Promise.all([registry, ...(options.extra ?? [])].map((r) => r.metrics()));
    return reply.type(registry.contentType).send(texts.join('\n'));
  });
  return registry;
}
