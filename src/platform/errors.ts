import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from '../errors/index.js';
import type { ErrorBody } from './http-schemas.js';

interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `body/name must be string` -> `{path: "body.name", message: "must be string"}`. */
function validationDetails(context: string, errors: AjvLikeError[]): ErrorDetail[] {
  return errors.map((err) => {
    const segments = (err.instancePath ?? '').split('/').filter(Boolean);
    const missing = err.params?.['missingProperty'];
    if (err.keyword === 'required' && typeof missing === 'string') segments.push(missing);
    // A union told apart by a property (`type`) whose value names no branch: that property is wrong.
    const tag = err.params?.['tag'];
    if (err.keyword === 'discriminator' && typeof tag === 'string') segments.push(tag);
    const path = [context, ...segments].join('.');
    const message = err.keyword === 'required' ? 'is required' : err.keyword === 'discriminator' ? 'must name one of the kinds allowed here' : (err.message ?? 'is invalid');
    return { path, message };
  });
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'Body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'Body is not valid JSON' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Uploaded file is too large' },
  FST_PARTS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Too many parts in the upload' },
  FST_FILES_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Too many files in the upload' },
  FST_FIELDS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Too many fields in the upload' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 400, code: 'BAD_REQUEST', message: 'Expected a multipart/form-data body' },
};

function render(error: FastifyError | AppError | Error): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: { error: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) },
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const details = validationDetails(fastifyError.validationContext ?? 'request', fastifyError.validation as AjvLikeError[]);
    const first = details[0];
    return {
      status: 400,
      body: { error: first ? `${first.path} ${first.message}` : 'Invalid request', code: 'VALIDATION_FAILED', details },
    };
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return { status: known.status, body: { error: known.message ?? fastifyError.message, code: known.code } };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: { error: 'Body is not valid JSON', code: 'INVALID_JSON' } };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { error: fastifyError.message, code: status === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST' } };
  }
  return { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } };
}

/** One handler for every error: `{error, code, details?}`, never a stack trace, 5xx details only in the log. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = render(error);
    // A busy or unreachable dependency is expected under load or an outage: one line, no stack.
    if (status === 503) request.log.warn({ code: body.code, status }, body.error);
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, body.error);
    if (headers) void reply.headers(headers);
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply.status(404).send({ error: `Route ${request.method} ${path} not found`, code: 'ROUTE_NOT_FOUND' });
  });
}
