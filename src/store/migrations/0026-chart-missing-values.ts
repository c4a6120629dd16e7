import type { Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * `charts.missingValues`: what a line, bar, radar, polar, pie or doughnut chart plots at a label
 * where a series has no point: `zero` (every existing chart: as before) or `preserve` (null, a gap).
 * The same text column in both dialects.
 */
export function chartMissingValues(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('charts')
        .addColumn('missingValues', 'text', (c) => c.notNull().defaultTo('zero'))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('charts').dropColumn('missingValues').execute();
    },
  };
}
