import { Readable } from 'node:stream';
import { NotFoundError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import type { ResultData, RunMeta } from '../../sources/index.js';
import type { ConnectionsService } from '../connections/service.js';
import type { DataRequestsRepository } from '../data-requests/repository.js';
import type { DatasetsService, DatasetView } from '../datasets/service.js';
import type { DatasetRunner, RunInputs } from './dataset-runner.js';
import type { RuntimeFilter } from './filters.js';

export interface DatasetRunOptions {
  variables?: Record<string, unknown>;
  filters?: RuntimeFilter[];
  getCache?: boolean;
  noSource?: boolean;
  limit?: number;
  offset?: number;
}

export type DatasetRunAnswer =
  | { kind: 'json'; body: { options: DatasetView; data: ResultData; meta: RunMeta; cache: { status: string; createdAt: string } } }
  | { kind: 'stream'; body: Readable };

/** Runs on behalf of an actor: connection test and schema, one data request, a whole dataset. */
export class RunsService {
  constructor(
    private readonly access: AccessService,
    private readonly connections: ConnectionsService,
    private readonly datasets: DatasetsService,
    private readonly requests: DataRequestsRepository,
    private readonly runner: DatasetRunner,
  ) {}

  async testConnection(actor: Actor, teamId: number, connectionId: number): Promise<{ success: true }> {
    await this.access.require(actor, teamId, 'connection:write');
    await this.runner.test(await this.connections.getForRun(teamId, connectionId));
    return { success: true };
  }

  async connectionSchema(actor: Actor, teamId: number, connectionId: number): Promise<{ schema: unknown }> {
    await this.access.require(actor, teamId, 'connection:write');
    const schema = await this.runner.schema(await this.connections.getForRun(teamId, connectionId));
    await this.connections.saveSchema(teamId, connectionId, schema);
    return { schema };
  }

  async runDataRequest(actor: Actor, teamId: number, datasetId: number, requestId: number, options: DatasetRunOptions) {
    const { membership, dataset } = await this.datasets.load(actor, teamId, datasetId, 'dataset:run');
    const request = await this.requests.find(datasetId, requestId);
    if (!request) throw new NotFoundError('Data request');
    const result = await this.runner.runRequest(teamId, dataset, request, { variables: options.variables ?? {} });
    const [view] = await this.datasets.views(membership, [dataset]);
    return { options: view!, dataRequest: { responseData: { data: page(result.data, options), configuration: request.configuration }, meta: result.meta } };
  }

  /**
   * `…/datasets/{id}/request`. From the cache with `getCache` (computed and stored on a miss);
   * `noSource` answers only what the cache holds; otherwise the source runs and, without joins,
   * rows stream to the client as they arrive instead of being held in memory.
   */
  async runDataset(actor: Actor, teamId: number, datasetId: number, options: DatasetRunOptions): Promise<DatasetRunAnswer> {
    const { membership, dataset } = await this.datasets.load(actor, teamId, datasetId, 'dataset:run');
    const [view] = await this.datasets.views(membership, [dataset]);
    const inputs: RunInputs = { variables: options.variables ?? {}, filters: options.filters ?? [] };
    if (options.getCache || options.noSource || !(await this.runner.streamable(teamId, dataset))) {
      const result = await this.runner.collect(teamId, dataset, inputs, { refresh: !options.getCache && !options.noSource, cacheOnly: options.noSource === true });
      return { kind: 'json', body: { options: view!, data: page(result.data, options), meta: result.meta, cache: result.cache } };
    }
    const offset = options.offset ?? 0;
    const rows = await this.runner.stream(teamId, dataset, inputs, options.limit !== undefined ? { rowLimit: offset + options.limit } : {});
    return { kind: 'stream', body: Readable.from(jsonChunks(view!, rows, offset, options.limit)) };
  }
}

function page(data: ResultData, options: { limit?: number; offset?: number }): ResultData {
  if (!Array.isArray(data) || (options.limit === undefined && options.offset === undefined)) return data;
  const start = options.offset ?? 0;
  return data.slice(start, options.limit === undefined ? undefined : start + options.limit);
}

/** `{"options":…,"data":[…],"meta":…}` written batch by batch. */
async function* jsonChunks(
  options: DatasetView,
  rows: AsyncIterable<Record<string, unknown>[]> & { meta(): RunMeta; close(): Promise<void> },
  offset: number,
  limit: number | undefined,
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
  yield `],"meta":${JSON.stringify({ ...meta, rowCount: sent })},"cache":{"status":"bypass","createdAt":${JSON.stringify(new Date().toISOString())}}}`;
}
