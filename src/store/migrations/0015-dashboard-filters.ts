import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `dashboard_filters`: a dashboard's filters (date range, field condition, variable value), as a
 * validated JSON `configuration`, an `onReport` flag (shown on shared reports) and a `position`.
 * Ids are UUIDs (Chartbrew's clients may choose them). They go with their dashboard (foreign key).
 *
 * `GET /project/{id}` serves them from the serialization kept per view version (migration 0013),
 * so a change to a filter moves its dashboard's `dashboard_view_versions` the same way a change to
 * a chart does: by triggers, for every write path and the cascade too.
 */
export function dashboardFilters(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const json = pg ? 'jsonb' : 'text';
  const ts = pg ? 'timestamptz' : 'text';
  const bool = pg ? 'boolean' : 'integer';
  const falsy = pg ? sql`false` : sql`0`;

  const bump = (projects: string) =>
    `INSERT INTO dashboard_view_versions (project_id, version) SELECT id, 1 FROM projects WHERE id IN (${projects})
       ON CONFLICT (project_id) DO UPDATE SET version = dashboard_view_versions.version + 1;`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('dashboard_filters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('configuration', json, (c) => c.notNull())
        .addColumn('onReport', bool, (c) => c.notNull().defaultTo(falsy))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dashboard_filters_project').on('dashboard_filters').columns(['project_id', 'position']).execute();

      if (pg) {
        await sql
          .raw(
            `CREATE FUNCTION dashboard_filters_bump_view() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${bump('NEW.project_id')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${bump('OLD.project_id, NEW.project_id')}
  ELSE
    ${bump('OLD.project_id')}
  END IF;
  RETURN NULL;
END $$`,
          )
          .execute(db);
        await sql.raw('CREATE TRIGGER dashboard_filters_bump_view AFTER INSERT OR UPDATE OR DELETE ON dashboard_filters FOR EACH ROW EXECUTE FUNCTION dashboard_filters_bump_view()').execute(db);
        return;
      }
      await sql.raw(`CREATE TRIGGER dashboard_filters_insert_bump_view AFTER INSERT ON dashboard_filters BEGIN ${bump('NEW.project_id')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER dashboard_filters_update_bump_view AFTER UPDATE ON dashboard_filters BEGIN ${bump('OLD.project_id, NEW.project_id')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER dashboard_filters_delete_bump_view AFTER DELETE ON dashboard_filters BEGIN ${bump('OLD.project_id')} END`).execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (pg) {
        await sql.raw('DROP TRIGGER dashboard_filters_bump_view ON dashboard_filters').execute(db);
        await sql.raw('DROP FUNCTION dashboard_filters_bump_view()').execute(db);
      } else {
        for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER dashboard_filters_${event}_bump_view`).execute(db);
      }
      await db.schema.dropTable('dashboard_filters').execute();
    },
  };
}
