/**
 * Throughput of a shared chart: the built server (`node dist/main.js serve`) with a seeded
 * dashboard over a real Postgres table, a chart share token, and wrk against
 * `GET /chart/share/{share_string}?token=…` on loopback. Two cases:
 *   saved:  no variables, the chart's saved chartData (token and policy checked on every request);
 *   locked: a policy param, so the chart is computed with it (cached by chart + variable values).
 * Prints one JSON object. Not part of CI.
 *
 *   npm run bench:share                (THREADS, CONNECTIONS, DURATION override -t2 -c50 -d10s)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempDatabase, startTestPostgres } from '../test/helpers/postgres-server.js';
import { createOrdersTable, fetchRequester, seedDashboard } from '../test/browser/share-seed.js';
import { assertWrk, runWrk } from './lib/wrk.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THREADS = process.env['THREADS'] ?? '2';
const CONNECTIONS = process.env['CONNECTIONS'] ?? '50';
const DURATION = process.env['DURATION'] ?? '10s';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy in 60 s');
}

async function main(): Promise<void> {
  assertWrk();
  // The built server, as `npm start` runs it.
  const build = spawnSync(process.execPath, ['-e', "import('./scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded())"], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');

  const postgres = await startTestPostgres();
  const db = await createTempDatabase(postgres.url);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      BASE_URL: url,
      PLOTLINE_DATA_DIR: dataDir,
      PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      // wrk is one client address: the per-address share limit would answer 429 after 120 requests.
      PLOTLINE_SHARE_RATE_LIMIT: '100000000',
    },
  });
  try {
    await waitHealthy(url, child);
    await createOrdersTable(db.url);
    const api = fetchRequester(url);
    const seed = await seedDashboard(api, db.url);
    const base = `/project/${seed.projectId}/chart/${seed.charts.line}/share`;
    const saved = (await api({ method: 'POST', url: `${base}/policy`, token: seed.ownerToken })).json();
    const savedToken = (await api({ method: 'POST', url: `${base}/token`, token: seed.ownerToken, payload: { sharePolicyId: saved.id } })).json().token;
    const locked = (await api({ method: 'POST', url: `${base}/policy`, token: seed.ownerToken })).json();
    const lockedToken = (
      await api({ method: 'POST', url: `${base}/token`, token: seed.ownerToken, payload: { sharePolicyId: locked.id, share_policy: { params: [{ key: 'status', value: 'refunded' }] } } })
    ).json().token;

    const cases = {
      saved: `${url}/chart/share/${saved.share_string}?token=${savedToken}`,
      locked: `${url}/chart/share/${locked.share_string}?token=${lockedToken}`,
    };
    for (const [name, target] of Object.entries(cases)) {
      const check = await fetch(target);
      if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
    }
    const results = Object.fromEntries(Object.entries(cases).map(([name, target]) => [name, runWrk(target, { threads: THREADS, connections: CONNECTIONS, duration: DURATION })]));
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'share-wrk',
          endpoint: 'GET /chart/share/{share_string}?token=…',
          machine: { cpus: os.cpus().length, node: process.version, store: 'sqlite (embedded)', postgres: postgres.source },
          note: 'wrk and the server share the machine; loopback only',
          results,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await db.drop();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`share-wrk: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
