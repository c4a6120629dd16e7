import type { Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `chart_templates.kind`: `chart` (one chart, as before) or `dashboard` (every chart of a dashboard,
 * Chartbrew's team templates at `/team/{id}/template`). One table, so the two kinds share one id
 * space and `POST /project/{id}/template/custom {template_id}` names either without ambiguity.
 */
export function dashboardTemplates(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chart_templates').addColumn('kind', 'text', (c) => c.notNull().defaultTo('chart')).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chart_templates').dropColumn('kind').execute();
    },
  };
}
