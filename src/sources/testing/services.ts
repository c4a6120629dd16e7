import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';

/*
 * Test support for suites that need a machine service (MariaDB/MySQL, Redis). A missing service
 * skips its suites with one loud line, except with CI=true, where it is a failure.
 */

export interface ServiceProbe {
  ok: boolean;
  reason: string;
}

export const MYSQL_TEST_URL = process.env['PLOTLINE_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test';
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
  const name = `plotline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
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
