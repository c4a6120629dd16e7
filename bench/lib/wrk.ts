/** wrk (Debian package `wrk`) against a URL on loopback, its report parsed into numbers. */
import { spawnSync } from 'node:child_process';

export interface WrkOptions {
  threads?: string;
  connections?: string;
  duration?: string;
  headers?: Record<string, string>;
}

export interface WrkResult {
  command: string;
  requestsPerSecond: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number };
  requests: number;
  non2xx: number;
  socketErrors: string | null;
}

export function assertWrk(): void {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed: apt-get install -y wrk');
}

function ms(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === 'us' ? n / 1000 : match[2] === 'ms' ? n : match[2] === 's' ? n * 1000 : n * 60_000;
}

/** Runs wrk once; secrets in the URL (`token=`) and header values are left out of `command`. */
export function runWrk(url: string, options: WrkOptions = {}): WrkResult {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = [`-t${options.threads ?? '2'}`, `-c${options.connections ?? '50'}`, `-d${options.duration ?? '10s'}`, '--latency', ...headerArgs, url];
  const run = spawnSync('wrk', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  const out = run.stdout;
  const pick = (re: RegExp) => re.exec(out)?.[1];
  const shown = [`-t${options.threads ?? '2'}`, `-c${options.connections ?? '50'}`, `-d${options.duration ?? '10s'}`, '--latency', ...Object.keys(options.headers ?? {}).map((name) => `-H '${name}: …'`), url.replace(/token=[^&\s]+/, 'token=…')];
  return {
    command: `wrk ${shown.join(' ')}`,
    requestsPerSecond: Number(pick(/Requests\/sec:\s+([\d.]+)/)),
    latencyMs: {
      avg: ms(pick(/Latency\s+(\S+)/) ?? ''),
      // Anchored: the thread stats' "+/- Stdev" column also ends in % (e.g. 87.50%).
      p50: ms(pick(/^\s*50%\s+(\S+)/m) ?? ''),
      p90: ms(pick(/^\s*90%\s+(\S+)/m) ?? ''),
      p99: ms(pick(/^\s*99%\s+(\S+)/m) ?? ''),
    },
    requests: Number(pick(/(\d+) requests in/)),
    non2xx: Number(pick(/Non-2xx or 3xx responses:\s+(\d+)/) ?? 0),
    socketErrors: pick(/Socket errors:\s+(.+)/) ?? null,
  };
}
