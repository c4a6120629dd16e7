import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * A claim follows its refresh: `enqueued` (handed to the queue at `enqueuedAt`, `attempts` times),
 * `running` (a worker took it, at `startedAt`), then `done` or `failed`. The scheduler finds
 * claims still `enqueued` long after they were handed over and not in the queue (a Redis that
 * restarted empty) and hands them over again; `team_id` rebuilds the job. Claims made before
 * this migration had moved their dashboard's `lastUpdatedAt` already: they count as `done`.
 */
export function refreshClaimState(dialect: Dialect) {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text';
  const columns = ['state', 'team_id', 'enqueuedAt', 'startedAt', 'attempts'] as const;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds one column per ALTER TABLE.
      await db.schema.alterTable('refresh_claims').addColumn('state', 'text', (c) => c.notNull().defaultTo(sql`'done'`)).execute();
      await db.schema.alterTable('refresh_claims').addColumn('team_id', 'integer').execute();
      await db.schema.alterTable('refresh_claims').addColumn('enqueuedAt', ts).execute();
      await db.schema.alterTable('refresh_claims').addColumn('startedAt', ts).execute();
      await db.schema.alterTable('refresh_claims').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.createIndex('refresh_claims_state').on('refresh_claims').columns(['state', 'enqueuedAt']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('refresh_claims_state').execute();
      for (const column of [...columns].reverse()) await db.schema.alterTable('refresh_claims').dropColumn(column).execute();
    },
  };
}
