import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors/index.js';
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

/** The authenticated actor of a route registered in the authenticated scope. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError();
  return request.actor;
}
