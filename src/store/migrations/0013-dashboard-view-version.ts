import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `projects.view_version`: a counter that moves whenever anything a dashboard's view is built
 * from changes — one of its charts, one of their dataset configs, or one of its own share
 * policies. Triggers bump it, not the services, so that every write path counts, the ones added
 * later and the foreign-key cascades too (deleting a dataset removes configs from charts of
 * several dashboards). `GET /project/{id}` reads it with the dashboard and serves the charts it
 * already serialized at that version (decision 0022).
 */
export function dashboardViewVersion(dialect: Dialect) {
  const pg = dialect === 'postgres';

  // The dashboard a changed row belongs to, for each table and each of its row images.
  const watched = [
    { table: 'charts', project: (row: string) => `${row}.project_id` },
    { table: 'chart_dataset_configs', project: (row: string) => `(SELECT project_id FROM charts WHERE id = ${row}.chart_id)` },
    {
      table: 'share_policies',
      project: (row: string) => `(CASE WHEN ${row}.entity_type = 'Project' THEN ${row}.entity_id END)`,
    },
  ] as const;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('projects').addColumn('view_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      for (const { table, project } of watched) {
        if (pg) {
          // One function per table; TG_OP tells which row images exist.
          await sql
            .raw(
              `CREATE FUNCTION ${table}_bump_view() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE projects SET view_version = view_version + 1 WHERE id = ${project('NEW')};
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE projects SET view_version = view_version + 1 WHERE id IN (${project('OLD')}, ${project('NEW')});
  ELSE
    UPDATE projects SET view_version = view_version + 1 WHERE id = ${project('OLD')};
  END IF;
  RETURN NULL;
END $$`,
            )
            .execute(db);
          await sql.raw(`CREATE TRIGGER ${table}_bump_view AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_bump_view()`).execute(db);
          continue;
        }
        const bump = (...rows: string[]) => `UPDATE projects SET view_version = view_version + 1 WHERE id IN (${rows.map(project).join(', ')});`;
        await sql.raw(`CREATE TRIGGER ${table}_insert_bump_view AFTER INSERT ON ${table} BEGIN ${bump('NEW')} END`).execute(db);
        await sql.raw(`CREATE TRIGGER ${table}_update_bump_view AFTER UPDATE ON ${table} BEGIN ${bump('OLD', 'NEW')} END`).execute(db);
        await sql.raw(`CREATE TRIGGER ${table}_delete_bump_view AFTER DELETE ON ${table} BEGIN ${bump('OLD')} END`).execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const { table } of watched) {
        if (pg) {
          await sql.raw(`DROP TRIGGER ${table}_bump_view ON ${table}`).execute(db);
          await sql.raw(`DROP FUNCTION ${table}_bump_view()`).execute(db);
          continue;
        }
        for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER ${table}_${event}_bump_view`).execute(db);
      }
      await db.schema.alterTable('projects').dropColumn('view_version').execute();
    },
  };
}
