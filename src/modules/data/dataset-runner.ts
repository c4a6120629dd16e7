import type { SqlQuerySource } from '../../engine/index.js';
import { BadRequestError, NotFoundError } from '../../errors/index.js';
import { datasetCacheKey, type CacheStatus, type ResultCache } from '../../runtime/cache/index.js';
import {
  compileSql,
  findPlaceholders,
  joinResultsWithin,
  resolveVariables,
  variableValues,
  variablesWithoutValue,
  type ResultData,
  type ResolvedVariables,
  type Row,
  type RunMeta,
  type SourceConnection,
  type SourceRegistry,
} from '../../sources/index.js';
import { toSourceConnection, type ConnectionChecks } from './connection-checks.js';
import type { RunnableConnection } from './connection-secrets.js';
import type { ConnectionsService } from './connections-service.js';
import type { DataRequestRecord, DataRequestsRepository, VariableBinding } from './data-requests-repository.js';
import type { DatasetRecord } from './datasets-repository.js';
import { filterPredicate, type RuntimeFilter } from './dataset-runs-filters.js';

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
  /** Bytes of rows a run may hold or return (PLOTLINE_RESULT_MAX_MB); also the most one batch may hold. */
  byteLimit: number;
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

export interface DatasetRunnerDeps {
  registry: SourceRegistry;
  connections: ConnectionsService;
  checks: ConnectionChecks;
  requests: DataRequestsRepository;
  cache: ResultCache;
  settings: RunSettings;
}

/**
 * Runs datasets: `prepare` reads what runs of some datasets need once (their data requests, the
 * variable bindings, the decrypted connections: three store reads however many datasets), and
 * the prepared dataset streams or collects its rows. Knows nothing of actors: callers have
 * authorized the run.
 */
export class DatasetRunner {
  constructor(private readonly deps: DatasetRunnerDeps) {}

  async prepare(teamId: number, datasets: readonly DatasetRecord[]): Promise<Map<number, PreparedDataset>> {
    const ids = datasets.map((d) => d.id);
    const requests = await this.deps.requests.listForDatasets(ids);
    const [bindings, connections] = await Promise.all([
      this.deps.requests.bindingsFor(
        ids,
        requests.map((r) => r.id),
      ),
      this.deps.connections.getManyForRun(
        teamId,
        requests.map((r) => r.connection_id).filter((id): id is number => id !== null),
      ),
    ]);
    return new Map(
      datasets.map((dataset) => [
        dataset.id,
        new PreparedDataset({
          runner: this.deps,
          teamId,
          dataset,
          parts: {
            requests: requests.filter((r) => r.dataset_id === dataset.id),
            bindings: bindings.filter((b) => (b.entity_type === 'Dataset' ? b.entity_id === String(dataset.id) : requests.some((r) => r.dataset_id === dataset.id && String(r.id) === b.entity_id))),
            connections,
          },
        }),
      ]),
    );
  }

  async prepareOne(teamId: number, dataset: DatasetRecord): Promise<PreparedDataset> {
    return (await this.prepare(teamId, [dataset])).get(dataset.id)!;
  }
}

/** What `prepare` read for one dataset. */
export interface DatasetParts {
  /** Every data request of the dataset, in id order. */
  requests: DataRequestRecord[];
  /** The dataset's own bindings and those of its data requests. */
  bindings: VariableBinding[];
  /** Decrypted connections by id (of these and maybe other datasets' requests). */
  connections: ReadonlyMap<number, RunnableConnection>;
}

/** A prepared dataset's parts, read by `DatasetRunner.prepare`, and what the runner runs with. */
export interface PreparedDatasetDeps {
  runner: DatasetRunnerDeps;
  teamId: number;
  dataset: DatasetRecord;
  parts: DatasetParts;
}

/** A dataset ready to run any number of times: nothing more is read from the store. */
export class PreparedDataset {
  private readonly runner: DatasetRunnerDeps;
  private readonly teamId: number;
  readonly dataset: DatasetRecord;
  readonly parts: DatasetParts;

  constructor({ runner, teamId, dataset, parts }: PreparedDatasetDeps) {
    this.runner = runner;
    this.teamId = teamId;
    this.dataset = dataset;
    this.parts = parts;
  }

