import { ValidationError } from '../../errors/index.js';
import { InvalidQueryError } from '../errors.js';
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
  type SchemaTable,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from '../types.js';
import { inferColumns } from '../values.js';
import { exactPlaceholder, interpolate, lookupVariable, scalarOf, textOf } from '../variables/placeholders.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface GoogleAnalyticsSourceOptions {
  /** PLOTLINE_GA_DATA_URL */
  dataUrl: string;
  /** PLOTLINE_GA_ADMIN_URL */
  adminUrl: string;
  /** Rows per runReport page (default 10,000; the API allows up to 250,000). */
  pageSize?: number;
  /** Properties described at most by the schema (default 25). */
  schemaMaxProperties?: number;
}

const SCOPES = ['https://www.googleapis.com/auth/analytics.readonly'];
const DATA: ProviderLabel = { name: 'The Google Analytics Data API', credential: 'Google Analytics credentials' };
const ADMIN: ProviderLabel = { name: 'The Google Analytics Admin API', credential: 'Google Analytics credentials' };
const SCHEMA_TIMEOUT_MS = 60_000;
/** GA's own date forms: today, yesterday, NdaysAgo, YYYY-MM-DD. */
const GA_DATE = /^(today|yesterday|\d+daysAgo|\d{4}-\d{2}-\d{2})$/;
const NAME = /^[A-Za-z][A-Za-z0-9_:]*$/;

interface ReportAnswer {
  dimensionHeaders?: { name: string }[];
  metricHeaders?: { name: string; type?: string }[];
  rows?: { dimensionValues?: { value?: string }[]; metricValues?: { value?: string }[] }[];
  rowCount?: number;
}

interface AccountSummary {
  account?: string;
  displayName?: string;
  propertySummaries?: { property?: string; displayName?: string }[];
}

/**
 * Google Analytics 4: the Data API's runReport over REST, paged by offset/limit up to rowCount;
 * the Admin API's accountSummaries for the connection test and schema. Credentials are a service
 * account (`firebaseServiceAccount`) or an OAuth refresh token with its client id and secret
 * (`authentication`).
 */
export class GoogleAnalyticsSource implements Source {
  readonly type = 'googleAnalytics';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.googleAnalytics;
  private readonly options: Required<GoogleAnalyticsSourceOptions>;

  constructor(
    private readonly client: OutboundClient,
    private readonly tokens: GoogleTokens,
    options: GoogleAnalyticsSourceOptions,
  ) {
    this.options = {
      dataUrl: options.dataUrl.replace(/\/+$/, ''),
      adminUrl: options.adminUrl.replace(/\/+$/, ''),
      pageSize: options.pageSize ?? 10_000,
      schemaMaxProperties: options.schemaMaxProperties ?? 25,
    };
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return this.withControl(conn, { timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal }, async (credential, control) => {
      const accounts = await this.accountSummaries(conn, credential, control);
      const properties = accounts.flatMap((a) => (a.propertySummaries ?? []).map((p) => p.property ?? '')).filter(Boolean);
      // A property named on the connection must be readable, not merely listed.
      if (conn.dbName?.trim()) await this.metadata(conn, credential, control, propertyName(conn.dbName, 'dbName'));
      return { success: true, tables: properties.sort() };
    });
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    return this.withControl(conn, { timeoutMs: SCHEMA_TIMEOUT_MS, signal }, async (credential, control) => {
      const tables: SchemaTable[] = [];
      for (const account of await this.accountSummaries(conn, credential, control)) {
        for (const property of account.propertySummaries ?? []) {
          if (!property.property || tables.length >= this.options.schemaMaxProperties) continue;
          const meta = await this.metadata(conn, credential, control, property.property);
          tables.push({
            name: property.property,
            description: `${account.displayName ?? account.account ?? ''} / ${property.displayName ?? ''}`,
            columns: [
              ...(meta.dimensions ?? []).map((d) => ({ name: d.apiName, type: 'dimension' })),
              ...(meta.metrics ?? []).map((m) => ({ name: m.apiName, type: `metric:${m.type ?? 'TYPE_INTEGER'}` })),
            ],
          });
        }
      }
      return { tables };
    });
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    const report = reportRequest(request.configuration ?? {}, options.variables);
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;
    return this.withControl(conn, options, async (credential, control) => {
      const url = `${this.options.dataUrl}/v1beta/${report.property}:runReport`;
      const rows: Row[] = [];
      let total = 0;
      let offset = 0;
      for (;;) {
        const limit = Math.min(this.options.pageSize, rowLimit + 1 - rows.length);
        const answer = await withGoogleToken(this.tokens, control, credential, SCOPES, conn, (token) =>
          sendJson(this.client, control, { url, method: 'POST', headers: { authorization: `Bearer ${token}` }, body: { ...report.body, limit: String(limit), offset: String(offset) } }),
        );
        if (answer.status >= 300) throw providerError(DATA, answer, conn, secretsOf(conn));
        const page = (answer.json ?? {}) as ReportAnswer;
        total = Number(page.rowCount ?? 0);
        const pageRows = page.rows ?? [];
        rows.push(...pageRows.map((row) => toRow(page, row)));
        offset += pageRows.length;
        if (pageRows.length === 0 || offset >= total || rows.length > rowLimit || control.stopPaging()) break;
      }
      const truncated = rows.length > rowLimit || total > rowLimit;
      const data = rows.slice(0, rowLimit);
      return { data, meta: { columns: inferColumns(data), rowCount: data.length, ...control.truncation(truncated), durationMs: Math.round(control.elapsedMs()) } };
    });
  }

