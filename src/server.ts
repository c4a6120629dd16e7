import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config/index.js';
import { createContainer, type Container } from './container.js';
import { metricsExposureWarning } from './platform/metrics.js';

export interface RunningServer {
  app: FastifyInstance;
  container: Container;
  address: string;
  close(): Promise<void>;
}

/** Boots the service: store + migrations, app, listen; closes everything on SIGINT/SIGTERM. */
export async function startServer(config: Config, { handleSignals = true } = {}): Promise<RunningServer> {
  const container = await createContainer(config);
  const app = await buildApp(container);
  for (const notice of config.notices) app.log.warn(notice);
  const exposed = metricsExposureWarning(config);
  if (exposed) app.log.warn({ variable: 'PLOTLINE_METRICS_TOKEN', host: config.host }, exposed);
  const address = await app.listen({ port: config.port, host: config.host });
  if (config.scheduler === 'on') {
    await container.scheduler.start();
    container.deliveryScheduler.start();
  }

  // Drain: stop accepting, let in-flight requests finish (bounded by PLOTLINE_SHUTDOWN_TIMEOUT_MS),
  // then close source pools, Redis and the store. Past the bound, pools close anyway (cancelling
  // what still runs) so the process never hangs on a slow query.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        app.close().then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), config.shutdownTimeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
      if (!drained) app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'in-flight requests did not finish in time; closing anyway');
      await container.close();
    })());

  if (handleSignals) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        app.log.info({ signal }, 'shutting down');
        close().then(
          () => {
            app.log.info({ signal }, 'shut down cleanly');
            process.exit(0);
          },
          (err: unknown) => {
            app.log.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }
  return { app, container, address, close };
}
