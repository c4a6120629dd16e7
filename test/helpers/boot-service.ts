/**
 * Run in a child process by test/cli/boot-imports.test.ts: records which packages are imported
 * while the service boots (container, app, ready) and then while a Postgres source is first used.
 * Prints one JSON line: `{ boot: string[], afterPostgres: string[] }`, package names.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-boot-'));
const record = path.join(dir, 'imports.txt');
writeFileSync(record, '');
register(pathToFileURL(path.resolve('test/helpers/record-imports.mjs')), { data: { file: record } });

function packages(): string[] {
  const names = new Set<string>();
  for (const url of readFileSync(record, 'utf8').split('\n')) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) names.add(match[1]!);
  }
  return [...names].sort();
}

const { loadConfig } = await import('../../src/config/index.js');
const { createContainer } = await import('../../src/container.js');
const { buildApp } = await import('../../src/app.js');
const config = loadConfig({
  PLOTLINE_DATA_DIR: dir,
  PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'silent',
});
const container = await createContainer(config, { passwordHashing: { cost: 4, allowWeak: true } });
const app = await buildApp(container, { logLevel: 'silent' });
await app.ready();
const boot = packages();
// A connection test to a closed port: the driver is needed, whatever the answer.
await container.sources.test({ type: 'postgres', host: '127.0.0.1', port: '1', dbName: 'none', username: 'none' }).catch(() => undefined);
const afterPostgres = packages();
await app.close();
await container.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ boot, afterPostgres })}\n`);
