import type { Socket } from 'node:net';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { AppError } from '../../errors/index.js';
import { InvalidQueryError, SourceUnreachableError } from '../errors.js';
import { RunControl } from '../run-control.js';
import { assertReadOnlyStatement } from '../statement-safety/index.js';
import { rowBytes } from '../row-bytes.js';
import { BatchTooLargeError, readAllowance, streamLimits, type BatchCursor, type CloseReason } from '../row-stream.js';
import { isSocketOrTlsFailure, SqlPool, SqlSource, translateSqlError, type SchemaColumnRow, type SqlFailure, type SqlSourceOptions, type SqlStatement } from '../sql-source.js';
import type { DataRequestSpec, Row, RunMeta, RunOptions, RunResult, SourceCapabilities, SourceConnection } from '../types.js';
import { postgresTarget, type PostgresTarget } from './connection-config.js';
import { postgresColumns, postgresTypes } from './value-types.js';
import { probeSsl, sendCancelRequest } from './wire.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export type PostgresSourceOptions = SqlSourceOptions;

/** How long a cancelled read may take to come back before the connection is destroyed. */
const CANCEL_WAIT_MS = 1_500;
/** How long one cancel request is given before it is sent again. */
const CANCEL_RETRY_MS = 200;

/**
 * Ends a run and resets its session in one round trip (one simple query), before the connection
 * goes back to the pool: everything DISCARD ALL resets but prepared statements, which
 * node-postgres keeps track of per connection (DEALLOCATE would leave it naming statements that
 * are gone), and cached plans, which are not state. Settings and the role go with the rolled-back
 * transaction already; session advisory locks (taken by a function the check does not know) do
 * not, and the rest costs nothing when there is nothing to reset.
 */
const END_RUN =
  'ROLLBACK; CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); DISCARD SEQUENCES; DISCARD TEMP';

/** The client fields node-postgres sets from BackendKeyData (not in its type definitions). */
type BackendKey = { processID?: number | null; secretKey?: number | null };

/**
 * A pg.Pool plus what pg cannot do itself: sslmode=prefer (probe once, then TLS or not) and the
 * address used to send cancel requests.
 */
class PostgresPool extends SqlPool<pg.PoolClient> {
  private pool: pg.Pool | undefined;
  private creating: Promise<pg.Pool> | undefined;
  private ended = false;

  constructor(
    readonly target: PostgresTarget,
    options: Required<PostgresSourceOptions>,
  ) {
    super(options);
  }

  protected async checkout(): Promise<pg.PoolClient> {
    const pool = this.pool ?? (await (this.creating ??= this.create().finally(() => (this.creating = undefined))));
    return pool.connect();
  }

  protected holdTurn(client: pg.PoolClient, turn: () => void): void {
    // pg sets `release` anew at every checkout, so this wrapper lives exactly as long as this turn.
    const release = client.release.bind(client);
    client.release = ((error?: Error | boolean) => {
      turn();
      release(error);
    }) as typeof client.release;
  }

  protected async close(): Promise<void> {
    this.ended = true;
    const pool = this.pool ?? (await this.creating?.catch(() => undefined));
    this.pool = undefined;
    await pool?.end();
  }

