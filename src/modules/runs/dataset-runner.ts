import type { Logger } from 'pino';
import { datasetCacheKey, type CacheStatus, type ResultCache } from '../../runtime/cache/index.js';
import {
  joinResults,
  resolveVariables,
  variableValues,
  type ResultData,
  type ResolvedVariables,
  type Row,
  type RowStream,
  type RunMeta,
  type SourceConnection,
  type SourceRegistry,
} from '../../sources/index.js';
import type { DataRequestRecord, DataRequestsRepository, VariableBinding } from '../data-requests/repository.js';
import type { ConnectionsService, RunnableConnection } from '../connections/service.js';
import type { DatasetRecord } from '../datasets/repository.js';
import { BadRequestError } from '../../errors/index.js';
import { filterPredicate, type RuntimeFilter } from './filters.js';

export interface RunInputs {
  /** Values given for this run (body `variables`, share params). */
  variables?: Record<string, unknown>;
  /** Values saved on a chart dataset config (`configuration.variables`). */
  configured?: ReadonlyArray<{ name: string; value: unknown }> | Record<string, unknown> | null;
  filters?: RuntimeFilter[];
  timezone?: string;
}

export interface RunSettings {
  timeoutMs: number;
  rowLimit: number;
  cacheTtlMs: number;
  cacheStaleMs: number;
}

export interface CollectedResult {
  data: ResultData;
  meta: RunMeta;
  cache: { status: CacheStatus | 'bypass'; createdAt: string };
}

/** Rows of a dataset as batches; `close()` stops the source. */
export interface DatasetRows extends AsyncIterable<Row[]> {
  meta(): RunMeta;
  close(): Promise<void>;
}

const SCHEMA_REFRESH_MS = 3600_000;

/** A dataset that is one SQL query on a source that can take a chart's grouped query. */
export interface SqlTarget {
  dialect: 'postgres' | 'mysql';
  /** The user's SQL, with its `{{variables}}`. */
  query: string;
  variables: ResolvedVariables;
  /** Result columns of a describe query (the user's query wrapped to return no rows). */
  columns(describeSql: string): Promise<RunMeta['columns']>;
  /** Runs an already compiled statement (text and bound values) under the usual limits. */
  run(compiled: { text: string; values: readonly unknown[] }): Promise<{ data: ResultData; meta: RunMeta }>;
}

/**
 * Runs datasets and data requests: resolves variables, reaches the source through the registry,
 * joins, filters, and caches. Knows nothing of actors: callers have authorized the request.
 */
export class DatasetRunner {
  readonly #schemaRefreshedAt = new Map<number, number>();

  constructor(
    private readonly registry: SourceRegistry,
    private readonly connections: ConnectionsService,
    private readonly requests: DataRequestsRepository,
    private readonly cache: ResultCache,
    private readonly settings: RunSettings,
    private readonly log: Logger,
  ) {}

  /** The requests a dataset run needs: the main one and every join target, in join order. */
  async plan(dataset: DatasetRecord): Promise<{ main: DataRequestRecord; needed: DataRequestRecord[]; bindings: Map<number, VariableBinding[]> }> {
    const all = await this.requests.listForDatasets([dataset.id]);
    const main = all.find((r) => r.id === dataset.main_dr_id) ?? all[0];
    if (!main) throw new BadRequestError('This dataset has no data request to run; add one first', 'DATASET_EMPTY');
    const joinIds = new Set(dataset.joinSettings.joins.flatMap((j) => [Number(j.dr_id), Number(j.join_id)]));
    const needed = all.filter((r) => r.id === main.id || joinIds.has(r.id));
    const [requestBindings, datasetBindings] = await Promise.all([
      this.requests.bindingsOf('DataRequest', needed.map((r) => String(r.id))),
      this.requests.bindingsOf('Dataset', [String(dataset.id)]),
    ]);
    const bindings = new Map<number, VariableBinding[]>();
    for (const request of needed) {
      const own = requestBindings.filter((b) => b.entity_id === String(request.id));
      // A data request's own binding wins over a dataset-level binding of the same name.
      bindings.set(request.id, [...own, ...datasetBindings.filter((b) => !own.some((o) => o.name === b.name))]);
    }
    return { main, needed, bindings };
  }

  resolve(bindings: VariableBinding[], inputs: RunInputs): ResolvedVariables {
    return resolveVariables({ bindings, runtime: inputs.variables ?? null, configured: inputs.configured ?? null });
  }

