import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { FRAME_HTML, FRAME_PATH, frameHeaders, pageHeaders } from './pages-security.js';

export interface PageOptions {
  /** Folder of the built pages (default: dist/web of the package). */
  webRoot?: string;
}

/** The package root holds package.json; this file runs from src/ (tsx) or dist/ (built). */
function defaultWebRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join(dir, 'dist', 'web');
}

/**
 * The report and embed pages at APP_URL, built by Vite into dist/web. Both render from the public
 * share endpoints only; the token never leaves the page's memory after load.
 */
export const pageRoutes: FastifyPluginAsync<PageOptions> = async (app, options) => {
  const webRoot = options.webRoot ?? defaultWebRoot();
  const assets = path.join(webRoot, 'assets');
  const pages = new Map<string, string>();

  if (existsSync(assets)) {
    // File names carry a content hash, so they can be cached for good.
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => {
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('cross-origin-resource-policy', 'same-origin');
      },
    });
  }

  const load = async (file: string): Promise<string | undefined> => {
    const cached = pages.get(file);
    if (cached !== undefined) return cached;
    try {
      const html = await readFile(path.join(webRoot, file), 'utf8');
      pages.set(file, html);
      return html;
    } catch {
      return undefined;
    }
  };

  const page = (file: string, embeddable: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const html = await load(file);
    if (html === undefined) {
      return reply.status(503).send({ error: 'The web pages are not built; run `npm run build` (vite build --config web/vite.config.ts)', code: 'PAGES_NOT_BUILT' });
    }
    return reply.headers(pageHeaders(request, embeddable)).type('text/html; charset=utf-8').send(html);
  };

  const hidden = { schema: { hide: true } };
  // The editor: its own routes all live under /app/, so a reload of any of them gets the app's
  // page and never an API path; everything else stays the API's. One API path of Chartbrew's web
  // app lies under /app/ too, `GET /app/users` (identity/users-routes.ts): a route with a static
  // path wins over `/app/*`, and test/http/chartbrew-paths.test.ts holds every path of that API
  // clear of these pages.
  app.get('/', hidden, async (_request, reply) => reply.redirect('/app/', 302));
  app.get('/app', hidden, async (_request, reply) => reply.redirect('/app/', 301));
  // An invitation link (`{APP_URL}/invite?token=…`) opens the editor's page that signs its holder up into the team.
  app.get('/invite', hidden, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/app/invite${query}`, 302);
  });
  app.get('/app/', hidden, page('app/index.html', false));
  app.get('/app/*', hidden, page('app/index.html', false));
  app.get('/report/:brewName', hidden, page('report.html', false));
  app.get('/chart/:share_string/embedded', hidden, page('embed.html', true));
  app.get(FRAME_PATH, hidden, async (_request, reply) => reply.headers(frameHeaders()).type('text/html; charset=utf-8').send(FRAME_HTML));
};
