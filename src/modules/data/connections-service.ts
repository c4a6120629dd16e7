import { SecretBox } from '../../crypto/secrets.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { can, ownsAny, type Membership } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import { familyOf, isConnectionSubType, isConnectionType, subTypesOf, type ConnectionSubType, type ConnectionType } from '../../sources/index.js';
import type { SslMode } from './connections-schemas.js';
import {
  CONNECTION_SECRET_FIELDS,
  MASK,
  MaskWithoutValue,
  maskConnectionField,
  maskValue,
  restoreConnectionString,
  restoreTree,
} from '../../redaction/index.js';
import type { ConnectionRecord, ConnectionsRepository, ConnectionWrite } from './connections-repository.js';
import type { Static } from 'typebox';
import type { AuthenticationInput, ConnectionUpdateBody, ConnectionView, NewConnectionBody } from './connections-schemas.js';

/** Credentials of an API connection as written and stored (decrypted): the body schema. */
export type Authentication = Static<typeof AuthenticationInput>;

/**
 * A connection with every secret decrypted, for the code that talks to the data source.
 * Never serialize it into a response or a log line.
 */
export interface RunnableConnection {
  id: number;
  team_id: number;
  project_ids: number[];
  oauth_id: string | null;
  name: string;
  type: ConnectionType;
  subType: ConnectionSubType;
  active: boolean;
  host: string | null;
  dbName: string | null;
  port: string | null;
  username: string | null;
  password: string | null;
  srv: boolean;
  /** Object or array, as the client wrote it (API global headers, driver options). */
  options: unknown;
  connectionString: string | null;
  authentication: Authentication | null;
  firebaseServiceAccount: Record<string, unknown> | null;
  ssl: boolean;
  sslMode: SslMode | null;
  /** PEM contents of the uploaded files, and their original names. */
  sslCa: string | null;
  sslCert: string | null;
  sslKey: string | null;
  sslCaName: string | null;
  sslCertName: string | null;
  sslKeyName: string | null;
  schema: unknown;
  updatedAt: string;
}

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
const ENVELOPE_IN_TEXT = /(?<![\w.-])v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]*(?![\w.-])/g;

function maskedPath(err: unknown): never {
  if (err instanceof MaskWithoutValue) throw ValidationError.field(err.path, `is "${MASK}" but no stored value exists to keep`);
  throw err;
}

export interface ConnectionsDeps {
  db: Db;
  connections: ConnectionsRepository;
  secrets: SecretBox;
  access: AccessService;
}

export class ConnectionsService {
  readonly #listeners = new Set<ConnectionListener>();

  constructor(private readonly deps: ConnectionsDeps) {}

  async list(actor: Actor, teamId: number): Promise<ConnectionView[]> {
    const membership = await this.deps.access.require(actor, teamId, 'connection:read');
    const records = await this.deps.connections.list(teamId);
    return records.filter((r) => ownsAny(membership, r.project_ids)).map((r) => this.viewFor(membership, r));
  }

  async get(actor: Actor, teamId: number, connectionId: number): Promise<ConnectionView> {
    const membership = await this.deps.access.require(actor, teamId, 'connection:read');
    const record = await this.deps.connections.find(teamId, connectionId);
    // Project roles see only connections attached to their projects; others do not exist for them.
    if (!record || !ownsAny(membership, record.project_ids)) throw new NotFoundError('Connection');
    return this.viewFor(membership, record);
  }

