import type { Role } from './authorization.js';

/**
 * Who is calling: a user (through a session or one of their personal API keys) or a team API key.
 * A key's rights are at most its creator's current rights: a personal key is its user with an
 * optional role ceiling; a team key's `role` and `projects` are already capped by its creator's
 * membership at the time of the request.
 */
export type Actor =
  | {
      readonly kind: 'user';
      readonly userId: number;
      /** The session, or null when the user acts through a personal API key. */
      readonly sessionId: number | null;
      readonly personalKey?: { readonly id: number; readonly name: string; readonly ceiling: Role | null };
    }
  | {
      readonly kind: 'apiKey';
      readonly keyId: number;
      readonly keyName: string;
      readonly createdAt: string;
      /** The user who created the key (null when minted by the CLI, or once that user is deleted). */
      readonly userId: number | null;
      readonly teamId: number;
      readonly role: Role;
      readonly projects: readonly number[];
    };