  /**
   * The same prepared dataset with these bindings on `request` in place of its own of the same
   * names: an unsaved draft's variables, for a draft run. Nothing is read or written.
   */
  withRequestBindings(request: DataRequestRecord, bindings: readonly VariableBinding[]): PreparedDataset {
    const names = new Set(bindings.map((b) => b.name));
    const kept = this.parts.bindings.filter((b) => !(b.entity_type === 'DataRequest' && b.entity_id === String(request.id) && names.has(b.name)));
    return new PreparedDataset({ runner: this.runner, teamId: this.teamId, dataset: this.dataset, parts: { ...this.parts, bindings: [...kept, ...bindings] } });
  }

  /** The main request and every join target, in join order. */
  private needed(): { main: DataRequestRecord; needed: DataRequestRecord[] } {
    const { requests } = this.parts;
    const main = requests.find((r) => r.id === this.dataset.main_dr_id) ?? requests[0];
    if (!main) throw new BadRequestError('This dataset has no data request to run; add one first', 'DATASET_EMPTY');
    const joinIds = new Set(this.dataset.joinSettings.joins.flatMap((j) => [Number(j.dr_id), Number(j.join_id)]));
    return { main, needed: requests.filter((r) => r.id === main.id || joinIds.has(r.id)) };
  }

  /** A data request's own binding wins over a dataset-level binding of the same name. */
  private resolve(request: DataRequestRecord, inputs: RunInputs): ResolvedVariables {
    const own = this.parts.bindings.filter((b) => b.entity_type === 'DataRequest' && b.entity_id === String(request.id));
    const shared = this.parts.bindings.filter((b) => b.entity_type === 'Dataset' && !own.some((o) => o.name === b.name));
    return resolveVariables({ bindings: [...own, ...shared], runtime: inputs.variables ?? null, configured: inputs.configured ?? null });
  }

  /**
   * Names of the bound variables that a run with these inputs leaves without a value (bound
   * NULL), sorted: over the main request and its join targets, or over `request` alone. Resolving
   * also checks the values, so a bad or missing required one is its 400 here, before any answer.
   */
  variablesWithoutValue(inputs: RunInputs, request?: DataRequestRecord): string[] {
    const requests = request ? [request] : this.needed().needed;
    return [...new Set(requests.flatMap((r) => variablesWithoutValue(this.resolve(r, inputs))))].sort();
  }

  /**
   * The `{{names}}` the requests a run sends (the main one and its join targets) hold in the
   * fields the sources fill in (query, route, headers, body, configuration, conditions): the
   * variables whose values reach this dataset's rows. A binding alone, named nowhere, reaches none.
   */
  placeholderNames(): Set<string> {
    const names = new Set<string>();
    if (this.parts.requests.length === 0) return names;
    for (const request of this.needed().needed) {
      const fields = [request.query, request.route, request.body, JSON.stringify(request.headers), JSON.stringify(request.configuration), JSON.stringify(request.conditions)];
      for (const text of fields) if (text) for (const match of findPlaceholders(text)) names.add(match.name);
    }
    return names;
  }

  private connectionOf(request: DataRequestRecord): { runnable: RunnableConnection; source: SourceConnection } {
    if (request.connection_id === null) throw new BadRequestError(`Data request ${request.id} has no connection; set its connection_id`, 'NO_CONNECTION');
    const runnable = this.parts.connections.get(request.connection_id);
    if (!runnable) throw new NotFoundError('Connection');
    if (!runnable.active) throw new BadRequestError(`Connection "${runnable.name}" is disabled`, 'CONNECTION_INACTIVE');
    return { runnable, source: toSourceConnection(runnable) };
  }

  private ran(requests: readonly DataRequestRecord[]): void {
    this.runner.checks.refreshSchemaLater(
      this.teamId,
      requests.map((r) => this.connectionOf(r).runnable),
    );
  }

  /** True when the rows can flow from the source without being held (no joins, a streaming source). */
  get streamable(): boolean {
    if (this.dataset.joinSettings.joins.length > 0) return false;
    return this.runner.registry.capabilities(this.connectionOf(this.needed().main).source).streaming;
  }

