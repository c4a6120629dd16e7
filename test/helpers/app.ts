import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { pino } from 'pino';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loggerOptions } from '../../src/platform/logging.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import { createContainer, type Container, type ContainerOptions } from '../../src/container.js';
import { createStore } from '../../src/store/index.js';
import { createTempDatabase } from './postgres-server.js';

export type StoreKind = 'sqlite' | 'postgres';

/** scrypt at N=2^4 instead of 2^15: sign-ups, logins and dashboard passwords stop costing the suite its time. */
export const TEST_PASSWORD_HASHING = { cost: 4, allowWeak: true } as const;

/** Collects every log line the app writes, so tests can search them (e.g. for leaked secrets). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  config: Config;
  logs: LogCapture;
  /** Every response body the app sent through `request`, for leak scans. */
  bodies: string[];
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Signs a new user up; returns their token and personal team. */
  signup(name?: string): Promise<{ token: string; userId: number; teamId: number; email: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions extends AppOptions {
  store?: StoreKind;
  env?: Record<string, string>;
  /** Adds routes or hooks before the app is sealed (e.g. a route that fails on purpose). */
  beforeReady?: (app: FastifyInstance) => void;
  /** Told the SQL of every statement the store runs. */
  onStoreQuery?: (sql: string) => void;
  /** Scheduler seams (clock, tick interval, queue prefix). */
  scheduler?: ContainerOptions['scheduler'];
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-test-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  const env: Record<string, string> = {
    PLOTLINE_DATA_DIR: dataDir,
    PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    ...options.env,
  };
  if (options.store === 'postgres') {
    const database = await createTempDatabase(inject('postgresUrl'));
    env['DATABASE_URL'] = database.url;
    cleanups.push(() => database.drop());
  }
  const config = loadConfig(env);
  const logs = new LogCapture();
  const { scheduler, onStoreQuery, ...appOptions } = options;
  const container = await createContainer(config, {
    store: createStore(config.database, onStoreQuery ? { onQuery: onStoreQuery } : {}),
    logger: pino(loggerOptions('info'), logs),
    passwordHashing: TEST_PASSWORD_HASHING,
    ...(scheduler ? { scheduler } : {}),
  });
  const app = await buildApp(container, {
    logStream: logs,
    rateLimit: options.rateLimit ?? { global: 100_000, auth: 100_000 },
    defaultMetrics: false,
    ...appOptions,
  });
  options.beforeReady?.(app);
  await app.ready();
  const bodies: string[] = [];
  let counter = 0;

  const request: TestApp['request'] = async ({ token, headers, ...rest }) => {
    const response = await app.inject({
      ...rest,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
    bodies.push(response.body);
    return response;
  };

  return {
    app,
    container,
    config,
    logs,
    bodies,
    request,
    async signup(name = 'User') {
      counter += 1;
      const email = `${name.toLowerCase().replace(/\W/g, '')}${counter}-${randomBytes(3).toString('hex')}@example.com`;
      const res = await request({ method: 'POST', url: '/user', payload: { name, email, password: 'correct horse battery' } });
      if (res.statusCode !== 200) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
      const user = res.json<{ id: number; token: string }>();
      const teams = await request({ method: 'GET', url: '/team', token: user.token });
      const teamId = teams.json<{ id: number }[]>()[0]!.id;
      return { token: user.token, userId: user.id, teamId, email };
    },
    async close() {
      await app.close();
      await container.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