  private async withControl<T>(conn: SourceConnection, options: RunLimits, work: (credential: GoogleCredential, control: RunControl) => Promise<T>): Promise<T> {
    const credential = credentialOf(conn);
    return RunControl.within(options, (control) => work(credential, control), (error) => asSourceError(error, DATA, conn));
  }

  private async accountSummaries(conn: SourceConnection, credential: GoogleCredential, control: RunControl): Promise<AccountSummary[]> {
    const out: AccountSummary[] = [];
    let pageToken = '';
    for (let page = 0; page < 100; page += 1) {
      const query = new URLSearchParams({ pageSize: '200', ...(pageToken ? { pageToken } : {}) });
      const answer = await withGoogleToken(this.tokens, control, credential, SCOPES, conn, (token) =>
        sendJson(this.client, control, { url: `${this.options.adminUrl}/v1beta/accountSummaries?${query}`, headers: { authorization: `Bearer ${token}` } }),
      );
      if (answer.status >= 300) throw providerError(ADMIN, answer, conn, secretsOf(conn));
      const body = (answer.json ?? {}) as { accountSummaries?: AccountSummary[]; nextPageToken?: string };
      out.push(...(body.accountSummaries ?? []));
      pageToken = body.nextPageToken ?? '';
      if (!pageToken) break;
    }
    return out;
  }

  private async metadata(conn: SourceConnection, credential: GoogleCredential, control: RunControl, property: string) {
    const answer = await withGoogleToken(this.tokens, control, credential, SCOPES, conn, (token) =>
      sendJson(this.client, control, { url: `${this.options.dataUrl}/v1beta/${property}/metadata`, headers: { authorization: `Bearer ${token}` } }),
    );
    if (answer.status >= 300) throw providerError(DATA, answer, conn, secretsOf(conn));
    return (answer.json ?? {}) as { dimensions?: { apiName: string }[]; metrics?: { apiName: string; type?: string }[] };
  }
}

/** A service account when one is stored, else the OAuth refresh token in `authentication`. */
function credentialOf(conn: SourceConnection): GoogleCredential {
  if (conn.firebaseServiceAccount) return { kind: 'service_account', account: parseServiceAccount(conn.firebaseServiceAccount) };
  const auth = conn.authentication;
  if (auth?.token) {
    if (!auth.user) throw ValidationError.field('authentication.user', 'is required: the OAuth client id that issued the refresh token');
    if (!auth.pass) throw ValidationError.field('authentication.pass', 'is required: the OAuth client secret');
    return { kind: 'refresh_token', clientId: auth.user, clientSecret: auth.pass, refreshToken: auth.token };
  }
  throw ValidationError.field('firebaseServiceAccount', 'or authentication (an OAuth refresh token with client id and secret) is required for Google Analytics');
}