  /**
   * Strings are read the standard way (no backslash escapes), as the statement check's parser
   * reads them, whatever the server or role default is.
   */
  async begin(client: pg.PoolClient, remainingMs: number): Promise<void> {
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(remainingMs))}; SET LOCAL standard_conforming_strings = on`);
  }

  async finish(client: pg.PoolClient): Promise<void> {
    await client.query(END_RUN);
  }

  async query<T>(client: pg.PoolClient, sql: string): Promise<T[]> {
    return (await client.query(sql)).rows as T[];
  }

  async cancel(client: pg.PoolClient): Promise<void> {
    const key = client as unknown as BackendKey;
    if (key.processID && key.secretKey !== null && key.secretKey !== undefined) {
      await sendCancelRequest(this.target.host, this.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
    }
  }

  release(client: pg.PoolClient): void {
    client.release();
  }

  discard(client: pg.PoolClient): void {
    client.release(true);
  }

  openCursor(client: pg.PoolClient, statement: SqlStatement, _batchSize: number, releasePool: () => Promise<void>): BatchCursor {
    return new PostgresCursor(client, this, statement.text, statement.values, releasePool);
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
export class PostgresSource extends SqlSource<pg.PoolClient, PostgresPool> {
  readonly type = 'postgres';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.postgres;
  protected readonly schemaQuery = `select c.table_schema, c.table_name, c.column_name, c.data_type as column_type, c.is_nullable
             from information_schema.columns c
            where c.table_schema not in ('pg_catalog', 'information_schema')
              and c.table_schema not like 'pg\\_toast%' and c.table_schema not like 'pg\\_temp%'
            order by c.table_schema, c.table_name, c.ordinal_position`;

  databaseHosts(conn: SourceConnection): string[] {
    return [postgresTarget(conn).host];
  }

  protected createPool(conn: SourceConnection): PostgresPool {
    return new PostgresPool(postgresTarget(conn), this.options);
  }

  protected translateError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
    return translatePostgresError(error, conn, timeoutMs);
  }

  /** Tables outside `public` are named with their schema, as a query must name them. */
  protected override tableName(row: SchemaColumnRow): string {
    return row.table_schema === 'public' ? row.table_name : `${row.table_schema}.${row.table_name}`;
  }

  override async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    if (request.compiled) return this.runCompiled(conn, request.compiled, options);
    return super.run(conn, request, options);
  }

  /**
   * A pre-compiled statement (a chart's grouped query: one row per bucket or label) read in one
   * go rather than through a cursor, because Postgres plans cursor reads without parallel workers.
   * Same read-only transaction, statement timeout and cancellation as every run, and the same
   * caps: rows past the row or byte limit are cut, and an answer that brings more bytes than the
   * limit allows is stopped as it arrives (no rows, `truncatedBy: 'bytes'`).
   */
  private async runCompiled(conn: SourceConnection, compiled: { text: string; values: readonly unknown[] }, options: RunOptions): Promise<RunResult> {
    const text = compiled.text.trim();
    if (!text) throw new InvalidQueryError('The SQL query is empty');
    await assertReadOnlyStatement(text, 'postgres');
    const { rowLimit, byteLimit, batchByteLimit } = streamLimits(options);
    const maxBytes = Math.min(byteLimit, batchByteLimit);
    const started = performance.now();
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    let overflowed = false;
    let result: pg.QueryResult<Row>;
    try {
      result = await this.withTransaction(conn, control, (client, pool) => {
        const meter = new WireMeter(client);
        return control
          .race(
            new Promise<pg.QueryResult<Row>>((resolve, reject) => {
              meter.arm(readAllowance(maxBytes), () => {
                overflowed = true;
                void pool.cancel(client).catch(() => undefined);
                reject(new BatchTooLargeError(maxBytes));
              });
              client.query<Row>({ text, values: [...compiled.values], types: postgresTypes }).then(resolve, reject);
            }),
          )
          .finally(() => meter.detach());
      });
    } catch (error) {
      // The client was discarded with its unread answer; the run is cut, not failed.
      if (!overflowed || control.aborted) throw error;
      return { data: [], meta: { columns: [], rowCount: 0, truncated: true, truncatedBy: 'bytes', byteLimit: maxBytes, durationMs: Math.round(performance.now() - started) } };
    }
    const meta: RunMeta = { columns: postgresColumns(result.fields), rowCount: 0, truncated: false, durationMs: 0 };
    let rows = result.rows;
    if (rows.length > rowLimit) {
      rows = rows.slice(0, rowLimit);
      Object.assign(meta, { truncated: true, truncatedBy: 'rows' });
    }
    let bytes = 0;
    for (let i = 0; i < rows.length; i++) {
      bytes += rowBytes(rows[i]!);
      if (bytes > byteLimit) {
        rows = rows.slice(0, i);
        Object.assign(meta, { truncated: true, truncatedBy: 'bytes', byteLimit });
        break;
      }
    }
    meta.rowCount = rows.length;
    meta.durationMs = Math.round(performance.now() - started);
    return { data: rows, meta };
  }
}

/** The socket node-postgres reads a client's answers from (not in its type definitions). */
function socketOf(client: pg.ClientBase): Socket | undefined {
  return (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}

/**
 * Counts the bytes arriving on a client's socket while it is armed, and stops reading once they
 * pass the allowance: node-postgres hands over a read (and a row) only once all of it has arrived,
 * so a read of rows far larger than the ones before, or a single huge value, would otherwise be
 * held whole. The socket is paused at once; the client must then be discarded (ending it with a
 * query under way destroys its socket).
 */
class WireMeter {
  private bytes = 0;
  private allowance = Infinity;
  private onOverflow: (() => void) | undefined;
  private readonly socket: Socket | undefined;
  private readonly count = (chunk: Buffer): void => {
    if (!this.onOverflow) return;
    this.bytes += chunk.length;
    if (this.bytes <= this.allowance) return;
    const overflow = this.onOverflow;
    this.onOverflow = undefined;
    this.socket?.pause();
    overflow();
  };

  constructor(client: pg.ClientBase) {
    this.socket = socketOf(client);
    this.socket?.on('data', this.count);
  }

  arm(allowance: number, onOverflow: () => void): void {
    this.bytes = 0;
    this.allowance = allowance;
    this.onOverflow = onOverflow;
  }

  disarm(): void {
    this.onOverflow = undefined;
  }

  /** The client goes back to the pool without this listener. */
  detach(): void {
    this.onOverflow = undefined;
    this.socket?.off('data', this.count);
  }
}

/** One cursor on one pooled client, inside `BEGIN READ ONLY`. */
class PostgresCursor implements BatchCursor {
  private readonly cursor: Cursor<Row>;
  private readonly meter: WireMeter;
  private fields: ReadonlyArray<{ name: string; dataTypeID: number }> = [];
  private reading: Promise<unknown> | undefined;
  private overflowed = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly pool: PostgresPool,
    text: string,
    values: unknown[],
    private readonly releasePool: () => Promise<void>,
  ) {
    this.meter = new WireMeter(client);
    this.cursor = client.query(new Cursor<Row>(text, values, { types: postgresTypes }));
  }

  columns() {
    return postgresColumns(this.fields);
  }

  /** pg-cursor reads exactly `max` rows (or the rest); the meter stops a read that brings far more than `maxBytes`. */
  next(max: number, maxBytes: number): Promise<Row[]> {
    const read = new Promise<Row[]>((resolve, reject) => {
      this.meter.arm(readAllowance(maxBytes), () => {
        this.overflowed = true;
        reject(new BatchTooLargeError(maxBytes));
      });
      this.cursor.read(max, (error, rows, result) => {
        this.meter.disarm();
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
    this.meter.detach();
    try {
      if (reason === 'failed') {
        await this.cancelRunningQuery();
        this.client.release(true);
        return;
      }
      const closed = await withTimeout(
        (async () => {
          await this.cursor.close();
          await this.pool.finish(this.client);
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
    if (this.overflowed) {
      // The socket was paused mid-answer: no answer will come. Stop the statement; discarding the
      // client then closes the socket.
      await this.cancelOnce();
      return;
    }
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
      await sendCancelRequest(this.pool.target.host, this.pool.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
      if (await withTimeout(settled, CANCEL_RETRY_MS)) return;
    } while (performance.now() < deadline);
  }

  private async cancelOnce(): Promise<void> {
    const key = this.client as unknown as BackendKey;
    if (key.processID && key.secretKey !== null && key.secretKey !== undefined) {
      await sendCancelRequest(this.pool.target.host, this.pool.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
    }
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

/** Translates driver errors once, here: SQLSTATE errors are the server's answer, the rest is the network. */
function translatePostgresError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
  return translateSqlError(error, conn, timeoutMs, 'PostgreSQL', (error) => {
    const err = error as { code?: string; message?: string; severity?: string } | undefined;
    return { failure: postgresFailure(err?.code ?? '', err?.severity), message: err?.message ?? String(error) };
  });
}

function postgresFailure(code: string, severity: string | undefined): SqlFailure {
  if (code === '57014') return 'timeout';
  if (/^[0-9A-Z]{5}$/.test(code) && severity !== undefined) {
    // Class 08 (connection exception), 53 (insufficient resources), 57P0x (shutdown): the server is not usable.
    return code.startsWith('08') || code.startsWith('53') || code.startsWith('57P') ? 'unavailable' : 'query';
  }
  // ENOENT: no socket file at a Unix-socket host's path.
  if (isSocketOrTlsFailure(code) || code === 'ENOENT' || code.includes('SELF_SIGNED')) return 'unreachable';
  return 'connection';
}
