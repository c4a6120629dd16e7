import type { Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `charts.lastError`: the failure of the chart's latest refresh (`{code, message, at}`), when that
 * refresh failed; NULL after a good one. `chartDataUpdated` stays the time of the last good data,
 * so a card can say "stale since" with the reason. NULL for every existing chart.
 */
export function chartLastError(dialect: Dialect) {
  const json = dialect === 'postgres' ? 'jsonb' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').addColumn('lastError', json).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').dropColumn('lastError').execute();
    },
  };
}
