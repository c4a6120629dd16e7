import type { Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Deliveries record their progress as they go, so one whose process died can be resumed:
 * - a run is written `running` when its delivery starts and each target's outcome as soon as it
 *   is known; `heartbeatAt` is when the delivering process last said it is still at it (each send,
 *   each scheduler tick, a timer). A `running` run silent for longer than the lease
 *   (PLOTLINE_DELIVERY_LEASE_MS) is taken over: marked `interrupted`, and its period delivered
 *   again to the targets it had not reached, in a new run that names it in `resumed_from`;
 * - runs written before this migration are finished ones: their `heartbeatAt` stays NULL.
 */
export function deliveryResume(dialect: Dialect) {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds one column per ALTER TABLE.
      await db.schema.alterTable('subscription_runs').addColumn('heartbeatAt', ts).execute();
      await db.schema.alterTable('subscription_runs').addColumn('resumed_from', 'integer').execute();
      await db.schema.createIndex('subscription_runs_status').on('subscription_runs').columns(['status', 'heartbeatAt']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('subscription_runs_status').execute();
      await db.schema.alterTable('subscription_runs').dropColumn('resumed_from').execute();
      await db.schema.alterTable('subscription_runs').dropColumn('heartbeatAt').execute();
    },
  };
}
