import { ValidationError } from '../../errors/index.js';
import { optionPairs } from '../connection-options.js';
import type { DataRequestSpec, ResolvedVariables, SourceConnection } from '../types.js';
import { compileHeader, compileJsonBody, compileRoute } from '../variables/api.js';

export interface BuiltRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** host + port + nothing else: `https://api.example.com` + `:8443`. */
export function baseUrl(conn: SourceConnection): string {
  const host = (conn.host ?? '').trim().replace(/\/+$/, '');
  if (!host) throw ValidationError.field('host', 'is required for an HTTP API connection');
  const port = (conn.port ?? '').trim();
  if (!port) return host;
  return /^\d+$/.test(port) ? `${host}:${port}` : `${host}${port}`;
}

/** The connection's own headers: global headers from `options`, then authentication. */
export function connectionHeaders(conn: SourceConnection, useGlobalHeaders: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (useGlobalHeaders) {
    for (const [name, value] of optionPairs(conn.options)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value)) {
        throw ValidationError.field('options', `global header "${name}" is not a valid header`);
      }
      headers[name] = value;
    }
  }
  const auth = conn.authentication;
  if (auth?.type === 'bearer_token' && auth.token) {
    if (/[\r\n\0]/.test(auth.token)) throw ValidationError.field('authentication.token', 'cannot contain line breaks');
    setHeader(headers, 'Authorization', `Bearer ${auth.token}`);
  } else if (auth?.type === 'basic_auth' && (auth.user || auth.pass)) {
    setHeader(headers, 'Authorization', `Basic ${Buffer.from(`${auth.user ?? ''}:${auth.pass ?? ''}`).toString('base64')}`);
  }
  return headers;
}

function headerEntries(headers: DataRequestSpec['headers']): Array<[string, string]> {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.filter((h) => h && h.key).map((h) => [h.key, h.value ?? '']);
  return Object.entries(headers).map(([key, value]) => [key, value === null || value === undefined ? '' : String(value)]);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === lower);
}

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  headers[name] = value;
}

/**
 * The HTTP request a data request stands for, variables compiled per context: URL-encoded in the
 * route, checked text in headers, typed JSON values in the body. Global headers (sent when
 * `useGlobalHeaders` is not false) win over the request's own on a name clash; authentication is
 * always sent.
 */
export function buildApiRequest(conn: SourceConnection, request: DataRequestSpec, variables: ResolvedVariables | undefined): BuiltRequest {
  const route = compileRoute((request.route ?? '').trim(), variables);
  const separator = route === '' || route.startsWith('/') || route.startsWith('?') ? '' : '/';
  const url = `${baseUrl(conn)}${separator}${route}`;
  const method = (request.method || 'GET').toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw ValidationError.field('method', 'must be an HTTP method');

  const global = connectionHeaders(conn, request.useGlobalHeaders !== false);
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [rawName, rawValue] of headerEntries(request.headers)) {
    const compiled = compileHeader(rawName, rawValue, variables);
    if (!compiled) continue;
    const [name, value] = compiled;
    if (!hasHeader(global, name)) setHeader(headers, name, value);
  }
  for (const [name, value] of Object.entries(global)) setHeader(headers, name, value);

  let body: string | undefined;
  if (request.body && request.body.trim() && method !== 'GET' && method !== 'HEAD') {
    body = compileJsonBody(request.body, variables);
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
  }
  return { url, method, headers, body };
}
