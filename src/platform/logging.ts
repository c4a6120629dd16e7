import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream, LoggerOptions } from 'pino';
import { redactLogObject, redactUrl } from '../redaction/index.js';

/**
 * Every log object is walked for values under secret names (the same rule that masks responses,
 * src/redaction), at any depth; request URLs lose their secret query parameters.
 */
export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    formatters: { log: redactLogObject },
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