  /** The whole (joined, filtered) result, through the cache unless `refresh`. */
  async collect(teamId: number, dataset: DatasetRecord, inputs: RunInputs, options: { refresh: boolean; cacheOnly?: boolean }): Promise<CollectedResult> {
    const { main, needed, bindings } = await this.plan(dataset);
    const resolved = new Map(needed.map((r) => [r.id, this.resolve(bindings.get(r.id) ?? [], inputs)]));
    const connections = await this.connectionsFor(teamId, needed);
    const key = datasetCacheKey({
      datasetId: dataset.id,
      datasetVersion: dataset.version,
      dataRequests: needed.map((r) => ({ id: r.id, version: r.updatedAt, connectionVersion: connections.get(r.connection_id ?? -1)?.updatedAt ?? null })),
      variables: Object.fromEntries(needed.map((r) => [r.id, variableValues(resolved.get(r.id)!)])),
      filters: inputs.filters ?? [],
      extra: { teamId, rowLimit: this.settings.rowLimit, timezone: inputs.timezone ?? 'UTC' },
    });
    if (options.cacheOnly) {
      const entry = await this.cache.get<{ data: ResultData; meta: RunMeta }>(key);
      if (!entry) return { data: [], meta: { columns: [], rowCount: 0, truncated: false, durationMs: 0 }, cache: { status: 'miss', createdAt: new Date().toISOString() } };
      return { ...entry.value, cache: { status: 'hit', createdAt: new Date(entry.createdAt).toISOString() } };
    }
    const compute = async () => {
      const started = Date.now();
      const results = new Map<string, ResultData>();
      let truncated = false;
      let columns: RunMeta['columns'] = [];
      await Promise.all(
        needed.map(async (request) => {
          const result = await this.registry.run(this.sourceConnection(connections, request), request, {
            variables: resolved.get(request.id)!,
            timeoutMs: this.settings.timeoutMs,
            rowLimit: this.settings.rowLimit,
          });
          results.set(String(request.id), result.data);
          truncated ||= result.meta.truncated;
          if (request.id === main.id) columns = result.meta.columns;
        }),
      );
      let data = dataset.joinSettings.joins.length > 0 ? joinResults(main.id, results, dataset.joinSettings.joins) : results.get(String(main.id))!;
      const keep = filterPredicate(inputs.filters ?? [], dataset.dateField, inputs.timezone);
      if (keep && Array.isArray(data)) data = data.filter(keep);
      this.refreshSchemaLater(teamId, connections);
      const rowCount = Array.isArray(data) ? data.length : 1;
      return { data, meta: { columns, rowCount, truncated, ...(truncated ? { rowLimit: this.settings.rowLimit } : {}), durationMs: Date.now() - started } };
    };
    const result = await this.cache.getOrCompute(key, compute, { ttlMs: this.settings.cacheTtlMs, staleMs: this.settings.cacheStaleMs, refresh: options.refresh });
    return { ...result.value, cache: { status: result.status, createdAt: new Date(result.createdAt).toISOString() } };
  }

  /**
   * Rows in batches without holding the result: the main request streamed from its source,
   * filtered on the way. Datasets with joins are collected (a hash join needs both sides).
   */
  async stream(teamId: number, dataset: DatasetRecord, inputs: RunInputs, options: { rowLimit?: number } = {}): Promise<DatasetRows> {
    if (dataset.joinSettings.joins.length > 0) {
      const collected = await this.collect(teamId, dataset, inputs, { refresh: false });
      return rowsOf(collected.data, collected.meta);
    }
    const { main, bindings } = await this.plan(dataset);
    const connections = await this.connectionsFor(teamId, [main]);
    const rowLimit = options.rowLimit ?? this.settings.rowLimit;
    const source: RowStream = await this.registry.stream(this.sourceConnection(connections, main), main, {
      variables: this.resolve(bindings.get(main.id) ?? [], inputs),
      timeoutMs: this.settings.timeoutMs,
      rowLimit,
    });
    this.refreshSchemaLater(teamId, connections);
    const keep = filterPredicate(inputs.filters ?? [], dataset.dateField, inputs.timezone);
    return {
      meta: () => {
        const meta = source.meta();
        return meta.truncated ? { ...meta, rowLimit } : meta;
      },
      close: () => source.close(),
      async *[Symbol.asyncIterator]() {
        for await (const batch of source) yield keep ? batch.filter(keep) : batch;
      },
    };
  }

  /** True when the dataset's rows can flow from the source without being held (no joins, a streaming source). */
  async streamable(teamId: number, dataset: DatasetRecord): Promise<boolean> {
    if (dataset.joinSettings.joins.length > 0) return false;
    const { main } = await this.plan(dataset);
    const connections = await this.connectionsFor(teamId, [main]);
    return this.registry.capabilities(this.sourceConnection(connections, main)).streaming;
  }

