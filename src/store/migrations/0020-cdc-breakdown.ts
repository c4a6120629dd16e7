import type { Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `chart_dataset_configs.breakdown`: a field whose distinct values split the config's series, one
 * series per value (line, bar and radar charts; docs/chart-data.md, "Breakdown"). NULL for every
 * existing config: one series, as before.
 */
export function cdcBreakdown(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chart_dataset_configs').addColumn('breakdown', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chart_dataset_configs').dropColumn('breakdown').execute();
    },
  };
}
