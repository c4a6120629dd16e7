import type { Selectable } from 'kysely';
import { fromJson, now, toIso, toJson } from '../../store/columns.js';
import type { Db } from '../../store/index.js';
import type { ChartTemplatesTable } from '../../store/types.js';

/** What a template keeps of its chart: the body that quick-creates it again. */
export interface TemplateModel {
  chart: Record<string, unknown>;
  chartDatasetConfigs: Record<string, unknown>[];
  visualization: unknown;
}

export interface ChartTemplateRecord {
  id: number;
  team_id: number;
  project_id: number | null;
  created_by: number | null;
  name: string;
  description: string | null;
  model: TemplateModel;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: Selectable<ChartTemplatesTable>): ChartTemplateRecord {
  const model = fromJson<Partial<TemplateModel>>(row.model, {});
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    created_by: row.created_by,
    name: row.name,
    description: row.description,
    model: {
      chart: model.chart ?? {},
      chartDatasetConfigs: Array.isArray(model.chartDatasetConfigs) ? model.chartDatasetConfigs : [],
      visualization: model.visualization ?? null,
    },
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export class ChartTemplatesRepository {
  constructor(private readonly db: Db) {}

  /** The team's templates, newest first; `projectIds` narrows them to those saved from these dashboards. */
  async list(teamId: number, projectIds: readonly number[] | undefined): Promise<ChartTemplateRecord[]> {
    if (projectIds !== undefined && projectIds.length === 0) return [];
    let query = this.db.selectFrom('chart_templates').selectAll().where('team_id', '=', teamId).where('kind', '=', 'chart');
    if (projectIds !== undefined) query = query.where('project_id', 'in', projectIds);
    const rows = await query.orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  /** A template of the team: another team's or an unknown id look the same. */
  async find(teamId: number, id: number): Promise<ChartTemplateRecord | undefined> {
    const row = await this.db
      .selectFrom('chart_templates')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('kind', '=', 'chart')
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async create(fields: Omit<ChartTemplateRecord, 'id' | 'createdAt' | 'updatedAt'>): Promise<ChartTemplateRecord> {
    const at = now();
    const row = await this.db
      .insertInto('chart_templates')
      .values({ ...fields, kind: 'chart', model: toJson(fields.model) ?? '{}', createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('chart_templates').where('team_id', '=', teamId).where('id', '=', id).where('kind', '=', 'chart').executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
