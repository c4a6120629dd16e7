/**
 * Memory of the server under runs far larger than any dashboard needs: the built server in its own
 * process (as `npm start` runs it, embedded SQLite store), a Postgres connection to the machine's
 * server and a dataset `select g, repeat('x', 200000) from generate_series(1, 4000) g` (about
 * 800 MB of rows), then 4 runs of it at once, twice: streamed (`POST …/datasets/{id}/request`,
 * rows sent as they come) and collected (`GET …/request?getCache=true`, held, cached, then sent).
 * The server's RSS is sampled from /proc/<pid>/status (VmRSS every 25 ms, VmHWM at the end).
 * Prints JSON: baseline (idle after set-up) and peak RSS per phase, and what each run answered
 * (status, bytes, rowCount, truncated, truncatedBy, byteLimit). Not part of CI.
 *
 * `BASELINE=<git revision>` first runs a capped scenario on that revision (checked out beside this
 * one): one streamed run of 300 MB (1,500 rows), and the same on this checkout, side by side. A
 * server past 3 GB of RSS is killed and reported as such, so the old code cannot take the machine.
 *
 *   npm run bench:bytes   (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server;
 *                          PLOTLINE_RESULT_MAX_MB=… to try another limit; RUNS=4, ROWS=4000;
 *                          SERVER_NODE_ARGS="--max-old-space-size=256" for the server's node)
 */
import os from 'node:os';
import { checkoutBaseline } from './lib/baseline.js';
import { apiCaller, ensureBuilt, processMemory, round, startServerProcess, type ServerProcess } from './lib/server-process.js';

const SERVER = new URL(process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const RUNS = Number(process.env['RUNS'] ?? 4);
const ROWS = Number(process.env['ROWS'] ?? 4000);
const ROW_BYTES = 200_000;
/** The baseline scenario: one run of 300 MB. */
const BASELINE_ROWS = 1500;
const KILL_ABOVE_MB = 3 * 1024;


/** Samples the server's RSS while work runs; kills it past the cap (the answer is then "≥ cap"). */
class RssSampler {
  peakMb = 0;
  killed = false;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly server: ServerProcess) {
    this.timer = setInterval(() => this.sample(), 25);
  }
  sample(): void {
    if (this.killed) return;
    let rss: number;
    try {
      rss = processMemory(this.server.pid).rssMb;
    } catch {
      return;
    }
    if (rss > this.peakMb) this.peakMb = rss;
    if (rss > KILL_ABOVE_MB) {
      this.killed = true;
      this.server.child.kill('SIGKILL');
    }
  }
  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peakMb;
  }
}

interface RunAnswer {
  status: number | string;
  bytes: number;
  rowCount?: number;
  truncated?: boolean;
  truncatedBy?: string;
  byteLimit?: number;
  rowLimit?: number;
  error?: string;
}

/** Reads an answer without keeping it: counts its bytes, and reads `meta` from its tail. */
async function readAnswer(response: Response): Promise<RunAnswer> {
  let bytes = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-256 * 1024);
  }
  if (response.status !== 200) return { status: response.status, bytes, error: tail.slice(0, 300) };
  const at = tail.lastIndexOf('"meta":');
  const end = tail.lastIndexOf(',"cache":');
  if (at < 0 || end < at) return { status: response.status, bytes, error: 'no meta in the answer' };
  const meta = JSON.parse(tail.slice(at + 7, end)) as Omit<RunAnswer, 'status' | 'bytes'>;
  const { rowCount, truncated, truncatedBy, byteLimit, rowLimit } = meta;
  return { status: response.status, bytes, rowCount, truncated, ...(truncatedBy ? { truncatedBy } : {}), ...(byteLimit ? { byteLimit } : {}), ...(rowLimit ? { rowLimit } : {}) };
}

interface Phase {
  runs: number;
  rowsAsked: number;
  approxMb: number;
  rssBeforeMb: number;
  peakRssMb: number | string;
  seconds: number;
  answers: RunAnswer[];
}

