import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config/index.js';
import { createContainer, type Container } from './container.js';

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
  const address = await app.listen({ port: config.port, host: config.host });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      await container.close();
    })());

  if (handleSignals) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        app.log.info({ signal }, 'shutting down');
        close().then(
          () => process.exit(0),
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
