import type { Selectable } from 'kysely';
import { fromJson, now, toIso, toJson } from '../../store/columns.js';
import type { Db } from '../../store/index.js';
import type { ChartTemplatesTable } from '../../store/types.js';

/** A template row of either kind: the model is what that kind keeps (read by the kind's own reader). */
export interface TemplateRecord<Model> {
  id: number;
  team_id: number;
  project_id: number | null;
  created_by: number | null;
  name: string;
  description: string | null;
  model: Model;
  createdAt: string;
  updatedAt: string;
}

/**
 * The rows of `chart_templates` of one kind (`chart`: one chart; `dashboard`: every chart of a
 * dashboard, migration 0023). Both kinds share the table, so they share one id space; every query
 * is scoped to its team and its kind, so another team's id, or an id of the other kind, is unknown.
 */
export class TemplatesRepository<Model> {
  constructor(
    private readonly db: Db,
    private readonly kind: 'chart' | 'dashboard',
    /** The stored model as this kind reads it (a stored row is never trusted to have its shape). */
    private readonly readModel: (stored: Partial<Model>) => Model,
  ) {}

  /** The team's templates, newest first; `projectIds` narrows them to those saved from these dashboards. */
  async list(teamId: number, projectIds: readonly number[] | undefined): Promise<TemplateRecord<Model>[]> {
    if (projectIds !== undefined && projectIds.length === 0) return [];
    let query = this.db.selectFrom('chart_templates').selectAll().where('team_id', '=', teamId).where('kind', '=', this.kind);
    if (projectIds !== undefined) query = query.where('project_id', 'in', projectIds);
    const rows = await query.orderBy('id', 'desc').execute();
    return rows.map((row) => this.toRecord(row));
  }

  async find(teamId: number, id: number): Promise<TemplateRecord<Model> | undefined> {
    const row = await this.db
      .selectFrom('chart_templates')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('kind', '=', this.kind)
      .executeTakeFirst();
    return row && this.toRecord(row);
  }

  async create(fields: Omit<TemplateRecord<Model>, 'id' | 'createdAt' | 'updatedAt'>): Promise<TemplateRecord<Model>> {
    const at = now();
    const row = await this.db
      .insertInto('chart_templates')
      .values({ ...fields, kind: this.kind, model: toJson(fields.model) ?? '{}', createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.toRecord(row);
  }

  async update(teamId: number, id: number, fields: { name?: string; description?: string | null }): Promise<boolean> {
    if (Object.keys(fields).length === 0) return (await this.find(teamId, id)) !== undefined;
    const result = await this.db
      .updateTable('chart_templates')
      .set({ ...fields, updatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('kind', '=', this.kind)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('chart_templates').where('team_id', '=', teamId).where('id', '=', id).where('kind', '=', this.kind).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private toRecord(row: Selectable<ChartTemplatesTable>): TemplateRecord<Model> {
    return {
      id: row.id,
      team_id: row.team_id,
      project_id: row.project_id,
      created_by: row.created_by,
      name: row.name,
      description: row.description,
      model: this.readModel(fromJson<Partial<Model>>(row.model, {})),
      createdAt: toIso(row.createdAt),
      updatedAt: toIso(row.updatedAt),
    };
  }
}
