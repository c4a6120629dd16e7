import { sql, type Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { DatasetsTable } from '../../store/types.js';
import type { DatasetView, Join } from './datasets-schemas.js';

/**
 * A dataset as stored: the answered shape without its requests and bindings, plus the `version`
 * the result cache keys on. The free-form objects stay indexable, and joins keep their own shape.
 */
export type DatasetRecord = Omit<DatasetView, 'DataRequests' | 'VariableBindings' | 'fieldsSchema' | 'configuration' | 'joinSettings'> & {
  fieldsSchema: Record<string, unknown>;
  configuration: Record<string, unknown>;
  joinSettings: { joins: Join[] } & Record<string, unknown>;
  version: number;
};

export type DatasetFields = Omit<DatasetRecord, 'id' | 'team_id' | 'version' | 'createdAt' | 'updatedAt'>;

const JSON_COLUMNS = new Set(['project_ids', 'conditions', 'fieldsSchema', 'excludedFields', 'configuration', 'joinSettings']);

function toRecord(row: Selectable<DatasetsTable>): DatasetRecord {
  const joinSettings = fromJson<Record<string, unknown>>(row.joinSettings, {});
  return {
    id: row.id,
    team_id: row.team_id,
    project_ids: fromJson<unknown[]>(row.project_ids, []).map(Number).filter(Number.isInteger),
    chart_id: row.chart_id,
    connection_id: row.connection_id,
    main_dr_id: row.main_dr_id,
    draft: toBool(row.draft),
    name: row.name,
    type: row.type,
    query: row.query,
    datasetColor: row.datasetColor,
    xAxis: row.xAxis,
    xAxisOperation: row.xAxisOperation,
    yAxis: row.yAxis,
    yAxisOperation: row.yAxisOperation,
    dateField: row.dateField,
    dateFormat: row.dateFormat,
    legend: row.legend,
    conditions: fromJson<unknown[]>(row.conditions, []),
    fieldsSchema: fromJson<Record<string, unknown>>(row.fieldsSchema, {}),
    excludedFields: fromJson<string[]>(row.excludedFields, []),
    configuration: fromJson<Record<string, unknown>>(row.configuration, {}),
    joinSettings: { ...joinSettings, joins: Array.isArray(joinSettings['joins']) ? (joinSettings['joins'] as Join[]) : [] },
    version: row.version,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function toColumns(fields: Partial<DatasetFields>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    columns[key] = JSON_COLUMNS.has(key) ? toJson(value) : value;
  }
  return columns;
}

export class DatasetsRepository {
  constructor(private readonly db: Db) {}

  /** Datasets of a team; with `projects`, only those attached to at least one of them. */
  async list(teamId: number, projects?: readonly number[]): Promise<DatasetRecord[]> {
    const rows = await this.db.selectFrom('datasets').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
    const records = rows.map(toRecord);
    return projects === undefined ? records : records.filter((d) => d.project_ids.some((id) => projects.includes(id)));
  }

  async find(teamId: number, id: number, db: Db = this.db): Promise<DatasetRecord | undefined> {
    const row = await db.selectFrom('datasets').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async findMany(teamId: number, ids: readonly number[]): Promise<DatasetRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('datasets').selectAll().where('team_id', '=', teamId).where('id', 'in', ids).execute();
    return rows.map(toRecord);
  }

  async create(teamId: number, fields: Partial<DatasetFields>, db: Db = this.db): Promise<DatasetRecord> {
    const at = now();
    const row = await db
      .insertInto('datasets')
      .values({ draft: true, ...toColumns(fields), team_id: teamId, createdAt: at, updatedAt: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** Updates fields and bumps the version (part of every result-cache key). */
  async update(teamId: number, id: number, fields: Partial<DatasetFields>, db: Db = this.db): Promise<DatasetRecord | undefined> {
    const row = await db
      .updateTable('datasets')
      .set({ ...toColumns(fields), version: sql`version + 1`, updatedAt: now() } as never)
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A change below the dataset (a data request or binding) changes its answers too. */
  async bumpVersion(id: number, db: Db = this.db): Promise<void> {
    await db
      .updateTable('datasets')
      .set({ version: sql`version + 1`, updatedAt: now() } as never)
      .where('id', '=', id)
      .execute();
  }

  async delete(teamId: number, id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('datasets').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async projectIdsOfTeam(teamId: number, db: Db = this.db): Promise<Set<number>> {
    const rows = await db.selectFrom('projects').select('id').where('team_id', '=', teamId).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Datasets of the team that use the connection, directly or through one of their data requests. */
  async idsUsingConnection(teamId: number, connectionId: number, db: Db = this.db): Promise<number[]> {
    const rows = await db
      .selectFrom('datasets')
      .select('id')
      .where('team_id', '=', teamId)
      .where((eb) =>
        eb.or([
          eb('connection_id', '=', connectionId),
          eb('id', 'in', eb.selectFrom('data_requests').select('dataset_id').where('connection_id', '=', connectionId)),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  async deleteMany(teamId: number, ids: readonly number[], db: Db = this.db): Promise<number> {
    if (ids.length === 0) return 0;
    // Their data requests and chart dataset configs go with them (ON DELETE CASCADE).
    const result = await db.deleteFrom('datasets').where('team_id', '=', teamId).where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Keeps the team's datasets but removes their data requests on this connection, clears the
   * links that pointed at it, and bumps their version so cached results are not served again.
   */
  async detachConnection(teamId: number, connectionId: number, db: Db = this.db): Promise<void> {
    const affected = await this.idsUsingConnection(teamId, connectionId, db);
    if (affected.length === 0) return;
    const requests = await db
      .selectFrom('data_requests')
      .select('id')
      .where('connection_id', '=', connectionId)
      .where('dataset_id', 'in', affected)
      .execute();
    const requestIds = requests.map((r) => r.id);
    if (requestIds.length > 0) {
      await db.deleteFrom('data_requests').where('id', 'in', requestIds).execute();
      await db.updateTable('datasets').set({ main_dr_id: null }).where('id', 'in', affected).where('main_dr_id', 'in', requestIds).execute();
    }
    await db.updateTable('datasets').set({ connection_id: null }).where('id', 'in', affected).where('connection_id', '=', connectionId).execute();
    await db
      .updateTable('datasets')
      .set((eb) => ({ version: eb('version', '+', 1), updatedAt: now() }))
      .where('id', 'in', affected)
      .execute();
  }
}
