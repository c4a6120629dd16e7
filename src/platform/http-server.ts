import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface HttpServerLimits {
  /** Whole request (headers and body); a slower client is answered 408 and disconnected. */
  requestTimeoutMs: number;
  /** Open connections per client address; 0 turns the cap off. */
  maxConnectionsPerAddress: number;
}

/**
 * The HTTP server under Fastify, with limits Node leaves loose by default: a request may take 300 s
 * to arrive and one address may hold any number of sockets, so a few slow clients could tie the
 * server up. Timeouts are checked every second rather than every 30 s.
 */
export function createHttpServer(handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>, limits: HttpServerLimits): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.requestTimeoutMs, 10_000),
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
    },
    handler,
  );
  if (limits.maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  return server;
}

function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; error: string; code: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', error: 'The request line or headers are too large (at most 16 KiB); send long inputs in a POST body', code: 'HEADERS_TOO_LARGE' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', error: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' },
};

/**
 * Errors Node's HTTP parser raises before a request reaches Fastify (an oversized request line, a
 * request that never finishes arriving) answer the same `{error, code}` JSON as everything else.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', error: 'The request is not valid HTTP', code: 'BAD_REQUEST' };
  const body = JSON.stringify({ error: known.error, code: known.code });
  socket.end(
    `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