  /** The whole (joined, filtered) result, through the cache unless `refresh`. */
  async collect(inputs: RunInputs, options: { refresh: boolean; cacheOnly?: boolean }): Promise<CollectedResult> {
    const { settings, cache, registry } = this.runner;
    const { main, needed } = this.needed();
    const resolved = new Map(needed.map((r) => [r.id, this.resolve(r, inputs)]));
    const key = datasetCacheKey({
      datasetId: this.dataset.id,
      datasetVersion: this.dataset.version,
      dataRequests: needed.map((r) => ({ id: r.id, version: r.updatedAt, connectionVersion: this.parts.connections.get(r.connection_id ?? -1)?.updatedAt ?? null })),
      variables: Object.fromEntries(needed.map((r) => [r.id, variableValues(resolved.get(r.id)!)])),
      filters: inputs.filters ?? [],
      extra: { teamId: this.teamId, rowLimit: settings.rowLimit, byteLimit: settings.byteLimit, timezone: inputs.timezone ?? 'UTC' },
    });
    if (options.cacheOnly) {
      const entry = await cache.get<{ data: ResultData; meta: RunMeta }>(key);
      if (!entry) return { data: [], meta: { columns: [], rowCount: 0, truncated: false, durationMs: 0 }, cache: { status: 'miss', createdAt: new Date().toISOString() } };
      return { ...entry.value, cache: { status: 'hit', createdAt: new Date(entry.createdAt).toISOString() } };
    }
    const compute = async () => {
      const started = Date.now();
      const results = new Map<string, ResultData>();
      const cuts: Cut[] = [];
      let mainMeta: RunMeta | undefined;
      await Promise.all(
        needed.map(async (request) => {
          const result = await registry.run(this.connectionOf(request).source, request, {
            variables: resolved.get(request.id)!,
            timeoutMs: settings.timeoutMs,
            rowLimit: settings.rowLimit,
            byteLimit: settings.byteLimit,
          });
          results.set(String(request.id), result.data);
          cuts.push(result.meta);
          if (request.id === main.id) mainMeta = result.meta;
        }),
      );
      let data: ResultData;
      if (this.dataset.joinSettings.joins.length > 0) {
        const joined = joinResultsWithin(main.id, results, this.dataset.joinSettings.joins, settings.byteLimit);
        data = joined.data;
        if (joined.truncated) cuts.push({ truncated: true, truncatedBy: 'bytes', byteLimit: settings.byteLimit });
      } else {
        data = results.get(String(main.id))!;
      }
      const keep = filterPredicate(inputs.filters ?? [], this.dataset.dateField, inputs.timezone);
      if (keep && Array.isArray(data)) data = data.filter(keep);
      this.ran(needed);
      // An API answer kept as an object (its rows in an array inside) counts the rows its source counted.
      const rowCount = Array.isArray(data) ? data.length : (mainMeta?.rowCount ?? 1);
      return { data, meta: { columns: mainMeta?.columns ?? [], rowCount, ...cutOf(cuts, settings.rowLimit), durationMs: Date.now() - started } };
    };
    const result = await cache.getOrCompute(key, compute, { ttlMs: settings.cacheTtlMs, staleMs: settings.cacheStaleMs, refresh: options.refresh });
    return { ...result.value, cache: { status: result.status, createdAt: new Date(result.createdAt).toISOString() } };
  }

