import type { Db } from '../../store/index.js';
import { now, toIso } from '../../store/columns.js';
import type { UserRow } from '../../store/types.js';

export interface User {
  id: number;
  name: string;
  email: string;
  createdAt: string;
}

export interface UserWithHash extends User {
  passwordHash: string;
}

function toUser(row: Pick<UserRow, 'id' | 'name' | 'email' | 'createdAt'>): User {
  return { id: row.id, name: row.name, email: row.email, createdAt: toIso(row.createdAt) };
}

export interface SessionPrincipal {
  sessionId: number;
  userId: number;
  lastUsedAt: string | null;
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').select(['id', 'name', 'email', 'createdAt']).where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<UserWithHash | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row && { ...toUser(row), passwordHash: row.password_hash };
  }

  async create(input: { name: string; email: string; passwordHash: string }, db: Db = this.db): Promise<User> {
    const at = now();
    const row = await db
      .insertInto('users')
      .values({ name: input.name, email: input.email, password_hash: input.passwordHash, createdAt: at, updatedAt: at })
      .returning(['id', 'name', 'email', 'createdAt'])
      .executeTakeFirstOrThrow();
    return toUser(row);
  }

  async createSession(userId: number, tokenHash: string, expiresAt: Date, db: Db = this.db): Promise<void> {
    await db
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: tokenHash, createdAt: now(), expiresAt: expiresAt.toISOString() })
      .execute();
  }

  async findSession(tokenHash: string): Promise<SessionPrincipal | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expiresAt', 'lastUsedAt'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return undefined;
    return { sessionId: row.id, userId: row.user_id, lastUsedAt: toIso(row.lastUsedAt) };
  }

  async touchSession(sessionId: number): Promise<void> {
    await this.db.updateTable('sessions').set({ lastUsedAt: now() }).where('id', '=', sessionId).execute();
  }

  /** Ends the session at `at` at the latest (an earlier expiry stays). */
  async expireSessionBy(sessionId: number, at: Date, db: Db = this.db): Promise<void> {
    const until = at.toISOString();
    await db.updateTable('sessions').set({ expiresAt: until }).where('id', '=', sessionId).where('expiresAt', '>', until).execute();
  }

  async deleteSession(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }
}
