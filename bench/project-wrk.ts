/**
 * Throughput of `GET /project/{id}` (a dashboard with its charts, their dataset configs and share
 * policies) on the built server as `npm start` runs it, on the embedded SQLite store, with wrk on
 * loopback: one dashboard of 4 charts and one of 40, each chart with saved chartData (computed
 * once from a local HTTP API source), read with the owner's token (teamOwner: share policies
 * included). The per-caller rate limit is raised so that wrk measures the route, not 429s.
 * Prints one JSON object with both sizes side by side. Not part of CI.
 *
 *   npm run bench:project   (THREADS=2 CONNECTIONS=50 DURATION=10s after WARMUP=3s, SIZES=4,40 by default; CPU_PROF_DIR=dir
 *                            writes the server's CPU profile there, node --cpu-prof; BASELINE=<git revision>
 *                            measures that revision first, in the same run, and prints both side by side)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { apiCaller, ensureBuilt, startServerProcess } from './lib/server-process.js';
import { assertWrk, runWrk } from './lib/wrk.js';
import { checkoutBaseline } from './lib/baseline.js';

const THREADS = process.env['THREADS'] ?? '2';
const CONNECTIONS = process.env['CONNECTIONS'] ?? '50';
const DURATION = process.env['DURATION'] ?? '10s';
const WARMUP = process.env['WARMUP'] ?? '3s';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
// SIZES=4 measures one size alone (a CPU profile of it, say).
const SIZES = (process.env['SIZES'] ?? '4,40').split(',').map(Number);

/** The data the charts are computed from: 90 days of orders in four countries, as a JSON API. */
async function startOrdersApi(): Promise<{ base: string; server: Server }> {
  const rows = Array.from({ length: 360 }, (_, i) => ({
    id: i + 1,
    day: new Date(Date.UTC(2025, 0, 1 + (i % 90))).toISOString(),
    country: ['FR', 'DE', 'US', 'IT'][i % 4],
    amount: ((i * 37) % 90) + 10,
  }));
  const body = JSON.stringify(rows);
  const server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const CHARTS = [
  { type: 'line', timeInterval: 'day', config: { xAxis: 'root[].day', dateField: 'root[].day', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' } },
  { type: 'bar', config: { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'By country' } },
  { type: 'pie', config: { xAxis: 'root[].country', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' } },
  { type: 'line', timeInterval: 'week', config: { xAxis: 'root[].day', dateField: 'root[].day', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders per week' } },
];

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
function processCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** One checkout's server: the dashboards set up, then wrk on each size in turn. */
async function measure(api: string, options: { root?: string; profileDir?: string }): Promise<Record<string, unknown>> {
  const server = await startServerProcess({
    ...(options.root ? { root: options.root } : {}),
    ...(options.profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] } : {}),
    env: {
      PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // wrk is one caller from one address: the defaults would answer 429 within the first second.
      PLOTLINE_RATE_LIMIT: '100000000',
      PLOTLINE_RATE_LIMIT_AUTHENTICATED: '100000000',
    },
  });
  try {
    const { call, signUp } = apiCaller(server.base);
    let token = '';
    token = await signUp();
    const teamId = ((await call('GET', '/team')) as unknown as { id: number }[])[0]!.id;
    const connection = await call('POST', `/team/${teamId}/connections`, { name: 'orders api', type: 'api', host: api });

    const projects: Record<number, number> = {};
    for (const size of SIZES) {
      const project = await call('POST', '/project', { name: `${size} charts`, team_id: teamId, timezone: 'UTC' });
      const projectId = project['id'] as number;
      const dataset = await call('POST', `/team/${teamId}/datasets/quick-create`, {
        name: `Orders ${size}`,
        project_ids: [projectId],
        dataRequests: [{ connection_id: connection['id'], method: 'GET', route: '/orders' }],
      });
      for (let i = 0; i < size; i++) {
        const { config, ...chart } = CHARTS[i % CHARTS.length]!;
        const created = await call('POST', `/project/${projectId}/chart/quick-create`, {
          name: `Chart ${i + 1}`,
          ...chart,
          onReport: true,
          layout: { lg: [(i % 2) * 6, Math.floor(i / 2) * 2, 6, 2] },
          chartDatasetConfigs: [{ dataset_id: dataset['id'], ...config }],
        });
        // Saved chartData, as a dashboard has after its first refresh.
        await call('POST', `/project/${projectId}/chart/${created['id'] as number}/query`, {});
      }
      await call('POST', `/project/${projectId}/share/policy`);
      projects[size] = projectId;
    }

    // Every dashboard answers in full before wrk starts (an idle keep-alive socket would be closed meanwhile).
    const bytes: Record<number, number> = {};
    for (const size of SIZES) {
      const sample = await fetch(`${server.base}/project/${projects[size]}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await sample.text();
      const charts = sample.status === 200 ? (JSON.parse(body) as { Charts: unknown[] }).Charts.length : 0;
      if (charts !== size) throw new Error(`GET /project/${projects[size]}: ${sample.status}, ${charts} charts`);
      bytes[size] = Buffer.byteLength(body);
    }
    const results: Record<string, unknown> = {};
    for (const size of SIZES) {
      const url = `${server.base}/project/${projects[size]}`;
      const options = { threads: THREADS, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } };
      // Warm-up, not counted: the first seconds compile the hot paths, and the first read of a dashboard fills what is kept.
      runWrk(url, { ...options, duration: WARMUP });
      const cpuBefore = processCpuMs(server.pid);
      const run = runWrk(url, { ...options, duration: DURATION });
      const serverCpuMs = processCpuMs(server.pid) - cpuBefore;
      results[`charts${size}`] = {
        charts: size,
        responseBytes: bytes[size],
        requestsPerSecond: run.requestsPerSecond,
        // The server's own CPU per answer: steadier than req/s on a shared machine, where wrk takes its share too.
        serverCpuUsPerRequest: run.requests > 0 ? Math.round((serverCpuMs * 1000) / run.requests) : null,
        latencyMs: { p50: run.latencyMs.p50, p99: run.latencyMs.p99, avg: run.latencyMs.avg },
        requests: run.requests,
        errors: { non2xx: run.non2xx, socket: run.socketErrors },
        command: run.command,
      };
    }
    return results;
  } catch (error) {
    if (server.output().trim()) process.stderr.write(`server output:\n${server.output()}\n`);
    throw error;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  assertWrk();
  ensureBuilt();
  const baseline = process.env['BASELINE'] ? checkoutBaseline(process.env['BASELINE']) : undefined;
  const api = await startOrdersApi();
  const profileDir = process.env['CPU_PROF_DIR'];
  try {
    // The baseline first, then this checkout, one server at a time on the same idle machine.
    const results: Record<string, unknown> = {};
    if (baseline) results[`baseline ${baseline.revision}`] = await measure(api.base, { root: baseline.dir });
    const current = await measure(api.base, profileDir ? { profileDir } : {});
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'project-wrk',
          endpoint: 'GET /project/{id} (Authorization: Bearer, teamOwner)',
          machine: { cpus: os.cpus().length, node: process.version, store: 'sqlite (embedded)' },
          note: 'wrk and the server share the machine; loopback only',
          ...(baseline ? { results: { ...results, current } } : { results: current }),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    baseline?.remove();
    await new Promise<void>((resolve) => api.server.close(() => resolve()));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`project-wrk: ${error instanceof Error ? (error.stack ?? error.message) + (error.cause ? ` (${String(error.cause)})` : '') : String(error)}\n`);
  process.exit(1);
});
