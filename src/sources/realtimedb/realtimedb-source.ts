import { ValidationError } from '../../errors/index.js';
import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import { GoogleTokens, parseServiceAccount, withGoogleToken, type GoogleCredential } from '../google/google-auth.js';
import type { OutboundClient } from '../outbound/http-client.js';
import { asSourceError, providerError, sendJson, type ProviderLabel } from '../remote/json-call.js';
import { RunControl, type RunLimits } from '../run-control.js';
import {
  CONNECTION_TEST_TIMEOUT_MS,
  DEFAULT_ROW_LIMIT,
  type DataRequestSpec,
  type ResolvedVariables,
  type Row,
  type RunOptions,
  type RunResult,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from '../types.js';
import { inferColumns } from '../values.js';
import { exactPlaceholder, findPlaceholders, interpolate, lookupVariable, scalarOf, textOf } from '../variables/placeholders.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

const SCOPES = ['https://www.googleapis.com/auth/firebase.database', 'https://www.googleapis.com/auth/userinfo.email'];
const LABEL: ProviderLabel = { name: 'The Realtime Database', credential: 'service account' };

type Ordering = { kind: 'key' } | { kind: 'value' } | { kind: 'child'; path: string };

/**
 * Firebase Realtime Database through its REST API: `GET <db>/<route>.json` with the query
 * parameters of the data request, authorized with a service-account access token. REST answers
 * are unordered, so rows are sorted here by the database's own ordering rules.
 */
export class RealtimeDbSource implements Source {
  readonly type = 'realtimedb';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.realtimedb;

  constructor(
    private readonly client: OutboundClient,
    private readonly tokens: GoogleTokens,
  ) {}

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return this.withControl(conn, { timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal }, async (credential, control) => {
      // A shallow read of the root: cheap, and refused unless the credential may read.
      const json = await this.get(conn, credential, control, '', new URLSearchParams({ shallow: 'true' }));
      const tables = json && typeof json === 'object' ? Object.keys(json).sort() : [];
      return { success: true, tables };
    });
  }

  async schema(): Promise<SourceSchema> {
    return { tables: [] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    const variables = options.variables;
    const configuration = request.configuration ?? {};
    const path = compilePath(request.route ?? '', variables);
    const ordering = orderingOf(configuration, variables);
    const params = new URLSearchParams();
    if (ordering) params.set('orderBy', JSON.stringify(ordering.kind === 'key' ? '$key' : ordering.kind === 'value' ? '$value' : ordering.path));
    const first = limitOf(configuration['limitToFirst'], variables, 'limitToFirst');
    const last = limitOf(configuration['limitToLast'], variables, 'limitToLast');
    if (first !== undefined && last !== undefined) throw new InvalidQueryError('Use limitToFirst or limitToLast, not both', 'configuration.limitToLast');
    for (const name of ['startAt', 'endAt', 'equalTo'] as const) {
      const value = rangeValue(configuration[name], variables);
      if (value !== undefined) {
        if (!ordering) throw new InvalidQueryError(`${name} needs configuration.orderBy`, `configuration.${name}`);
        params.set(name, JSON.stringify(value));
      }
    }
    if ((first !== undefined || last !== undefined) && !ordering) throw new InvalidQueryError('limitToFirst and limitToLast need configuration.orderBy', 'configuration.orderBy');
    if (first !== undefined) params.set('limitToFirst', String(first));
    if (last !== undefined) params.set('limitToLast', String(last));
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;

    return this.withControl(conn, options, async (credential, control) => {
      const json = await this.get(conn, credential, control, path, params);
      let rows = toRows(json);
      rows.sort(comparator(ordering ?? { kind: 'key' }));
      const truncated = rows.length > rowLimit;
      if (truncated) rows = rows.slice(0, rowLimit);
      return { data: rows, meta: { columns: inferColumns(rows), rowCount: rows.length, ...control.truncation(truncated), durationMs: Math.round(control.elapsedMs()) } };
    });
  }

  private async withControl<T>(conn: SourceConnection, options: RunLimits, work: (credential: GoogleCredential, control: RunControl) => Promise<T>): Promise<T> {
    const credential: GoogleCredential = { kind: 'service_account', account: parseServiceAccount(conn.firebaseServiceAccount) };
    databaseUrl(conn);
    return RunControl.within(options, (control) => work(credential, control), (error) => asSourceError(error, LABEL, conn));
  }

  private async get(conn: SourceConnection, credential: GoogleCredential, control: RunControl, path: string, params: URLSearchParams): Promise<unknown> {
    // Rules are evaluated as this uid when the connection names one (the reference client's `username`).
    if (conn.username?.trim()) params.set('auth_variable_override', JSON.stringify({ uid: conn.username.trim() }));
    const query = params.toString();
    const url = `${databaseUrl(conn)}/${path}.json${query ? `?${query}` : ''}`;
    const answer = await withGoogleToken(this.tokens, control, credential, SCOPES, conn, (token) =>
      sendJson(this.client, control, { url, headers: { authorization: `Bearer ${token}` } }),
    );
    if (answer.status >= 300) throw providerError(LABEL, answer, conn);
    return answer.json;
  }
}

/** `https://<db>.firebaseio.com` (or a regional / emulator URL), without a trailing slash. */
function databaseUrl(conn: SourceConnection): string {
  const raw = (conn.connectionString ?? '').trim().replace(/\/+$/, '');
  if (!raw) throw ValidationError.field('connectionString', 'is required: the database URL, e.g. https://<db>.firebaseio.com');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ValidationError.field('connectionString', 'must be the database URL, e.g. https://<db>.firebaseio.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw ValidationError.field('connectionString', 'must be an https URL');
  if (url.search || url.hash) throw ValidationError.field('connectionString', 'must not have a query or fragment');
  return raw;
}

/** The route as a database path; placeholders are URL-encoded and cannot add segments. */
function compilePath(raw: string, variables: ResolvedVariables | undefined): string {
  const path = raw.trim().replace(/^\/+|\/+$/g, '').replace(/\.json$/, '');
  if (path.includes('?') || path.includes('#')) throw new InvalidQueryError('The route is a database path; put query options in configuration', 'route');
  if (!path) return '';
  return path
    .split('/')
    .map((segment) => {
      const found = findPlaceholders(segment);
      const filled = found.length === 0 ? segment : interpolate(segment, variables, textOf);
      if (found.length > 0 && (filled.includes('/') || filled === '' || filled === '.' || filled === '..')) {
        throw new InvalidVariableError(found[0]!.name, 'cannot add, remove or empty a segment of a database path');
      }
      if (filled === '') throw new InvalidQueryError('The route has an empty segment', 'route');
      if (/[.#$[\]]/.test(filled)) throw new InvalidQueryError(`"${filled}" is not a valid database key (no . # $ [ ])`, 'route');
      return encodeURIComponent(filled);
    })
    .join('/');
}

function orderingOf(configuration: Record<string, unknown>, variables: ResolvedVariables | undefined): Ordering | undefined {
  const raw = configuration['orderBy'];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = interpolate(String(raw), variables, textOf).trim();
  if (text === 'key' || text === '$key') return { kind: 'key' };
  if (text === 'value' || text === '$value') return { kind: 'value' };
  const child = text === 'child' ? String(configuration['key'] ?? '').trim() : text;
  if (!child || child.startsWith('$')) throw new InvalidQueryError('orderBy "child" needs configuration.key, the child path to order by', 'configuration.key');
  return { kind: 'child', path: child.replace(/^\/+|\/+$/g, '') };
}

function limitOf(raw: unknown, variables: ResolvedVariables | undefined, name: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = typeof raw === 'string' ? interpolate(raw, variables, textOf).trim() : String(raw);
  if (text === '' || text === '0') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new InvalidQueryError(`${name} must be a whole number, got "${text}"`, `configuration.${name}`);
  return n;
}

/** A range value: a placeholder alone keeps its variable's type (a number stays a number). */
function rangeValue(raw: unknown, variables: ResolvedVariables | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') return raw;
  const only = exactPlaceholder(raw);
  if (only !== undefined) {
    const value = scalarOf(lookupVariable(variables, only));
    return value === null ? undefined : value;
  }
  return interpolate(raw, variables, textOf);
}

/** An object of children becomes rows with the child key as `_key`; a primitive child as `_value`. */
export function toRows(json: unknown): Row[] {
  if (json === null || json === undefined) return [];
  const entries: [string, unknown][] = Array.isArray(json)
    ? json.map((value, i) => [String(i), value] as [string, unknown]).filter(([, value]) => value !== null)
    : typeof json === 'object'
      ? Object.entries(json as Record<string, unknown>)
      : [['', json]];
  return entries.map(([key, value]) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? { _key: key, ...(value as Row) } : { _key: key, _value: value }));
}

const INT32_KEY = /^-?(0|[1-9]\d{0,9})$/;

function isIntKey(key: string): boolean {
  if (!INT32_KEY.test(key)) return false;
  const n = Number(key);
  return n >= -2147483648 && n <= 2147483647;
}

/** Keys: 32-bit integer keys first, numerically; then the rest, lexicographically. */
export function compareKeys(a: string, b: string): number {
  const ai = isIntKey(a);
  const bi = isIntKey(b);
  if (ai && bi) return Number(a) - Number(b);
  if (ai !== bi) return ai ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Values: null (missing) < false < true < numbers < strings < objects; ties are broken by key. */
export function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown): number => {
    if (v === null || v === undefined) return 0;
    if (v === false) return 1;
    if (v === true) return 2;
    if (typeof v === 'number') return 3;
    if (typeof v === 'string') return 4;
    return 5;
  };
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 3) return (a as number) - (b as number);
  if (ra === 4) return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  return 0;
}

function childValue(row: Row, path: string): unknown {
  let current: unknown = '_value' in row && Object.keys(row).length === 2 ? row['_value'] : row;
  for (const part of path.split('/')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function comparator(ordering: Ordering): (a: Row, b: Row) => number {
  const key = (row: Row): string => String(row['_key']);
  if (ordering.kind === 'key') return (a, b) => compareKeys(key(a), key(b));
  const value = ordering.kind === 'value' ? (row: Row) => ('_value' in row ? row['_value'] : objectOf(row)) : (row: Row) => childValue(row, ordering.path);
  return (a, b) => compareValues(value(a), value(b)) || compareKeys(key(a), key(b));
}

function objectOf(row: Row): Row {
  const { _key, ...rest } = row;
  void _key;
  return rest;
}
