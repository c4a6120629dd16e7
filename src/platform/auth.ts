import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors/index.js';
import type { Actor } from './actor.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export interface Authenticator {
  authenticate(token: string): Promise<Actor | undefined>;
}

/** onRequest hook: `Authorization: Bearer <token>` -> request.actor, or a 401. */
export function bearerAuth(authenticator: Authenticator) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    if (!header) throw new UnauthorizedError('Missing Authorization header; send "Authorization: Bearer <token>"');
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
