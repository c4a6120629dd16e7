/**
 * The built server in its own process, as `npm start` runs it (`node scripts/start.mjs serve`):
 * a temp data dir, loopback, an ephemeral port (PORT=0, the address read from its start-up line).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Builds dist/ when it is stale, before any timing starts (start.mjs would otherwise build first).
 * `dir`: another checkout of the project (a baseline to compare with), this one by default.
 */
export function ensureBuilt(dir: string = root): void {
  const build = spawnSync(process.execPath, ['-e', "import('./scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded())"], { cwd: dir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
}

export interface ServerProcess {
  base: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Node options placed before scripts/start.mjs (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** The checkout to run (a baseline, say); this one by default. */
  root?: string;
}

export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-bench-'));
  const dir = options.root ?? root;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(dir, 'scripts/start.mjs'), 'serve'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PLOTLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    let base: string | undefined;
    for (let i = 0; i < 1200 && !base; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${out}`);
      base = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!base) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!base) throw new Error(`the server did not start in 60 s: ${out}`);
    await waitReady(base);
    return { base, pid: child.pid!, child, output: () => out, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls /readyz until it answers 200 (60 s at most). */
export async function waitReady(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${base}/readyz did not answer 200 in 60 s`);
}

/** Resident set size now and at its peak (VmHWM), in MiB, from /proc (Linux). */
export function processMemory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: round(kib('VmRSS') / 1024), peakRssMb: round(kib('VmHWM') / 1024) };
}

export const round = (n: number): number => Math.round(n * 10) / 10;

/**
 * A JSON caller of the API at `base` for a benchmark's set-up: each call answers the parsed body of
 * a 200, throws with the status and the start of the body otherwise; `signUp` keeps the token.
 */
export function apiCaller(base: string): {
  call: (method: string, route: string, body?: unknown) => Promise<Record<string, unknown>>;
  signUp: () => Promise<string>;
} {
  let token = '';
  const call = async (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const signUp = async (): Promise<string> => {
    token = (await call('POST', '/user', { name: 'Bench', email: 'bench@example.com', password: 'benchmark password' }))['token'] as string;
    return token;
  };
  return { call, signUp };
}