  /**
   * Rows in batches without holding the result: the main request streamed from its source,
   * filtered on the way. Datasets with joins are collected (a hash join needs both sides).
   * `byteLimit: Infinity` for a consumer that holds no rows (a chart's aggregation): batches are
   * still bounded in bytes.
   */
  async stream(inputs: RunInputs, options: { rowLimit?: number; byteLimit?: number } = {}): Promise<DatasetRows> {
    if (this.dataset.joinSettings.joins.length > 0) {
      const collected = await this.collect(inputs, { refresh: false });
      return rowsOf(collected.data, collected.meta);
    }
    const { main } = this.needed();
    const { settings } = this.runner;
    const rowLimit = options.rowLimit ?? settings.rowLimit;
    const source = await this.runner.registry.stream(this.connectionOf(main).source, main, {
      variables: this.resolve(main, inputs),
      timeoutMs: settings.timeoutMs,
      rowLimit,
      byteLimit: options.byteLimit ?? settings.byteLimit,
      batchByteLimit: settings.byteLimit,
    });
    this.ran([main]);
    const keep = filterPredicate(inputs.filters ?? [], this.dataset.dateField, inputs.timezone);
    return {
      meta: () => {
        const meta = source.meta();
        return meta.truncated ? { ...meta, ...cutOf([meta], rowLimit) } : meta;
      },
      close: () => source.close(),
      async *[Symbol.asyncIterator]() {
        for await (const batch of source) yield keep ? batch.filter(keep) : batch;
      },
    };
  }

  /**
   * The dataset as one SQL query a chart can be pushed down into: no joins, and a source that
   * advertises a pushdown dialect. Null otherwise. `onRows` is told how many grouped rows came back.
   */
  sqlQuery(inputs: RunInputs, onRows: (count: number) => void = () => undefined): SqlQuerySource | null {
    if (this.dataset.joinSettings.joins.length > 0) return null;
    const { main } = this.needed();
    if (!main.query) return null;
    const { source } = this.connectionOf(main);
    const dialect = this.runner.registry.capabilities(source).pushdown;
    if (!dialect) return null;
    const variables = this.resolve(main, inputs);
    const { settings } = this.runner;
    const options = { variables, timeoutMs: settings.timeoutMs, rowLimit: settings.rowLimit, byteLimit: settings.byteLimit };
    const registry = this.runner.registry;
    return {
      dialect,
      text: main.query,
      compiled: compileSql(main.query, dialect, variables),
      columns: async (describe) => (await registry.run(source, { query: describe }, options)).meta.columns,
      rows: async (compiled) => {
        const result = await registry.run(source, { compiled }, options);
        if (result.meta.truncated || !Array.isArray(result.data)) return null;
        onRows(result.data.length);
        return result.data as Row[];
      },
    };
  }

  /** One data request alone (no joins), for `…/dataRequests/{id}/request`. */
  async runRequest(request: DataRequestRecord, inputs: RunInputs, signal?: AbortSignal): Promise<{ data: ResultData; meta: RunMeta }> {
    const result = await this.runner.registry.run(this.connectionOf(request).source, request, {
      variables: this.resolve(request, inputs),
      timeoutMs: this.runner.settings.timeoutMs,
      rowLimit: this.runner.settings.rowLimit,
      byteLimit: this.runner.settings.byteLimit,
      ...(signal ? { signal } : {}),
    });
    this.ran([request]);
    return result.meta.truncated ? { ...result, meta: { ...result.meta, ...cutOf([result.meta], this.runner.settings.rowLimit) } } : result;
  }
}

/** What cut one part of a run (a data request's result, the join). */
type Cut = Pick<RunMeta, 'truncated' | 'truncatedBy' | 'byteLimit' | 'pageLimit'>;

/**
 * How a run made of several parts says it was cut: by bytes when any part was (with the smallest
 * byte limit that cut), otherwise by what cut the first part that was (with its page cap when that
 * was a source's page cap); with the run's `rowLimit`.
 */
function cutOf(cuts: readonly Cut[], rowLimit: number): Pick<RunMeta, 'truncated' | 'truncatedBy' | 'rowLimit' | 'byteLimit' | 'pageLimit'> {
  const cut = cuts.filter((c) => c.truncated);
  if (cut.length === 0) return { truncated: false };
  const bytes = cut.filter((c) => c.truncatedBy === 'bytes' && c.byteLimit !== undefined).map((c) => c.byteLimit!);
  if (bytes.length > 0) return { truncated: true, truncatedBy: 'bytes', rowLimit, byteLimit: Math.min(...bytes) };
  const first = cut[0]!;
  const by = first.truncatedBy ?? 'rows';
  return { truncated: true, truncatedBy: by, rowLimit, ...(by === 'pages' && first.pageLimit !== undefined ? { pageLimit: first.pageLimit } : {}) };
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
