import {
  compileFieldPath,
  describeSql,
  DistinctCollector,
  InvalidChartConfigError,
  parseFieldPath,
  planDistinct,
  PushdownFallbackError,
  readDistinct,
  type DistinctValue,
  type FieldAccessor,
} from '../../engine/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { cacheKey, type ResultCache } from '../../runtime/cache/index.js';
import type { DatasetRecord, DatasetsRepository } from './datasets-repository.js';
import type { DatasetsService } from './datasets-service.js';
import type { DatasetRunner, PreparedDataset } from './dataset-runner.js';

export const VALUES_DEFAULT_LIMIT = 100;
export const VALUES_MAX_LIMIT = 1000;

export interface DatasetValuesOptions {
  /** Only values whose text contains this, ignoring case; empty or absent: every value. */
  search?: string | null;
  /** At most this many values (default 100, at most 1000). */
  limit?: number;
  /** Where the field came from, named in a 400 (default `querystring.field`). */
  fieldParameter?: string;
}

/** `GET …/datasets/{id}/values`: a dropdown's values of one field of a dataset's result. */
export interface DatasetValues {
  field: string;
  values: DistinctValue[];
  /** More values exist than `limit`, or the run was cut by a limit: the list is not complete. */
  truncated: boolean;
  /** The dataset's result has no such field (the values are then empty). */
  missing: boolean;
}

type Computed = Omit<DatasetValues, 'field'>;

export interface DatasetValuesSettings {
  cacheTtlMs: number;
  cacheStaleMs: number;
  /** Let the database list the values of a dataset that is one SQL query (PLOTLINE_CHART_PUSHDOWN). */
  pushdown: boolean;
  /** Rows the streaming pass may read (PLOTLINE_CHART_ROW_LIMIT, 0 = no limit): it holds values, not rows. */
  chartRowLimit: number;
}

export interface DatasetValuesDeps {
  datasets: DatasetsService;
  records: DatasetsRepository;
  runner: DatasetRunner;
  cache: ResultCache;
  settings: DatasetValuesSettings;
}

/**
 * The distinct values of a field of a dataset's result, for filter dropdowns: listed by the
 * database (SELECT DISTINCT … LIMIT n+1 around the dataset's query) when the dataset is one SQL
 * query, else in one streaming pass over the run that keeps only the first `limit + 1` values in
 * order. Either way the same list (src/engine/distinct-values.ts), cached in the result cache.
 * Variables take their bindings' defaults.
 */
export class DatasetValuesService {
  constructor(private readonly deps: DatasetValuesDeps) {}

  /** For a member: the same rights as running the dataset. */
  async forActor(actor: Actor, teamId: number, datasetId: number, field: string, options: DatasetValuesOptions = {}): Promise<DatasetValues> {
    const { dataset } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:run');
    return this.valuesOf(teamId, dataset, field, options);
  }

  /** Access decided by the caller (a shared dashboard's filter, say); another team's dataset is a 404. */
  async distinct(teamId: number, datasetId: number, field: string, options: DatasetValuesOptions = {}): Promise<DatasetValues> {
    const dataset = await this.deps.records.find(teamId, datasetId);
    if (!dataset) throw new NotFoundError('Dataset');
    return this.valuesOf(teamId, dataset, field, options);
  }

  private async valuesOf(teamId: number, dataset: DatasetRecord, field: string, options: DatasetValuesOptions): Promise<DatasetValues> {
    const accessor = checkedField(field, options.fieldParameter ?? 'querystring.field');
    const limit = Math.min(Math.max(1, options.limit ?? VALUES_DEFAULT_LIMIT), VALUES_MAX_LIMIT);
    const search = options.search ? options.search : null;
    const prepared = await this.deps.runner.prepareOne(teamId, dataset);
    const { settings } = this.deps;
    const { parts } = prepared;
    // Everything that changes the answer, as chart runs key theirs.
    const key = cacheKey('values', {
      teamId,
      datasetId: dataset.id,
      version: dataset.version,
      requests: parts.requests.map((r) => [r.id, r.updatedAt, r.connection_id === null ? null : (parts.connections.get(r.connection_id)?.updatedAt ?? null)]),
      bindings: parts.bindings.map((b) => [b.id, b.updatedAt]),
      field: accessor.path,
      search,
      limit,
      pushdown: settings.pushdown,
      rowLimit: settings.chartRowLimit,
    });
    const cached = await this.deps.cache.getOrCompute<Computed>(key, () => this.compute(prepared, accessor, limit, search), {
      ttlMs: settings.cacheTtlMs,
      staleMs: settings.cacheStaleMs,
    });
    return { field, ...cached.value };
  }

  private async compute(prepared: PreparedDataset, accessor: FieldAccessor, limit: number, search: string | null): Promise<Computed> {
    if (this.deps.settings.pushdown) {
      const listed = await this.fromDatabase(prepared, accessor, limit, search);
      if (listed) return listed;
    }
    return this.fromStream(prepared, accessor, limit, search);
  }

  /** One DISTINCT query around the dataset's query; null when the streaming pass must answer. */
  private async fromDatabase(prepared: PreparedDataset, accessor: FieldAccessor, limit: number, search: string | null): Promise<Computed | null> {
    const query = prepared.sqlQuery({});
    if (!query) return null;
    const describe = describeSql(query.text, query.dialect);
    if (!describe) return null;
    const plan = planDistinct(query.compiled, query.dialect, await query.columns(describe), accessor.path, { limit, search });
    if (plan.kind === 'missing') return { values: [], truncated: false, missing: true };
    if (plan.kind === 'stream') return null;
    const rows = await query.rows({ text: plan.sql, values: plan.params });
    if (!rows) return null;
    try {
      return { ...readDistinct(plan, rows), missing: false };
    } catch (error) {
      if (error instanceof PushdownFallbackError) return null;
      throw error;
    }
  }

  /** One pass over the run, holding at most `limit + 1` values. */
  private async fromStream(prepared: PreparedDataset, accessor: FieldAccessor, limit: number, search: string | null): Promise<Computed> {
    const { chartRowLimit } = this.deps.settings;
    const rows = await prepared.stream({}, { rowLimit: chartRowLimit === 0 ? Number.MAX_SAFE_INTEGER : chartRowLimit, byteLimit: Number.POSITIVE_INFINITY });
    const collector = new DistinctCollector(limit, search);
    const found: unknown[] = [];
    let present = false;
    let read = 0;
    try {
      for await (const batch of rows) {
        read += batch.length;
        for (const row of batch) {
          found.length = 0;
          accessor.collect(row, found);
          for (const value of found) {
            if (value === undefined) continue;
            present = true;
            collector.add(value);
          }
        }
      }
    } finally {
      await rows.close();
    }
    const meta = rows.meta();
    const result = collector.result();
    // Without rows, the source's columns (when it names them) still say whether the field exists.
    const first = accessor.segments[0];
    const missing = !present && (read > 0 || (meta.columns.length > 0 && !meta.columns.some((c) => c.name === first)));
    return { values: result.values, truncated: result.truncated || meta.truncated, missing };
  }
}

/** The field as the engine reads it (`root[].country`, `country`, `items[].sku`); a 400 naming the parameter otherwise. */
function checkedField(field: string, parameter: string): FieldAccessor {
  try {
    if (parseFieldPath(field).length === 0) throw ValidationError.field(parameter, 'must name a field of the rows, such as root[].country');
    return compileFieldPath(field);
  } catch (error) {
    if (error instanceof InvalidChartConfigError) throw ValidationError.field(parameter, `is not a valid field path: ${error.message}`);
    throw error;
  }
}
