import type { ServerResponse } from 'node:http';
import { sendJson, type FakeGoogle, type Recorded } from './google-fakes.js';

/*
 * Firebase Realtime Database REST reads, as documented
 * (https://firebase.google.com/docs/database/rest/retrieve-data):
 * `GET /<path>.json` with `orderBy` ("$key", "$value" or a quoted child path), `limitToFirst`,
 * `limitToLast`, `startAt`, `endAt`, `equalTo` (JSON values) and `shallow`. Filtered answers are
 * unordered, as the documentation warns: this server shuffles them. Ordering by a child that has no
 * `.indexOn` rule is refused with the documented 400. Served under `/rtdb` (the connection's URL).
 */

export interface RtdbFake {
  /** The database URL to put in the connection. */
  url: string;
  /** `{'/scores': ['score']}`: children indexed per path, as `.indexOn` rules would say. */
  indexOn: Record<string, string[]>;
  data: Record<string, unknown>;
}

const INT_KEY = /^-?(0|[1-9]\d{0,9})$/;

function keyCompare(a: string, b: string): number {
  const ai = INT_KEY.test(a);
  const bi = INT_KEY.test(b);
  if (ai && bi) return Number(a) - Number(b);
  if (ai !== bi) return ai ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (v === false) return 1;
  if (v === true) return 2;
  if (typeof v === 'number') return 3;
  if (typeof v === 'string') return 4;
  return 5;
}

function valueCompare(a: unknown, b: unknown): number {
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number') return a - (b as number);
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  return 0;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function installRtdb(google: FakeGoogle): RtdbFake {
  const fake: RtdbFake = { url: `${google.url}/rtdb`, indexOn: {}, data: {} };

  const handler = (req: Recorded, res: ServerResponse, scopes: string[]): void => {
    if (!scopes.includes('https://www.googleapis.com/auth/firebase.database')) return sendJson(res, 401, { error: 'Unauthorized request.' });
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'Method not allowed' });
    if (!req.path.endsWith('.json')) return sendJson(res, 404, { error: 'Not found: paths end in .json' });
    const path = decodeURIComponent(req.path.slice('/rtdb'.length, -'.json'.length)).replace(/\/+$/, '') || '/';
    let node: unknown = fake.data;
    for (const part of path.split('/').filter(Boolean)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (node === undefined) node = null;
    const q = req.query;
    if (q.get('shallow') === 'true') {
      if (node === null || typeof node !== 'object') return sendJson(res, 200, node);
      return sendJson(res, 200, Object.fromEntries(Object.keys(node).map((k) => [k, true])));
    }
    const rawOrder = q.get('orderBy');
    const others = ['limitToFirst', 'limitToLast', 'startAt', 'endAt', 'equalTo'].filter((k) => q.has(k));
    if (!rawOrder) {
      if (others.length > 0) return sendJson(res, 400, { error: 'orderBy must be defined when other query parameters are defined' });
      return sendJson(res, 200, node);
    }
    let orderBy: string;
    try {
      orderBy = JSON.parse(rawOrder) as string;
    } catch {
      return sendJson(res, 400, { error: 'orderBy must be a valid JSON encoded path' });
    }
    if (node === null || typeof node !== 'object') return sendJson(res, 200, node);
    if (orderBy !== '$key' && orderBy !== '$value' && orderBy !== '$priority' && !(fake.indexOn[path] ?? []).includes(orderBy)) {
      return sendJson(res, 400, { error: `Index not defined, add ".indexOn": "${orderBy}", for path "${path}", to the rules` });
    }
    const pick = (key: string, value: unknown): unknown => {
      if (orderBy === '$key') return key;
      if (orderBy === '$value') return value;
      let v: unknown = value;
      for (const part of orderBy.split('/')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
      return v ?? null;
    };
    let entries = Object.entries(node as Record<string, unknown>);
    const cmp = orderBy === '$key' ? (a: [string, unknown], b: [string, unknown]) => keyCompare(a[0], b[0]) : (a: [string, unknown], b: [string, unknown]) => valueCompare(pick(...a), pick(...b)) || keyCompare(a[0], b[0]);
    entries.sort(cmp);
    const bound = (name: string): unknown => (q.has(name) ? (JSON.parse(q.get(name)!) as unknown) : undefined);
    const startAt = bound('startAt');
    const endAt = bound('endAt');
    const equalTo = bound('equalTo');
    const cmpTo = (entry: [string, unknown], value: unknown): number => (orderBy === '$key' ? keyCompare(entry[0], String(value)) : valueCompare(pick(...entry), value));
    if (startAt !== undefined) entries = entries.filter((e) => cmpTo(e, startAt) >= 0);
    if (endAt !== undefined) entries = entries.filter((e) => cmpTo(e, endAt) <= 0);
    if (equalTo !== undefined) entries = entries.filter((e) => cmpTo(e, equalTo) === 0);
    if (q.has('limitToFirst')) entries = entries.slice(0, Number(q.get('limitToFirst')));
    if (q.has('limitToLast')) entries = entries.slice(-Number(q.get('limitToLast')));
    // "Filtered data is returned unordered": the REST API gives no order; neither does this server.
    sendJson(res, 200, Object.fromEntries(shuffle(entries)));
  };

  google.handle('/rtdb', handler);
  return fake;
}
