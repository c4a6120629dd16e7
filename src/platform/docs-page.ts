import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * `/docs`: Swagger UI over `/openapi.json`, served so that it renders fast (docs/decisions/0018-docs-page.md):
 * - one script (the Swagger UI bundle vendored in `@fastify/swagger-ui`, without the stand-alone
 *   preset that only draws a URL bar) and one stylesheet, under a path carrying their content hash,
 *   cached for a year (`immutable`), and sent brotli- or gzip-compressed (compressed once per
 *   process, in the background, at the first visit);
 * - the spec compressed too (about 20 KiB instead of hundreds) and revalidated by ETag (304), and
 *   preloaded by the page so that it downloads while the script is parsed.
 */

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

/** One answer in each encoding, as they become ready. */
interface Encoded {
  type: string;
  hash: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const ASSETS = { 'swagger-ui-bundle.js': 'application/javascript; charset=utf-8', 'swagger-ui.css': 'text/css; charset=utf-8' } as const;
type AssetName = keyof typeof ASSETS | 'docs.js';

// Runs in the page (an external file: no inline script). BaseLayout: the reference without the
// stand-alone preset's URL bar.
const INITIALIZER = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
});
`;

/** The encodings a request accepts, best first (q=0 excluded). */
function acceptedEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(token, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

function encoded(body: Buffer, type: string): Encoded {
  return { type, identity: body, hash: createHash('sha256').update(body).digest('base64url').slice(0, 16) };
}

/** Fills in the compressed forms off the event loop; answers go out uncompressed until they are ready. */
async function compress(item: Encoded): Promise<void> {
  const [br, gz] = await Promise.all([
    brotli(item.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: item.identity.length } }),
    gzipped(item.identity, { level: 9 }),
  ]);
  item.br = br;
  item.gzip = gz;
}

function send(request: FastifyRequest, reply: FastifyReply, item: Encoded, cacheControl: string) {
  const wanted = acceptedEncoding(request.headers['accept-encoding']);
  const encoding: Encoding = wanted !== 'identity' && item[wanted] ? wanted : 'identity';
  const etag = `"${item.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  void reply.header('cache-control', cacheControl).header('vary', 'accept-encoding').header('etag', etag).header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.status(304).send();
  if (encoding !== 'identity') void reply.header('content-encoding', encoding);
  return reply.type(item.type).send(encoding === 'identity' ? item.identity : item[encoding]);
}

/** Registers `/docs`, `/docs/`, `/docs/json`, `/docs/static/{hash}/{file}` and `/openapi.json`. */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const hidden = { schema: { hide: true } };
  const vendored = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');

  let assets: Promise<Map<AssetName, Encoded>> | undefined;
  const loadAssets = () =>
    (assets ??= (async () => {
      const map = new Map<AssetName, Encoded>();
      for (const [name, type] of Object.entries(ASSETS) as [keyof typeof ASSETS, string][]) map.set(name, encoded(await readFile(path.join(vendored, name)), type));
      map.set('docs.js', encoded(Buffer.from(INITIALIZER), 'application/javascript; charset=utf-8'));
      for (const item of map.values()) void compress(item).catch((error: unknown) => app.log.warn({ err: error }, 'compressing a /docs asset failed'));
      return map;
    })().catch((error: unknown) => {
      assets = undefined;
      throw error;
    }));

  let spec: Encoded | undefined;
  const loadSpec = (): Encoded => {
    if (spec) return spec;
    // The document is final once the app is ready (@fastify/swagger builds it once).
    const item = encoded(Buffer.from(JSON.stringify(app.swagger())), 'application/json; charset=utf-8');
    void compress(item).catch((error: unknown) => app.log.warn({ err: error }, 'compressing /openapi.json failed'));
    return (spec = item);
  };

  let page: Encoded | undefined;
  const loadPage = async (): Promise<Encoded> => {
    if (page) return page;
    const list = await loadAssets();
    const url = (name: AssetName) => `/docs/static/${list.get(name)!.hash}/${name}`;
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plotline API reference</title>
<link rel="icon" href="data:,">
<link rel="preload" href="/openapi.json" as="fetch" crossorigin="anonymous">
<link rel="stylesheet" href="${url('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"><p>Loading the API reference…</p></div>
<script src="${url('swagger-ui-bundle.js')}"></script>
<script src="${url('docs.js')}"></script>
</body>
</html>
`;
    const item = encoded(Buffer.from(html), 'text/html; charset=utf-8');
    void compress(item).catch(() => undefined);
    return (page = item);
  };

  // No other site may frame the reference (clickjacking): the legacy header and CSP's frame-ancestors.
  const servePage = async (request: FastifyRequest, reply: FastifyReply) =>
    send(request, reply.header('x-frame-options', 'DENY').header('content-security-policy', "frame-ancestors 'none'"), await loadPage(), 'no-cache');
  const serveSpec = async (request: FastifyRequest, reply: FastifyReply) => send(request, reply, loadSpec(), 'no-cache');

  app.get('/docs', hidden, servePage);
  app.get('/docs/', hidden, servePage);
  app.get('/docs/json', hidden, serveSpec);
  app.get('/openapi.json', hidden, serveSpec);
  app.get<{ Params: { hash: string; file: string } }>('/docs/static/:hash/:file', hidden, async (request, reply) => {
    const item = (await loadAssets()).get(request.params.file as AssetName);
    // An old hash (the assets changed with an upgrade) gets the current file, but not for a year.
    if (!item) return reply.status(404).send({ error: `No docs asset ${request.params.file.slice(0, 100)}`, code: 'NOT_FOUND' });
    return send(request, reply, item, item.hash === request.params.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
  });
}
