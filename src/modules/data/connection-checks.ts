import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { familyOf, isConnectionSubType, type SourceConnection, type SourceRegistry } from '../../sources/index.js';
import type { Provider, TestConnectionBody } from './connections-schemas.js';
import type { RunnableConnection } from './connection-secrets.js';
import type { ConnectionFiles, ConnectionsService } from './connections-service.js';

type ProviderView = Static<typeof Provider>;

const SCHEMA_REFRESH_MS = 3600_000;

export interface ConnectionChecksDeps {
  access: AccessService;
  connections: ConnectionsService;
  registry: SourceRegistry;
  log: Logger;
}

/**
 * What a connection's source says about it: whether it answers (test) and what it holds (schema,
 * saved on the connection and kept current in the background as runs use it).
 */
export class ConnectionChecks {
  readonly #schemaRefreshedAt = new Map<number, number>();

  constructor(private readonly deps: ConnectionChecksDeps) {}

  /** `GET /connection-providers`: every type and sub-type the registry serves, with what its source can do. */
  providers(): ProviderView[] {
    return this.deps.registry.providers().flatMap(({ subType, name, category, description, capabilities }) =>
      isConnectionSubType(subType)
        ? [
            {
              id: subType,
              type: familyOf(subType),
              subType,
              name,
              category,
              description,
              // Every source connects and answers queries; schema, streaming and pushdown are its own to claim.
              capabilities: { test: true, query: true, schema: capabilities.schema, streaming: capabilities.streaming, pushdown: capabilities.pushdown !== false },
            },
          ]
        : [],
    );
  }

  /** `GET /team/{tid}/connections/{id}/test`. */
  async test(actor: Actor, teamId: number, connectionId: number): Promise<{ success: true }> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    await this.deps.registry.test(toSourceConnection(await this.deps.connections.getForRun(teamId, connectionId)));
    return { success: true };
  }

  /** Who may test an unsaved connection, checked before an upload is read (403/404 first). */
  async assertMayTest(actor: Actor, teamId: number): Promise<void> {
    await this.deps.access.require(actor, teamId, 'connection:write');
  }

  /**
   * `POST /team/{tid}/connections/{type}/test` (and `…/test/files`, with SSL files): the same test
   * (address policy included) on a connection that is not saved; it gets a pool of its own for this
   * one call, and nothing is stored, files included.
   */
  async testUnsaved(actor: Actor, teamId: number, type: string, body: TestConnectionBody, files: ConnectionFiles = {}): Promise<{ success: true }> {
    const draft = await this.deps.connections.draft(actor, teamId, type, body, files);
    await this.deps.registry.test({ ...toSourceConnection(draft), id: null, updatedAt: null });
    return { success: true };
  }

  /** `GET /team/{tid}/connections/{id}/schema`: introspected now and saved on the connection. */
  async schema(actor: Actor, teamId: number, connectionId: number): Promise<{ schema: unknown }> {
    await this.deps.access.require(actor, teamId, 'connection:write');
    const connection = await this.deps.connections.getForRun(teamId, connectionId);
    const schema = await this.deps.registry.schema(toSourceConnection(connection));
    this.#schemaRefreshedAt.set(connection.id, Date.now());
    await this.deps.connections.saveSchema(teamId, connectionId, schema);
    return { schema };
  }

  /** Keeps `connection.schema` current without slowing the run that used it: at most once an hour, in the background. */
  refreshSchemaLater(teamId: number, connections: Iterable<RunnableConnection>): void {
    for (const connection of connections) {
      const last = this.#schemaRefreshedAt.get(connection.id) ?? 0;
      if (Date.now() - last < SCHEMA_REFRESH_MS) continue;
      const source = toSourceConnection(connection);
      if (!this.deps.registry.capabilities(source).schema) continue;
      this.#schemaRefreshedAt.set(connection.id, Date.now());
      setImmediate(() => {
        this.deps.registry
          .schema(source)
          .then((schema) => this.deps.connections.saveSchema(teamId, connection.id, schema))
          .catch((err: unknown) => this.deps.log.warn({ connectionId: connection.id, code: (err as { code?: string }).code }, 'background schema refresh failed'));
      });
    }
  }
}

/** The fields a source needs from a decrypted connection. */
export function toSourceConnection(c: RunnableConnection): SourceConnection {
  return {
    id: c.id,
    updatedAt: c.updatedAt,
    type: c.type,
    subType: c.subType,
    host: c.host,
    port: c.port,
    dbName: c.dbName,
    username: c.username,
    password: c.password,
    srv: c.srv,
    options: c.options,
    connectionString: c.connectionString,
    authentication: c.authentication as SourceConnection['authentication'],
    ssl: c.ssl,
    sslMode: c.sslMode,
    sslCa: c.sslCa,
    sslCert: c.sslCert,
    sslKey: c.sslKey,
    firebaseServiceAccount: c.firebaseServiceAccount ? JSON.stringify(c.firebaseServiceAccount) : null,
  };
}
