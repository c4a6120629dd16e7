// Builds dist/ when it is missing or older than any source file, so `npm start` works straight
// after `npm install` and stays fast on later starts. The server (tsc, from src/) and the pages
// (Vite, from web/ and the render modules they share) are stamped apart: a change to one does not
// rebuild the other, and the test files under src/, which the build leaves out, rebuild nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverStamp = path.join(root, 'dist', '.build-stamp');
const pagesStamp = path.join(root, 'dist', '.pages-stamp');
const viteConfig = path.join(root, 'web', 'vite.config.ts');
// The files of src/ the pages bundle too: how charts and their cards' notes look, shared with the
// server's pictures, the rule that says when a chart's data is overdue (the editor applies it), and
// the frequencies a delivery may have (the editor's form offers the server's bounds).
const sharedWithPages = ['render/chart-look.ts', 'render/card-notes.ts', 'runtime/scheduler/cadence.ts', 'modules/automation/deliveries-frequencies.ts'].map((name) =>
  path.join(root, 'src', ...name.split('/')),
);

function newest(dir, counts = () => true) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full, counts));
    else if (counts(entry.name)) latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
}

/** What tsconfig.build.json compiles: the .ts files of src/ but its tests. */
const compiled = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts');

function stale(stamp, sourcesMtime) {
  return !existsSync(stamp) || statSync(stamp).mtimeMs < sourcesMtime;
}

function run(args, env = process.env) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function buildIfNeeded() {
  const manifest = statSync(path.join(root, 'package.json')).mtimeMs;
  const server = stale(serverStamp, Math.max(newest(path.join(root, 'src'), compiled), manifest));
  const pages = existsSync(viteConfig) && stale(pagesStamp, Math.max(newest(path.join(root, 'web')), ...sharedWithPages.map((file) => statSync(file).mtimeMs), manifest));
  if (!server && !pages) return;
  process.stderr.write('plotline: building (first start or sources changed)…\n');
  if (server) {
    run([path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')]);
    writeFileSync(serverStamp, new Date().toISOString());
  }
  if (pages) {
    // The production bundle whatever NODE_ENV the caller runs under: vitest sets it to "test",
    // with which Vite would bundle React's development build, and `npm start` would serve it.
    run([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', viteConfig, '--logLevel', 'warn'], { ...process.env, NODE_ENV: 'production' });
    writeFileSync(pagesStamp, new Date().toISOString());
  }
}
