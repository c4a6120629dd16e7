/**
 * Idle memory of the server as `npm start` runs it: the built server in its own process
 * (`node scripts/start.mjs serve`, embedded SQLite store in a temp data dir, loopback, ephemeral
 * port, every other setting at its default), started, ready (/readyz 200), then left alone for
 * the settle time. Reports the RSS at the end of it (with its low and high over the last half, and
 * the peak since start), then the heap from the server's own /metrics.
 *
 * Also measures, side by side, the same server with the packages it loads only on first use
 * (source drivers, Redis client, HTTP client, API docs and page assets, exports) imported up front
 * (`node --import bench/lib/eager-imports.mjs`): what start-up would cost without deferring them.
 * `--no-eager` skips that run. Prints one JSON object. Not part of CI.
 *
 *   npm run bench:idle [-- --settle 10 --runs 3 --no-eager]
 */
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, processMemory, root, round, startServerProcess } from './lib/server-process.js';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const SETTLE_S = arg('settle', 10);
const RUNS = arg('runs', 3);
const EAGER = !process.argv.includes('--no-eager');

interface IdleFigures {
  rssMb: number;
  rssLowMb: number;
  rssHighMb: number;
  peakRssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

function metric(text: string, name: string): number {
  const value = new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)`, 'm').exec(text)?.[1];
  return value === undefined ? Number.NaN : round(Number(value) / 1024 / 1024);
}

async function idleOnce(nodeArgs: string[]): Promise<IdleFigures> {
  const server = await startServerProcess({ nodeArgs });
  try {
    const samples: number[] = [];
    for (let s = 0; s < SETTLE_S; s++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      samples.push(processMemory(server.pid).rssMb);
    }
    const last = samples.slice(Math.floor(samples.length / 2));
    const { peakRssMb } = processMemory(server.pid);
    // Read after the RSS samples: answering /metrics allocates.
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    return {
      rssMb: samples.at(-1)!,
      rssLowMb: Math.min(...last),
      rssHighMb: Math.max(...last),
      peakRssMb,
      heapUsedMb: metric(metrics, 'plotline_nodejs_heap_size_used_bytes'),
      heapTotalMb: metric(metrics, 'plotline_nodejs_heap_size_total_bytes'),
      externalMb: metric(metrics, 'plotline_nodejs_external_memory_bytes'),
    };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
};

function summary(runs: IdleFigures[]): IdleFigures & { runs: IdleFigures[] } {
  const keys = Object.keys(runs[0]!) as (keyof IdleFigures)[];
  return { ...(Object.fromEntries(keys.map((key) => [key, median(runs.map((r) => r[key]))])) as unknown as IdleFigures), runs };
}

async function main(): Promise<void> {
  ensureBuilt();
  const lazy: IdleFigures[] = [];
  const eager: IdleFigures[] = [];
  // Interleaved, so a noisy neighbour on the machine weighs on both alike.
  for (let i = 0; i < RUNS; i++) {
    lazy.push(await idleOnce([]));
    if (EAGER) eager.push(await idleOnce(['--import', path.join(root, 'bench/lib/eager-imports.mjs')]));
  }
  const idle = summary(lazy);
  const result = {
    bench: 'idle-rss',
    command: 'node scripts/start.mjs serve (as npm start), SQLite store in a temp data dir, defaults otherwise',
    machine: { cpus: os.cpus().length, node: process.version },
    settleSeconds: SETTLE_S,
    runs: RUNS,
    note: 'medians of the runs; rssMb is the last sample of the settle time, rssLow/High span its second half; heap from /metrics afterwards',
    idle,
    ...(EAGER
      ? {
          deferredLoadedAtStart: summary(eager),
          savedByDeferringMb: round(idle.rssMb >= 0 ? median(eager.map((r) => r.rssMb)) - idle.rssMb : Number.NaN),
        }
      : {}),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`idle-rss: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
