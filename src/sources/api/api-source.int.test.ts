import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPolicy, type HostLookup } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import type { DataRequestSpec, SourceConnection } from '../types.js';
import { resolveVariables } from '../variables/resolve.js';
import { ApiSource } from './api-source.js';

/** A local JSON API on loopback that answers like the public APIs each template was made for. */
function startApi(): Promise<{ server: Server; port: number }> {
  const items = Array.from({ length: 25 }, (_, i) => ({ id: `it_${i + 1}`, n: i + 1 }));
  const json = (res: ServerResponse, body: unknown, status = 200): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://local');
    const q = url.searchParams;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    switch (url.pathname) {
      case '/echo':
        return json(res, { method: req.method, rawUrl: req.url, headers: req.headers, body });
      case '/list':
        return json(res, items.slice(0, 3));
      case '/single':
        return json(res, { total: 3, name: 'x' });
      case '/custom': {
        // ?limit=&offset= ; an array in `items`
        const limit = Number(q.get('limit') ?? 10);
        const offset = Number(q.get('offset') ?? 0);
        return json(res, { total: items.length, items: items.slice(offset, offset + limit) });
      }
      case '/custom-stuck':
        return json(res, { items: items.slice(0, 5) });
      case '/endless':
        return json(res, [{ page: q.get('page') }]);
      case '/forever': {
        // Pages of `size` numbered items that never end, for every template: offset/limit,
        // page, cursor, next-page URL and Stripe's starting_after all move through them.
        const size = Number(q.get('size') ?? 10);
        const from =
          q.has('offset') ? Number(q.get('offset')) : q.has('page') ? (Number(q.get('page')) - 1) * size : q.has('cursor') ? Number(q.get('cursor')) : q.has('starting_after') ? Number(q.get('starting_after')) + 1 : Number(q.get('p') ?? 0);
        const page = Array.from({ length: size }, (_, i) => ({ id: from + i, n: from + i }));
        const end = from + size;
        return json(res, { object: 'list', has_more: true, data: page, meta: { next_cursor: String(end) }, links: { next: `/forever?size=${size}&p=${end}` } });
      }
      case '/endless-wide':
        // 10 KB per page, without end.
        return json(res, [{ page: q.get('page'), pad: 'x'.repeat(10_000) }]);
      case '/wide':
        return json(res, [{ pad: 'x'.repeat(20_000) }]);
      case '/endless-cursor': {
        const at = Number(q.get('cursor') ?? 0);
        return json(res, { data: [{ n: at }], meta: { next_cursor: String(at + 1) } });
      }
      case '/pages': {
        const page = Number(q.get('page') ?? 1);
        return json(res, { page, data: items.slice((page - 1) * 10, page * 10) });
      }
      case '/cursor': {
        const start = Number(q.get('cursor') ?? 0);
        const next = start + 10 < items.length ? String(start + 10) : null;
        return json(res, { data: items.slice(start, start + 10), meta: { next_cursor: next } });
      }
      case '/by-url': {
        const page = Number(q.get('p') ?? 1);
        const next = page < 3 ? `/by-url?p=${page + 1}` : null;
        return json(res, { results: items.slice((page - 1) * 10, page * 10), links: { next } });
      }
      case '/v1/charges': {
        const after = q.get('starting_after');
        const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
        const limit = Number(q.get('limit'));
        // Pretend pages of 10 whatever the limit, to get several pages.
        const page = items.slice(start, start + Math.min(limit, 10));
        return json(res, { object: 'list', url: '/v1/charges', has_more: start + page.length < items.length, data: page });
      }
      case '/redirect': {
        const n = Number(q.get('n') ?? 0);
        res.writeHead(302, { location: n > 0 ? `/redirect?n=${n - 1}` : '/echo' });
        return void res.end();
      }
      case '/redirect-to': {
        res.writeHead(Number(q.get('status') ?? 302), { location: q.get('url') ?? '/echo' });
        return void res.end();
      }
      case '/big':
        return json(res, { blob: 'x'.repeat(64 * 1024) });
      case '/slow':
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return json(res, []);
      case '/fail':
        return json(res, { error: 'boom', auth: req.headers['authorization'] }, 500);
      case '/text':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html>hi</html>');
      case '/close':
        res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
        return void res.end('[1]');
      case '/limited':
        if (req.headers['x-try'] === undefined) {
          res.writeHead(429, { 'retry-after': '0' });
          return void res.end();
        }
        return json(res, []);
      default:
        return json(res, { error: 'not found' }, 404);
    }
  };
  const server = createServer((req, res) => {
    handler(req, res).catch(() => res.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

const lookup: HostLookup = async (host) => {
  const table: Record<string, string> = {
    'api.internal.test': '127.0.0.1',
    'sneaky.test': '127.0.0.1',
    'other.internal.test': '127.0.0.1',
    'intranet.test': '10.0.0.1',
  };
  const address = table[host];
  return address ? [{ address, family: 4 }] : [];
};

describe('ApiSource', () => {
  let server: Server;
  let port: number;
  let client: OutboundClient;
  let source: ApiSource;
  let conn: SourceConnection;

  beforeAll(async () => {
    ({ server, port } = await startApi());
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1/32', 'api.internal.test', 'other.internal.test'], lookup }));
    source = new ApiSource(client, { maxResponseBytes: 32 * 1024, maxPages: 50 });
    conn = { id: 'api-1', type: 'api', host: 'http://127.0.0.1', port: String(port) };
  });

  afterAll(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = (request: DataRequestSpec, options = {}, connection: SourceConnection = conn) => source.run(connection, request, options);

  describe('requests', () => {
    it('builds host + port + route and returns arrays as they are', async () => {
      const result = await run({ route: '/list' });
      expect(result.data).toEqual([
        { id: 'it_1', n: 1 },
        { id: 'it_2', n: 2 },
        { id: 'it_3', n: 3 },
      ]);
      expect(result.meta).toMatchObject({ rowCount: 3, truncated: false, columns: [{ name: 'id', type: 'string' }, { name: 'n', type: 'number' }] });
      expect((await run({ route: 'list' })).meta.rowCount).toBe(3);
      expect((await run({ route: '/list' }, {}, { ...conn, port: `:${port}` })).meta.rowCount).toBe(3);
    });

    it('wraps an object without arrays, keeps objects that hold arrays', async () => {
      expect((await run({ route: '/single' })).data).toEqual([{ total: 3, name: 'x' }]);
      expect((await run({ route: '/custom?limit=2' })).data).toEqual({ total: 25, items: [{ id: 'it_1', n: 1 }, { id: 'it_2', n: 2 }] });
    });

    it('cuts the main array at the row limit and says so', async () => {
      const result = await run({ route: '/custom?limit=10' }, { rowLimit: 4 });
      expect(result.meta).toMatchObject({ rowCount: 4, truncated: true });
      expect((result.data as { items: unknown[] }).items).toHaveLength(4);
    });

    it('sends global headers, the request headers and authentication', async () => {
      const withHeaders: SourceConnection = {
        ...conn,
        options: [{ 'X-Global': 'g' }, { 'X-Clash': 'global' }],
        authentication: { type: 'bearer_token', token: 'tok-123' },
      };
      const request: DataRequestSpec = { route: '/echo', headers: [{ key: 'X-Own', value: 'o' }, { key: 'x-clash', value: 'own' }] };
      const echoed = (await run(request, {}, withHeaders)).data as Array<{ headers: Record<string, string> }>;
      expect(echoed[0]?.headers).toMatchObject({ 'x-global': 'g', 'x-own': 'o', 'x-clash': 'global', authorization: 'Bearer tok-123' });

      const noGlobal = (await run({ ...request, useGlobalHeaders: false }, {}, withHeaders)).data as Array<{ headers: Record<string, string> }>;
      expect(noGlobal[0]?.headers['x-global']).toBeUndefined();
      expect(noGlobal[0]?.headers['x-clash']).toBe('own');

      const basic = (await run({ route: '/echo' }, {}, { ...conn, options: { 'X-Obj': '1' }, authentication: { type: 'basic_auth', user: 'u', pass: 'p' } })).data as Array<{
        headers: Record<string, string>;
      }>;
      expect(basic[0]?.headers).toMatchObject({ 'x-obj': '1', authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
    });

    it('sends a JSON body with typed values', async () => {
      const variables = resolveVariables({ bindings: [{ name: 'n', type: 'number', default_value: '3' }], runtime: { s: 'a"b' } });
      const echoed = (await run({ route: '/echo', method: 'POST', body: '{"n": {{n}}, "s": "{{s}}", "t": "x {{s}}"}' }, { variables })).data as Array<{
        method: string;
        body: string;
        headers: Record<string, string>;
      }>;
      expect(echoed[0]?.method).toBe('POST');
      expect(echoed[0]?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(echoed[0]?.body ?? '')).toEqual({ n: 3, s: 'a"b', t: 'x a"b' });
    });

    it.each(["x' OR '1'='1", "'; DROP TABLE t; --", '{"$ne": null}', '../', '%0d%0a', 'a&admin=true', 'a b#c'])(
      'keeps the value %j inside its URL component and its JSON string',
      async (value) => {
        const variables = resolveVariables({ runtime: { v: value } });
        const echoed = (
          await run({ route: '/echo?q={{v}}&fixed=1', method: 'POST', body: '{"v": "{{v}}"}', headers: [{ key: 'X-V', value: '{{v}}' }] }, { variables })
        ).data as Array<{ rawUrl: string; body: string; headers: Record<string, string> }>;
        const received = new URL(echoed[0]?.rawUrl ?? '', 'http://local');
        expect([...received.searchParams.keys()]).toEqual(['q', 'fixed']);
        expect(received.searchParams.get('q')).toBe(value);
        expect(JSON.parse(echoed[0]?.body ?? '')).toEqual({ v: value });
        expect(echoed[0]?.headers['x-v']).toBe(value);
        // In the path a value stays one segment.
        const inPath = (await run({ route: '/echo/{{v}}' }, { variables }).catch((error: unknown) => error)) as { data?: unknown; code?: string };
        if (inPath.data) expect((inPath.data as Array<{ rawUrl: string }>)[0]?.rawUrl).toBe(`/echo/${encodeURIComponent(value)}`);
      },
    );

    it('refuses CR/LF in header values before sending anything', async () => {
      const variables = resolveVariables({ runtime: { v: 'a\r\nX-Injected: 1' } });
      await expect(run({ route: '/echo', headers: [{ key: 'X-V', value: '{{v}}' }] }, { variables })).rejects.toMatchObject({
        statusCode: 400,
        code: 'VARIABLE_INVALID',
      });
    });
  });

  describe('pagination', () => {
    const ids = (data: unknown): string[] => (data as Array<{ id: string }>).map((item) => item.id);

    it('custom: offset += page size until an empty page', async () => {
      const result = await run({ route: '/custom?limit=10&offset=0', pagination: true, template: 'custom', items: 'limit', offset: 'offset' });
      expect(ids(result.data)).toHaveLength(25);
      expect(ids(result.data).at(-1)).toBe('it_25');
      expect(result.meta.truncated).toBe(false);
    });

    it('custom: itemsLimit stops early, a repeated page stops the loop', async () => {
      const limited = await run({ route: '/custom?limit=10&offset=0', pagination: true, template: 'custom', items: 'limit', offset: 'offset', itemsLimit: 12 });
      expect(ids(limited.data)).toEqual(Array.from({ length: 12 }, (_, i) => `it_${i + 1}`));
      const stuck = await run({ route: '/custom-stuck?limit=5', pagination: true, template: 'custom', items: 'limit', offset: 'offset' });
      expect(ids(stuck.data)).toHaveLength(5);
    });

    it('pages: page += 1 from 1', async () => {
      const result = await run({ route: '/pages', pagination: true, template: 'pages', offset: 'page' });
      expect(ids(result.data)).toHaveLength(25);
    });

    it('cursor: follows the cursor path and merges the arrays into the last response', async () => {
      const result = await run({ route: '/cursor', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' });
      const data = result.data as { data: Array<{ id: string }>; meta: unknown };
      expect(data.data).toHaveLength(25);
      expect(data.meta).toEqual({ next_cursor: null });
      const limited = await run({ route: '/cursor', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor', itemsLimit: 15 });
      expect((limited.data as { data: unknown[] }).data).toHaveLength(15);
    });

    it('url: follows the next-page URL found at paginationField', async () => {
      const result = await run({ route: '/by-url?p=1', pagination: true, template: 'url', paginationField: 'root.links.next' });
      const data = result.data as { results: Array<{ id: string }>; links: unknown };
      expect(data.results).toHaveLength(25);
      expect(data.links).toEqual({ next: null });
    });

    it('stripe: limit=100 and starting_after the last id while has_more', async () => {
      const result = await run({ route: '/v1/charges', pagination: true, template: 'stripe' });
      const data = result.data as { object: string; data: Array<{ id: string }> };
      expect(data.object).toBe('list');
      expect(data.data.map((item) => item.id)).toEqual(Array.from({ length: 25 }, (_, i) => `it_${i + 1}`));
    });

    it('itemsLimit 0 still stops at the page cap, marked truncated', async () => {
      const capped = new ApiSource(client, { maxPages: 4 });
      const result = await capped.run(conn, { route: '/endless', pagination: true, template: 'pages', offset: 'page', itemsLimit: 0 });
      expect(result.data).toEqual([{ page: '1' }, { page: '2' }, { page: '3' }, { page: '4' }]);
      expect(result.meta.truncated).toBe(true);
    });

    it('cursor paging that stops at the page cap is marked truncated', async () => {
      const capped = new ApiSource(client, { maxPages: 4 });
      const result = await capped.run(conn, { route: '/endless-cursor', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' });
      expect((result.data as { data: unknown[] }).data).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
      expect(result.meta).toMatchObject({ rowCount: 4, truncated: true });
    });

    // Every template, against a source that always has a next page: the page cap stops it and
    // says so; so does the row limit, also when it falls exactly on the end of a page.
    const forever: Record<string, DataRequestSpec> = {
      custom: { route: '/forever?size=10&offset=0', pagination: true, template: 'custom', items: 'size', offset: 'offset' },
      pages: { route: '/forever?size=10', pagination: true, template: 'pages', offset: 'page' },
      cursor: { route: '/forever?size=10', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' },
      url: { route: '/forever?size=10&p=0', pagination: true, template: 'url', paginationField: 'root.links.next' },
      stripe: { route: '/forever?size=10', pagination: true, template: 'stripe' },
    };
    const rowsOf = (data: unknown): unknown[] => (Array.isArray(data) ? data : ((data as { data?: unknown[] }).data ?? []));

    it.each(Object.keys(forever))('%s: stopping at the page cap while the source has more is truncated by pages, with the right rowCount', async (template) => {
      const capped = new ApiSource(client, { maxPages: 4 });
      const result = await capped.run(conn, forever[template]!);
      expect(rowsOf(result.data)).toHaveLength(40);
      expect(result.meta).toMatchObject({ rowCount: 40, truncated: true, truncatedBy: 'pages', pageLimit: 4 });
    });

    it.each(Object.keys(forever))('%s: a row limit that falls on the end of a page, with more to come, is truncated by rows', async (template) => {
      const result = await run(forever[template]!, { rowLimit: 30 });
      expect(rowsOf(result.data)).toHaveLength(30);
      expect(result.meta).toMatchObject({ rowCount: 30, truncated: true, truncatedBy: 'rows' });
    });

    it('a row limit that falls on the end of the last page is not a cut', async () => {
      // 25 items in pages of 10: the limit is met by the data, and the source says it is done.
      for (const request of [
        { route: '/pages', pagination: true, template: 'pages', offset: 'page' },
        { route: '/cursor', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' },
        { route: '/v1/charges', pagination: true, template: 'stripe' },
      ] satisfies DataRequestSpec[]) {
        const result = await run(request, { rowLimit: 25 });
        expect(rowsOf(result.data), request.template).toHaveLength(25);
        expect(result.meta, request.template).toMatchObject({ rowCount: 25, truncated: false });
        expect(result.meta.truncatedBy).toBeUndefined();
      }
    });

    it('the byte cap stops paging and says so', async () => {
      const capped = new ApiSource(client, { maxTotalBytes: 2_000 });
      const result = await capped.run(conn, forever['cursor']!);
      expect(result.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: 2_000 });
      expect(result.meta.rowCount).toBe(rowsOf(result.data).length);
    });

    it('itemsLimit is the request asking for fewer rows, not a cut', async () => {
      const result = await run({ ...forever['cursor']!, itemsLimit: 30 });
      expect(result.meta).toMatchObject({ rowCount: 30, truncated: false });
    });

    it('the byte limit stops paging, marked truncated by bytes; one answer over it is refused', async () => {
      const limit = 100 * 1024;
      const result = await run({ route: '/endless-wide', pagination: true, template: 'pages', offset: 'page', itemsLimit: 0 }, { byteLimit: limit });
      expect(result.meta).toMatchObject({ truncated: true, truncatedBy: 'bytes', byteLimit: limit });
      // Pages of 10 KB are read until 100 KiB have arrived.
      expect((result.data as unknown[]).length).toBe(11);
      expect((await run({ route: '/wide' })).meta.truncated).toBe(false);
      await expect(run({ route: '/wide' }, { byteLimit: 10_000 })).rejects.toMatchObject({ statusCode: 502, code: 'SOURCE_RESPONSE_TOO_LARGE' });
      const capped = new ApiSource(client, { maxPages: 4 });
      const pages = await capped.run(conn, { route: '/endless', pagination: true, template: 'pages', offset: 'page', itemsLimit: 0 });
      expect(pages.meta).toMatchObject({ truncated: true, truncatedBy: 'pages' });
    });

    it('the row limit cuts paginated results, marked truncated', async () => {
      const result = await run({ route: '/pages', pagination: true, template: 'pages', offset: 'page' }, { rowLimit: 15 });
      expect(ids(result.data)).toHaveLength(15);
      expect(result.meta).toMatchObject({ rowCount: 15, truncated: true });
    });
  });

  describe('redirects and the address policy', () => {
    it('follows up to five redirects, each hop checked', async () => {
      const echoed = (await run({ route: '/redirect?n=4' })).data as Array<{ rawUrl: string }>;
      expect(echoed[0]?.rawUrl).toBe('/echo');
      await expect(run({ route: '/redirect?n=5' })).rejects.toMatchObject({ code: 'SOURCE_QUERY_FAILED', message: expect.stringContaining('redirects') });
    });

    it('refuses a redirect to the metadata address or to a blocked host', async () => {
      await expect(run({ route: `/redirect-to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}` })).rejects.toMatchObject({
        statusCode: 400,
        code: 'TARGET_NOT_ALLOWED',
      });
      await expect(run({ route: `/redirect-to?url=${encodeURIComponent(`http://intranet.test:${port}/echo`)}` })).rejects.toMatchObject({
        code: 'TARGET_NOT_ALLOWED',
      });
      await expect(run({ route: `/redirect-to?url=${encodeURIComponent('file:///etc/passwd')}` })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    });

    it('turns POST into GET on 303 and drops credentials when the origin changes', async () => {
      const authed: SourceConnection = { ...conn, authentication: { type: 'bearer_token', token: 'secret-token' } };
      const other = `http://other.internal.test:${port}/echo`;
      const echoed = (await run({ route: `/redirect-to?status=303&url=${encodeURIComponent(other)}`, method: 'POST', body: '{"a":1}' }, {}, authed))
        .data as Array<{ method: string; body: string; headers: Record<string, string> }>;
      expect(echoed[0]).toMatchObject({ method: 'GET', body: '' });
      expect(echoed[0]?.headers['authorization']).toBeUndefined();
      expect(echoed[0]?.headers['host']).toBe(`other.internal.test:${port}`);
    });

    it("drops every connection and request header on a cross-origin redirect, whatever its name; keeps them on the same origin", async () => {
      const keyed: SourceConnection = { ...conn, options: [{ 'X-Api-Key': 'conn-secret-key' }], authentication: { type: 'basic_auth', user: 'u', pass: 'p' } };
      const request = { headers: [{ key: 'X-Auth-Token', value: 'request-secret' }, { key: 'Accept-Language', value: 'en' }] };
      const other = `http://other.internal.test:${port}/echo`;
      const crossed = (await run({ ...request, route: `/redirect-to?url=${encodeURIComponent(other)}` }, {}, keyed)).data as Array<{ headers: Record<string, string> }>;
      expect(crossed[0]?.headers['host']).toBe(`other.internal.test:${port}`);
      expect(crossed[0]?.headers['x-api-key']).toBeUndefined();
      expect(crossed[0]?.headers['x-auth-token']).toBeUndefined();
      expect(crossed[0]?.headers['authorization']).toBeUndefined();
      expect(crossed[0]?.headers).toMatchObject({ accept: 'application/json', 'accept-language': 'en' });
      const same = (await run({ ...request, route: '/redirect?n=1' }, {}, keyed)).data as Array<{ headers: Record<string, string> }>;
      expect(same[0]?.headers).toMatchObject({ 'x-api-key': 'conn-secret-key', 'x-auth-token': 'request-secret' });
      expect(same[0]?.headers['authorization']).toMatch(/^Basic /);
    });

    it('blocks loopback by default: an IP, localhost, and a name that resolves to 127.0.0.1', async () => {
      const strict = new OutboundClient(new OutboundPolicy({ lookup }));
      const blocked = new ApiSource(strict);
      try {
        await expect(blocked.run(conn, { route: '/list' })).rejects.toMatchObject({ statusCode: 400, code: 'TARGET_NOT_ALLOWED' });
        await expect(blocked.run({ ...conn, host: 'http://sneaky.test' }, { route: '/list' })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
        const system = new ApiSource(new OutboundClient(new OutboundPolicy()));
        await expect(system.run({ ...conn, host: 'http://localhost' }, { route: '/list' })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
        await expect(blocked.run({ ...conn, host: 'http://169.254.169.254', port: '' }, { route: '/' })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
      } finally {
        await strict.close();
      }
    });

    it('connects to the address it checked: an allowed name reaches the pinned address', async () => {
      const echoed = (await run({ route: '/echo' }, {}, { ...conn, host: 'http://api.internal.test' })).data as Array<{ headers: Record<string, string> }>;
      expect(echoed[0]?.headers['host']).toBe(`api.internal.test:${port}`);
    });

    it('checks every new socket, so a changed DNS answer (rebinding) is caught', async () => {
      let answers = 0;
      const rebinding: HostLookup = async () => [{ address: answers++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
      const pinned = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.0/8'], lookup: rebinding }));
      const api = new ApiSource(pinned);
      try {
        // The server closes the connection after this answer, so the next request opens a new socket.
        expect((await api.run({ ...conn, host: 'http://rebind.test' }, { route: '/close' })).data).toEqual([1]);
        await expect(api.run({ ...conn, host: 'http://rebind.test' }, { route: '/close' })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
        expect(answers).toBe(2);
      } finally {
        await pinned.close();
      }
    });
  });

  describe('failures', () => {
    it('refuses a response over the size cap', async () => {
      await expect(run({ route: '/big' })).rejects.toMatchObject({ statusCode: 502, code: 'SOURCE_RESPONSE_TOO_LARGE' });
    });

    it('ends at the timeout with SOURCE_TIMEOUT', async () => {
      // The route answers after 3 s: a timeout error means the run did not wait for it.
      await expect(run({ route: '/slow' }, { timeoutMs: 300 })).rejects.toMatchObject({ statusCode: 504, code: 'SOURCE_TIMEOUT' });
    });

    it('reports upstream errors with their status, without secrets', async () => {
      const authed: SourceConnection = { ...conn, authentication: { type: 'bearer_token', token: 'very-secret-token' } };
      const error = (await run({ route: '/fail' }, {}, authed).catch((e: unknown) => e)) as Error & { code: string };
      expect(error).toMatchObject({ statusCode: 400, code: 'SOURCE_QUERY_FAILED' });
      expect(error.message).toContain('HTTP 500');
      expect(error.message).not.toContain('very-secret-token');
      await expect(run({ route: '/text' })).rejects.toMatchObject({ code: 'SOURCE_QUERY_FAILED', message: expect.stringContaining('not JSON') });
    });

    it('reports a closed port as SOURCE_UNREACHABLE', async () => {
      const closed = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const free = (probe.address() as AddressInfo).port;
          probe.close(() => resolve(free));
        });
      });
      await expect(run({ route: '/' }, {}, { ...conn, port: String(closed) })).rejects.toMatchObject({ statusCode: 502, code: 'SOURCE_UNREACHABLE' });
    });

    it('retries a 429 honouring Retry-After', async () => {
      await expect(run({ route: '/limited' })).rejects.toMatchObject({ message: expect.stringContaining('HTTP 429') });
      expect((await run({ route: '/limited', headers: [{ key: 'X-Try', value: '1' }] })).data).toEqual([]);
    });
  });

  describe('test()', () => {
    it('succeeds on a 2xx from the host and fails with the status otherwise', async () => {
      await expect(source.test({ ...conn, host: `http://127.0.0.1:${port}/list`, port: '' })).resolves.toEqual({ success: true });
      await expect(source.test({ ...conn, host: `http://127.0.0.1:${port}/nope`, port: '' })).rejects.toMatchObject({ code: 'SOURCE_QUERY_FAILED' });
    });
  });
});
