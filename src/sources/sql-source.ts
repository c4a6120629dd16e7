/**
 * What PostgreSQL and MySQL runs have in common: admission through the connection's gate, a
 * read-only transaction with a statement time limit, the statement check, variables bound as
 * driver parameters, rows streamed in batches under the row and byte caps, cancellation on the
 * server at the deadline, the session reset before a pooled connection is reused, and driver
 * errors read once into typed ones. A dialect brings its pool (driver
 * calls, connection settings, how to stop a running statement), its cursor and its error codes.
 *
 * Nothing here imports a driver: both sources import this module, and each driver must still load
 * on the first use of its own source (docs/decisions/0019-load-on-first-use.md).
 */
import { AppError } from '../errors/index.js';
import { ConnectionGate, DEFAULT_GATE_LIMITS } from './connection-gate.js';
import { InvalidQueryError, SourceQueryError, SourceTimeoutError, SourceUnreachableError } from './errors.js';
import type { PoolHandle, PoolManager } from './pool-manager.js';
import { redactSecrets } from './redact.js';
import { collectRows, openRowStream, streamLimits, type BatchCursor } from './row-stream.js';
import { RunControl } from './run-control.js';
import { assertReadOnlyStatement } from './statement-safety/index.js';
import {
  CONNECTION_TEST_TIMEOUT_MS,
  type DataRequestSpec,
  type RowStream,
  type RunOptions,
  type RunResult,
  type SchemaTable,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from './types.js';
import { compileSql, type SqlDialect } from './variables/sql.js';

export interface SqlSourceOptions {
  /** Connections per pool (default 5): runs beyond it wait in the connection's queue. */
  maxConnections?: number;
  /** Runs that may wait for a pooled connection (default 1,000); past it SOURCE_BUSY at once. */
  queueLimit?: number;
  /** Longest wait for a pooled connection before SOURCE_BUSY (default 20 s). */
  waitTimeoutMs?: number;
  /** Idle connections are closed after this long (default 30 s). */
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
}

const SCHEMA_TIMEOUT_MS = 30_000;

/** A statement with its driver parameters, as it is sent. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

/**
 * One connection's driver pool, as the run path uses it: `C` is one pooled client. A client is
 * handed out only once the gate lets its run in (bounded queue and wait, then SOURCE_BUSY), and
 * giving it back, either way, gives the turn to the next run.
 */
export abstract class SqlPool<C> {
  readonly gate: ConnectionGate;

  constructor(protected readonly options: Required<SqlSourceOptions>) {
    this.gate = new ConnectionGate({ size: options.maxConnections, queueLimit: options.queueLimit, waitTimeoutMs: options.waitTimeoutMs });
  }

  async connect(signal?: AbortSignal): Promise<C> {
    const turn = await this.gate.acquire(signal);
    try {
      const client = await this.checkout();
      this.holdTurn(client, turn);
      return client;
    } catch (error) {
      turn();
      throw error;
    }
  }

  async end(): Promise<void> {
    this.gate.close(new SourceUnreachableError('The connection was closed'));
    await this.close();
  }

  /** A client from the driver's pool. */
  protected abstract checkout(): Promise<C>;
  /** Makes giving `client` back (released or discarded) call `turn`. */
  protected abstract holdTurn(client: C, turn: () => void): void;
  /** Ends the driver's pool. */
  protected abstract close(): Promise<void>;

  /** Opens a read-only transaction whose statements stop on the server after `remainingMs`. */
  abstract begin(client: C, remainingMs: number): Promise<void>;
  /**
   * Ends a run that went well: rolls its transaction back and resets what it may have left in the
   * session (locks, settings, variables), in one round trip, so the next run on this pooled client
   * starts from a fresh session. Rejects when it could not; the client must then be discarded.
   */
  abstract finish(client: C): Promise<void>;
  /** Runs a statement without parameters; its rows. */
  abstract query<T>(client: C, sql: string): Promise<T[]>;
  /** Stops the statement running on `client`, from outside its connection. */
  abstract cancel(client: C): Promise<void>;
  /** Back to the pool, reusable. */
  abstract release(client: C): void;
  /** Closed instead of reused: a failure or a cancel left it in an unknown state. */
  abstract discard(client: C): void;
  /** Starts `statement` inside the open transaction; the cursor gives `client` back when closed, then calls `releasePool`. */
  abstract openCursor(client: C, statement: SqlStatement, batchSize: number, releasePool: () => Promise<void>): BatchCursor;
}

/** A row of the schema query: every dialect names its columns so. */
export interface SchemaColumnRow {
  table_schema?: string;
  table_name: string;
  column_name: string;
  column_type: string;
  is_nullable: string;
}

/**
 * A SQL source over one dialect's pools. Every run is one read-only transaction with a statement
 * time limit on a pooled client; over the deadline the statement is cancelled on the server and
 * the client discarded.
 */
export abstract class SqlSource<C, P extends SqlPool<C>> implements Source {
  abstract readonly type: SqlDialect;
  abstract readonly capabilities: SourceCapabilities;
  protected readonly options: Required<SqlSourceOptions>;
  /** Reads the catalog: one `SchemaColumnRow` per column, in table and column order. */
  protected abstract readonly schemaQuery: string;

  constructor(
    private readonly pools: PoolManager,
    options: SqlSourceOptions = {},
  ) {
    this.options = {
      maxConnections: options.maxConnections ?? DEFAULT_GATE_LIMITS.size,
      queueLimit: options.queueLimit ?? DEFAULT_GATE_LIMITS.queueLimit,
      waitTimeoutMs: options.waitTimeoutMs ?? DEFAULT_GATE_LIMITS.waitTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    };
  }

  abstract databaseHosts(conn: SourceConnection): string[];
  protected abstract createPool(conn: SourceConnection): P;
  /** The one place a driver error becomes a typed error. */
  protected abstract translateError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError;

  /** The statement as the dialect sends it, from the trimmed query text. */
  protected statementText(sql: string): string {
    return sql;
  }

  /** The table a schema row belongs to, as users name it in a query. */
  protected tableName(row: SchemaColumnRow): string {
    return row.table_name;
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    const control = new RunControl({ timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal });
    await this.withTransaction(conn, control, (client, pool) => control.race(pool.query(client, 'SELECT 1')));
    return { success: true };
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    const control = new RunControl({ timeoutMs: SCHEMA_TIMEOUT_MS, signal });
    const rows = await this.withTransaction(conn, control, (client, pool) => control.race(pool.query<SchemaColumnRow>(client, this.schemaQuery)));
    const tables = new Map<string, SchemaTable>();
    for (const row of rows) {
      const name = this.tableName(row);
      let table = tables.get(name);
      if (!table) tables.set(name, (table = { name, columns: [] }));
      table.columns.push({ name: row.column_name, type: row.column_type, nullable: row.is_nullable === 'YES' });
    }
    return { tables: [...tables.values()] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    return collectRows(await this.stream(conn, request, options));
  }

  /** The statement check every run passes first (statement-safety/); the one seam a test of the second line of defence overrides. */
  protected async assertReadOnly(text: string): Promise<void> {
    await assertReadOnlyStatement(text, this.type);
  }

  async stream(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RowStream> {
    const trimmed = (request.compiled?.text ?? request.query)?.trim();
    const sql = trimmed && this.statementText(trimmed);
    if (!sql) throw new InvalidQueryError('The SQL query is empty');
    const compiled = request.compiled ? { text: sql, values: [...request.compiled.values] } : compileSql(sql, this.type, options.variables);
    // A read-only transaction alone is not enough: Postgres still lets COPY … TO PROGRAM, file
    // functions and large objects run; MySQL still runs DDL (it commits implicitly), INTO OUTFILE
    // and LOAD_FILE.
    await this.assertReadOnly(compiled.text);
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    const limits = streamLimits(options);

    return openRowStream(
      control,
      limits,
      async () => {
        const handle = this.acquirePool(conn);
        let client: C | undefined;
        try {
          client = await handle.pool.connect(control.signal);
          await handle.pool.begin(client, control.remainingMs());
        } catch (error) {
          if (client !== undefined) handle.pool.discard(client);
          await handle.release();
          throw error;
        }
        return handle.pool.openCursor(client, compiled, limits.batchSize, () => handle.release());
      },
      (error) => this.translateError(error, conn, control.timeoutMs),
    );
  }

  /** Runs `work` in a read-only transaction on a pooled client; cancels and discards it on abort. */
  protected async withTransaction<T>(conn: SourceConnection, control: RunControl, work: (client: C, pool: P) => Promise<T>): Promise<T> {
    let handle: PoolHandle<P> | undefined;
    let client: C | undefined;
    let broken = false;
    try {
      handle = this.acquirePool(conn);
      const pool = handle.pool;
      client = await control.race(pool.connect(control.signal), (late) => pool.discard(late));
      const active = client;
      control.onAbort(async () => {
        broken = true;
        await pool.cancel(active);
        pool.discard(active);
      });
      await control.race(pool.begin(client, control.remainingMs()));
      const result = await work(client, pool);
      try {
        await control.race(pool.finish(client));
      } catch (error) {
        if (control.aborted) throw error;
        // The answer stands; a session that could not be reset is closed rather than reused.
        broken = true;
      }
      return result;
    } catch (error) {
      broken = true;
      throw control.error ?? this.translateError(error, conn, control.timeoutMs);
    } finally {
      control.dispose();
      if (handle && client !== undefined && !control.aborted) {
        if (broken) handle.pool.discard(client);
        else handle.pool.release(client);
      }
      await handle?.release();
    }
  }

  private acquirePool(conn: SourceConnection): PoolHandle<P> {
    return this.pools.acquire(conn, this.type, () => this.createPool(conn), (pool) => pool.end());
  }
}

/** What went wrong, as a dialect reads its driver's error. */
export type SqlFailure =
  /** The statement time limit (or a cancel) stopped it. */
  | 'timeout'
  /** The server answered with an error about the statement. */
  | 'query'
  /** The server answered, but cannot serve (shutting down, out of resources, connection refused by it). */
  | 'unavailable'
  /** The network or TLS failed before the server could answer. */
  | 'unreachable'
  /** Anything else on the way to a connection. */
  | 'connection';

/** Socket failures every driver reports with Node's codes; TLS failures by their code's shape. */
const SOCKET_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

export function isSocketOrTlsFailure(code: string): boolean {
  return SOCKET_ERROR_CODES.has(code) || code.startsWith('ERR_TLS') || code.includes('CERT');
}

/**
 * A driver error as a typed error, its message with the connection's secrets hidden. `name` is the
 * database as users know it ("PostgreSQL"); `read` gives the failure and the driver's message.
 */
export function translateSqlError(
  error: unknown,
  conn: SourceConnection,
  timeoutMs: number,
  name: string,
  read: (error: unknown) => { failure: SqlFailure; message: string },
): AppError {
  if (error instanceof AppError) return error;
  const { failure, message: raw } = read(error);
  const message = redactSecrets(raw, conn);
  switch (failure) {
    case 'timeout':
      return new SourceTimeoutError(timeoutMs);
    case 'query':
      return new SourceQueryError(`${name}: ${message}`);
    case 'unavailable':
      return new SourceUnreachableError(`${name}: ${message}`);
    case 'unreachable':
      return new SourceUnreachableError(`${name} is unreachable: ${message}`);
    case 'connection':
      return new SourceUnreachableError(`${name} connection failed: ${message}`);
  }
}
