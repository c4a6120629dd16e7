import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer } from '../../src/container.js';

const run = promisify(execFile);
// The built CLI, as `npm install -g` or `npx plotline` runs it (dist/ is built before the suite
// starts, see test/helpers/global-setup.ts): no compile step per call.
const main = path.resolve('dist/main.js');
const node = process.execPath;

// Generous bounds: several processes in a row on a loaded two-core machine.
const CLI_TEST_TIMEOUT_MS = 300_000;
const CALL_TIMEOUT_MS = 120_000;

describe('plotline CLI', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let dir: string;
  // Vitest exports Vite's BASE_URL ("/") into the worker's environment; a real shell has none.
  const { BASE_URL: _viteBase, ...inherited } = process.env;
  const env = () => ({ ...inherited, PLOTLINE_DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const cli = (...args: string[]) => run(node, [main, ...args], { env: env(), timeout: CALL_TIMEOUT_MS });

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate, user create, token create: the minted key works against the service', async () => {
    expect((await cli('migrate')).stdout).toMatch(/applied: 0001-initial|up to date/);
    expect((await cli('migrate')).stdout).toContain('store is up to date');
    const created = await cli('user', 'create', '--email', 'ops@example.com', '--name', 'Ops', '--password', 'a long password');
    const teamId = Number(/with team (\d+)/.exec(created.stdout)?.[1]);
    expect(teamId).toBeGreaterThan(0);
    const minted = await cli('token', 'create', '--team', String(teamId), '--name', 'deploy');
    const token = minted.stdout.trim();
    expect(token).toMatch(/^plk_[\w-]{40,}$/);
    expect(minted.stderr).toContain('shown only now');

    const container = await createContainer(loadConfig(env()));
    const app = await buildApp(container, { logLevel: 'silent', defaultMetrics: false });
    try {
      const res = await app.inject({ method: 'GET', url: `/team/${teamId}`, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.json().name).toBe("Ops's team");
      const login = await app.inject({ method: 'POST', url: '/user/login', payload: { email: 'ops@example.com', password: 'a long password' } });
      expect(login.statusCode).toBe(200);
    } finally {
      await app.close();
      await container.close();
    }
  }, CLI_TEST_TIMEOUT_MS);

  it('reports bad input clearly and exits non-zero', async () => {
    await expect(cli('token', 'create', '--team', 'abc')).rejects.toMatchObject({ stderr: expect.stringContaining('positive integer') });
    await expect(cli('token', 'create', '--team', '999999')).rejects.toMatchObject({ stderr: expect.stringContaining('Team not found') });
    await expect(cli('user', 'create', '--email', 'bad', '--name', 'X', '--password', 'a long password')).rejects.toMatchObject({ stderr: expect.stringContaining('email') });
  }, CLI_TEST_TIMEOUT_MS);

  it('plotline worker runs scheduled refreshes without HTTP and stops cleanly on SIGTERM', async () => {
    const container = await createContainer(loadConfig(env()));
    const at = new Date().toISOString();
    const team = await container.store.db.insertInto('teams').values({ name: 'w', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const project = await container.store.db
      .insertInto('projects')
      .values({ team_id: team.id, name: 'w', brewName: `w-${Date.now()}`, updateSchedule: JSON.stringify({ frequency: 'every_x_hours', frequencyNumber: '1' }), createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    // node itself receives the signal: no wrapper process in between.
    const worker = spawn(node, [main, 'worker'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    worker.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const deadline = Date.now() + 180_000;
      let runs = 0;
      while (runs === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        runs = (await container.store.db.selectFrom('refresh_runs').select('id').where('project_id', '=', project.id).execute()).length;
      }
      expect(runs).toBe(1);
      expect(out).toContain('Plotline worker running: in-process');
      const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('Plotline worker stopped');
    } finally {
      worker.kill('SIGKILL');
      await container.close();
    }
  });

  it('serving on a non-loopback HOST without PLOTLINE_METRICS_TOKEN says so at boot (warn line) and in /readyz', async () => {
    const server = spawn(node, [main, 'serve'], { env: { ...env(), HOST: '0.0.0.0', PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline && !/Plotline is listening on/.test(out) && server.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
      const port = /Plotline is listening on http:\/\/[^\s]*:(\d+)/.exec(out)?.[1];
      expect(port, out).toBeDefined();
      const warning = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; variable?: string })
        .find((line) => line.variable === 'PLOTLINE_METRICS_TOKEN');
      expect(warning, out).toMatchObject({ level: 40, msg: expect.stringContaining('set PLOTLINE_METRICS_TOKEN') });
      expect(out).toContain('WARNING:   /metrics is open');
      const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
      expect(ready).toMatchObject({ status: 'ready', warnings: [expect.stringContaining('PLOTLINE_METRICS_TOKEN')] });
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  });

  it('a bad configuration value stops the process with a message naming the variable', async () => {
    await expect(run(node, [main, 'migrate'], { env: { ...env(), PORT: 'nope' }, timeout: CALL_TIMEOUT_MS })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('PORT'),
    });
  }, CLI_TEST_TIMEOUT_MS);
});
