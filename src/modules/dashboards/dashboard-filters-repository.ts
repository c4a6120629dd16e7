import { sql, type Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { DashboardFiltersTable } from '../../store/types.js';
import type { DashboardFilterView, FilterConfiguration } from './dashboard-filters-schemas.js';

/** A dashboard filter as stored and answered: its response schema. */
export type DashboardFilter = DashboardFilterView;

function toFilter(row: Selectable<DashboardFiltersTable>): DashboardFilter {
  return {
    id: row.id,
    project_id: row.project_id,
    // Written only after validation (dashboard-filters-service.ts): it reads back as one of the kinds.
    configuration: fromJson<FilterConfiguration>(row.configuration, { type: 'date' }),
    onReport: toBool(row.onReport),
    position: row.position,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export class DashboardFiltersRepository {
  constructor(private readonly db: Db) {}

  /** A dashboard's filters in their order: position, then creation (then id, so equal ones keep one order). */
  async listByProject(projectId: number, options: { onReport?: boolean } = {}): Promise<DashboardFilter[]> {
    let query = this.db.selectFrom('dashboard_filters').selectAll().where('project_id', '=', projectId);
    if (options.onReport) query = query.where('onReport', '=', true);
    const rows = await query.orderBy('position').orderBy('createdAt').orderBy('id').execute();
    return rows.map(toFilter);
  }

  async find(projectId: number, id: string): Promise<DashboardFilter | undefined> {
    const row = await this.db.selectFrom('dashboard_filters').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return row && toFilter(row);
  }

  /** Ids are global (a primary key): a client-chosen one may belong to any dashboard. */
  async idTaken(id: string): Promise<boolean> {
    return (await this.db.selectFrom('dashboard_filters').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Inserts a filter after the dashboard's last one (position max + 1, 0 for the first). */
  async create(projectId: number, id: string, fields: { configuration: FilterConfiguration; onReport: boolean }): Promise<DashboardFilter> {
    const at = now();
    const next = sql<number>`(SELECT COALESCE(MAX(position), -1) + 1 FROM dashboard_filters WHERE project_id = ${projectId})`;
    const row = await this.db
      .insertInto('dashboard_filters')
      .values({ id, project_id: projectId, configuration: toJson(fields.configuration), onReport: fields.onReport, position: next, createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toFilter(row);
  }

  async update(projectId: number, id: string, fields: { configuration?: FilterConfiguration; onReport?: boolean }): Promise<DashboardFilter | undefined> {
    const row = await this.db
      .updateTable('dashboard_filters')
      .set({
        ...(fields.configuration !== undefined ? { configuration: toJson(fields.configuration) } : {}),
        ...(fields.onReport !== undefined ? { onReport: fields.onReport } : {}),
        updatedAt: now(),
      })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toFilter(row);
  }

  async delete(projectId: number, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('dashboard_filters').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Positions 0, 1, … in the order of `ids` (every filter of the dashboard, checked by the service), in one transaction. */
  async reorder(projectId: number, ids: readonly string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const at = now();
      for (const [position, id] of ids.entries()) {
        await trx.updateTable('dashboard_filters').set({ position, updatedAt: at }).where('project_id', '=', projectId).where('id', '=', id).execute();
      }
    });
  }
}
