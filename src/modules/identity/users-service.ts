import type { PasswordHasher } from '../../crypto/passwords.js';
import { hashToken, newToken, tokenKind } from '../../crypto/tokens.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { lesserGrant, type Role } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import type { ApiKeysRepository } from './api-keys-repository.js';
import type { TeamsRepository } from './teams-repository.js';
import type { User, UsersRepository } from './users-repository.js';
import type { Me } from './users-schemas.js';

export const SESSION_DAYS = 30;
const TOUCH_EVERY_MS = 60_000;
/**
 * After `POST /user/relog`, the session it renewed still works this long: requests already in
 * flight with it, and other tabs of the same app renewing at the same moment, are not cut off.
 */
export const RELOG_GRACE_MS = 5 * 60_000;

export interface Signup {
  name: string;
  email: string;
  password: string;
}

export interface UserWithToken extends User {
  token: string;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A normalized address (normalizeEmail) that looks like an e-mail address. */
export function isEmail(email: string): boolean {
  return EMAIL.test(email);
}

export interface UsersDeps {
  db: Db;
  users: UsersRepository;
  teams: TeamsRepository;
  apiKeys: ApiKeysRepository;
  passwords: PasswordHasher;
  signup: 'open' | 'closed';
}

export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  /** Sign-up over HTTP: honours PLOTLINE_SIGNUP and opens a first session. */
  async register(input: Signup): Promise<UserWithToken> {
    if (this.deps.signup === 'closed' && (await this.deps.users.count()) > 0) {
      throw new ForbiddenError('Sign-up is closed on this server; ask an administrator for an account', 'SIGNUP_CLOSED');
    }
    const token = newToken('session');
    const user = await this.createUser(input, token);
    return { ...user, token };
  }

  /**
   * Creates the user and a team "<name>'s team" they own, in one transaction; with a token,
   * also a session for it. The CLI calls this directly (sign-up policy does not apply offline).
   */
  async createUser(input: Signup, sessionToken?: string): Promise<User> {
    return this.insertUser(input, sessionToken, async (user, trx) => {
      await this.deps.teams.create({ name: `${user.name}'s team` }, user.id, trx);
    });
  }

  /**
   * Sign-up through a team invitation: `join` puts the new user into the inviting team (and marks
   * the invitation used) in the user's own transaction, instead of a personal team. PLOTLINE_SIGNUP
   * does not apply: a member who may manage the team let this person in.
   */
  async registerInvited(input: Signup, join: (userId: number, trx: Db) => Promise<void>): Promise<UserWithToken> {
    const token = newToken('session');
    const user = await this.insertUser(input, token, (created, trx) => join(created.id, trx));
    return { ...user, token };
  }

