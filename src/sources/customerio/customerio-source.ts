import { setTimeout as delay } from 'node:timers/promises';
import { ValidationError } from '../../errors/index.js';
import { InvalidQueryError } from '../errors.js';
import type { OutboundClient } from '../outbound/http-client.js';
import { asSourceError, providerError, sendJson, type JsonAnswer, type JsonRequest, type ProviderLabel } from '../remote/json-call.js';
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
import { compileJsonBody, compileRoute } from '../variables/api.js';
import { exactPlaceholder, interpolate, lookupVariable, scalarOf, textOf } from '../variables/placeholders.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface CustomerioSourceOptions {
  /** PLOTLINE_CUSTOMERIO_URL; unset: by region (https://api.customer.io, EU https://api-eu.customer.io). */
  baseUrl?: string | undefined;
  /** Milliseconds since the epoch, for dating metric series (tests inject their own). */
  now?: () => number;
  /** Retries of a 429 answer within the deadline (default 2). */
  maxRetries?: number;
  /** Requests per paged route (customers, activities) at most (default 1,000). */
  maxPages?: number;
}

const LABEL: ProviderLabel = { name: 'Customer.io', credential: 'App API key' };
const PAGE_LIMIT = 1000;
const ATTRIBUTE_BATCH = 100;
const MAX_PAGES = 1000;
const PERIODS = ['hours', 'days', 'weeks', 'months'] as const;
type Period = (typeof PERIODS)[number];

const ROUTES = 'customers, segments, campaigns, activities, campaigns/{id}/metrics, campaigns/{id}/journey_metrics';

/**
 * Customer.io's App API (bearer App API key; the region picks the host): customers by segment or
 * filter with their attributes, segments, campaigns, campaign and journey metrics, activities.
 * Every request goes through the outbound client and its address policy.
 */
export class CustomerioSource implements Source {
  readonly type = 'customerio';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.customerio;
  private readonly now: () => number;
  private readonly maxRetries: number;
  private readonly maxPages: number;

  constructor(
    private readonly client: OutboundClient,
    private readonly options: CustomerioSourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxPages = options.maxPages ?? MAX_PAGES;
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return this.withControl(conn, { timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal }, async (control) => {
      await this.call(conn, control, { path: 'activities', query: new URLSearchParams({ limit: '1' }) });
      return { success: true };
    });
  }

