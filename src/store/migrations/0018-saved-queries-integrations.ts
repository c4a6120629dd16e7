import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Saved queries (a team's reusable query texts, per connection type) and integrations (alert
 * channels: webhooks and Slack incoming webhooks, their URL and signing key encrypted), with the
 * link of an alert to the integrations it notifies. A team, a user, an alert or an integration
 * that goes takes its rows with it.
 */
export function savedQueriesIntegrations(dialect: Dialect) {
  const pg = dialect === 'postgres';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const bool = pg ? 'boolean' : 'integer';
  const ts = pg ? 'timestamptz' : 'text';
  const falsy = pg ? sql`false` : sql`0`;
  const truthy = pg ? sql`true` : sql`1`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('saved_queries') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('summary', 'text')
        .addColumn('query', 'text')
        .addColumn('type', 'text')
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('saved_queries_team').on('saved_queries').columns(['team_id', 'type']).execute();

      await id(db.schema.createTable('integrations') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('slackMode', bool, (c) => c.notNull().defaultTo(falsy))
        .addColumn('webhook_secret', 'text', (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('integrations_team').on('integrations').column('team_id').execute();

      await id(db.schema.createTable('alert_integrations') as T)
        .addColumn('alert_id', 'integer', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
        .addColumn('integration_id', 'integer', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
        .addColumn('enabled', bool, (c) => c.notNull().defaultTo(truthy))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .addUniqueConstraint('alert_integrations_pair', ['alert_id', 'integration_id'])
        .execute();
      await db.schema.createIndex('alert_integrations_integration').on('alert_integrations').column('integration_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('alert_integrations').execute();
      await db.schema.dropTable('integrations').execute();
      await db.schema.dropTable('saved_queries').execute();
    },
  };
}
