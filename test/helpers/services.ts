import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { scratchDatabasePrefix } from './postgres-server.js';

/*
 * Test support for suites that need a machine service (MariaDB/MySQL, Redis). A missing service
 * skips its suites with one loud line, except with CI=true, where it is a failure.
 */

export interface ServiceProbe {
  ok: boolean;
  reason: string;
}

const MYSQL_TEST_URL = process.env['PLOTLINE_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_TEST_URL = process.env['PLOTLINE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Throws under CI=true; otherwise prints one line saying what is skipped and why. */
export function announceSkip(probe: ServiceProbe, what: string): boolean {
  if (probe.ok) return false;
  if (process.env['CI'] === 'true') throw new Error(`${what} needs its service in CI (CI=true): ${probe.reason}`);
  process.stderr.write(`\n[tests] SKIPPED ${what}: ${probe.reason}\n`);
  return true;
}

function mysqlOptions(database?: string): mysql.ConnectionOptions {
  const url = new URL(MYSQL_TEST_URL);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
    database: database ?? (url.pathname.replace(/^\//, '') || undefined),
    connectTimeout: 2_000,
  };
}

export async function probeMysql(): Promise<ServiceProbe> {
  try {
    const conn = await mysql.createConnection(mysqlOptions());
    await conn.query('SELECT 1');
    await conn.end();
    return { ok: true, reason: '' };
  } catch (error) {
    return { ok: false, reason: `MariaDB/MySQL at ${new URL(MYSQL_TEST_URL).host} is unreachable (${(error as Error).message})` };
  }
}

export interface TempMysqlDatabase {
  name: string;
  host: string;
  port: string;
  user: string;
  password: string;
  /** Runs statements as root in the temp database (seeding). */
  exec(sql: string, values?: unknown[]): Promise<unknown>;
  drop(): Promise<void>;
}

export async function createTempMysqlDatabase(): Promise<TempMysqlDatabase> {
  const name = `${scratchDatabasePrefix()}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection(mysqlOptions());
  await admin.query(`CREATE DATABASE \`${name}\``);
  await admin.end();
  const seed = await mysql.createConnection({ ...mysqlOptions(name), multipleStatements: true });
  const options = mysqlOptions(name);
  return {
    name,
    host: String(options.host),
    port: String(options.port),
    user: String(options.user),
    password: String(options.password ?? ''),
    exec: async (sql, values) => (await seed.query(sql, values))[0],
    drop: async () => {
      await seed.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await seed.end();
    },
  };
}

export async function probeRedis(): Promise<ServiceProbe> {
  const redis = new Redis(REDIS_TEST_URL, { lazyConnect: true, connectTimeout: 1_500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return { ok: true, reason: '' };
  } catch (error) {
    return { ok: false, reason: `Redis at ${REDIS_TEST_URL} is unreachable (${(cause ?? (error as Error)).message})` };
  } finally {
    redis.disconnect();
  }
}

/** A redis-server of the test's own, on a free port, that the test may stop and start again. */
export interface OwnRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function redisServerMissing(): string | undefined {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? undefined : 'redis-server is not installed';
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  let child: ChildProcess | undefined;
  const ping = async (): Promise<boolean> => {
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  };
  const self: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      for (let i = 0; i < 200 && !(await ping()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await self.start();
  return self;
}