  async schema(): Promise<SourceSchema> {
    return { tables: [] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    const variables = options.variables;
    const configuration = request.configuration ?? {};
    const route = compileRoute((request.route ?? '').trim().replace(/^\/+/, '').replace(/^v1\//, ''), variables);
    const [path = '', rawQuery = ''] = route.split('?');
    const segments = path.split('/').filter(Boolean);
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;
    const itemsLimit = request.itemsLimit && request.itemsLimit > 0 ? request.itemsLimit : Infinity;
    const wanted = Math.min(itemsLimit, rowLimit + 1);

    return this.withControl(conn, options, async (control) => {
      let rows: Row[];
      // Set when the page cap stopped a paged route while Customer.io still had a next page.
      let pageCapped = false;
      if (segments[0] === 'customers' && segments.length === 1) ({ rows, pageCapped } = await this.customers(conn, control, configuration, variables, wanted));
      else if (segments[0] === 'activities' && segments.length === 1) ({ rows, pageCapped } = await this.activities(conn, control, configuration, variables, new URLSearchParams(rawQuery), wanted));
      else if ((segments[0] === 'segments' || segments[0] === 'campaigns') && segments.length === 1) {
        const body = await this.call(conn, control, { path: segments[0], query: new URLSearchParams(rawQuery) });
        rows = listOf(body, segments[0]);
      } else if (segments[0] === 'campaigns' && segments.length === 3 && segments[2] === 'metrics') {
        rows = await this.campaignMetrics(conn, control, path, configuration, variables);
      } else if (segments[0] === 'campaigns' && segments.length === 3 && segments[2] === 'journey_metrics') {
        rows = await this.journeyMetrics(conn, control, path, configuration, variables);
      } else {
        throw new InvalidQueryError(`Customer.io route "${path}" is not supported; use one of ${ROUTES}`, 'route');
      }
      const data = rows.slice(0, Math.min(rowLimit, itemsLimit));
      return { data, meta: { columns: inferColumns(data), rowCount: data.length, ...control.truncation(rows.length > rowLimit, pageCapped ? this.maxPages : undefined), durationMs: Math.round(control.elapsedMs()) } };
    });
  }

  private async withControl<T>(conn: SourceConnection, options: RunLimits, work: (control: RunControl) => Promise<T>): Promise<T> {
    apiKey(conn);
    return RunControl.within(options, (control) => work(control), (error) => asSourceError(error, LABEL, conn));
  }


  /** One App API call; a 429 is retried after Retry-After when that fits the deadline. */
  private async call(conn: SourceConnection, control: RunControl, spec: { path: string; query?: URLSearchParams; body?: unknown }): Promise<unknown> {
    const query = spec.query?.toString();
    const request: JsonRequest = {
      url: `${customerioBase(conn, this.options.baseUrl)}/v1/${spec.path}${query ? `?${query}` : ''}`,
      method: spec.body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${apiKey(conn)}` },
      ...(spec.body === undefined ? {} : { body: spec.body }),
    };
    let answer: JsonAnswer;
    for (let attempt = 0; ; attempt += 1) {
      answer = await sendJson(this.client, control, request);
      if (answer.status !== 429 || attempt >= this.maxRetries) break;
      const header = answer.headers?.['retry-after'];
      const seconds = Number(Array.isArray(header) ? header[0] : (header ?? 1));
      const waitMs = Number.isFinite(seconds) ? seconds * 1000 : 1000;
      if (waitMs > control.remainingMs() / 2) break;
      await control.race(delay(waitMs, undefined, { signal: control.signal }));
    }
    if (answer.status >= 300) throw providerError(LABEL, answer, conn, [apiKey(conn)]);
    return answer.json;
  }

  /** POST /v1/customers by filter, paged with `start`; attributes in batches of 100 when asked. */
  private async customers(
    conn: SourceConnection,
    control: RunControl,
    configuration: Record<string, unknown>,
    variables: ResolvedVariables | undefined,
    wanted: number,
  ): Promise<{ rows: Row[]; pageCapped: boolean }> {
    const filter = customerFilter(configuration, variables);
    const people: Row[] = [];
    let start = '';
    let page = 0;
    for (; page < this.maxPages && people.length < wanted; page += 1) {
      const query = new URLSearchParams({ limit: String(Math.min(PAGE_LIMIT, wanted - people.length)), ...(start ? { start } : {}) });
      const body = (await this.call(conn, control, { path: 'customers', query, body: { filter } })) as { identifiers?: Row[]; ids?: string[]; next?: string } | null;
      const found = body?.identifiers ?? (body?.ids ?? []).map((id) => ({ id }));
      people.push(...found);
      start = body?.next ?? '';
      if (!start || found.length === 0 || control.stopPaging()) break;
    }
    const pageCapped = page >= this.maxPages && start !== '' && people.length < wanted;
    const kept = people.slice(0, wanted);
    if (configuration['populateAttributes'] !== true && configuration['populateAttributes'] !== 'true') return { rows: kept, pageCapped };

    const byId = new Map<string, Row>();
    // People whose attributes were not fetched (the byte limit stopped the calls) are left out.
    let populated = kept.length;
    for (let at = 0; at < kept.length; at += ATTRIBUTE_BATCH) {
      if (at > 0 && control.stopPaging()) {
        populated = at;
        break;
      }
      const ids = kept.slice(at, at + ATTRIBUTE_BATCH).map((p) => String(p['id']));
      const body = (await this.call(conn, control, { path: 'customers/attributes', body: { ids } })) as { customers?: { id?: string; attributes?: Row; unsubscribed?: unknown }[] } | null;
      for (const customer of body?.customers ?? []) {
        byId.set(String(customer.id ?? customer.attributes?.['id']), { ...customer.attributes, ...(customer.unsubscribed !== undefined ? { unsubscribed: customer.unsubscribed } : {}) });
      }
    }
    return { rows: kept.slice(0, populated).map((person) => ({ ...person, ...byId.get(String(person['id'])) })), pageCapped };
  }

  /** GET /v1/activities with its filters, paged with `start`. */
  private async activities(
    conn: SourceConnection,
    control: RunControl,
    configuration: Record<string, unknown>,
    variables: ResolvedVariables | undefined,
    routeQuery: URLSearchParams,
    wanted: number,
  ): Promise<{ rows: Row[]; pageCapped: boolean }> {
    const filters = new URLSearchParams(routeQuery);
    const pairs: [string, unknown][] = [
      ['type', configuration['activityType']],
      ['name', configuration['eventName']],
      ['customer_id', configuration['customerId']],
      ['id_type', configuration['idType']],
      ['deleted', configuration['deleted']],
    ];
    for (const [name, raw] of pairs) {
      const value = text(raw, variables);
      if (value !== undefined) filters.set(name, value);
    }
    const limit = Math.min(Number(text(configuration['limit'], variables) ?? 100) || 100, PAGE_LIMIT);
    const rows: Row[] = [];
    let start = '';
    let page = 0;
    for (; page < this.maxPages && rows.length < wanted; page += 1) {
      const query = new URLSearchParams(filters);
      query.set('limit', String(Math.min(limit, wanted - rows.length)));
      if (start) query.set('start', start);
      const body = (await this.call(conn, control, { path: 'activities', query })) as { activities?: Row[]; next?: string } | null;
      const found = body?.activities ?? [];
      rows.push(...found.map((a) => (typeof a['timestamp'] === 'number' ? { ...a, timestamp: new Date((a['timestamp'] as number) * 1000).toISOString() } : a)));
      start = body?.next ?? '';
      if (!start || found.length === 0 || control.stopPaging()) break;
    }
    return { rows, pageCapped: page >= this.maxPages && start !== '' && rows.length < wanted };
  }

  /** GET /v1/campaigns/{id}/metrics: one row per period, counted back from now. */
  private async campaignMetrics(conn: SourceConnection, control: RunControl, path: string, configuration: Record<string, unknown>, variables: ResolvedVariables | undefined): Promise<Row[]> {
    const period = periodOf(text(configuration['period'], variables) ?? 'days', 'period');
    const steps = Number(text(configuration['steps'], variables) ?? 30);
    if (!Number.isInteger(steps) || steps < 1 || steps > 10_000) throw new InvalidQueryError('steps must be a whole number of periods (1 to 10000)', 'configuration.steps');
    const query = new URLSearchParams({ period, steps: String(steps) });
    const type = text(configuration['type'], variables);
    if (type) query.set('type', type);
    const body = (await this.call(conn, control, { path, query })) as { metric?: { series?: Record<string, number[]> } } | null;
    const series = body?.metric?.series ?? {};
    const length = Math.max(0, ...Object.values(series).map((values) => (Array.isArray(values) ? values.length : 0)));
    const end = periodStart(this.now(), period);
    return Array.from({ length }, (_, i) => {
      const row: Row = { date: new Date(shift(end, period, i - (length - 1))).toISOString() };
      for (const [name, values] of Object.entries(series)) row[name] = Array.isArray(values) ? (values[i] ?? null) : null;
      return row;
    });
  }

  /** GET /v1/campaigns/{id}/journey_metrics between start and end (unix seconds) at a resolution. */
  private async journeyMetrics(conn: SourceConnection, control: RunControl, path: string, configuration: Record<string, unknown>, variables: ResolvedVariables | undefined): Promise<Row[]> {
    const res = periodOf(text(configuration['resolution'] ?? configuration['res'], variables) ?? 'days', 'resolution');
    const end = seconds(configuration['end'], variables, Math.floor(this.now() / 1000), 'end');
    const start = seconds(configuration['start'], variables, end - 30 * 86_400, 'start');
    if (start > end) throw new InvalidQueryError('start must be before end', 'configuration.start');
    const query = new URLSearchParams({ start: String(start), end: String(end), res });
    const body = (await this.call(conn, control, { path, query })) as { journey_metrics?: unknown } | null;
    const metrics = body?.journey_metrics;
    const first = periodStart(start * 1000, res);
    if (Array.isArray(metrics)) return metrics.map((step, i) => ({ date: new Date(shift(first, res, i)).toISOString(), ...(step as Row) }));
    const series = (metrics ?? {}) as Record<string, unknown[]>;
    const length = Math.max(0, ...Object.values(series).map((values) => (Array.isArray(values) ? values.length : 0)));
    return Array.from({ length }, (_, i) => {
      const row: Row = { date: new Date(shift(first, res, i)).toISOString() };
      for (const [name, values] of Object.entries(series)) row[name] = Array.isArray(values) ? (values[i] ?? null) : null;
      return row;
    });
  }
}

/** The configured base for every region, else the region's host (`host` "eu" is the EU region). */
export function customerioBase(conn: SourceConnection, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return (conn.host ?? '').trim().toLowerCase() === 'eu' ? 'https://api-eu.customer.io' : 'https://api.customer.io';
}

function apiKey(conn: SourceConnection): string {
  const key = conn.password?.trim();
  if (!key) throw ValidationError.field('password', 'is required: the Customer.io App API key');
  if (/[\r\n\0]/.test(key)) throw ValidationError.field('password', 'cannot contain line breaks');
  return key;
}

function text(raw: unknown, variables: ResolvedVariables | undefined): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') return String(raw);
  const only = exactPlaceholder(raw);
  if (only !== undefined) {
    const value = scalarOf(lookupVariable(variables, only));
    return value === null ? undefined : String(value);
  }
  const filled = interpolate(raw, variables, textOf).trim();
  return filled === '' ? undefined : filled;
}

/** `cioFilters` ({and|or|not: …}) or a segment id; variables become typed JSON values. */
export function customerFilter(configuration: Record<string, unknown>, variables: ResolvedVariables | undefined): unknown {
  const raw = configuration['cioFilters'];
  if (raw && typeof raw === 'object') {
    const filter = JSON.parse(compileJsonBody(JSON.stringify(raw), variables)) as Record<string, unknown>;
    const keys = Object.keys(filter);
    const combined = ['and', 'or'].find((k) => keys.includes(k));
    if (combined && Array.isArray(filter[combined]) && (filter[combined] as unknown[]).length === 0) {
      throw new InvalidQueryError('No filters selected: cioFilters needs at least one condition', 'configuration.cioFilters');
    }
    if (keys.length !== 1) throw new InvalidQueryError('cioFilters takes exactly one of and, or, not, segment or attribute at its top level', 'configuration.cioFilters');
    return filter;
  }
  const segment = text(configuration['segmentId'], variables);
  if (segment !== undefined) {
    const id = Number(segment);
    if (!Number.isInteger(id) || id < 1) throw new InvalidQueryError(`segmentId "${segment}" is not a segment id`, 'configuration.segmentId');
    return { and: [{ segment: { id } }] };
  }
  throw new InvalidQueryError('No filters selected: set configuration.segmentId or configuration.cioFilters', 'configuration.cioFilters');
}

function listOf(body: unknown, key: string): Row[] {
  const list = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? (list as Row[]) : [];
}

function periodOf(value: string, field: string): Period {
  if (!(PERIODS as readonly string[]).includes(value)) throw new InvalidQueryError(`${field} must be one of ${PERIODS.join(', ')}`, `configuration.${field}`);
  return value as Period;
}

function seconds(raw: unknown, variables: ResolvedVariables | undefined, fallback: number, field: string): number {
  const value = text(raw, variables);
  if (value === undefined) return fallback;
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidQueryError(`${field} must be a unix time in seconds or a date`, `configuration.${field}`);
  return Math.floor(ms / 1000);
}

/** The start (UTC) of the period holding `ms`; weeks start on Monday. */
function periodStart(ms: number, period: Period): number {
  const d = new Date(ms);
  if (period === 'hours') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === 'days') return day;
  if (period === 'weeks') return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function shift(ms: number, period: Period, steps: number): number {
  if (period === 'hours') return ms + steps * 3_600_000;
  if (period === 'days') return ms + steps * 86_400_000;
  if (period === 'weeks') return ms + steps * 7 * 86_400_000;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + steps, 1);
}
