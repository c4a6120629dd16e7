// Builds dist/ when it is missing or older than any source file, so `npm start` works straight
// after `npm install` and stays fast on later starts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
}

export function buildIfNeeded() {
  const sources = Math.max(newest(path.join(root, 'src')), newest(path.join(root, 'web')), statSync(path.join(root, 'package.json')).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return;
  process.stderr.write('plotline: building (first start or sources changed)…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  if (existsSync(path.join(root, 'web', 'vite.config.ts'))) {
    const web = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(root, 'web', 'vite.config.ts'), '--logLevel', 'warn'], {
      stdio: 'inherit',
      cwd: root,
    });
    if (web.status !== 0) process.exit(web.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
}