  private async insertUser(input: Signup, sessionToken: string | undefined, then: (user: User, trx: Db) => Promise<void>): Promise<User> {
    const email = normalizeEmail(input.email);
    if (!isEmail(email)) throw ValidationError.field('body.email', 'must be an email address');
    const name = input.name.trim();
    if (name === '') throw ValidationError.field('body.name', 'must not be empty');
    if (input.password.length < 8) throw ValidationError.field('body.password', 'must be at least 8 characters');
    if (await this.deps.users.findByEmail(email)) throw new ConflictError('This email is already registered', 'EMAIL_TAKEN');
    const passwordHash = await this.deps.passwords.hash(input.password);
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const user = await this.deps.users.create({ name, email, passwordHash }, trx);
        await then(user, trx);
        if (sessionToken) await this.deps.users.createSession(user.id, hashToken(sessionToken), sessionExpiry(), trx);
        return user;
      });
    } catch (err) {
      // Two sign-ups for one email racing each other: the unique index decides.
      if (await this.deps.users.findByEmail(email)) throw new ConflictError('This email is already registered', 'EMAIL_TAKEN');
      throw err;
    }
  }

  async login(emailInput: string, password: string): Promise<UserWithToken> {
    const user = await this.deps.users.findByEmail(normalizeEmail(emailInput));
    const ok = await this.deps.passwords.verify(password, user?.passwordHash ?? (await this.deps.passwords.dummyHash()));
    if (!user || !ok) throw new UnauthorizedError('Email or password is incorrect', 'INVALID_CREDENTIALS');
    const token = newToken('session');
    await this.deps.users.createSession(user.id, hashToken(token), sessionExpiry());
    return { id: user.id, name: user.name, email: user.email, createdAt: user.createdAt, token };
  }

  /**
   * `POST /user/relog` (Chartbrew's web app calls it on every start): a new 30-day session for the
   * caller's, which ends RELOG_GRACE_MS later. Only a session is renewed; API keys are not sessions.
   */
  async relog(actor: Actor): Promise<UserWithToken> {
    if (actor.kind !== 'user' || actor.sessionId === null) {
      throw new UnauthorizedError('Only a session can be renewed; log in for one (API keys are not sessions)', 'SESSION_REQUIRED');
    }
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new UnauthorizedError('Session is invalid or expired; log in again', 'INVALID_TOKEN');
    const token = newToken('session');
    const previous = actor.sessionId;
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.users.createSession(user.id, hashToken(token), sessionExpiry(), trx);
      await this.deps.users.expireSessionBy(previous, new Date(Date.now() + RELOG_GRACE_MS), trx);
    });
    return { ...user, token };
  }

  /** `GET /app/users`: whether anyone has signed up yet (Chartbrew's app then shows login, else sign-up). */
  async anyUsers(): Promise<boolean> {
    return (await this.deps.users.count()) > 0;
  }

  async logout(actor: Actor): Promise<void> {
    if (actor.kind !== 'user' || actor.sessionId === null) throw new ForbiddenError('API keys cannot log out; delete the key instead');
    await this.deps.users.deleteSession(actor.sessionId);
  }

  /** The caller: the signed-in user (and the personal key they call with), or the team key itself. */
  async me(actor: Actor): Promise<Me> {
    if (actor.kind === 'apiKey') {
      // A team key is not its creator: it shows itself, never the creator's name or e-mail.
      return {
        id: actor.keyId,
        name: actor.keyName,
        createdAt: actor.createdAt,
        apiKey: { id: actor.keyId, name: actor.keyName, type: 'team', team_id: actor.teamId, role: actor.role, projects: [...actor.projects] },
      };
    }
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User');
    const key = actor.personalKey;
    return key ? { ...user, apiKey: { id: key.id, name: key.name, type: 'personal', team_id: null, role: key.ceiling, projects: [] } } : user;
  }

  /** Resolves a bearer token to an actor, or undefined when it is unknown, expired or revoked. */
  async authenticate(token: string): Promise<Actor | undefined> {
    const kind = tokenKind(token);
    if (kind === 'session') {
      const session = await this.deps.users.findSession(hashToken(token));
      if (!session) return undefined;
      if (stale(session.lastUsedAt)) await this.deps.users.touchSession(session.sessionId);
      return { kind: 'user', userId: session.userId, sessionId: session.sessionId };
    }
    if (kind === 'personalKey') {
      const key = await this.deps.apiKeys.findPersonalByHash(hashToken(token));
      if (!key) return undefined;
      if (stale(key.lastUsedAt)) await this.deps.apiKeys.touchPersonal(key.id);
      return { kind: 'user', userId: key.userId, sessionId: null, personalKey: { id: key.id, name: key.name, ceiling: key.ceiling } };
    }
    if (kind === 'apiKey') {
      const key = await this.deps.apiKeys.findByHash(hashToken(token));
      if (!key) return undefined;
      // Checked on every request: a key has at most its creator's current rights in the team. A
      // creator who left the team takes the key's rights along (their keys are also deleted then).
      let grant: { role: Role; projects: readonly number[] } = { role: key.role, projects: key.projects };
      if (key.createdBy !== null) {
        if (!key.creatorGrant) return undefined;
        const capped = lesserGrant(grant, key.creatorGrant);
        grant = { role: capped.role, projects: capped.projects ?? [] };
      }
      if (stale(key.lastUsedAt)) await this.deps.apiKeys.touch(key.id);
      return { kind: 'apiKey', keyId: key.id, keyName: key.name, createdAt: key.createdAt, userId: key.createdBy, teamId: key.team_id, ...grant };
    }
    return undefined;
  }
}

function sessionExpiry(): Date {
  return new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
}

function stale(lastUsedAt: string | null): boolean {
  return lastUsedAt === null || Date.now() - new Date(lastUsedAt).getTime() > TOUCH_EVERY_MS;
}
