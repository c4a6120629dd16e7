import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createContainer } from '../../src/container.js';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');
const main = path.resolve('src/main.ts');

describe('plotline CLI', () => {
  let dir: string;
  // Vitest exports Vite's BASE_URL ("/") into the worker's environment; a real shell has none.
  const { BASE_URL: _viteBase, ...inherited } = process.env;
  const env = () => ({ ...inherited, PLOTLINE_DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const cli = (...args: string[]) => run(tsx, [main, ...args], { env: env(), timeout: 60_000 });

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
  });

  it('reports bad input clearly and exits non-zero', async () => {
    await expect(cli('token', 'create', '--team', 'abc')).rejects.toMatchObject({ stderr: expect.stringContaining('positive integer') });
    await expect(cli('token', 'create', '--team', '999999')).rejects.toMatchObject({ stderr: expect.stringContaining('Team not found') });
    await expect(cli('user', 'create', '--email', 'bad', '--name', 'X', '--password', 'a long password')).rejects.toMatchObject({ stderr: expect.stringContaining('email') });
  });

  it('a bad configuration value stops the process with a message naming the variable', async () => {
    await expect(run(tsx, [main, 'migrate'], { env: { ...env(), PORT: 'nope' }, timeout: 60_000 })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('PORT'),
    });
  });
});