  /**
   * The dataset as one SQL query a chart can be pushed down into: no joins, and a source that
   * advertises a pushdown dialect. Null otherwise.
   */
  async sqlTarget(teamId: number, dataset: DatasetRecord, inputs: RunInputs): Promise<SqlTarget | null> {
    if (dataset.joinSettings.joins.length > 0) return null;
    const { main, bindings } = await this.plan(dataset);
    if (!main.query) return null;
    const connections = await this.connectionsFor(teamId, [main]);
    const connection = this.sourceConnection(connections, main);
    const dialect = this.registry.capabilities(connection).pushdown;
    if (!dialect) return null;
    const variables = this.resolve(bindings.get(main.id) ?? [], inputs);
    const options = { variables, timeoutMs: this.settings.timeoutMs, rowLimit: this.settings.rowLimit };
    const query = main.query;
    return {
      dialect,
      query,
      variables,
      columns: async (describeSql: string) => (await this.registry.run(connection, { query: describeSql }, options)).meta.columns,
      run: (compiled) => this.registry.run(connection, { compiled }, options),
    };
  }

  /** One data request alone (no joins), for `…/dataRequests/{id}/request`. */
  async runRequest(teamId: number, dataset: DatasetRecord, request: DataRequestRecord, inputs: RunInputs): Promise<{ data: ResultData; meta: RunMeta }> {
    const bindings = await this.requests.bindingsOf('DataRequest', [String(request.id)]);
    const datasetBindings = await this.requests.bindingsOf('Dataset', [String(dataset.id)]);
    const merged = [...bindings, ...datasetBindings.filter((b) => !bindings.some((o) => o.name === b.name))];
    const connections = await this.connectionsFor(teamId, [request]);
    const result = await this.registry.run(this.sourceConnection(connections, request), request, {
      variables: this.resolve(merged, inputs),
      timeoutMs: this.settings.timeoutMs,
      rowLimit: this.settings.rowLimit,
    });
    this.refreshSchemaLater(teamId, connections);
    return result.meta.truncated ? { ...result, meta: { ...result.meta, rowLimit: this.settings.rowLimit } } : result;
  }

  async test(connection: RunnableConnection): Promise<void> {
    await this.registry.test(toSourceConnection(connection));
  }

  async schema(connection: RunnableConnection): Promise<unknown> {
    const schema = await this.registry.schema(toSourceConnection(connection));
    this.#schemaRefreshedAt.set(connection.id, Date.now());
    return schema;
  }

  private async connectionsFor(teamId: number, requests: DataRequestRecord[]): Promise<Map<number, RunnableConnection>> {
    const ids = [...new Set(requests.map((r) => r.connection_id).filter((id): id is number => id !== null))];
    const list = await Promise.all(ids.map((id) => this.connections.getForRun(teamId, id)));
    return new Map(list.map((c) => [c.id, c]));
  }

  private sourceConnection(connections: Map<number, RunnableConnection>, request: DataRequestRecord): SourceConnection {
    const connection = request.connection_id === null ? undefined : connections.get(request.connection_id);
    if (!connection) throw new BadRequestError(`Data request ${request.id} has no connection; set its connection_id`, 'NO_CONNECTION');
    if (!connection.active) throw new BadRequestError(`Connection "${connection.name}" is disabled`, 'CONNECTION_INACTIVE');
    return toSourceConnection(connection);
  }

  /** Keeps `connection.schema` current without slowing the run: at most once an hour, in the background. */
  private refreshSchemaLater(teamId: number, connections: Map<number, RunnableConnection>): void {
    for (const connection of connections.values()) {
      const last = this.#schemaRefreshedAt.get(connection.id) ?? 0;
      if (Date.now() - last < SCHEMA_REFRESH_MS) continue;
      if (!this.registry.capabilities(toSourceConnection(connection)).schema) continue;
      this.#schemaRefreshedAt.set(connection.id, Date.now());
      setImmediate(() => {
        this.registry
          .schema(toSourceConnection(connection))
          .then((schema) => this.connections.saveSchema(teamId, connection.id, schema))
          .catch((err: unknown) => this.log.warn({ connectionId: connection.id, code: (err as { code?: string }).code }, 'background schema refresh failed'));
      });
    }
  }
}

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

function rowsOf(data: ResultData, meta: RunMeta): DatasetRows {
  const rows = (Array.isArray(data) ? data : [data]) as Row[];
  return {
    meta: () => meta,
    close: async () => undefined,
    async *[Symbol.asyncIterator]() {
      if (rows.length > 0) yield rows;
    },
  };
}
