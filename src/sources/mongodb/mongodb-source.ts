import { MongoClient, type AbstractCursor, type Collection, type Document } from 'mongodb';
import { AppError } from '../../errors/index.js';
import { InvalidQueryError, SourceQueryError, SourceTimeoutError, SourceUnreachableError } from '../errors.js';
import type { PoolManager } from '../pool-manager.js';
import { redactSecrets } from '../redact.js';
import { RunControl } from '../run-control.js';
import { rowBytes } from '../row-bytes.js';
import { collectRows, openRowStream, streamLimits, type BatchCursor, type CloseReason } from '../row-stream.js';
import {
  CONNECTION_TEST_TIMEOUT_MS,
  type ColumnInfo,
  type DataRequestSpec,
  type Row,
  type RowStream,
  type RunOptions,
  type RunResult,
  type SchemaTable,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from '../types.js';
import { mongoClientOptions, mongoHosts, mongoUrl } from './connection-config.js';
import { inferColumns } from '../values.js';
import { inferFields, normalizeBson } from './normalize.js';
import { compileMongoQuery, type MongoPlan } from './query-parser.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface MongoSourceOptions {
  maxConnections?: number;
  connectTimeoutMs?: number;
  /** Documents sampled per collection for the schema (default 20). */
  schemaSampleSize?: number;
  /** Collections described at most (default 200). */
  schemaMaxCollections?: number;
}

const SCHEMA_TIMEOUT_MS = 60_000;

/** The collection methods a plan uses; the real driver Collection has them all. */
export type PlanCollection = Pick<Collection<Document>, 'find' | 'findOne' | 'aggregate' | 'countDocuments' | 'distinct'>;

/**
 * Up to `max` rows from `pull`, fewer once `maxBytes` have been taken (at least one). A document is
 * at most 16 MiB, and the driver holds one server batch (16 MiB at most) at a time.
 */
async function takeRows(max: number, maxBytes: number, pull: () => Promise<Row | null>): Promise<Row[]> {
  const out: Row[] = [];
  let bytes = 0;
  while (out.length < max && bytes < maxBytes) {
    const row = await pull();
    if (row === null) break;
    out.push(row);
    bytes += rowBytes(row);
  }
  return out;
}

/** Rows a single-result operation (findOne, countDocuments, distinct) answers with. */
class ArrayCursor implements BatchCursor {
  private at = 0;
  constructor(private readonly rows: Row[]) {}
  columns(): ColumnInfo[] {
    return inferColumns(this.rows);
  }
  next(max: number, maxBytes: number): Promise<Row[]> {
    return takeRows(max, maxBytes, async () => (this.at < this.rows.length ? this.rows[this.at++]! : null));
  }
  async close(): Promise<void> {}
}

/** Documents the columns are inferred from: the first ones read (as many as `inferColumns` looks at). */
const COLUMN_SAMPLE = 50;

/** A find/aggregate cursor; closing it kills the server-side cursor. */
class DriverCursor implements BatchCursor {
  private readonly sample: Row[] = [];
  constructor(
    private readonly cursor: AbstractCursor<Document>,
    private readonly release: () => Promise<void>,
  ) {}
  columns(): ColumnInfo[] {
    return inferColumns(this.sample);
  }
  async next(max: number, maxBytes: number): Promise<Row[]> {
    const out = await takeRows(max, maxBytes, async () => {
      const document = await this.cursor.next();
      return document === null ? null : (normalizeBson(document) as Row);
    });
    for (let i = 0; i < out.length && this.sample.length < COLUMN_SAMPLE; i++) this.sample.push(out[i]!);
    return out;
  }
  async close(_reason: CloseReason): Promise<void> {
    try {
      await this.cursor.close();
    } finally {
      await this.release();
    }
  }
}

/**
 * The `maxTimeMS` sent with an operation: the run's remaining time, or the query's own option when
 * that is shorter. Never 0 (the server reads 0 as "no limit"), never past the run's limit, whatever
 * the option holds.
 */
function effectiveMaxTimeMS(runLimitMs: number, own: unknown): number {
  const limit = Math.max(1, Math.floor(runLimitMs) || 1);
  return typeof own === 'number' && Number.isSafeInteger(own) && own >= 1 ? Math.min(limit, own) : limit;
}

/**
 * Issues exactly the driver calls of a plan. `maxTimeMS` makes the server stop the operation at
 * the deadline even if the client is gone.
 */
export async function openPlanCursor(
  collection: PlanCollection,
  plan: MongoPlan,
  settings: { maxTimeMS: number; batchSize: number },
  release: () => Promise<void> = async () => undefined,
): Promise<BatchCursor> {
  const withTime = (options: unknown): Record<string, unknown> => ({
    ...(options as Record<string, unknown> | undefined),
    maxTimeMS: effectiveMaxTimeMS(settings.maxTimeMS, (options as { maxTimeMS?: unknown } | undefined)?.maxTimeMS),
  });
  const [a, b, c] = plan.args as [unknown, unknown, unknown];
  const asArray = async (rows: Row[]): Promise<BatchCursor> => {
    await release();
    return new ArrayCursor(rows);
  };
  switch (plan.method) {
    case 'find':
    case 'aggregate': {
      let cursor: AbstractCursor<Document> & {
        sort?: (s: never) => unknown;
        limit(n: number): unknown;
        skip(n: number): unknown;
        project(p: Document): unknown;
      } =
        plan.method === 'find'
          ? collection.find((a ?? {}) as Document, { ...withTime(b), batchSize: settings.batchSize })
          : collection.aggregate(a as Document[], { ...withTime(b), batchSize: settings.batchSize });
      for (const step of plan.steps) {
        const arg = step.args[0];
        if (step.method === 'sort') cursor = (cursor as unknown as { sort(s: unknown): typeof cursor }).sort(arg);
        else if (step.method === 'limit') cursor = cursor.limit(arg as number) as typeof cursor;
        else if (step.method === 'skip') cursor = cursor.skip(arg as number) as typeof cursor;
        else cursor = cursor.project(arg as Document) as typeof cursor;
      }
      return new DriverCursor(cursor, release);
    }
    case 'findOne': {
      const document = await collection.findOne((a ?? {}) as Document, withTime(b));
      return asArray(document ? [normalizeBson(document) as Row] : []);
    }
    case 'countDocuments':
      return asArray([{ count: await collection.countDocuments((a ?? {}) as Document, withTime(b)) }]);
    case 'distinct': {
      const values = await collection.distinct(a as string, (b ?? {}) as Document, withTime(c));
      // Distinct values are not documents: they come back as they are (an array of values).
      return asArray(values.map((value) => normalizeBson(value)) as Row[]);
    }
  }
}