function secretsOf(conn: SourceConnection): string[] {
  return [conn.authentication?.token, conn.authentication?.pass].filter((s): s is string => typeof s === 'string');
}

/** `properties/123`, `123`: the resource name. */
function propertyName(raw: string, field: string): string {
  const text = raw.trim();
  const id = text.replace(/^properties\//, '');
  if (!/^\d+$/.test(id)) throw new InvalidQueryError(`"${text}" is not a GA4 property id (properties/123456789)`, field);
  return `properties/${id}`;
}

/** One configuration value with variables filled: a lone placeholder keeps its value, else text. */
function fill(raw: unknown, variables: ResolvedVariables | undefined): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw).trim();
  if (text === '') return undefined;
  const only = exactPlaceholder(text);
  if (only !== undefined) {
    const value = scalarOf(lookupVariable(variables, only));
    return value === null ? undefined : String(value);
  }
  return interpolate(text, variables, textOf).trim();
}

function names(raw: unknown, variables: ResolvedVariables | undefined, field: string): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : String(raw).split(',');
  const out = list.map((item) => fill(typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : item, variables)).filter((x): x is string => Boolean(x));
  for (const name of out) if (!NAME.test(name)) throw new InvalidQueryError(`"${name}" is not a Google Analytics field name`, `configuration.${field}`);
  return out;
}

function gaDate(raw: unknown, fallback: string, variables: ResolvedVariables | undefined, field: string): string {
  let value = fill(raw, variables) ?? fallback;
  // A date variable holds YYYY-MM-DD or a full ISO timestamp; GA takes the day.
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) value = value.slice(0, 10);
  if (!GA_DATE.test(value)) throw new InvalidQueryError(`${field} "${value}" must be YYYY-MM-DD, today, yesterday or NdaysAgo`, `configuration.${field}`);
  return value;
}

export function reportRequest(configuration: Record<string, unknown>, variables: ResolvedVariables | undefined): { property: string; body: Record<string, unknown> } {
  const rawProperty = fill(configuration['propertyId'], variables);
  if (!rawProperty) throw new InvalidQueryError('configuration.propertyId is required (properties/123456789)', 'configuration.propertyId');
  const property = propertyName(rawProperty, 'configuration.propertyId');
  const metrics = names(configuration['metrics'], variables, 'metrics');
  if (metrics.length === 0) throw new InvalidQueryError('configuration.metrics needs at least one metric (e.g. activeUsers)', 'configuration.metrics');
  const dimensions = names(configuration['dimensions'], variables, 'dimensions');
  const startDate = gaDate(configuration['startDate'], '30daysAgo', variables, 'startDate');
  const endDate = gaDate(configuration['endDate'], 'today', variables, 'endDate');
  const body: Record<string, unknown> = {
    dateRanges: [{ startDate, endDate }],
    metrics: metrics.map((name) => ({ name })),
    // Pages are taken by offset, so the order must be stable from one page to the next.
    orderBys: dimensions.length > 0 ? dimensions.map((name) => ({ dimension: { dimensionName: name } })) : [{ metric: { metricName: metrics[0] }, desc: true }],
  };
  if (dimensions.length > 0) body['dimensions'] = dimensions.map((name) => ({ name }));
  return { property, body };
}

/** `date` 20250131 -> 2025-01-31; `dateHour` and `dateHourMinute` -> ISO without an offset (the property's time zone). */
function dimensionValue(name: string, value: string): string {
  if (name === 'date' && /^\d{8}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  if (name === 'dateHour' && /^\d{10}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}T${value.slice(8, 10)}:00:00`;
  if (name === 'dateHourMinute' && /^\d{12}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}T${value.slice(8, 10)}:${value.slice(10, 12)}:00`;
  return value;
}

function toRow(page: ReportAnswer, row: NonNullable<ReportAnswer['rows']>[number]): Row {
  const out: Row = {};
  (page.dimensionHeaders ?? []).forEach((header, i) => {
    out[header.name] = dimensionValue(header.name, row.dimensionValues?.[i]?.value ?? '');
  });
  (page.metricHeaders ?? []).forEach((header, i) => {
    const text = row.metricValues?.[i]?.value;
    const n = Number(text);
    out[header.name] = text === undefined || text === '' || !Number.isFinite(n) ? null : n;
  });
  return out;
}
