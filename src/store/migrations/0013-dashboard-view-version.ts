import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `dashboard_view_versions`: per dashboard, a counter that moves whenever anything its view is
 * built from changes — one of its charts, one of their dataset configs, or one of its own share
 * policies. Triggers bump it, not the services, so that every write path counts, the ones added
 * later and the foreign-key cascades too (deleting a dataset removes configs from charts of
 * several dashboards). `GET /project/{id}` reads it with the dashboard and serves the charts it
 * already serialized at that version (decision 0022).
 *
 * The counter has a table of its own, without a foreign key, rather than a column of `projects`:
 * a bump then never waits for a dashboard's row, which deleting a dashboard or a team locks
 * before the rows of its charts (on Postgres, a chart written meanwhile would deadlock with it).
 * A bump counts only for a dashboard that exists; deleting one forgets its counter.
 */
export function dashboardViewVersion(dialect: Dialect) {
  const pg = dialect === 'postgres';

  // The dashboard a changed row belongs to, for each watched table and each of its row images.
  const watched = [
    { table: 'charts', project: (row: string) => `${row}.project_id` },
    { table: 'chart_dataset_configs', project: (row: string) => `(SELECT project_id FROM charts WHERE id = ${row}.chart_id)` },
    { table: 'share_policies', project: (row: string) => `(CASE WHEN ${row}.entity_type = 'Project' THEN ${row}.entity_id END)` },
  ] as const;

  // The WHERE clause also keeps SQLite from reading ON CONFLICT as a join constraint of the SELECT.
  const bump = (projects: string) =>
    `INSERT INTO dashboard_view_versions (project_id, version) SELECT id, 1 FROM projects WHERE id IN (${projects})
       ON CONFLICT (project_id) DO UPDATE SET version = dashboard_view_versions.version + 1;`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('dashboard_view_versions')
        .addColumn('project_id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      for (const { table, project } of watched) {
        if (pg) {
          await sql
            .raw(
              `CREATE FUNCTION ${table}_bump_view() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${bump(project('NEW'))}
  ELSIF TG_OP = 'UPDATE' THEN
    ${bump(`${project('OLD')}, ${project('NEW')}`)}
  ELSE
    ${bump(project('OLD'))}
  END IF;
  RETURN NULL;
END $$`,
            )
            .execute(db);
          await sql.raw(`CREATE TRIGGER ${table}_bump_view AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_bump_view()`).execute(db);
          continue;
        }
        await sql.raw(`CREATE TRIGGER ${table}_insert_bump_view AFTER INSERT ON ${table} BEGIN ${bump(project('NEW'))} END`).execute(db);
        await sql.raw(`CREATE TRIGGER ${table}_update_bump_view AFTER UPDATE ON ${table} BEGIN ${bump(`${project('OLD')}, ${project('NEW')}`)} END`).execute(db);
        await sql.raw(`CREATE TRIGGER ${table}_delete_bump_view AFTER DELETE ON ${table} BEGIN ${bump(project('OLD'))} END`).execute(db);
      }
      if (pg) {
        // Once per statement, after its cascades: never before the charts' rows are locked.
        await sql
          .raw(
            `CREATE FUNCTION projects_forget_view() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_view_versions WHERE project_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$`,
          )
          .execute(db);
        await sql.raw(`CREATE TRIGGER projects_forget_view AFTER DELETE ON projects REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION projects_forget_view()`).execute(db);
      } else {
        await sql.raw(`CREATE TRIGGER projects_forget_view AFTER DELETE ON projects BEGIN DELETE FROM dashboard_view_versions WHERE project_id = OLD.id; END`).execute(db);
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
      await sql.raw(pg ? 'DROP TRIGGER projects_forget_view ON projects' : 'DROP TRIGGER projects_forget_view').execute(db);
      if (pg) await sql.raw('DROP FUNCTION projects_forget_view()').execute(db);
      await db.schema.dropTable('dashboard_view_versions').execute();
    },
  };
}
