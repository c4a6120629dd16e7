import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, UnauthorizedError } from '../errors/index.js';
import type { Actor } from './actor.js';
import type { BrowserSessions } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export interface Authenticator {
  authenticate(token: string): Promise<Actor | undefined>;
}

/**
 * onRequest hook: `Authorization: Bearer <token>` -> request.actor, or a 401. Without the header,
 * the editor's session cookie (a session token only) authenticates, and then a write must come
 * from a configured origin (BASE_URL, APP_URL; see session-cookie.ts).
 */
export function bearerAuth(authenticator: Authenticator, sessions: BrowserSessions) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    if (!header) {
      const cookie = sessions.read(request);
      if (cookie === undefined) throw new UnauthorizedError('Missing Authorization header; send "Authorization: Bearer <token>"');
      sessions.requireSameOrigin(request);
      const actor = await authenticator.authenticate(cookie);
      // Only a session may live in the cookie; an API key there is refused like an expired session.
      if (!actor || actor.kind !== 'user' || actor.sessionId === null) throw new UnauthorizedError('Session is invalid or expired; log in again', 'INVALID_TOKEN');
      request.actor = actor;
      return;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthorizedError('Authorization header must be "Bearer <token>"', 'INVALID_TOKEN');
    const actor = await authenticator.authenticate(match[1]!);
    if (!actor) throw new UnauthorizedError('Token is invalid, expired or revoked', 'INVALID_TOKEN');
    request.actor = actor;
  };
}

/**
 * For routes that members and anonymous viewers share (a report's filter run): a bearer token is
 * checked as everywhere (a bad one is a 401); without one, a valid session cookie from our own
 * origin makes the caller a member, and anything less leaves them anonymous, to be let in by the
 * route's own rules (a share token), never refused for a stale cookie.
 */
export function optionalAuth(authenticator: Authenticator, sessions: BrowserSessions) {
  const required = bearerAuth(authenticator, sessions);
  return async function authenticateIfAny(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.headers.authorization) return required(request, reply);
    if (sessions.read(request) === undefined) return;
    try {
      await required(request, reply);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      request.actor = null;
    }
  };
}

/** The authenticated actor of a route registered in the authenticated scope. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError();
  return request.actor;
}
