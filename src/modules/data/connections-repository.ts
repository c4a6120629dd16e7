import type { Selectable, Updateable } from 'kysely';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { Db } from '../../store/index.js';
import type { ConnectionsTable } from '../../store/types.js';
import { CONNECTION_SECRET_FIELDS } from '../../redaction/index.js';

type Row = Selectable<ConnectionsTable>;

/**
 * A connection as stored: its row with the portable columns read (booleans, JSON, timestamps).
 * Secret columns (`password`, `options`, `connectionString`, `authentication`,
 * `firebaseServiceAccount`, `sslKey`) hold SecretBox envelopes; this layer never sees plaintext
 * for them and never decrypts.
 */
export type ConnectionRecord = Omit<Row, 'project_ids' | 'active' | 'srv' | 'ssl' | 'schema' | 'schemaUpdatedAt' | 'createdAt' | 'updatedAt'> & {
  project_ids: number[];
  active: boolean;
  srv: boolean;
  ssl: boolean;
  schema: unknown;
  schemaUpdatedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Columns a write may set; `project_ids` and `schema` are plain values, the rest as stored. */
export type ConnectionWrite = Partial<Omit<ConnectionRecord, 'id' | 'team_id' | 'createdAt' | 'updatedAt' | 'schemaUpdatedAt'>>;

/** Text columns that may hold SecretBox envelopes, per table, for key rotation. */
const CONNECTION_SECRET_COLUMNS = CONNECTION_SECRET_FIELDS;
const DATA_REQUEST_SECRET_COLUMNS = ['headers', 'body'] as const;

function toRecord(row: Row): ConnectionRecord {
  return {
    id: row.id,
    team_id: row.team_id,
    project_ids: fromJson<unknown[]>(row.project_ids, []).map(Number).filter(Number.isInteger),
    oauth_id: row.oauth_id,
    name: row.name,
    type: row.type,
    subType: row.subType,
    active: toBool(row.active),
    host: row.host,
    dbName: row.dbName,
    port: row.port,
    username: row.username,
    password: row.password,
    srv: toBool(row.srv),
    options: row.options,
    connectionString: row.connectionString,
    authentication: row.authentication,
    firebaseServiceAccount: row.firebaseServiceAccount,
    ssl: toBool(row.ssl),
    sslMode: row.sslMode,
    sslCa: row.sslCa,
    sslCaName: row.sslCaName,
    sslCert: row.sslCert,
    sslCertName: row.sslCertName,
    sslKey: row.sslKey,
    sslKeyName: row.sslKeyName,
    schema: fromJson<unknown>(row.schema, null),
    schemaUpdatedAt: toIso(row.schemaUpdatedAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function toColumns(write: ConnectionWrite): Updateable<ConnectionsTable> {
  const { project_ids, schema, ...rest } = write;
  return {
    ...rest,
    ...(project_ids !== undefined ? { project_ids: toJson(project_ids) } : {}),
    ...(schema !== undefined ? { schema: toJson(schema) } : {}),
  };
}

export interface EnvelopeCell {
  table: 'connections' | 'data_requests';
  id: number;
  column: string;
  value: string;
}

export class ConnectionsRepository {
  constructor(private readonly db: Db) {}

  async create(teamId: number, write: ConnectionWrite & { name: string; type: string }, db: Db = this.db): Promise<ConnectionRecord> {
    const at = now();
    const row = await db
      .insertInto('connections')
      .values({
        ...toColumns(write),
        name: write.name,
        type: write.type,
        team_id: teamId,
        active: write.active ?? true,
        srv: write.srv ?? false,
        ssl: write.ssl ?? false,
        project_ids: toJson(write.project_ids ?? []),
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** Tenancy: a connection of another team is indistinguishable from a missing one. */
  async find(teamId: number, id: number, db: Db = this.db): Promise<ConnectionRecord | undefined> {
    const row = await db.selectFrom('connections').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async findMany(teamId: number, ids: readonly number[]): Promise<ConnectionRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('connections').selectAll().where('team_id', '=', teamId).where('id', 'in', ids).execute();
    return rows.map(toRecord);
  }

  async list(teamId: number): Promise<ConnectionRecord[]> {
    const rows = await this.db.selectFrom('connections').selectAll().where('team_id', '=', teamId).orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  async exists(teamId: number, id: number): Promise<boolean> {
    const row = await this.db.selectFrom('connections').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async summaries(teamId: number, ids: readonly number[]): Promise<Pick<ConnectionRecord, 'id' | 'name' | 'type' | 'subType' | 'host' | 'project_ids'>[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('connections')
      .select(['id', 'name', 'type', 'subType', 'host', 'project_ids'])
      .where('team_id', '=', teamId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, project_ids: fromJson<unknown[]>(row.project_ids, []).map(Number).filter(Number.isInteger) }));
  }

  async update(teamId: number, id: number, write: ConnectionWrite, db: Db = this.db): Promise<ConnectionRecord | undefined> {
    const row = await db
      .updateTable('connections')
      .set({ ...toColumns(write), updatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * The schema is derived from the source, not a change of the connection: `updatedAt` (which keys
   * pools and cached results) stays, so a background refresh never invalidates them.
   */
  async saveSchema(teamId: number, id: number, schema: unknown): Promise<boolean> {
    const result = await this.db
      .updateTable('connections')
      .set({ schema: toJson(schema), schemaUpdatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Which of these ids are projects of the team. */
  async projectIdsOfTeam(teamId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('projects').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  async delete(teamId: number, id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('connections').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every non-empty secret cell of both tables, for key rotation. */
  async secretCells(db: Db = this.db): Promise<EnvelopeCell[]> {
    const cells: EnvelopeCell[] = [];
    const connections = await db.selectFrom('connections').select(['id', ...CONNECTION_SECRET_COLUMNS]).orderBy('id').execute();
    for (const row of connections) {
      for (const column of CONNECTION_SECRET_COLUMNS) {
        const value = row[column];
        if (typeof value === 'string' && value !== '') cells.push({ table: 'connections', id: row.id, column, value });
      }
    }
    const requests = await db.selectFrom('data_requests').select(['id', ...DATA_REQUEST_SECRET_COLUMNS]).orderBy('id').execute();
    for (const row of requests) {
      for (const column of DATA_REQUEST_SECRET_COLUMNS) {
        const value = row[column];
        if (typeof value === 'string' && value !== '') cells.push({ table: 'data_requests', id: row.id, column, value });
      }
    }
    return cells;
  }

  /** Rewrites one cell without touching `updatedAt`: rotation changes no content. */
  async writeCell(cell: EnvelopeCell, db: Db = this.db): Promise<void> {
    if (cell.table === 'connections') {
      const column = cell.column as (typeof CONNECTION_SECRET_COLUMNS)[number];
      await db.updateTable('connections').set({ [column]: cell.value }).where('id', '=', cell.id).execute();
    } else {
      const column = cell.column as (typeof DATA_REQUEST_SECRET_COLUMNS)[number];
      await db.updateTable('data_requests').set({ [column]: cell.value }).where('id', '=', cell.id).execute();
    }
  }
}
