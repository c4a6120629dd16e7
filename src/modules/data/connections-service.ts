import type { SecretBox } from '../../crypto/secrets.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import { now } from '../../store/columns.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { ownsAny, type Membership } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import { familyOf, isConnectionType, subTypesOf, type ConnectionSubType } from '../../sources/index.js';
import { ConnectionSecrets, type RunnableConnection } from './connection-secrets.js';
import { connectionView, fullView } from './connection-views.js';
import { rotateEncryptionKey } from './connections-key-rotation.js';
import type { ConnectionRecord, ConnectionsRepository, ConnectionWrite } from './connections-repository.js';
import type { ConnectionUpdateBody, ConnectionView, NewConnectionBody, TestConnectionBody } from './connections-schemas.js';
import type { DatasetsRepository } from './datasets-repository.js';

export interface ConnectionSummary {
  id: number;
  name: string;
  type: string;
  subType: string | null;
  host: string | null;
  project_ids: number[];
}

export interface UploadedFile {
  filename: string;
  content: string;
}

export const FILE_FIELDS = ['sslCa', 'sslCert', 'sslKey'] as const;
export type FileField = (typeof FILE_FIELDS)[number];
export type ConnectionFiles = Partial<Record<FileField, UploadedFile>>;

/** Lets the owners of source pools drop a pool when its connection changes or goes away. */
export interface ConnectionChange {
  kind: 'updated' | 'deleted';
  teamId: number;
  connectionId: number;
}
export type ConnectionListener = (change: ConnectionChange) => void | Promise<void>;

const MAX_DB_ID = 2147483647;

export interface ConnectionsDeps {
  db: Db;
  connections: ConnectionsRepository;
  datasets: DatasetsRepository;
  secrets: SecretBox;
  access: AccessService;
}

export class ConnectionsService {
  readonly #listeners = new Set<ConnectionListener>();
  readonly #secrets: ConnectionSecrets;

  constructor(private readonly deps: ConnectionsDeps) {
    this.#secrets = new ConnectionSecrets(deps.secrets);
  }

