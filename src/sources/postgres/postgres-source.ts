import pg from 'pg';
import Cursor from 'pg-cursor';
import { AppError } from '../../errors/index.js';
import { InvalidQueryError, SourceQueryError, SourceTimeoutError, SourceUnreachableError } from '../errors.js';
import { ConnectionGate, DEFAULT_GATE_LIMITS } from '../connection-gate.js';
import type { PoolManager } from '../pool-manager.js';
import { redactSecrets } from '../redact.js';
import { RunControl } from '../run-control.js';
import { assertReadOnlyStatement } from '../statement-safety/index.js';
import { collectRows, openRowStream, type BatchCursor, type CloseReason } from '../row-stream.js';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_ROW_LIMIT,
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
import { compileSql } from '../variables/sql.js';
import { postgresTarget, type PostgresTarget } from './connection-config.js';
import { postgresColumns, postgresTypes } from './value-types.js';
import { probeSsl, sendCancelRequest } from './wire.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface PostgresSourceOptions {
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

const TEST_TIMEOUT_MS = 15_000;
const SCHEMA_TIMEOUT_MS = 30_000;
/** How long a cancelled read may take to come back before the connection is destroyed. */
const CANCEL_WAIT_MS = 1_500;
/** How long one cancel request is given before it is sent again. */
const CANCEL_RETRY_MS = 200;

/** The client fields node-postgres sets from BackendKeyData (not in its type definitions). */
type BackendKey = { processID?: number | null; secretKey?: number | null };

/**
 * A pg.Pool plus what pg cannot do itself: sslmode=prefer (probe once, then TLS or not) and the
 * address used to send cancel requests.
 */
export class PostgresPool {
  private pool: pg.Pool | undefined;
  private creating: Promise<pg.Pool> | undefined;
  private ended = false;
  readonly gate: ConnectionGate;

  constructor(
    readonly target: PostgresTarget,
    private readonly options: Required<PostgresSourceOptions>,
  ) {
    this.gate = new ConnectionGate({ size: options.maxConnections, queueLimit: options.queueLimit, waitTimeoutMs: options.waitTimeoutMs });
  }

  /**
   * A pooled client once the connection's gate lets this run in (bounded queue and wait, then
   * SOURCE_BUSY); releasing the client gives the turn to the next run.
   */
  async connect(signal?: AbortSignal): Promise<pg.PoolClient> {
    const turn = await this.gate.acquire(signal);
    try {
      const pool = this.pool ?? (await (this.creating ??= this.create().finally(() => (this.creating = undefined))));
      const client = await pool.connect();
      // pg sets `release` anew at every checkout, so this wrapper lives exactly as long as this turn.
      const release = client.release.bind(client);
      client.release = ((error?: Error | boolean) => {
        turn();
        release(error);
      }) as typeof client.release;
      return client;
    } catch (error) {
      turn();
      throw error;
    }
  }

  async end(): Promise<void> {
    this.ended = true;
    this.gate.close(new SourceUnreachableError('The connection was closed'));
    const pool = this.pool ?? (await this.creating?.catch(() => undefined));
    this.pool = undefined;
    await pool?.end();
  }

  private async create(): Promise<pg.Pool> {
    const { target } = this;
    let ssl: pg.PoolConfig['ssl'] = false;
    if (target.sslMode === 'prefer') {
      ssl = (await probeSsl(target.host, target.port, this.options.connectTimeoutMs)) ? target.tls : false;
    } else if (target.sslMode !== 'disable') {
      ssl = target.tls;
    }
    if (this.ended) throw new SourceUnreachableError('The connection was closed');
    const pool = new pg.Pool({
      host: target.host,
      port: target.port,
      database: target.database,
      user: target.user,
      password: target.password,
      ssl,
      application_name: target.applicationName,
      max: this.options.maxConnections,
      idleTimeoutMillis: this.options.idleTimeoutMs,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      keepAlive: true,
      allowExitOnIdle: true,
      types: postgresTypes,
    });
    // An idle client losing its server must not crash the process; the next checkout reconnects.
    pool.on('error', () => undefined);
    this.pool = pool;
    return pool;
  }
}

/**
 * PostgreSQL and its sub-types. Every run is one read-only transaction with a statement timeout;
 * rows come through a cursor in batches; over the deadline the query is cancelled on the server
 * and the connection destroyed.
 */
export class PostgresSource implements Source {
  readonly type = 'postgres';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.postgres;
  private readonly options: Required<PostgresSourceOptions>;

  constructor(
    private readonly pools: PoolManager,
    options: PostgresSourceOptions = {},
  ) {
    this.options = {
      maxConnections: options.maxConnections ?? DEFAULT_GATE_LIMITS.size,
      queueLimit: options.queueLimit ?? DEFAULT_GATE_LIMITS.queueLimit,
      waitTimeoutMs: options.waitTimeoutMs ?? DEFAULT_GATE_LIMITS.waitTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    };
  }

