import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `charts.lastError`: the failure of the chart's latest refresh (`{code, message, at}`), when that
 * refresh failed; NULL after a good one. `chartDataUpdated` stays the time of the last good data,
 * so a card can say "stale since" with the reason. NULL for every existing chart.
 *
 * `charts.stackPercent`: a stacked bar chart drawn as each label's shares of 100 % (false for every
 * existing chart: stacked as before).
 */
export function chartLastErrorStackPercent(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').addColumn('lastError', pg ? 'jsonb' : 'text').execute();
      await db.schema
        .alterTable('charts')
        .addColumn('stackPercent', pg ? 'boolean' : 'integer', (c) => c.notNull().defaultTo(pg ? sql`false` : sql`0`))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').dropColumn('stackPercent').execute();
      await db.schema.alterTable('charts').dropColumn('lastError').execute();
    },
  };
}
