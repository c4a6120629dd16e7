/**
 * Bytes a browser downloads for each built page (dist/web, from `vite build --config web/vite.config.ts`):
 * the page, the scripts and styles it loads at once (its HTML's script, modulepreload and stylesheet
 * tags), and the chunks it loads later on demand (dynamic imports, e.g. the SQL editor), raw and
 * gzip-compressed (level 9). Builds the production bundle first.
 * The last line printed is one JSON object with every figure.
 *
 *   npm run bench:bundles
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildWeb } from '../test/browser/browser-env.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'dist', 'web');

const PAGES = { editor: 'app/index.html', report: 'report.html', embed: 'embed.html' } as const;

interface Size {
  raw: number;
  gzip: number;
}

function size(file: string): Size {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

function add(a: Size, b: Size): Size {
  return { raw: a.raw + b.raw, gzip: a.gzip + b.gzip };
}

/** Chunks a script imports dynamically (`import("./x.js")`), and theirs, not already loaded. */
function lazyChunks(script: string, loaded: Set<string>, seen = new Set<string>()): Set<string> {
  const text = readFileSync(path.join(web, 'assets', script), 'utf8');
  for (const match of text.matchAll(/import\("\.\/([\w.-]+\.js)"\)/g)) {
    const chunk = match[1]!;
    if (loaded.has(chunk) || seen.has(chunk)) continue;
    seen.add(chunk);
    lazyChunks(chunk, loaded, seen);
  }
  // Static imports of a lazy chunk come with it.
  for (const chunk of [...seen]) {
    const body = readFileSync(path.join(web, 'assets', chunk), 'utf8');
    for (const match of body.matchAll(/from"\.\/([\w.-]+\.js)"/g)) if (!loaded.has(match[1]!)) seen.add(match[1]!);
  }
  return seen;
}

await buildWeb();
const figures: Record<string, unknown> = {};
for (const [name, file] of Object.entries(PAGES)) {
  const html = path.join(web, file);
  if (!existsSync(html)) throw new Error(`${html} is missing after the build`);
  const text = readFileSync(html, 'utf8');
  const assets = [...text.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  const initial = new Set(assets);
  let scripts: Size = { raw: 0, gzip: 0 };
  let styles: Size = { raw: 0, gzip: 0 };
  for (const asset of initial) {
    const s = size(path.join(web, 'assets', asset));
    if (asset.endsWith('.css')) styles = add(styles, s);
    else scripts = add(scripts, s);
  }
  const page = size(html);
  const lazy = new Set<string>();
  for (const asset of initial) if (asset.endsWith('.js')) for (const chunk of lazyChunks(asset, initial)) lazy.add(chunk);
  let later: Size = { raw: 0, gzip: 0 };
  for (const chunk of lazy) later = add(later, size(path.join(web, 'assets', chunk)));
  const total = add(add(page, scripts), styles);
  figures[name] = { initial: total, html: page, scripts, styles, onDemand: later, onDemandChunks: lazy.size };
  process.stdout.write(`${name}: ${(total.gzip / 1024).toFixed(1)} KiB gzip at load (${(scripts.gzip / 1024).toFixed(1)} scripts, ${(styles.gzip / 1024).toFixed(1)} styles), ${(later.gzip / 1024).toFixed(1)} KiB gzip on demand\n`);
}
process.stdout.write(`${JSON.stringify({ bench: 'bundles', unit: 'bytes', ...figures })}\n`);
