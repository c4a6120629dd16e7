import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The report and embed pages and the editor (web/app, React), built into dist/web and served by the
// API process (src/modules/dashboards/pages-routes.ts).
const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  // JSX through esbuild's automatic runtime: no Babel plugin needed (docs/decisions/0014-editor.md).
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.resolve(root, '../dist/web'),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // Every script must be an external file: the pages' CSP has no 'unsafe-inline'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: {
        report: path.resolve(root, 'report.html'),
        embed: path.resolve(root, 'embed.html'),
        app: path.resolve(root, 'app/index.html'),
      },
      onwarn(warning, warn) {
        // TanStack Query marks its hooks 'use client' for React Server Components bundlers; the
        // editor is client-only, so the directive means nothing here.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
