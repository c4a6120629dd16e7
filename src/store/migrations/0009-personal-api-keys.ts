import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Personal API keys: a key that acts as its user in every team the user belongs to, optionally
 * capped by a role ceiling. Team keys stay in `api_keys`.
 */
export function personalApiKeys(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const ts = pg ? 'timestamptz' : 'text';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('personal_api_keys') as T)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role_ceiling', 'text')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('lastUsedAt', ts)
        .execute();
      await db.schema.createIndex('personal_api_keys_user_id').on('personal_api_keys').column('user_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('personal_api_keys').execute();
    },
  };
}
