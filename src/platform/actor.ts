import type { Role } from './authorization.js';

/** Who is calling: a signed-in user (session token) or a team API key. */
export type Actor =
  | { readonly kind: 'user'; readonly userId: number; readonly sessionId: number }
  | {
      readonly kind: 'apiKey';
      readonly keyId: number;
      /** The user who created the key, if still present (null once that user is deleted). */
      readonly userId: number | null;
      readonly teamId: number;
      readonly role: Role;
      readonly projects: readonly number[];
    };
