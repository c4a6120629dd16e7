import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream, LoggerOptions } from 'pino';

/** Query parameters whose values never reach a log line. */
const SECRET_QUERY = /^(token|pass|password|key|secret|api_key|apikey|access_token)$/i;

export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of [...params.keys()]) if (SECRET_QUERY.test(name)) params.set(name, '[REDACTED]');
  return `${url.slice(0, at)}?${params.toString()}`;
}

/** Paths pino blanks out in every log object, wherever a secret could travel. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.pass',
  'headers.authorization',
  'headers.cookie',
  'password',
  'token',
  'key',
  'secret',
  '*.password',
  '*.token',
  '*.pass',
  '*.key',
  '*.secret',
  '*.apiKey',
  '*.connectionString',
  '*.authorization',
  '*.private_key',
];

export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req(req: { method: string; url: string; ip?: string; id?: string }) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
    },
    ...(stream ? { stream } : {}),
  };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Honour a sane incoming x-request-id (so ids follow a request across services), else mint one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