  async list(actor: Actor, teamId: number): Promise<ConnectionView[]> {
    const membership = await this.deps.access.require(actor, teamId, 'connection:read');
    const records = await this.deps.connections.list(teamId);
    return records.filter((r) => ownsAny(membership, r.project_ids)).map((r) => connectionView(membership, r, this.#secrets));
  }

  async get(actor: Actor, teamId: number, connectionId: number): Promise<ConnectionView> {
    const membership = await this.deps.access.require(actor, teamId, 'connection:read');
    const record = await this.deps.connections.find(teamId, connectionId);
    // Project roles see only connections attached to their projects; others do not exist for them.
    if (!record || !ownsAny(membership, record.project_ids)) throw new NotFoundError('Connection');
    return connectionView(membership, record, this.#secrets);
  }

  async create(actor: Actor, teamId: number, body: NewConnectionBody): Promise<ConnectionView> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const write = await this.toWrite(teamId, body, undefined);
    // sslMode matters only once ssl is true; `require` is the default existing clients expect.
    const record = await this.deps.connections.create(teamId, { sslMode: 'require', ...write, name: write.name ?? body.name, type: write.type ?? body.type });
    return fullView(record, this.#secrets);
  }

  async update(actor: Actor, teamId: number, connectionId: number, body: ConnectionUpdateBody): Promise<ConnectionView> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const current = await this.deps.connections.find(teamId, connectionId);
    if (!current) throw new NotFoundError('Connection');
    const write = await this.toWrite(teamId, body, this.#secrets.decrypt(current));
    const record = await this.deps.connections.update(teamId, connectionId, write);
    if (!record) throw new NotFoundError('Connection');
    this.emit({ kind: 'updated', teamId, connectionId });
    return fullView(record, this.#secrets);
  }

  /**
   * With `removeDatasets`, the team's datasets that use the connection go too; without, they
   * stay and lose their data requests on it. One transaction either way.
   */
  async remove(actor: Actor, teamId: number, connectionId: number, removeDatasets: boolean): Promise<void> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.connections.find(teamId, connectionId, trx))) throw new NotFoundError('Connection');
      if (removeDatasets) await this.deps.datasets.deleteMany(teamId, await this.deps.datasets.idsUsingConnection(teamId, connectionId, trx), trx);
      else await this.deps.datasets.detachConnection(teamId, connectionId, trx);
      await this.deps.connections.delete(teamId, connectionId, trx);
    });
    this.emit({ kind: 'deleted', teamId, connectionId });
  }

  /** Fails fast (403/404) before an upload body is read. */
  async assertWritable(actor: Actor, teamId: number, connectionId: number): Promise<void> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    if (!(await this.deps.connections.exists(teamId, connectionId))) throw new NotFoundError('Connection');
  }

  /** Stores uploaded SSL files (contents and names); the key is encrypted like every secret. */
  async attachFiles(actor: Actor, teamId: number, connectionId: number, files: ConnectionFiles): Promise<ConnectionView> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const write: ConnectionWrite = {};
    if (files.sslCa) Object.assign(write, { sslCa: files.sslCa.content, sslCaName: files.sslCa.filename });
    if (files.sslCert) Object.assign(write, { sslCert: files.sslCert.content, sslCertName: files.sslCert.filename });
    if (files.sslKey) Object.assign(write, { sslKey: this.deps.secrets.encrypt(files.sslKey.content), sslKeyName: files.sslKey.filename });
    if (Object.keys(write).length === 0) throw new BadRequestError('No files were uploaded; send sslCa, sslCert or sslKey as file parts', 'NO_FILES');
    const record = await this.deps.connections.update(teamId, connectionId, write);
    if (!record) throw new NotFoundError('Connection');
    this.emit({ kind: 'updated', teamId, connectionId });
    return fullView(record, this.#secrets);
  }

  /**
   * An unsaved connection as its source would get it (`POST …/connections/{type}/test`): the body
   * checked as a create or update checks it and its secrets decrypted, never stored. With the id of
   * a saved connection, fields sent as "********" keep that connection's values and its SSL files
   * are used; `files` (uploaded with the test) take the place of those. The caller must be allowed
   * to write connections.
   */
  async draft(actor: Actor, teamId: number, pathType: string, body: TestConnectionBody, files: ConnectionFiles = {}): Promise<RunnableConnection> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const type = body.type ?? pathType;
    if (!isConnectionType(type)) throw ValidationError.field('params.connection_id', 'is not a connection type');
    const saved = body.id === undefined || body.id === null ? undefined : await this.deps.connections.find(teamId, body.id);
    if (body.id !== undefined && body.id !== null && !saved) throw new NotFoundError('Connection');
    const stored = saved && this.#secrets.decrypt(saved);
    const write = await this.toWrite(teamId, { ...body, type }, stored);
    const draft = this.#secrets.decrypt({ ...(saved ?? blankRecord(teamId, type)), ...write });
    // Plaintext like every field of a decrypted connection; never stored.
    if (files.sslCa) Object.assign(draft, { sslCa: files.sslCa.content, sslCaName: files.sslCa.filename });
    if (files.sslCert) Object.assign(draft, { sslCert: files.sslCert.content, sslCertName: files.sslCert.filename });
    if (files.sslKey) Object.assign(draft, { sslKey: files.sslKey.content, sslKeyName: files.sslKey.filename });
    return draft;
  }

  // ---- for other modules (no actor: callers have already authorized the request) ----

  /**
   * The connection with every secret decrypted, for running queries. 404 when it is not a
   * connection of this team. Never return it from a route.
   */
  async getForRun(teamId: number, connectionId: number): Promise<RunnableConnection> {
    const record = await this.deps.connections.find(teamId, connectionId);
    if (!record) throw new NotFoundError('Connection');
    return this.#secrets.decrypt(record);
  }

  /** The connections with these ids that exist in the team, decrypted for a run, in one read. */
  async getManyForRun(teamId: number, connectionIds: readonly number[]): Promise<Map<number, RunnableConnection>> {
    const records = await this.deps.connections.findMany(teamId, [...new Set(connectionIds)]);
    return new Map(records.map((record) => [record.id, this.#secrets.decrypt(record)]));
  }

  /**
   * For ids taken from a body (a dataset's or data request's connection_id): is it a connection of
   * this team that the caller may see? A project role may only use connections of its projects.
   */
  async usableBy(membership: Membership, connectionId: number): Promise<boolean> {
    const [summary] = await this.deps.connections.summaries(membership.teamId, [connectionId]);
    return summary !== undefined && ownsAny(membership, summary.project_ids);
  }

  /** Secret-free summaries (for embedding `Connection` in data requests), only of this team. */
  async summaries(teamId: number, connectionIds: readonly number[]): Promise<ConnectionSummary[]> {
    return this.deps.connections.summaries(teamId, [...new Set(connectionIds)]);
  }

  /** Saves an introspected schema on the connection (`GET …/schema`). */
  async saveSchema(teamId: number, connectionId: number, schema: unknown): Promise<void> {
    if (!(await this.deps.connections.saveSchema(teamId, connectionId, schema))) throw new NotFoundError('Connection');
  }

  /** Subscribes to updates and deletes; returns the unsubscribe function. */
  onChange(listener: ConnectionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `plotline rotate-key`: every envelope re-encrypted under `newKey` (connections-key-rotation.ts). */
  async rotateEncryptionKey(newKey: Buffer): Promise<{ reencrypted: number; keyId: string }> {
    return rotateEncryptionKey({ db: this.deps.db, connections: this.deps.connections, secrets: this.deps.secrets }, newKey);
  }

  // ---- internals ----

  private emit(change: ConnectionChange): void {
    // Listeners own their failures; a pool that fails to close must not fail the request.
    for (const listener of this.#listeners) void Promise.resolve().then(() => listener(change)).catch(() => undefined);
  }

  /** Validates a create or update body against the rules the schema cannot express, and encrypts. */
  private async toWrite(teamId: number, body: NewConnectionBody | ConnectionUpdateBody, stored: RunnableConnection | undefined): Promise<ConnectionWrite> {
    const write: ConnectionWrite = {};
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (name === '') throw ValidationError.field('body.name', 'must not be empty');
      write.name = name;
    }
    Object.assign(write, this.resolveTypes(body, stored));
    if (body.project_ids !== undefined) write.project_ids = await this.checkProjects(teamId, body.project_ids);
    if (body.port !== undefined) write.port = this.normalizePort(body.port);
    for (const field of ['oauth_id', 'active', 'host', 'dbName', 'username', 'srv', 'ssl', 'sslMode', 'schema'] as const) {
      if (body[field] !== undefined) Object.assign(write, { [field]: body[field] });
    }
    Object.assign(write, this.#secrets.secretWrite(body, stored));
    return write;
  }

  /** subType defaults to the type and must belong to its family; changing the type resets a foreign subType. */
  private resolveTypes(body: NewConnectionBody | ConnectionUpdateBody, stored: RunnableConnection | undefined): Pick<ConnectionWrite, 'type' | 'subType'> {
    const type = body.type ?? stored?.type;
    if (!isConnectionType(type)) throw ValidationError.field('body.type', 'is required');
    let subType: ConnectionSubType;
    if (body.subType !== undefined && body.subType !== null) {
      subType = body.subType;
      if (familyOf(subType) !== type) throw ValidationError.field('body.subType', `must be one of ${subTypesOf(type).join(', ')} for type ${type}`);
    } else if (body.subType === null || !stored || familyOf(stored.subType) !== type) {
      subType = type;
    } else {
      subType = stored.subType;
    }
    const out: Pick<ConnectionWrite, 'type' | 'subType'> = {};
    if (!stored || type !== stored.type) out.type = type;
    if (!stored || subType !== stored.subType) out.subType = subType;
    return out;
  }

  private normalizePort(port: string | null): string | null {
    if (port === null) return null;
    const digits = port.replace(/^:/, '');
    if (digits !== '' && (Number(digits) < 1 || Number(digits) > 65535)) throw ValidationError.field('body.port', 'must be between 1 and 65535');
    return port;
  }

  /** Accepts integers or numeric strings; every id must be a project of this team. */
  private async checkProjects(teamId: number, input: readonly (number | string)[]): Promise<number[]> {
    const ids = [...new Set(input.map(Number))];
    if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > MAX_DB_ID)) throw ValidationError.field('body.project_ids', 'must contain project ids');
    const known = new Set(await this.deps.connections.projectIdsOfTeam(teamId, ids));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw ValidationError.field('body.project_ids', `contains ids that are not projects of this team: ${unknown.join(', ')}`);
    return ids;
  }
}

/** A new connection's columns before a body fills them: what `create` would store by default. */
function blankRecord(teamId: number, type: string): ConnectionRecord {
  const at = now();
  return {
    id: 0,
    team_id: teamId,
    project_ids: [],
    oauth_id: null,
    name: '',
    type,
    subType: type,
    active: true,
    host: null,
    dbName: null,
    port: null,
    username: null,
    password: null,
    srv: false,
    options: null,
    connectionString: null,
    authentication: null,
    firebaseServiceAccount: null,
    ssl: false,
    sslMode: 'require',
    sslCa: null,
    sslCaName: null,
    sslCert: null,
    sslCertName: null,
    sslKey: null,
    sslKeyName: null,
    schema: null,
    schemaUpdatedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}
