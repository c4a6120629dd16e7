import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * How a config's breakdown draws its series (docs/chart-data.md, "Breakdown"):
 * - `breakdownLimit`: the largest N series by total (1-20); NULL: 20, as before;
 * - `breakdownOther`: the series past the limit summed into one more series instead of left out
 *   (count and sum only); false for every existing config;
 * - `breakdownOtherLabel`: that series' label; NULL: "Other".
 */
export function cdcBreakdownSeries(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chart_dataset_configs').addColumn('breakdownLimit', 'integer').execute();
      await db.schema
        .alterTable('chart_dataset_configs')
        .addColumn('breakdownOther', pg ? 'boolean' : 'integer', (c) => c.notNull().defaultTo(pg ? sql`false` : sql`0`))
        .execute();
      await db.schema.alterTable('chart_dataset_configs').addColumn('breakdownOtherLabel', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const column of ['breakdownOtherLabel', 'breakdownOther', 'breakdownLimit']) await db.schema.alterTable('chart_dataset_configs').dropColumn(column).execute();
    },
  };
}
