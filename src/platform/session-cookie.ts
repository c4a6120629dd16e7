import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors/index.js';

/**
 * The editor's session lives in this cookie: HttpOnly (page scripts never see the token),
 * SameSite=Strict (no other site's page can make the browser send it) and Secure when the request
 * came over https. Every other client keeps sending `Authorization: Bearer`.
 */
export const SESSION_COOKIE = 'plotline_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session token from the Cookie header, or undefined. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[\w.~-]{1,512}$/.test(value) ? value : undefined;
  }
  return undefined;
}

function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const attributes = [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (request.protocol === 'https') attributes.push('Secure');
  return attributes.join('; ');
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.header('set-cookie', cookie(request, token, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('set-cookie', cookie(request, '', 0));
}

/**
 * CSRF defence for cookie-authenticated writes: the browser's `Origin` must be this server's own
 * origin (as the request reached it) or APP_URL's. Browsers always send Origin on cross-origin and
 * non-GET same-origin fetches; a write without one is refused.
 */
export function requireSameOrigin(request: FastifyRequest, appUrl: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === '' || origin === 'null') {
    throw new ForbiddenError('Cookie-authenticated writes need an Origin header from this server\'s own pages', 'CSRF_ORIGIN_REQUIRED');
  }
  const own = `${request.protocol}://${request.host}`;
  let app: string;
  try {
    app = new URL(appUrl).origin;
  } catch {
    app = own;
  }
  if (origin !== own && origin !== app) {
    throw new ForbiddenError(`Origin ${origin} may not write with this server's session cookie`, 'CSRF_ORIGIN_MISMATCH');
  }
}
