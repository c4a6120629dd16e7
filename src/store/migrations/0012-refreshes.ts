import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Scheduled refreshes: claims (one row per dashboard or chart and period, so exactly one process
 * runs it), run history (one row per refresh and one per chart in it), alerts and their events.
 */
export function refreshes(dialect: Dialect) {
  const pg = dialect === 'postgres';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const bool = pg ? 'boolean' : 'integer';
  const json = pg ? 'jsonb' : 'text';
  const ts = pg ? 'timestamptz' : 'text';
  const falsy = pg ? sql`false` : sql`0`;
  const truthy = pg ? sql`true` : sql`1`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await (db.schema.createTable('refresh_claims') as T)
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('claimedAt', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('refresh_claims_pk', ['entity_type', 'entity_id', 'period'])
        .execute();
      await db.schema.createIndex('refresh_claims_claimed_at').on('refresh_claims').column('claimedAt').execute();

      await id(db.schema.createTable('refresh_runs') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('chart_id', 'integer')
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('startedAt', ts, (c) => c.notNull())
        .addColumn('durationMs', 'integer', (c) => c.notNull())
        .addColumn('errorCode', 'text')
        .addColumn('errorMessage', 'text')
        .execute();
      await db.schema.createIndex('refresh_runs_project').on('refresh_runs').columns(['project_id', 'startedAt']).execute();
      await db.schema.createIndex('refresh_runs_started').on('refresh_runs').column('startedAt').execute();

      await id(db.schema.createTable('refresh_run_charts') as T)
        .addColumn('run_id', 'integer', (c) => c.notNull().references('refresh_runs.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull())
        .addColumn('chart_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('paths', json)
        .addColumn('rowsRead', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cacheHit', bool, (c) => c.notNull().defaultTo(falsy))
        .addColumn('durationMs', 'integer', (c) => c.notNull())
        .addColumn('errorCode', 'text')
        .addColumn('errorMessage', 'text')
        .execute();
      await db.schema.createIndex('refresh_run_charts_run').on('refresh_run_charts').column('run_id').execute();
      await db.schema.createIndex('refresh_run_charts_chart').on('refresh_run_charts').columns(['chart_id', 'run_id']).execute();

      await id(db.schema.createTable('alerts') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull())
        .addColumn('chart_id', 'integer', (c) => c.notNull().references('charts.id').onDelete('cascade'))
        .addColumn('cdc_id', 'text')
        .addColumn('name', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('rules', json)
        .addColumn('recipients', json)
        .addColumn('mediums', json)
        .addColumn('webhook_secret', 'text')
        .addColumn('active', bool, (c) => c.notNull().defaultTo(truthy))
        .addColumn('timeout', 'integer', (c) => c.notNull().defaultTo(600))
        .addColumn('lastTriggeredAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alerts_chart').on('alerts').column('chart_id').execute();

      await id(db.schema.createTable('alert_events') as T)
        .addColumn('alert_id', 'integer', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
        .addColumn('chart_id', 'integer', (c) => c.notNull())
        .addColumn('run_id', 'integer')
        .addColumn('value', pg ? 'double precision' : 'real')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('deliveries', json)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alert_events_alert').on('alert_events').columns(['alert_id', 'createdAt']).execute();
    },
  };
}