  databaseHosts(conn: SourceConnection): string[] {
    return [postgresTarget(conn).host];
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    await this.withTransaction(conn, new RunControl({ timeoutMs: TEST_TIMEOUT_MS, signal }), (client, control) =>
      control.race(client.query('select 1')),
    );
    return { success: true };
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    const result = await this.withTransaction(conn, new RunControl({ timeoutMs: SCHEMA_TIMEOUT_MS, signal }), (client, control) =>
      control.race(
        client.query<{ table_schema: string; table_name: string; column_name: string; data_type: string; is_nullable: string }>(
          `select c.table_schema, c.table_name, c.column_name, c.data_type, c.is_nullable
             from information_schema.columns c
            where c.table_schema not in ('pg_catalog', 'information_schema')
              and c.table_schema not like 'pg\\_toast%' and c.table_schema not like 'pg\\_temp%'
            order by c.table_schema, c.table_name, c.ordinal_position`,
        ),
      ),
    );
    const tables = new Map<string, SchemaTable>();
    for (const row of result.rows) {
      const name = row.table_schema === 'public' ? row.table_name : `${row.table_schema}.${row.table_name}`;
      let table = tables.get(name);
      if (!table) tables.set(name, (table = { name, columns: [] }));
      table.columns.push({ name: row.column_name, type: row.data_type, nullable: row.is_nullable === 'YES' });
    }
    return { tables: [...tables.values()] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    if (request.compiled) return this.runCompiled(conn, request.compiled, options);
    return collectRows(await this.stream(conn, request, options));
  }

  /**
   * A pre-compiled statement (a chart's grouped query: one row per bucket or label) read in one
   * go rather than through a cursor, because Postgres plans cursor reads without parallel workers.
   * Same read-only transaction, statement timeout and cancellation as every run.
   */
  private async runCompiled(conn: SourceConnection, compiled: { text: string; values: readonly unknown[] }, options: RunOptions): Promise<RunResult> {
    const text = compiled.text.trim();
    if (!text) throw new InvalidQueryError('The SQL query is empty');
    await assertReadOnlyStatement(text, 'postgres');
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;
    const started = performance.now();
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    const result = await this.withTransaction(conn, control, (client) =>
      control.race(client.query<Row>({ text, values: [...compiled.values], types: postgresTypes })),
    );
    const truncated = result.rows.length > rowLimit;
    const rows = truncated ? result.rows.slice(0, rowLimit) : result.rows;
    return {
      data: rows,
      meta: { columns: postgresColumns(result.fields), rowCount: rows.length, truncated, durationMs: Math.round(performance.now() - started) },
    };
  }

  async stream(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RowStream> {
    const sql = (request.compiled?.text ?? request.query)?.trim();
    if (!sql) throw new InvalidQueryError('The SQL query is empty');
    const compiled = request.compiled ? { text: sql, values: [...request.compiled.values] } : compileSql(sql, 'postgres', options.variables);
    // READ ONLY alone still lets COPY … TO PROGRAM, file functions and large objects run.
    await assertReadOnlyStatement(compiled.text, 'postgres');
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    const limits = { rowLimit: options.rowLimit ?? DEFAULT_ROW_LIMIT, batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE };

    return openRowStream(
      control,
      limits,
      async () => {
        const handle = this.pools.acquire(conn, 'postgres', () => this.createPool(conn), (pool) => pool.end());
        let client: pg.PoolClient | undefined;
        try {
          client = await handle.pool.connect(control.signal);
          await client.query(beginReadOnly(control.remainingMs()));
        } catch (error) {
          client?.release(true);
          await handle.release();
          throw error;
        }
        return new PostgresCursor(client, handle.pool.target, compiled.text, compiled.values, () => handle.release());
      },
      (error) => translatePostgresError(error, conn, control.timeoutMs),
    );
  }

  private createPool(conn: SourceConnection): PostgresPool {
    return new PostgresPool(postgresTarget(conn), this.options);
  }

  /** Runs `work` in a read-only transaction on a pooled client; cancels and destroys it on abort. */
  private async withTransaction<T>(
    conn: SourceConnection,
    control: RunControl,
    work: (client: pg.PoolClient, control: RunControl) => Promise<T>,
  ): Promise<T> {
    let handle: { pool: PostgresPool; release(): Promise<void> } | undefined;
    let client: pg.PoolClient | undefined;
    let broken = false;
    try {
      handle = this.pools.acquire(conn, 'postgres', () => this.createPool(conn), (pool) => pool.end());
      const pool = handle.pool;
      client = await control.race(pool.connect(control.signal), (late) => late.release(true));
      const active = client;
      control.onAbort(async () => {
        broken = true;
        const key = active as unknown as BackendKey;
        if (key.processID && key.secretKey !== null && key.secretKey !== undefined) {
          await sendCancelRequest(pool.target.host, pool.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
        }
        active.release(true);
      });
      await control.race(client.query(beginReadOnly(control.remainingMs())));
      const result = await work(client, control);
      await control.race(client.query('ROLLBACK'));
      return result;
    } catch (error) {
      broken = true;
      throw control.error ?? translatePostgresError(error, conn, control.timeoutMs);
    } finally {
      control.dispose();
      if (client && !control.aborted) client.release(broken ? true : undefined);
      await handle?.release();
    }
  }
}

/**
 * Opens a run's transaction. Strings are read the standard way (no backslash escapes), as the
 * statement check's parser reads them, whatever the server or role default is.
 */
function beginReadOnly(remainingMs: number): string {
  return `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(remainingMs))}; SET LOCAL standard_conforming_strings = on`;
}

/** One cursor on one pooled client, inside `BEGIN READ ONLY`. */
class PostgresCursor implements BatchCursor {
  private readonly cursor: Cursor<Row>;
  private fields: ReadonlyArray<{ name: string; dataTypeID: number }> = [];
  private reading: Promise<unknown> | undefined;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly target: PostgresTarget,
    text: string,
    values: unknown[],
    private readonly releasePool: () => Promise<void>,
  ) {
    this.cursor = client.query(new Cursor<Row>(text, values, { types: postgresTypes }));
  }

  columns() {
    return postgresColumns(this.fields);
  }

  next(max: number): Promise<Row[]> {
    const read = new Promise<Row[]>((resolve, reject) => {
      this.cursor.read(max, (error, rows, result) => {
        if (error) return reject(error);
        if (this.fields.length === 0 && result?.fields) this.fields = result.fields;
        resolve(rows);
      });
    });
    // Settled either way, so waiting on it never raises an unhandled rejection.
    this.reading = read.then(
      () => (this.reading = undefined),
      () => (this.reading = undefined),
    );
    return read;
  }

  async close(reason: CloseReason): Promise<void> {
    try {
      if (reason === 'failed') {
        await this.cancelRunningQuery();
        this.client.release(true);
        return;
      }
      const closed = await withTimeout(
        (async () => {
          await this.cursor.close();
          await this.client.query('ROLLBACK');
        })(),
        CANCEL_WAIT_MS,
      );
      this.client.release(closed ? undefined : true);
    } catch {
      this.client.release(true);
    } finally {
      await this.releasePool();
    }
  }

  /** A read still in flight means the server is working: cancel it and wait for the answer. */
  private async cancelRunningQuery(): Promise<void> {
    const reading = this.reading;
    if (!reading) return;
    const settled = reading.catch(() => undefined);
    const key = this.client as unknown as BackendKey;
    if (!key.processID || key.secretKey === null || key.secretKey === undefined) {
      await withTimeout(settled, CANCEL_WAIT_MS);
      return;
    }
    // A cancel that reaches the server between the cursor's Bind and its Execute is dropped (the
    // backend is waiting for a message, not running), so it is sent again until the read ends.
    const deadline = performance.now() + CANCEL_WAIT_MS;
    do {
      await sendCancelRequest(this.target.host, this.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
      if (await withTimeout(settled, CANCEL_RETRY_MS)) return;
    } while (performance.now() < deadline);
  }
}

async function withTimeout(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    work.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
  return finished;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT',
]);

/** Translates driver errors once, here: SQLSTATE errors are the server's answer, the rest is the network. */
export function translatePostgresError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const err = error as { code?: string; message?: string; severity?: string } | undefined;
  const message = redactSecrets(err?.message ?? String(error), conn);
  const code = err?.code ?? '';
  if (code === '57014') return new SourceTimeoutError(timeoutMs);
  if (/^[0-9A-Z]{5}$/.test(code) && err?.severity !== undefined) {
    // Class 08 (connection exception), 53 (insufficient resources), 57P0x (shutdown): the server is not usable.
    if (code.startsWith('08') || code.startsWith('53') || code.startsWith('57P')) return new SourceUnreachableError(`PostgreSQL: ${message}`);
    return new SourceQueryError(`PostgreSQL: ${message}`);
  }
  if (UNREACHABLE_CODES.has(code) || code.startsWith('ERR_TLS') || code.includes('CERT') || code.includes('SELF_SIGNED')) {
    return new SourceUnreachableError(`PostgreSQL is unreachable: ${message}`);
  }
  return new SourceUnreachableError(`PostgreSQL connection failed: ${message}`);
}
