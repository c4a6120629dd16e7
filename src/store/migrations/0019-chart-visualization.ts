import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `charts.visualization`: Chartbrew's v2 chart spec (layers, encodings, transforms) as a client
 * last saved it. NULL for every existing chart: its spec is derived from its dataset configs when
 * read, as Chartbrew's legacy conversion does. The dataset configs stay what charts are computed
 * from; a saved spec is written onto them (src/modules/dashboards/chart-visualization-write.ts).
 *
 * `chart_templates`: a chart saved as a reusable template, per team. `project_id` is the dashboard
 * it was saved from (its access decides who sees the template); a deleted dashboard leaves it
 * without one, for team-wide roles only.
 */
export function chartVisualization(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const json = pg ? 'jsonb' : 'text';
  const ts = pg ? 'timestamptz' : 'text';
  type T = CreateTableBuilder<string, never>;
  const id = (t: T) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').addColumn('visualization', json).execute();
      await id(db.schema.createTable('chart_templates') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('model', json, (c) => c.notNull())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chart_templates_team_id').on('chart_templates').column('team_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('chart_templates').execute();
      await db.schema.alterTable('charts').dropColumn('visualization').execute();
    },
  };
}
