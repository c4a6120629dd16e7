import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * `npm start` the way a process manager runs it: signals go to the npm process only. It must
 * drain in-flight requests and exit, leaving no server behind. Each start has its own random
 * port and temp data dir. dist/ is built before the suite starts (test/helpers/global-setup.ts).
 */

// Vitest exports Vite's BASE_URL ("/") into the worker's environment; a real shell has none.
const { BASE_URL: _viteBase, ...inherited } = process.env;
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-start-'));
  dirs.push(dir);
  return dir;
}

interface Started {
  npm: ChildProcess;
  url: string;
  serverPid: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function npmStart(): Promise<Started> {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: path.resolve('.'),
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', PLOTLINE_DATA_DIR: tempDir(), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(npm);
  let text = '';
  npm.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  // A deadline, not a count of polls: on a loaded machine each poll takes longer than asked.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !/Server listening/.test(text)) {
    if (npm.exitCode !== null) throw new Error(`npm start exited early: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /Plotline is listening on (http:\/\/\S+)/.exec(text)?.[1];
  const serverPid = Number(/"pid":(\d+)/.exec(text)?.[1]);
  if (!url || !serverPid) throw new Error(`npm start did not come up: ${text}`);
  return { npm, url, serverPid, output: () => text, exited };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return !alive(pid);
}

/** Sends the head and half of a sign-up body now; the rest when `finish()` is called. */
function slowSignup(url: string): { finish(): void; response: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ name: 'Slow', email: `slow-${process.pid}@example.com`, password: 'a long password' });
  let finish = (): void => undefined;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url}/user`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 10));
    req.flushHeaders();
    finish = () => req.end(body.slice(10));
  });
  return { finish: () => finish(), response };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the npm process drains the in-flight request, then the server exits',
    async (signal) => {
      const started = await npmStart();
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      // The banner names the editor's address, where a new instance starts with sign-up.
      expect(started.output()).toContain(`editor:    ${started.url}/app/`);
      const slow = slowSignup(started.url);
      // The request is in flight (headers read, body half sent) when the signal arrives.
      await new Promise((resolve) => setTimeout(resolve, 200));
      started.npm.kill(signal);
      for (let i = 0; i < 600 && !/shutting down/.test(started.output()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(started.output()).toContain('shutting down');
      slow.finish();
      const answer = await slow.response;
      expect(answer.status, answer.body).toBe(200);
      expect(await gone(started.serverPid)).toBe(true);
      await started.exited;
      expect(started.output()).toContain('shut down cleanly');
      await expect(fetch(`${started.url}/healthz`)).rejects.toThrow();
    },
    240_000,
  );

  it('an unwritable data dir stops boot with one line naming it', () => {
    const parent = tempDir();
    const file = path.join(parent, 'not-a-dir');
    writeFileSync(file, 'x');
    const dataDir = path.join(file, 'data');
    const run = spawnSync(process.execPath, ['scripts/start.mjs', 'serve'], {
      env: { ...inherited, PORT: '0', PLOTLINE_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status).toBe(2);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('plotline: building'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toContain('PLOTLINE_DATA_DIR');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 240_000);
});
