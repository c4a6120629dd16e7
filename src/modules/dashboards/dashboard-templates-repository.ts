import type { Selectable } from 'kysely';
import { fromJson, now, toIso, toJson } from '../../store/columns.js';
import type { Db } from '../../store/index.js';
import type { ChartTemplatesTable } from '../../store/types.js';
import type { TemplateModel } from './chart-templates-repository.js';

/** One chart of a dashboard template: what makes it again, its place and its number in the template. */
export interface DashboardTemplateChart extends TemplateModel {
  /** Chartbrew's template id of the chart (its index in the dashboard): what `charts` picks when making charts. */
  tid: number;
  layout: unknown;
}

export interface DashboardTemplateModel {
  charts: DashboardTemplateChart[];
}

export interface DashboardTemplateRecord {
  id: number;
  team_id: number;
  project_id: number | null;
  created_by: number | null;
  name: string;
  description: string | null;
  model: DashboardTemplateModel;
  createdAt: string;
  updatedAt: string;
}

const KIND = 'dashboard';

function toRecord(row: Selectable<ChartTemplatesTable>): DashboardTemplateRecord {
  const model = fromJson<Partial<DashboardTemplateModel>>(row.model, {});
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    created_by: row.created_by,
    name: row.name,
    description: row.description,
    model: { charts: Array.isArray(model.charts) ? model.charts : [] },
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** Dashboard templates: rows of `chart_templates` whose kind is `dashboard` (migration 0023). */
export class DashboardTemplatesRepository {
  constructor(private readonly db: Db) {}

  /** The team's dashboard templates, newest first; `projectIds` narrows them to those saved from these dashboards. */
  async list(teamId: number, projectIds: readonly number[] | undefined): Promise<DashboardTemplateRecord[]> {
    if (projectIds !== undefined && projectIds.length === 0) return [];
    let query = this.db.selectFrom('chart_templates').selectAll().where('team_id', '=', teamId).where('kind', '=', KIND);
    if (projectIds !== undefined) query = query.where('project_id', 'in', projectIds);
    const rows = await query.orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  /** A dashboard template of the team: another team's, a chart template or an unknown id look the same. */
  async find(teamId: number, id: number): Promise<DashboardTemplateRecord | undefined> {
    const row = await this.db
      .selectFrom('chart_templates')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('kind', '=', KIND)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async create(fields: Omit<DashboardTemplateRecord, 'id' | 'createdAt' | 'updatedAt'>): Promise<DashboardTemplateRecord> {
    const at = now();
    const row = await this.db
      .insertInto('chart_templates')
      .values({ ...fields, kind: KIND, model: toJson(fields.model) ?? '{}', createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async update(teamId: number, id: number, fields: { name?: string; description?: string | null }): Promise<boolean> {
    if (Object.keys(fields).length === 0) return (await this.find(teamId, id)) !== undefined;
    const result = await this.db
      .updateTable('chart_templates')
      .set({ ...fields, updatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('kind', '=', KIND)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('chart_templates').where('team_id', '=', teamId).where('id', '=', id).where('kind', '=', KIND).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
