import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Team invitations: what joining grants (role, projects, canExport), for whom (an e-mail or
 * anyone holding the link), until when, and whether it was used or revoked. The link's token is
 * stored as its SHA-256 hash only. Rows stay after use or revocation, so that a second use of a
 * link says what happened to it.
 */
export function invitations(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const ts = pg ? 'timestamptz' : 'text';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('team_invitations') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('email', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('projects', pg ? 'jsonb' : 'text')
        .addColumn('canExport', pg ? 'boolean' : 'integer', (c) => c.notNull().defaultTo(pg ? sql`false` : sql`0`))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .addColumn('usedAt', ts)
        .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('revokedAt', ts)
        .execute();
      await db.schema.createIndex('team_invitations_team_id').on('team_invitations').column('team_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('team_invitations').execute();
    },
  };
}
