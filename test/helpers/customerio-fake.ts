import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Customer.io's App API (https://docs.customer.io/integrations/api/app/), as documented:
 * bearer App API key; `POST /v1/customers?limit&start` with `{filter}` (segment, attribute
 * eq/exists, and/or/not) answering `{identifiers, ids, next}`; `POST /v1/customers/attributes`
 * with at most 100 ids; `GET /v1/segments`, `/v1/campaigns`, `/v1/campaigns/{id}/metrics`
 * (period, steps, type -> `{metric: {series}}`), `/v1/campaigns/{id}/journey_metrics`
 * (start, end, res), `/v1/activities` (limit, start, type, name -> `{activities, next}`).
 * A wrong key answers 401 `{meta: {error}}`; limits above the documented maxima answer 400.
 */

export interface Person {
  id: string;
  email: string;
  cio_id: string;
  segments: number[];
  attributes: Record<string, unknown>;
}

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

export interface CustomerioFake {
  url: string;
  people: Person[];
  activities: Record<string, unknown>[];
  requests: Recorded[];
  /** The next N requests answer 429 with Retry-After: 0. */
  throttleNext(n: number): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function matches(person: Person, filter: Record<string, any>): boolean {
  if (filter['and']) return (filter['and'] as Record<string, any>[]).every((f) => matches(person, f));
  if (filter['or']) return (filter['or'] as Record<string, any>[]).some((f) => matches(person, f));
  if (filter['not']) return !matches(person, filter['not']);
  if (filter['segment']) return person.segments.includes(Number(filter['segment'].id));
  if (filter['attribute']) {
    const { field, operator, value } = filter['attribute'];
    const actual = field === 'email' ? person.email : field === 'id' ? person.id : person.attributes[field];
    if (operator === 'exists') return actual !== undefined;
    if (operator === 'eq') return String(actual) === String(value);
    throw new Error(`unknown operator ${operator}`);
  }
  throw new Error('unknown filter');
}

export async function startCustomerioFake(apiKey: string): Promise<CustomerioFake> {
  const requests: Recorded[] = [];
  let throttle = 0;
  const fake = { people: [] as Person[], activities: [] as Record<string, unknown>[] };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        return send(res, 400, { meta: { error: 'invalid JSON body' } });
      }
      requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body });
      if (throttle > 0) {
        throttle -= 1;
        return send(res, 429, { meta: { error: 'rate limit exceeded' } }, { 'retry-after': '0' });
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, { meta: { error: 'Unauthorized request' } });
      if (req.headers.accept !== 'application/json') return send(res, 406, { meta: { error: 'Accept application/json' } });
      const q = url.searchParams;
      const path = url.pathname;
      if (req.method === 'POST' && req.headers['content-type'] !== 'application/json') return send(res, 415, { meta: { error: 'content-type must be application/json' } });

      if (req.method === 'POST' && path === '/v1/customers') {
        const limit = Number(q.get('limit') ?? 50);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return send(res, 400, { meta: { error: 'limit must be between 1 and 1000' } });
        if (!body?.filter) return send(res, 400, { meta: { error: 'filter is required' } });
        let found: Person[];
        try {
          found = fake.people.filter((p) => matches(p, body.filter));
        } catch (error) {
          return send(res, 400, { meta: { error: (error as Error).message } });
        }
        const start = Number(q.get('start') || 0);
        const page = found.slice(start, start + limit);
        const next = start + limit < found.length ? String(start + limit) : '';
        return send(res, 200, { identifiers: page.map((p) => ({ email: p.email, id: p.id, cio_id: p.cio_id })), ids: page.map((p) => p.id), next });
      }
      if (req.method === 'POST' && path === '/v1/customers/attributes') {
        const ids = (body?.ids ?? []) as string[];
        if (ids.length > 100) return send(res, 400, { meta: { error: 'a maximum of 100 ids may be requested at once' } });
        const customers = ids
          .map((id) => fake.people.find((p) => p.id === id))
          .filter((p): p is Person => Boolean(p))
          .map((p) => ({ id: p.id, attributes: { id: p.id, email: p.email, ...p.attributes }, timestamps: { id: 1700000000 }, unsubscribed: false, devices: [] }));
        return send(res, 200, { customers });
      }
      if (req.method !== 'GET') return send(res, 404, { meta: { error: 'not found' } });
      if (path === '/v1/segments') {
        return send(res, 200, {
          segments: [
            { id: 1, name: 'Trial users', type: 'dynamic', state: 'finished', progress: null, deduplicate_id: '1:1700000000', tags: null },
            { id: 2, name: 'Paying', type: 'dynamic', state: 'finished', progress: null, deduplicate_id: '2:1700000000', tags: null },
          ],
        });
      }
      if (path === '/v1/campaigns') return send(res, 200, { campaigns: [{ id: 7, name: 'Onboarding', active: true, state: 'running' }] });
      const metrics = /^\/v1\/campaigns\/(\d+)\/(metrics|journey_metrics)$/.exec(path);
      if (metrics) {
        if (metrics[1] !== '7') return send(res, 404, { meta: { error: 'campaign not found' } });
        if (metrics[2] === 'metrics') {
          const steps = Number(q.get('steps'));
          const period = q.get('period');
          if (!['hours', 'days', 'weeks', 'months'].includes(period ?? '') || !(steps >= 1)) return send(res, 400, { meta: { error: 'period and steps are required' } });
          return send(res, 200, { metric: { series: { sent: Array.from({ length: steps }, (_, i) => 10 + i), opened: Array.from({ length: steps }, (_, i) => i) } } });
        }
        const start = Number(q.get('start'));
        const end = Number(q.get('end'));
        const res_ = q.get('res');
        if (!start || !end || res_ !== 'days') return send(res, 400, { meta: { error: 'start, end and res are required' } });
        const days = Math.floor((end - start) / 86_400) + 1;
        return send(res, 200, { journey_metrics: Array.from({ length: days }, (_, i) => ({ started: 5 + i, messaged: 4, converted: i % 2, exited_early: 0, never_messaged: 1 })) });
      }
      if (path === '/v1/activities') {
        const limit = Number(q.get('limit') ?? 10);
        if (limit < 1 || limit > 1000) return send(res, 400, { meta: { error: 'limit must be between 1 and 1000' } });
        const list = fake.activities.filter((a) => (!q.get('type') || a['type'] === q.get('type')) && (!q.get('name') || a['name'] === q.get('name')));
        const start = Number(q.get('start') || 0);
        const page = list.slice(start, start + limit);
        return send(res, 200, { activities: page, next: start + limit < list.length ? String(start + limit) : '' });
      }
      return send(res, 404, { meta: { error: 'not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    throttleNext: (n: number) => {
      throttle = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
