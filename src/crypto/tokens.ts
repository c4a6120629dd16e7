import { createHash, randomBytes } from 'node:crypto';

/** Prefixes make the kind of a bearer token visible (and greppable by secret scanners). */
// `pli_` (team invitations) never authenticates a request: `tokenKind` leaves it unnamed.
const TOKEN_PREFIX = { session: 'pls_', apiKey: 'plk_', personalKey: 'plu_', invite: 'pli_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

/** A new opaque bearer token: prefix + 256 random bits. Only its hash is stored. */
export function newToken(kind: TokenKind): string {
  return TOKEN_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The kind of a bearer token; undefined for anything else (an invitation token included). */
export function tokenKind(token: string): Exclude<TokenKind, 'invite'> | undefined {
  if (token.startsWith(TOKEN_PREFIX.session)) return 'session';
  if (token.startsWith(TOKEN_PREFIX.apiKey)) return 'apiKey';
  if (token.startsWith(TOKEN_PREFIX.personalKey)) return 'personalKey';
  return undefined;
}

/** A random URL-safe identifier with at least 128 bits (share strings). */
export function randomId(bytes = 18): string {
  return randomBytes(bytes).toString('base64url');
}
