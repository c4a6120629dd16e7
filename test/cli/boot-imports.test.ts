import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Packages that only some processes need: loaded on first use, never by booting the service. */
const ON_FIRST_USE = [
  'pg',
  'pg-cursor',
  'mysql2',
  'mongodb',
  'acorn',
  'libpg-query',
  'node-sql-parser',
  'ioredis',
  'bullmq',
  'undici',
  'jose',
  'csv-stringify',
  'exceljs',
  'nodemailer',
  '@napi-rs/canvas',
  'chart.js',
  'pdf-lib',
];

describe('booting the service (embedded store, no Redis)', () => {
  it('imports no source driver or other on-first-use package, and imports a driver once its source is used', async () => {
    // Vitest exports Vite's BASE_URL ("/") into the worker's environment; a real shell has none.
    const { BASE_URL: _viteBase, ...env } = process.env;
    const { stdout } = await run(path.resolve('node_modules/.bin/tsx'), ['test/helpers/boot-service.ts'], { env, timeout: 120_000 });
    const { boot, afterPostgres } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { boot: string[]; afterPostgres: string[] };
    // The recorder sees the packages booting does need.
    expect(boot).toEqual(expect.arrayContaining(['fastify', 'kysely']));
    expect(boot.filter((name) => ON_FIRST_USE.includes(name))).toEqual([]);
    expect(afterPostgres).toEqual(expect.arrayContaining(['pg', 'pg-cursor']));
    expect(afterPostgres).not.toContain('mongodb');
  }, 180_000);
});
