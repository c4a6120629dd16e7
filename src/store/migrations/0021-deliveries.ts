import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Scheduled deliveries: subscriptions of a dashboard or one of its charts (schedule, format,
 * filter state, recipients; Slack and webhook URLs and the signing key encrypted), the history of
 * their deliveries, and the team setting that lets recipients outside the team receive them.
 * A team, a dashboard or a chart that goes takes its subscriptions (and their runs) with it.
 */
export function deliveries(dialect: Dialect) {
  const pg = dialect === 'postgres';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const bool = pg ? 'boolean' : 'integer';
  const ts = pg ? 'timestamptz' : 'text';
  const json = pg ? 'jsonb' : 'text';
  const falsy = pg ? sql`false` : sql`0`;
  const truthy = pg ? sql`true` : sql`1`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('teams').addColumn('allowExternalRecipients', bool, (c) => c.notNull().defaultTo(falsy)).execute();

      await id(db.schema.createTable('subscriptions') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('chart_id', 'integer', (c) => c.references('charts.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('schedule', json, (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('theme', 'text', (c) => c.notNull().defaultTo(sql`'light'`))
        .addColumn('filters', json)
        .addColumn('recipients', json, (c) => c.notNull())
        .addColumn('integration_ids', json, (c) => c.notNull())
        .addColumn('slack_urls', 'text')
        .addColumn('webhook_url', 'text')
        .addColumn('webhook_secret', 'text')
        .addColumn('origin', 'text', (c) => c.notNull().defaultTo(sql`'api'`))
        .addColumn('active', bool, (c) => c.notNull().defaultTo(truthy))
        .addColumn('lastSentAt', ts)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('subscriptions_team').on('subscriptions').column('team_id').execute();
      await db.schema.createIndex('subscriptions_project').on('subscriptions').columns(['project_id', 'chart_id']).execute();

      await id(db.schema.createTable('subscription_runs') as T)
        .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
        .addColumn('team_id', 'integer', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('period', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('startedAt', ts, (c) => c.notNull())
        .addColumn('durationMs', 'integer', (c) => c.notNull())
        .addColumn('dataUpdatedAt', ts)
        .addColumn('deliveries', json, (c) => c.notNull())
        .addColumn('errorMessage', 'text')
        .execute();
      await db.schema.createIndex('subscription_runs_subscription').on('subscription_runs').columns(['subscription_id', 'startedAt']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('subscription_runs').execute();
      await db.schema.dropTable('subscriptions').execute();
      await db.schema.alterTable('teams').dropColumn('allowExternalRecipients').execute();
    },
  };
}
