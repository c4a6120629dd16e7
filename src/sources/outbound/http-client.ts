import type { Agent } from 'undici';
import { AppError } from '../../errors/index.js';
import { SourceDriverUnavailableError, SourceQueryError, SourceResponseTooLargeError, SourceUnreachableError } from '../errors.js';
import type { OutboundPolicy } from './address-policy.js';

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Aborts the request (the run's deadline). */
  signal?: AbortSignal;
  /** Cap on the response body; bigger responses are refused. */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface OutboundClientOptions {
  connectTimeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * The only headers carried to another origin by a redirect. Every other header may come from a
 * connection's secrets or its configured headers (`X-Api-Key`, `X-Auth-Token`, …), whatever it is
 * called, so a cross-origin hop drops it rather than guess by name.
 */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'user-agent', 'content-type']);

/**
 * HTTP client for sources. Every socket is opened by a connector that resolves the host, checks
 * every address against the policy and connects to the checked address itself, so a second DNS
 * answer (rebinding) can never switch the target. Redirects are followed here, one hop at a time,
 * each hop checked again.
 */
export class OutboundClient {
  /** undici and the agent are loaded on the first request: many processes never send one. */
  private client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  private readonly maxRedirects: number;
  private readonly maxBytes: number;
  private readonly connectTimeoutMs: number;

  constructor(
    private readonly policy: OutboundPolicy,
    options: OutboundClientOptions = {},
  ) {
    this.maxRedirects = options.maxRedirects ?? 5;
    this.maxBytes = options.maxBytes ?? 20 * 1024 * 1024;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  }

  private undici(): Promise<{ agent: Agent; request: typeof import('undici').request }> {
    this.client ??= import('undici').then(
      ({ Agent, buildConnector, request }) => {
        const connect = buildConnector({ timeout: this.connectTimeoutMs });
        const agent = new Agent({
          connect: (opts, callback) => {
            this.policy.resolve(opts.hostname).then(
              (addresses) => connect({ ...opts, hostname: addresses[0]!.address }, callback),
              (error: Error) => callback(error, null),
            );
          },
        });
        return { agent, request };
      },
      (error: unknown) => {
        this.client = undefined;
        throw new SourceDriverUnavailableError('HTTP', ['undici'], error);
      },
    );
    return this.client;
  }

  async request(input: OutboundRequest): Promise<OutboundResponse> {
    let url = this.policy.checkUrl(input.url);
    let method = (input.method ?? 'GET').toUpperCase();
    let body = input.body;
    let headers = { ...(input.headers ?? {}) };
    const maxBytes = input.maxBytes ?? this.maxBytes;

    for (let hop = 0; ; hop++) {
      const response = await this.send(url, method, headers, body, input.signal);
      const location = response.headers['location'];
      if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') {
        return { status: response.statusCode, headers: response.headers, body: await readCapped(response.body, response.headers, maxBytes), url: url.toString() };
      }
      await discard(response.body);
      if (hop >= this.maxRedirects) throw new SourceQueryError(`Too many redirects (more than ${this.maxRedirects})`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new SourceQueryError('The source redirected to an invalid URL');
      }
      next = this.policy.checkUrl(next);
      if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers = withoutHeaders(headers, ['content-type', 'content-length']);
      }
      if (next.origin !== url.origin) headers = onlyHeaders(headers, CROSS_ORIGIN_HEADERS);
      url = next;
    }
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    await client?.agent.close();
  }

  private async send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined) {
    const { agent, request } = await this.undici();
    try {
      return await request(url, { method: method as 'GET', headers, body, dispatcher: agent, signal: signal ?? null });
    } catch (error) {
      throw translateHttpError(error, signal);
    }
  }
}

type Body = AsyncIterable<Buffer> & { destroy(error?: Error): unknown; on(event: 'error', listener: () => void): unknown };

/** Frees the socket of a body we do not read; a destroyed body must not raise an unhandled error. */
async function discard(body: Body & { dump?: (options?: { limit: number }) => Promise<void> }): Promise<void> {
  body.on('error', () => undefined);
  if (body.dump) await body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  else body.destroy();
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!names.includes(name.toLowerCase())) out[name] = value;
  return out;
}

function onlyHeaders(headers: Record<string, string>, names: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (names.has(name.toLowerCase())) out[name] = value;
  return out;
}

async function readCapped(
  body: Body,
  headers: Record<string, string | string[] | undefined>,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    void discard(body);
    throw new SourceResponseTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.on('error', () => undefined);
      body.destroy();
      throw new SourceResponseTooLargeError(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function translateHttpError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof AppError) return error;
  // The run's deadline or the caller's abort: RunControl turns it into its own typed error.
  if (signal?.aborted) return signal.reason instanceof AppError ? signal.reason : error;
  const cause = error instanceof Error && error.cause instanceof AppError ? error.cause : undefined;
  if (cause) return cause;
  const code = (error as { code?: string } | null)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  return new SourceUnreachableError(`The HTTP source could not be reached${code ? ` (${code})` : ''}: ${message}`);
}
