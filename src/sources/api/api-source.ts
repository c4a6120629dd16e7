import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '../../errors/index.js';
import { SourceQueryError, SourceUnreachableError } from '../errors.js';
import type { OutboundClient, OutboundResponse } from '../outbound/http-client.js';
import { redactSecrets } from '../redact.js';
import { RunControl } from '../run-control.js';
import {
  CONNECTION_TEST_TIMEOUT_MS,
  DEFAULT_ROW_LIMIT,
  type DataRequestSpec,
  type RunMeta,
  type RunOptions,
  type RunResult,
  type TruncationReason,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from '../types.js';
import { inferColumns } from '../values.js';
import { pageItems, paginate, shapeResponse } from './pagination/index.js';
import { baseUrl, buildApiRequest, connectionHeaders, type BuiltRequest } from './request-builder.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface ApiSourceOptions {
  /** Cap on one response body (default 20 MiB). */
  maxResponseBytes?: number;
  /** Cap on all pages of one run together (default 100 MiB). */
  maxTotalBytes?: number;
  /** Requests per paginated run at most (default 100), even when `itemsLimit` is 0. */
  maxPages?: number;
  /** Pause between pages (default 0). */
  pageDelayMs?: number;
  /** Retries of a 429 answer, honouring Retry-After within the deadline (default 2). */
  maxRetries?: number;
}

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * HTTP JSON APIs. Every request goes through the outbound
 * client, so the address policy applies to the first URL, every redirect and every page.
 */
export class ApiSource implements Source {
  readonly type = 'api';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.api;
  private readonly options: Required<ApiSourceOptions>;

  constructor(
    private readonly client: OutboundClient,
    options: ApiSourceOptions = {},
  ) {
    this.options = {
      maxResponseBytes: options.maxResponseBytes ?? 20 * 1024 * 1024,
      maxTotalBytes: options.maxTotalBytes ?? 100 * 1024 * 1024,
      maxPages: options.maxPages ?? 100,
      pageDelayMs: options.pageDelayMs ?? 0,
      maxRetries: options.maxRetries ?? 2,
    };
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    const control = new RunControl({ timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal });
    try {
      const headers = { accept: 'application/json', ...connectionHeaders(conn, true) };
      const response = await control.race(this.send(control, { url: baseUrl(conn), method: 'GET', headers, body: undefined }, 0));
      if (response.status >= 300) throw upstreamError(response, conn);
      return { success: true };
    } catch (error) {
      throw control.error ?? toAppError(error, conn);
    } finally {
      control.dispose();
    }
  }

  async schema(): Promise<SourceSchema> {
    return { tables: [] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    const built = buildApiRequest(conn, request, options.variables);
    const control = new RunControl(options);
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;
    const firstOrigin = new URL(built.url).origin;

    const fetchJson = async (url: string): Promise<unknown> => {
      // Credentials stay with the connection's origin (a next-page URL may point elsewhere).
      const headers = new URL(url).origin === firstOrigin ? built.headers : withoutCredentials(built.headers);
      const response = await control.race(this.send(control, { ...built, url, headers }, this.options.maxRetries));
      control.countBytes(response.body.length);
      if (response.status >= 300) throw upstreamError(response, conn);
      return parseJson(response);
    };

    const caps = { pages: this.options.maxPages, bytes: Math.min(this.options.maxTotalBytes, control.byteLimit) };
    try {
      if (request.pagination) {
        const result = await paginate(built.url, request, fetchJson, {
          rowLimit,
          maxPages: caps.pages,
          pageDelayMs: this.options.pageDelayMs,
          maxTotalBytes: caps.bytes,
          bytesRead: () => control.bytesRead,
          sleep: (ms) => control.race(delay(ms, undefined, { signal: control.signal })),
        });
        const meta = { columns: inferColumns(pageItems(result.data).items), rowCount: result.rowCount, truncated: result.truncated, ...truncation(result.truncatedBy, caps) };
        return { data: result.data, meta: { ...meta, durationMs: Math.round(control.elapsedMs()) } };
      }
      const shaped = shapeResponse(await fetchJson(built.url), rowLimit);
      const meta = { columns: inferColumns(pageItems(shaped.data).items), rowCount: shaped.rowCount, truncated: shaped.truncated, ...truncation(shaped.truncated ? 'rows' : undefined, caps) };
      return { data: shaped.data, meta: { ...meta, durationMs: Math.round(control.elapsedMs()) } };
    } catch (error) {
      throw control.error ?? toAppError(error, conn);
    } finally {
      control.dispose();
    }
  }

  /** One request (redirects handled by the client), retrying a 429 when Retry-After fits the deadline. */
  private async send(control: RunControl, request: BuiltRequest, retries: number): Promise<OutboundResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.client.request({
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: control.signal,
        // One answer is held whole: it may not be larger than the run's byte limit either.
        maxBytes: Math.min(this.options.maxResponseBytes, control.byteLimit),
      });
      if (response.status !== 429 || attempt >= retries) return response;
      const waitMs = retryAfterMs(response.headers['retry-after']);
      if (waitMs === undefined || waitMs > control.remainingMs() / 2) return response;
      await control.race(delay(waitMs, undefined, { signal: control.signal }));
    }
  }
}

/** What cut a result, as the run's meta says it. */
/** What cut a run, with the limit that did: `caps` are the page cap and the byte cap the paging ran under. */
function truncation(reason: TruncationReason | undefined, caps: { pages: number; bytes: number }): Pick<RunMeta, 'truncatedBy' | 'byteLimit' | 'pageLimit'> {
  if (reason === undefined) return {};
  if (reason === 'bytes') return { truncatedBy: reason, byteLimit: caps.bytes };
  if (reason === 'pages') return { truncatedBy: reason, pageLimit: caps.pages };
  return { truncatedBy: reason };
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 1_000;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!CREDENTIAL_HEADERS.includes(name.toLowerCase())) out[name] = value;
  return out;
}

function parseJson(response: OutboundResponse): unknown {
  const text = response.body.toString('utf8');
  if (text.trim() === '') return [];
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SourceQueryError(`The API response from ${new URL(response.url).origin} is not JSON`);
  }
}

function upstreamError(response: OutboundResponse, conn: SourceConnection): SourceQueryError {
  const snippet = response.body.toString('utf8', 0, 300).replace(/\s+/g, ' ').trim();
  return new SourceQueryError(redactSecrets(`The API answered HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`, conn));
}

function toAppError(error: unknown, conn: SourceConnection): AppError {
  if (error instanceof AppError) return error;
  return new SourceUnreachableError(redactSecrets(`The HTTP source failed: ${error instanceof Error ? error.message : String(error)}`, conn));
}