/** One checkout's server: set up, then each phase in turn; RSS sampled throughout. */
async function measure(options: { root?: string; phases: { name: string; runs: number; rows: number; collected: boolean }[] }): Promise<Record<string, unknown>> {
  const server = await startServerProcess({
    ...(options.root ? { root: options.root } : {}),
    // SERVER_NODE_ARGS="--max-old-space-size=256": the server as on a small machine, where V8 collects sooner.
    ...(process.env['SERVER_NODE_ARGS'] ? { nodeArgs: process.env['SERVER_NODE_ARGS'].split(' ').filter(Boolean) } : {}),
    env: { LOG_LEVEL: 'warn', PLOTLINE_QUERY_TIMEOUT_MS: '120000', PLOTLINE_REQUEST_TIMEOUT_MS: '120000', ...(process.env['PLOTLINE_RESULT_MAX_MB'] ? { PLOTLINE_RESULT_MAX_MB: process.env['PLOTLINE_RESULT_MAX_MB'] } : {}) },
  });
  const { call, signUp } = apiCaller(server.base);
  let token = '';
  const result: Record<string, unknown> = {};
  try {
    token = await signUp();
    const teamId = ((await call('GET', '/team')) as unknown as { id: number }[])[0]!.id;
    const connection = await call('POST', `/team/${teamId}/connections`, {
      name: 'machine postgres',
      type: 'postgres',
      host: SERVER.hostname,
      port: SERVER.port || '5432',
      dbName: SERVER.pathname.slice(1) || 'postgres',
      username: decodeURIComponent(SERVER.username) || 'postgres',
      ...(SERVER.password ? { password: decodeURIComponent(SERVER.password) } : {}),
    });
    const project = await call('POST', '/project', { name: 'Bytes', team_id: teamId, timezone: 'UTC' });
    // Settle after set-up: the idle figure every phase is compared with.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    result['idleRssMb'] = processMemory(server.pid).rssMb;
    for (const phase of options.phases) {
      const dataset = await call('POST', `/team/${teamId}/datasets/quick-create`, {
        name: `${phase.name} ${phase.rows} rows`,
        project_ids: [project['id']],
        dataRequests: [{ connection_id: connection['id'], query: `select g, repeat('x', ${ROW_BYTES}) as pad from generate_series(1, ${phase.rows}) g` }],
      });
      const route = `/team/${teamId}/datasets/${dataset['id'] as number}/request`;
      const rssBeforeMb = processMemory(server.pid).rssMb;
      const sampler = new RssSampler(server);
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: phase.runs }, async () => {
          try {
            const response = phase.collected
              ? await fetch(`${server.base}${route}?getCache=true`, { headers: { authorization: `Bearer ${token}` } })
              : await fetch(`${server.base}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
            return await readAnswer(response);
          } catch (error) {
            return { status: 'failed', bytes: 0, error: (error as Error).message } satisfies RunAnswer;
          }
        }),
      );
      const peak = sampler.stop();
      const entry: Phase = {
        runs: phase.runs,
        rowsAsked: phase.rows,
        approxMb: Math.round((phase.rows * ROW_BYTES) / 1e6),
        rssBeforeMb,
        peakRssMb: sampler.killed ? `>= ${KILL_ABOVE_MB} (killed at ${peak})` : peak,
        seconds: round((performance.now() - started) / 1000),
        answers,
      };
      result[phase.name] = entry;
      if (sampler.killed) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (server.child.exitCode === null && server.child.signalCode === null) result['hwmRssMb'] = processMemory(server.pid).peakRssMb;
    return result;
  } catch (error) {
    if (server.output().trim()) process.stderr.write(`server output:\n${server.output().slice(-2000)}\n`);
    throw error;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const baseline = process.env['BASELINE'] ? checkoutBaseline(process.env['BASELINE']) : undefined;
  try {
    const capped = [{ name: 'streamed', runs: 1, rows: BASELINE_ROWS, collected: false }];
    const full = [
      { name: 'streamed', runs: RUNS, rows: ROWS, collected: false },
      { name: 'collected', runs: RUNS, rows: ROWS, collected: true },
    ];
    const results: Record<string, unknown> = {};
    if (baseline) {
      // The old code holds a whole read (2,000 rows) of a run: one run of 300 MB is enough to see it.
      results[`baseline ${baseline.revision}: 1 run of ${Math.round((BASELINE_ROWS * ROW_BYTES) / 1e6)} MB`] = await measure({ root: baseline.dir, phases: capped });
      results[`current: 1 run of ${Math.round((BASELINE_ROWS * ROW_BYTES) / 1e6)} MB`] = await measure({ phases: capped });
    }
    results[`current: ${RUNS} runs of ${Math.round((ROWS * ROW_BYTES) / 1e6)} MB at once`] = await measure({ phases: full });
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'result-bytes',
          query: `select g, repeat('x', ${ROW_BYTES}) as pad from generate_series(1, N) g`,
          machine: { cpus: os.cpus().length, memoryMb: Math.round(os.totalmem() / 1024 / 1024), node: process.version, postgres: `${SERVER.hostname}:${SERVER.port || 5432}` },
          limit: process.env['PLOTLINE_RESULT_MAX_MB'] ? `${process.env['PLOTLINE_RESULT_MAX_MB']} MiB` : 'default',
          serverNodeArgs: process.env['SERVER_NODE_ARGS'] ?? '',
          results,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    baseline?.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