  async create(actor: Actor, teamId: number, body: NewConnectionBody): Promise<ConnectionView> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const write = await this.toWrite(teamId, body, undefined);
    // sslMode matters only once ssl is true; `require` is the default existing clients expect.
    const record = await this.deps.connections.create(teamId, { sslMode: 'require', ...write, name: write.name ?? body.name, type: write.type ?? body.type });
    return this.fullView(record);
  }

  async update(actor: Actor, teamId: number, connectionId: number, body: ConnectionUpdateBody): Promise<ConnectionView> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const current = await this.deps.connections.find(teamId, connectionId);
    if (!current) throw new NotFoundError('Connection');
    const write = await this.toWrite(teamId, body, this.decrypt(current));
    const record = await this.deps.connections.update(teamId, connectionId, write);
    if (!record) throw new NotFoundError('Connection');
    this.emit({ kind: 'updated', teamId, connectionId });
    return this.fullView(record);
  }

  /**
   * With `removeDatasets`, the team's datasets that use the connection go too; without, they
   * stay and lose their data requests on it. One transaction either way.
   */
  async remove(actor: Actor, teamId: number, connectionId: number, removeDatasets: boolean): Promise<void> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.connections.find(teamId, connectionId, trx))) throw new NotFoundError('Connection');
      if (removeDatasets) await this.deps.connections.deleteDatasets(teamId, await this.deps.connections.datasetIdsUsing(teamId, connectionId, trx), trx);
      else await this.deps.connections.detachFromDatasets(teamId, connectionId, trx);
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
    return this.fullView(record);
  }

  // ---- for other modules (no actor: callers have already authorized the request) ----

  /**
   * The connection with every secret decrypted, for running queries. 404 when it is not a
   * connection of this team. Never return it from a route.
   */
  async getForRun(teamId: number, connectionId: number): Promise<RunnableConnection> {
    const record = await this.deps.connections.find(teamId, connectionId);
    if (!record) throw new NotFoundError('Connection');
    return this.decrypt(record);
  }

  /** The connections with these ids that exist in the team, decrypted for a run, in one read. */
  async getManyForRun(teamId: number, connectionIds: readonly number[]): Promise<Map<number, RunnableConnection>> {
    const records = await this.deps.connections.findMany(teamId, [...new Set(connectionIds)]);
    return new Map(records.map((record) => [record.id, this.decrypt(record)]));
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

  /**
   * Re-encrypts every envelope of the connections table and of data requests' `headers` / `body`
   * with `newKey`, in one transaction. The current box must be able to decrypt all of them (the
   * current key plus PLOTLINE_PREVIOUS_ENCRYPTION_KEYS). Envelopes already under the new key are
   * left alone, so a second run counts 0.
   */
  async rotateEncryptionKey(newKey: Buffer): Promise<{ reencrypted: number; keyId: string }> {
    const next = new SecretBox(newKey);
    const reencrypted = await this.deps.db.transaction().execute(async (trx) => {
      let count = 0;
      for (const cell of await this.deps.connections.secretCells(trx)) {
        let changed = 0;
        const value = cell.value.replace(ENVELOPE_IN_TEXT, (envelope) => {
          if (SecretBox.keyIdOf(envelope) === next.keyId) return envelope;
          let plaintext: string;
          try {
            plaintext = this.deps.secrets.decrypt(envelope);
          } catch (err) {
            throw new Error(`${cell.table} #${cell.id} ${cell.column}: ${err instanceof Error ? err.message : 'cannot be decrypted'}`);
          }
          changed += 1;
          return next.encrypt(plaintext);
        });
        if (changed > 0) {
          await this.deps.connections.writeCell({ ...cell, value }, trx);
          count += changed;
        }
      }
      return count;
    });
    return { reencrypted, keyId: next.keyId };
  }

  // ---- internals ----

  private emit(change: ConnectionChange): void {
    // Listeners own their failures; a pool that fails to close must not fail the request.
    for (const listener of this.#listeners) void Promise.resolve().then(() => listener(change)).catch(() => undefined);
  }

  private decryptJson<T>(envelope: string | null): T | null {
    return envelope === null ? null : (JSON.parse(this.deps.secrets.decrypt(envelope)) as T);
  }

  private decrypt(record: ConnectionRecord): RunnableConnection {
    const type = record.type as ConnectionType;
    return {
      id: record.id,
      team_id: record.team_id,
      project_ids: record.project_ids,
      oauth_id: record.oauth_id,
      name: record.name,
      type,
      subType: isConnectionSubType(record.subType) ? record.subType : type,
      active: record.active,
      host: record.host,
      dbName: record.dbName,
      port: record.port,
      username: record.username,
      password: this.deps.secrets.decryptNullable(record.password),
      srv: record.srv,
      options: this.decryptJson<unknown>(record.options),
      connectionString: this.deps.secrets.decryptNullable(record.connectionString),
      authentication: this.decryptJson<Authentication>(record.authentication),
      firebaseServiceAccount: this.decryptJson<Record<string, unknown>>(record.firebaseServiceAccount),
      ssl: record.ssl,
      sslMode: record.sslMode as SslMode | null,
      sslCa: record.sslCa,
      sslCert: record.sslCert,
      sslKey: this.deps.secrets.decryptNullable(record.sslKey),
      sslCaName: record.sslCaName,
      sslCertName: record.sslCertName,
      sslKeyName: record.sslKeyName,
      schema: record.schema,
      updatedAt: record.updatedAt,
    };
  }

  private viewFor(membership: Membership, record: ConnectionRecord): ConnectionView {
    return can(membership, 'connection:readSecrets') ? this.fullView(record) : this.restrictedView(record);
  }

  /** What project roles see: no secrets and nothing that says where the source is or how to log in. */
  private restrictedView(record: ConnectionRecord): ConnectionView {
    const type = record.type as ConnectionType;
    return {
      id: record.id,
      team_id: record.team_id,
      project_ids: record.project_ids.map(String),
      oauth_id: record.oauth_id,
      name: record.name,
      type,
      subType: isConnectionSubType(record.subType) ? record.subType : type,
      active: record.active,
      srv: record.srv,
      ssl: record.ssl,
      sslMode: record.sslMode as SslMode | null,
      schema: (record.schema ?? null) as ConnectionView['schema'],
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /** teamOwner / teamAdmin: every field (in the spec's order), each secret replaced by the placeholder. */
  private fullView(record: ConnectionRecord): ConnectionView {
    const plain = this.decrypt(record);
    const auth = plain.authentication;
    const base = this.restrictedView(record);
    return {
      id: base.id,
      team_id: base.team_id,
      project_ids: base.project_ids,
      oauth_id: base.oauth_id,
      name: base.name,
      type: base.type,
      subType: base.subType,
      active: base.active,
      host: plain.host,
      dbName: plain.dbName,
      port: plain.port,
      username: plain.username,
      password: maskValue(plain.password),
      srv: base.srv,
      options: maskConnectionField('options', plain.options) as ConnectionView['options'],
      connectionString: maskConnectionField('connectionString', plain.connectionString) as string | null,
      // Every key of the view is present (null when unset), as the response schema lists them.
      authentication: auth === null ? null : { type: auth.type ?? null, token: maskValue(auth.token), user: auth.user ?? null, pass: maskValue(auth.pass) },
      firebaseServiceAccount: maskConnectionField('firebaseServiceAccount', plain.firebaseServiceAccount) as ConnectionView['firebaseServiceAccount'],
      ssl: base.ssl,
      sslMode: base.sslMode,
      sslCa: record.sslCaName,
      sslCert: record.sslCertName,
      sslKey: record.sslKeyName,
      schema: base.schema,
      createdAt: base.createdAt,
      updatedAt: base.updatedAt,
    };
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
    try {
      if (body.password !== undefined) {
        write.password = body.password === MASK ? this.keep(stored?.password, 'body.password') : body.password;
      }
      if (body.connectionString !== undefined) {
        write.connectionString =
          body.connectionString === null ? null : restoreConnectionString(body.connectionString, stored?.connectionString ?? null, 'body.connectionString');
      }
      if (body.authentication !== undefined) write.authentication = body.authentication === null ? null : JSON.stringify(this.restoreAuth(body.authentication, stored?.authentication ?? null));
      if (body.firebaseServiceAccount !== undefined) {
        write.firebaseServiceAccount =
          body.firebaseServiceAccount === null
            ? null
            : JSON.stringify(restoreTree(body.firebaseServiceAccount, stored?.firebaseServiceAccount ?? null, 'body.firebaseServiceAccount'));
      }
      if (body.options !== undefined) write.options = body.options === null ? null : JSON.stringify(restoreTree(body.options, stored?.options ?? null, 'body.options'));
    } catch (err) {
      maskedPath(err);
    }
    // Everything above is plaintext until here; only envelopes reach the repository.
    for (const field of CONNECTION_SECRET_FIELDS) {
      if (write[field] !== undefined) write[field] = this.deps.secrets.encryptNullable(write[field]);
    }
    return write;
  }

  private keep(value: string | null | undefined, path: string): string {
    if (value === null || value === undefined) throw new MaskWithoutValue(path);
    return value;
  }

  private restoreAuth(input: Authentication, stored: Authentication | null): Authentication {
    const out: Authentication = {};
    if (input.type !== undefined) out.type = input.type;
    if (input.user !== undefined) out.user = input.user;
    if (input.token !== undefined) out.token = input.token === MASK ? this.keep(stored?.token, 'body.authentication.token') : input.token;
    if (input.pass !== undefined) out.pass = input.pass === MASK ? this.keep(stored?.pass, 'body.authentication.pass') : input.pass;
    return out;
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
