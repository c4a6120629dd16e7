import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';

export interface BenchService {
  base: string;
  token: string;
  teamId: number;
  /** A JSON call with the bench user's token; throws on any non-200. */
  call(method: string, route: string, body?: unknown): Promise<Record<string, unknown>>;
  /** A Postgres connection of the bench team to `database` on the server of `serverUrl`. */
  connect(serverUrl: string, database: string): Promise<number>;
  /** The service's container, for benchmarks that also drive services directly or watch source runs. */
  container: Container;
  close(): Promise<void>;
}

/**
 * The whole service listening on loopback in this process, with limits raised for a million rows,
 * and a signed-up user: what a benchmark measures through HTTP.
 */
export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-bench-'));
  const config = loadConfig({
    PLOTLINE_DATA_DIR: dir,
    PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
    PLOTLINE_ROW_LIMIT: '2000000',
    // A million rows of the benchmark orders are about 150 MB as JSON.
    PLOTLINE_RESULT_MAX_MB: '1024',
    PLOTLINE_QUERY_TIMEOUT_MS: '600000',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const container = await createContainer(config);
  const app = await buildApp(container, { logLevel: 'warn', rateLimit: { global: 1_000_000, auth: 1_000 }, defaultMetrics: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const send = async (method: string, route: string, token: string | null, body?: unknown) => {
    const res = await request(`${base}${route}`, {
      method: method as 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode !== 200) throw new Error(`${method} ${route}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const close = async () => {
    await app.close();
    await container.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const token = (await send('POST', '/user', null, { name: 'Bench', email: 'bench@example.com', password: 'benchmark password' }))['token'] as string;
    const teamId = ((await send('GET', '/team', token)) as unknown as { id: number }[])[0]!.id;
    const call = (method: string, route: string, body?: unknown) => send(method, route, token, body);
    return {
      base,
      token,
      teamId,
      call,
      async connect(serverUrl, database) {
        const url = new URL(serverUrl);
        const conn = await call('POST', `/team/${teamId}/connections`, {
          name: 'bench', type: 'postgres', host: url.hostname, port: url.port || '5432', dbName: database, username: decodeURIComponent(url.username) || 'postgres',
          ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        });
        return conn['id'] as number;
      },
      container,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
