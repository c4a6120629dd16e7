import { Readable } from 'node:stream';
import { NotFoundError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import type { ResultData, RunMeta } from '../../sources/index.js';
import { checkBinding, type DatasetsService } from './datasets-service.js';
import type { BindingType } from './data-requests-repository.js';
import type { DatasetView } from './datasets-schemas.js';
import type { DatasetRunner, PreparedDataset, RunInputs } from './dataset-runner.js';
import type { RuntimeFilter } from './dataset-runs-filters.js';

export interface DatasetRunOptions {
  variables?: Record<string, unknown>;
  filters?: RuntimeFilter[];
  getCache?: boolean;
  noSource?: boolean;
  limit?: number;
  offset?: number;
}

/** An unsaved version of a data request (`POST …/dataRequests/{id}/draft`). */
export interface DraftRun {
  query: string;
  variables?: Record<string, unknown>;
  limit?: number;
  variableBindings?: { name: string; type?: BindingType; default_value?: string | null }[];
}

/** `{options, data, meta, cache}` as JSON, written in chunks. */
export type DatasetRunAnswer = Readable;

export interface DatasetRunsDeps {
  datasets: DatasetsService;
  runner: DatasetRunner;
}

/** Runs on behalf of an actor: a whole dataset, or one of its data requests alone. */
export class DatasetRunsService {
  constructor(private readonly deps: DatasetRunsDeps) {}

  /** `POST …/datasets/{id}/dataRequests/{rid}/request`. */
  async runDataRequest(actor: Actor, teamId: number, datasetId: number, requestId: number, options: DatasetRunOptions, signal?: AbortSignal) {
    const { view, prepared } = await this.prepare(actor, teamId, datasetId);
    const request = prepared.parts.requests.find((r) => r.id === requestId);
    if (!request) throw new NotFoundError('Data request');
    const inputs: RunInputs = { variables: options.variables ?? {} };
    const variablesWithoutValue = prepared.variablesWithoutValue(inputs, request);
    const result = await prepared.runRequest(request, inputs, signal);
    return {
      options: view,
      dataRequest: { responseData: { data: page(result.data, options), configuration: request.configuration }, meta: result.meta },
      variablesWithoutValue,
    };
  }

  /**
   * `POST …/dataRequests/{rid}/draft`: the request with the SQL on the editor's screen in place of
   * the saved one, nothing saved. Running text that is not saved is editing: it needs the right to
   * write datasets. The run is the saved request's in all else (its connection and bindings, the
   * statement check, bound variables, the row, byte and time limits), and `signal` cancels it on the
   * source when the caller goes away.
   */
  async runDraft(actor: Actor, teamId: number, datasetId: number, requestId: number, draft: DraftRun, signal?: AbortSignal) {
    const { view, prepared: loaded } = await this.prepare(actor, teamId, datasetId, 'dataset:write');
    const saved = loaded.parts.requests.find((r) => r.id === requestId);
    if (!saved) throw new NotFoundError('Data request');
    const request = { ...saved, query: draft.query };
    const at = new Date().toISOString();
    const bindings = (draft.variableBindings ?? []).map((b, i) => ({
      ...checkBinding({ name: b.name, type: b.type ?? 'string', default_value: b.default_value ?? null }, `body.variableBindings.${i}`),
      required: false,
      id: -(i + 1),
      entity_type: 'DataRequest',
      entity_id: String(request.id),
      createdAt: at,
      updatedAt: at,
    }));
    const prepared = bindings.length > 0 ? loaded.withRequestBindings(request, bindings) : loaded;
    const inputs: RunInputs = { variables: draft.variables ?? {} };
    const variablesWithoutValue = prepared.variablesWithoutValue(inputs, request);
    const result = await prepared.runRequest(request, inputs, signal);
    return {
      options: view,
      dataRequest: { responseData: { data: page(result.data, { limit: draft.limit }), configuration: request.configuration }, meta: result.meta },
      variablesWithoutValue,
    };
  }

  /**
   * `…/datasets/{id}/request`. From the cache with `getCache` (computed and stored on a miss);
   * `noSource` answers only what the cache holds; otherwise the source runs and, without joins,
   * rows stream to the client as they arrive instead of being held in memory. Either way the
   * answer is written in chunks of rows, so a large result is never also one large string.
   */
  async runDataset(actor: Actor, teamId: number, datasetId: number, options: DatasetRunOptions): Promise<DatasetRunAnswer> {
    const { view, prepared } = await this.prepare(actor, teamId, datasetId);
    const inputs: RunInputs = { variables: options.variables ?? {}, filters: options.filters ?? [] };
    const unset = prepared.variablesWithoutValue(inputs);
    if (options.getCache || options.noSource || !prepared.streamable) {
      const result = await prepared.collect(inputs, { refresh: !options.getCache && !options.noSource, cacheOnly: options.noSource === true });
      return chunked(heldChunks(view, page(result.data, options), result.meta, result.cache, unset));
    }
    const offset = options.offset ?? 0;
    const rows = await prepared.stream(inputs, options.limit !== undefined ? { rowLimit: offset + options.limit } : {});
    return chunked(jsonChunks(view, rows, offset, options.limit, unset));
  }

  /** Authorizes once and reads what the run needs once; the answer's dataset view comes from the same reads. */
  private async prepare(actor: Actor, teamId: number, datasetId: number, action: 'dataset:run' | 'dataset:write' = 'dataset:run'): Promise<{ view: DatasetView; prepared: PreparedDataset }> {
    const { membership, dataset } = await this.deps.datasets.load(actor, teamId, datasetId, action);
    const prepared = await this.deps.runner.prepareOne(teamId, dataset);
    const view = this.deps.datasets.viewOf(membership, dataset, { ...prepared.parts, connections: prepared.parts.connections.values() });
    return { view, prepared };
  }
}

function page(data: ResultData, options: { limit?: number; offset?: number }): ResultData {
  if (!Array.isArray(data) || (options.limit === undefined && options.offset === undefined)) return data;
  const start = options.offset ?? 0;
  return data.slice(start, options.limit === undefined ? undefined : start + options.limit);
}

/** One chunk ready ahead of the socket, not Readable's default 16. */
function chunked(chunks: AsyncIterable<string> | Iterable<string>): Readable {
  return Readable.from(chunks, { highWaterMark: 1 });
}

/** About this many characters of rows per chunk of a held result. */
const CHUNK_CHARS = 1024 * 1024;

/** A held result as `{"options":…,"data":…,"meta":…,"cache":…,"variablesWithoutValue":…}`, its rows written a chunk at a time. */
function* heldChunks(
  options: DatasetView,
  data: ResultData,
  meta: RunMeta,
  cache: { status: string; createdAt: string },
  unset: readonly string[],
): Generator<string> {
  yield `{"options":${JSON.stringify(options)},"data":`;
  if (Array.isArray(data)) {
    let chunk = '[';
    for (let i = 0; i < data.length; i++) {
      chunk += (i === 0 ? '' : ',') + (JSON.stringify(data[i]) ?? 'null');
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]`;
  } else {
    yield JSON.stringify(data);
  }
  yield `,"meta":${JSON.stringify(meta)},"cache":${JSON.stringify(cache)},"variablesWithoutValue":${JSON.stringify(unset)}}`;
}

/** `{"options":…,"data":[…],"meta":…,"cache":…,"variablesWithoutValue":…}` written batch by batch. */
async function* jsonChunks(
  options: DatasetView,
  rows: AsyncIterable<Record<string, unknown>[]> & { meta(): RunMeta; close(): Promise<void> },
  offset: number,
  limit: number | undefined,
  unset: readonly string[],
): AsyncGenerator<string> {
  yield `{"options":${JSON.stringify(options)},"data":[`;
  let skipped = 0;
  let sent = 0;
  try {
    outer: for await (const batch of rows) {
      let chunk = '';
      for (const row of batch) {
        if (skipped < offset) {
          skipped++;
          continue;
        }
        if (limit !== undefined && sent >= limit) break outer;
        chunk += (sent === 0 ? '' : ',') + JSON.stringify(row);
        sent++;
      }
      if (chunk) yield chunk;
    }
  } finally {
    await rows.close();
  }
  const meta = rows.meta();
  const cache = { status: 'bypass', createdAt: new Date().toISOString() };
  yield `],"meta":${JSON.stringify({ ...meta, rowCount: sent })},"cache":${JSON.stringify(cache)},"variablesWithoutValue":${JSON.stringify(unset)}}`;
}
