import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadConfig, type Config } from '../../src/config/index.js';
import { startServer, type RunningServer } from '../../src/server.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENSHOTS = path.join(root, 'test-results', 'screenshots');

/**
 * Whether the browser suites can run. Without Debian's Chromium they skip with one loud line,
 * except on CI (CI=true), where a missing browser is a failure.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing on CI: install it with apt-get install -y chromium`);
  process.stdout.write(`\n[browser tests] SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium)\n\n`);
  return false;
}

/** `vite build --config web/vite.config.ts` in production mode, whatever NODE_ENV says. */
export async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
}

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

export interface LiveApp {
  url: string;
  config: Config;
  server: RunningServer;
  close(): Promise<void>;
}

/** The real server (same boot path as `plotline serve`) on 127.0.0.1, with APP_URL pointing at it. */
export async function startLiveApp(env: Record<string, string> = {}): Promise<LiveApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-browser-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PLOTLINE_DATA_DIR: dataDir,
    PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    BASE_URL: url,
    LOG_LEVEL: 'error',
    ...env,
  });
  const server = await startServer(config, { handleSignals: false });
  return {
    url,
    config,
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.png`);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe-core finds on the page as it is now (evaluated through the devtools protocol, so the strict CSP stays on). */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: { target: string[] }[] }[]> {
  await page.evaluate(AXE);
  return page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) })))`,
  );
}

/** No axe-core violation at all on the page, or the failure names the screen, rule and first nodes. */
export async function axe(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${screen}: ${v.impact} ${v.id} ${JSON.stringify(v.nodes)}`)).toEqual([]);
}

/** A browser context signed in as the user: the session cookie, as the editor's login form gets it. */
export async function signedInContext(browser: Browser, baseUrl: string, credentials: { email: string; password: string }, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const login = await context.request.post(`${baseUrl}/user/login?session=cookie`, { data: credentials, headers: { origin: baseUrl } });
  expect(login.status()).toBe(200);
  return context;
}

/** Collects into `problems` what the page logs as an error or a refusal of its CSP, and its uncaught errors. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`${message.text()} @ ${message.location().url}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
}