/** MongoDB: a parsed, read-only call chain run with the driver; no query text is ever evaluated. */
export class MongoSource implements Source {
  readonly type = 'mongodb';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.mongodb;
  private readonly options: Required<MongoSourceOptions>;

  constructor(
    private readonly pools: PoolManager,
    options: MongoSourceOptions = {},
  ) {
    this.options = {
      maxConnections: options.maxConnections ?? 5,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      schemaSampleSize: options.schemaSampleSize ?? 20,
      schemaMaxCollections: options.schemaMaxCollections ?? 200,
    };
  }

  databaseHosts(conn: SourceConnection): string[] {
    return mongoHosts(conn);
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return this.withClient(conn, new RunControl({ timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal }), async (client, control) => {
      const db = client.db(conn.dbName || undefined);
      await control.race(db.command({ ping: 1 }));
      const collections = await control.race(db.listCollections({}, { nameOnly: true }).toArray());
      return { success: true, tables: collections.map((c) => c.name).sort() };
    });
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    return this.withClient(conn, new RunControl({ timeoutMs: SCHEMA_TIMEOUT_MS, signal }), async (client, control) => {
      const db = client.db(conn.dbName || undefined);
      const collections = await control.race(db.listCollections({}, { nameOnly: true }).toArray());
      const tables: SchemaTable[] = [];
      for (const { name } of collections.slice(0, this.options.schemaMaxCollections).sort((x, y) => x.name.localeCompare(y.name))) {
        if (name.startsWith('system.')) continue;
        const collection = db.collection(name);
        const maxTimeMS = Math.max(1, Math.floor(control.remainingMs()));
        const [rowCount, sample] = await control.race(
          Promise.all([
            collection.estimatedDocumentCount({ maxTimeMS }),
            collection.aggregate([{ $sample: { size: this.options.schemaSampleSize } }], { maxTimeMS }).toArray(),
          ]),
        );
        const fields = inferFields(sample);
        tables.push({ name, rowCount, columns: [...fields].map(([path, types]) => ({ name: path, type: [...types].sort().join('|') })) });
      }
      return { tables };
    });
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    return collectRows(await this.stream(conn, request, options));
  }

  async stream(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RowStream> {
    if (!request.query?.trim()) throw new InvalidQueryError('The MongoDB query is empty');
    const plan = compileMongoQuery(request.query, options.variables);
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    const limits = streamLimits(options);
    const batchSize = Math.min(limits.batchSize, limits.rowLimit + 1);
    return openRowStream(
      control,
      limits,
      async () => {
        const handle = this.pools.acquire(conn, 'mongodb', () => this.createClient(conn), (client) => client.close(true));
        try {
          const collection = handle.pool.db(conn.dbName || undefined).collection(plan.collection);
          return await openPlanCursor(collection, plan, { maxTimeMS: Math.max(1, Math.floor(control.remainingMs())), batchSize }, () => handle.release());
        } catch (error) {
          await handle.release();
          throw error;
        }
      },
      (error) => translateMongoError(error, conn, control.timeoutMs),
    );
  }

  private createClient(conn: SourceConnection): MongoClient {
    return new MongoClient(mongoUrl(conn), mongoClientOptions(conn, this.options.connectTimeoutMs, this.options.maxConnections));
  }

  private async withClient<T>(conn: SourceConnection, control: RunControl, work: (client: MongoClient, control: RunControl) => Promise<T>): Promise<T> {
    const handle = this.pools.acquire(conn, 'mongodb', () => this.createClient(conn), (client) => client.close(true));
    try {
      return await work(handle.pool, control);
    } catch (error) {
      throw control.error ?? translateMongoError(error, conn, control.timeoutMs);
    } finally {
      control.dispose();
      await handle.release();
    }
  }
}

function translateMongoError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const err = error as { name?: string; code?: number | string; codeName?: string; message?: string };
  const message = redactSecrets(err?.message ?? String(error), conn);
  // 50 = MaxTimeMSExpired
  if (err?.code === 50 || err?.codeName === 'MaxTimeMSExpired' || err?.name === 'MongoOperationTimeoutError') return new SourceTimeoutError(timeoutMs);
  if (err?.name === 'MongoServerError' || err?.name === 'MongoParseError' || err?.name === 'MongoInvalidArgumentError') {
    return new SourceQueryError(`MongoDB: ${message}`);
  }
  return new SourceUnreachableError(`MongoDB is unreachable: ${message}`);
}
