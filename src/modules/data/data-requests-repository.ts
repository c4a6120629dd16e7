import type { Static } from 'typebox';
import type { Selectable } from 'kysely';
import type { SecretBox } from '../../crypto/secrets.js';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { DataRequestsTable, VariableBindingsTable } from '../../store/types.js';
import type { BindingTypeSchema, DataRequestView, VariableBindingView } from './datasets-schemas.js';

export type Header = DataRequestRecord['headers'][number];

export type BindingType = Static<typeof BindingTypeSchema>;

/** A binding as answered, its `type` narrowed to what the bodies accept. */
export type VariableBinding = Omit<VariableBindingView, 'type'> & { type: BindingType };

/**
 * A data request as stored, with secrets DECRYPTED: only services see this shape. The answered
 * shape without its connection and bindings; the free-form objects stay indexable.
 */
export type DataRequestRecord = Omit<DataRequestView, 'Connection' | 'VariableBindings' | 'configuration' | 'variables' | 'transform'> & {
  configuration: Record<string, unknown>;
  variables: Record<string, unknown>;
  transform: Record<string, unknown> | null;
};

export type DataRequestFields = Omit<DataRequestRecord, 'id' | 'dataset_id' | 'createdAt' | 'updatedAt'>;

type Row = Selectable<DataRequestsTable>;

function toBinding(row: Selectable<VariableBindingsTable>): VariableBinding {
  return {
    id: row.id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    name: row.name,
    type: row.type as BindingType,
    default_value: row.default_value,
    required: toBool(row.required),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/**
 * Data requests and their variable bindings. Header values and bodies are encrypted at rest
 * (they routinely carry API keys); this repository is the only place that sees the envelopes.
 */
export class DataRequestsRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  private toRecord(row: Row): DataRequestRecord {
    const headers = row.headers === null ? [] : fromJson<Header[]>(this.secrets.decrypt(row.headers), []);
    return {
      id: row.id,
      dataset_id: row.dataset_id,
      connection_id: row.connection_id,
      method: row.method,
      route: row.route,
      headers,
      body: this.secrets.decryptNullable(row.body),
      useGlobalHeaders: toBool(row.useGlobalHeaders),
      query: row.query,
      pagination: toBool(row.pagination),
      items: row.items,
      itemsLimit: row.itemsLimit,
      offset: row.offset,
      paginationField: row.paginationField,
      template: row.template,
      conditions: fromJson<unknown[]>(row.conditions, []),
      configuration: fromJson<Record<string, unknown>>(row.configuration, {}),
      variables: fromJson<Record<string, unknown>>(row.variables, {}),
      transform: fromJson<Record<string, unknown> | null>(row.transform, null),
      createdAt: toIso(row.createdAt),
      updatedAt: toIso(row.updatedAt),
    };
  }

  private toColumns(fields: Partial<DataRequestFields>) {
    const columns: Partial<Record<keyof DataRequestsTable, unknown>> = {};
    for (const [key, value] of Object.entries(fields) as [keyof DataRequestFields, unknown][]) {
      if (value === undefined) continue;
      switch (key) {
        case 'headers':
          columns.headers = this.secrets.encrypt(JSON.stringify(value ?? []));
          break;
        case 'body':
          columns.body = this.secrets.encryptNullable(value as string | null);
          break;
        case 'conditions':
        case 'configuration':
        case 'variables':
        case 'transform':
          columns[key] = toJson(value);
          break;
        default:
          columns[key] = value;
      }
    }
    return columns;
  }

  async listForDatasets(datasetIds: readonly number[], db: Db = this.db): Promise<DataRequestRecord[]> {
    if (datasetIds.length === 0) return [];
    const rows = await db.selectFrom('data_requests').selectAll().where('dataset_id', 'in', datasetIds).orderBy('id').execute();
    return rows.map((row) => this.toRecord(row));
  }

  async find(datasetId: number, id: number, db: Db = this.db): Promise<DataRequestRecord | undefined> {
    const row = await db.selectFrom('data_requests').selectAll().where('dataset_id', '=', datasetId).where('id', '=', id).executeTakeFirst();
    return row && this.toRecord(row);
  }

  async create(datasetId: number, fields: Partial<DataRequestFields>, db: Db = this.db): Promise<DataRequestRecord> {
    const at = now();
    const row = await db
      .insertInto('data_requests')
      .values({
        useGlobalHeaders: true,
        pagination: false,
        ...this.toColumns(fields),
        dataset_id: datasetId,
        createdAt: at,
        updatedAt: at,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.toRecord(row);
  }

  async update(datasetId: number, id: number, fields: Partial<DataRequestFields>, db: Db = this.db): Promise<DataRequestRecord | undefined> {
    const row = await db
      .updateTable('data_requests')
      .set({ ...this.toColumns(fields), updatedAt: now() } as never)
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && this.toRecord(row);
  }

  async delete(datasetId: number, id: number, db: Db = this.db): Promise<boolean> {
    await this.deleteBindingsOf('DataRequest', [String(id)], db);
    const result = await db.deleteFrom('data_requests').where('dataset_id', '=', datasetId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // Variable bindings ---------------------------------------------------------------------------

  async bindingsOf(entityType: string, entityIds: readonly string[], db: Db = this.db): Promise<VariableBinding[]> {
    if (entityIds.length === 0) return [];
    const rows = await db
      .selectFrom('variable_bindings')
      .selectAll()
      .where('entity_type', '=', entityType)
      .where('entity_id', 'in', entityIds)
      .orderBy('id')
      .execute();
    return rows.map(toBinding);
  }

  /** The bindings of these datasets and of these data requests, in one read. */
  async bindingsFor(datasetIds: readonly number[], requestIds: readonly number[]): Promise<VariableBinding[]> {
    if (datasetIds.length === 0 && requestIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('variable_bindings')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('entity_type', '=', 'Dataset'), eb('entity_id', 'in', datasetIds.length > 0 ? datasetIds.map(String) : [''])]),
          eb.and([eb('entity_type', '=', 'DataRequest'), eb('entity_id', 'in', requestIds.length > 0 ? requestIds.map(String) : [''])]),
        ]),
      )
      .orderBy('id')
      .execute();
    return rows.map(toBinding);
  }

  async createBinding(
    teamId: number,
    entityType: string,
    entityId: string,
    fields: { name: string; type: BindingType; default_value: string | null; required: boolean },
    db: Db = this.db,
  ): Promise<VariableBinding> {
    const at = now();
    const row = await db
      .insertInto('variable_bindings')
      .values({ team_id: teamId, entity_type: entityType, entity_id: entityId, ...fields, createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toBinding(row);
  }

  async findBinding(entityType: string, entityId: string, id: number, db: Db = this.db): Promise<VariableBinding | undefined> {
    const row = await db
      .selectFrom('variable_bindings')
      .selectAll()
      .where('entity_type', '=', entityType)
      .where('entity_id', '=', entityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toBinding(row);
  }

  async updateBinding(
    id: number,
    fields: Partial<{ name: string; type: BindingType; default_value: string | null; required: boolean }>,
    db: Db = this.db,
  ): Promise<void> {
    await db.updateTable('variable_bindings').set({ ...fields, updatedAt: now() }).where('id', '=', id).execute();
  }

  async deleteBinding(id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('variable_bindings').where('id', '=', id).execute();
  }

  async deleteBindingsOf(entityType: string, entityIds: readonly string[], db: Db = this.db): Promise<void> {
    if (entityIds.length === 0) return;
    await db.deleteFrom('variable_bindings').where('entity_type', '=', entityType).where('entity_id', 'in', entityIds).execute();
  }
}
