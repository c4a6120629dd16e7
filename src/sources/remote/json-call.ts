import { AppError } from '../../errors/index.js';
import { SourceQueryError, SourceUnreachableError } from '../errors.js';
import type { OutboundClient } from '../outbound/http-client.js';
import { redactSecrets } from '../redact.js';
import type { RunControl } from '../run-control.js';
import type { SourceConnection } from '../types.js';

/*
 * One JSON request to a provider's REST API (Firestore, Realtime Database, Google Analytics,
 * Customer.io), through the outbound client (so the address policy applies to every request) under
 * the run's deadline. Provider answers are translated once, here, into typed errors:
 *   401/403 -> 400 SOURCE_QUERY_FAILED naming the credential that was refused,
 *   other 4xx -> 400 SOURCE_QUERY_FAILED with the provider's own message,
 *   5xx / not JSON -> 502 SOURCE_UNREACHABLE.
 */

export interface JsonRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is (with its own content-type header). */
  body?: unknown;
}

export interface JsonAnswer {
  status: number;
  json: unknown;
  headers?: Record<string, string | string[] | undefined>;
}

/** What a provider calls itself in messages, and which credential a 401/403 refers to. */
export interface ProviderLabel {
  name: string;
  credential: string;
}

const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

export async function sendJson(client: OutboundClient, control: RunControl, request: JsonRequest, maxBytes = MAX_RESPONSE_BYTES): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (typeof request.body === 'string') body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  // An answer is held whole: it may not be larger than the run's byte limit either.
  const response = await control.race(
    client.request({ url: request.url, method: request.method ?? 'GET', headers, body, signal: control.signal, maxBytes: Math.min(maxBytes, control.byteLimit) }),
  );
  control.countBytes(response.body.length);
  const text = response.body.toString('utf8');
  let json: unknown = undefined;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
  }
  if (json === undefined && response.status < 300 && text.trim() !== '') {
    throw new SourceUnreachableError(`The answer from ${new URL(response.url).origin} is not JSON (HTTP ${response.status})`);
  }
  return { status: response.status, json: json ?? (text.trim() === '' ? null : text.slice(0, 300)), headers: response.headers };
}

/** The provider's own error message from the usual JSON error shapes. */
export function providerMessage(json: unknown): string {
  if (typeof json === 'string') return json.replace(/\s+/g, ' ').trim();
  if (!json || typeof json !== 'object') return '';
  const body = json as Record<string, unknown>;
  const error = body['error'];
  // Google APIs: {error: {code, message, status}}
  if (error && typeof error === 'object') {
    const e = error as Record<string, unknown>;
    return [e['status'], e['message']].filter((x) => typeof x === 'string' && x).join(': ');
  }
  // OAuth token endpoint: {error: "invalid_grant", error_description}; RTDB: {error: "..."}
  if (typeof error === 'string') return [error, body['error_description']].filter((x) => typeof x === 'string' && x).join(': ');
  // Customer.io: {meta: {error}} or {errors: [{detail}]}
  const meta = body['meta'];
  if (meta && typeof meta === 'object' && typeof (meta as Record<string, unknown>)['error'] === 'string') return String((meta as Record<string, unknown>)['error']);
  const errors = body['errors'];
  if (Array.isArray(errors) && errors[0] && typeof errors[0] === 'object') {
    const first = errors[0] as Record<string, unknown>;
    return String(first['detail'] ?? first['message'] ?? '');
  }
  return typeof body['message'] === 'string' ? body['message'] : '';
}

/** The typed error for a provider answer that is not a success. */
export function providerError(label: ProviderLabel, answer: JsonAnswer, conn: SourceConnection | undefined, secrets: readonly string[] = []): AppError {
  const message = redactSecrets(providerMessage(answer.json).slice(0, 500), conn, secrets);
  const suffix = message ? `: ${message}` : '';
  if (answer.status === 401 || answer.status === 403) {
    return new SourceQueryError(`${label.name} refused the ${label.credential} (HTTP ${answer.status})${suffix}`, [{ path: 'connection', message: `${label.credential} refused` }]);
  }
  if (answer.status >= 500) return new SourceUnreachableError(`${label.name} failed (HTTP ${answer.status})${suffix}`);
  return new SourceQueryError(`${label.name} answered HTTP ${answer.status}${suffix}`);
}

/** Anything that is not already typed (a network error the client did not translate) is a 502. */
export function asSourceError(error: unknown, label: ProviderLabel, conn: SourceConnection | undefined): AppError {
  if (error instanceof AppError) return error;
  return new SourceUnreachableError(redactSecrets(`${label.name} could not be reached: ${error instanceof Error ? error.message : String(error)}`, conn));
}
