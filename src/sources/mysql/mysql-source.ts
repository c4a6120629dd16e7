import type { Readable } from 'node:stream';
import mysql from 'mysql2';
import type { ConnectionOptions, FieldPacket, Pool, PoolConnection, PoolOptions, TypeCast } from 'mysql2';
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
  type ColumnInfo,
  type ColumnType,
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
import { naiveTimestampToIso, parseDecimal } from '../values.js';
import { compileSql } from '../variables/sql.js';
import { mysqlTarget, type MysqlTarget } from './connection-config.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface MysqlSourceOptions {
  /** Connections per pool (default 5): runs beyond it wait in the connection's queue. */
  maxConnections?: number;
  /** Runs that may wait for a pooled connection (default 1,000); past it SOURCE_BUSY at once. */
  queueLimit?: number;
  /** Longest wait for a pooled connection before SOURCE_BUSY (default 20 s). */
  waitTimeoutMs?: number;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
}

const TEST_TIMEOUT_MS = 15_000;
const SCHEMA_TIMEOUT_MS = 30_000;
const KILL_TIMEOUT_MS = 2_000;

/** Values normalized like every other source (see values.ts). */
const typeCast: TypeCast = (field, next) => {
  switch (field.type) {
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const text = field.string();
      return text === null ? null : parseDecimal(text);
    }
    case 'DATETIME':
    case 'TIMESTAMP': {
      const text = field.string();
      return text === null ? null : naiveTimestampToIso(text);
    }
    case 'DATE':
    case 'NEWDATE':
      return field.string();
    case 'BIT': {
      const bits = field.buffer();
      return bits === null ? null : bits.length <= 6 ? bits.readUIntBE(0, bits.length || 1) : bits.toString('hex');
    }
    default: {
      const value: unknown = next();
      return Buffer.isBuffer(value) ? value.toString('base64') : value;
    }
  }
};

const COLUMN_TYPES: Record<number, [string, ColumnType]> = {
  0: ['DECIMAL', 'number'],
  1: ['TINY', 'number'],
  2: ['SHORT', 'number'],
  3: ['LONG', 'number'],
  4: ['FLOAT', 'number'],
  5: ['DOUBLE', 'number'],
  7: ['TIMESTAMP', 'date'],
  8: ['LONGLONG', 'number'],
  9: ['INT24', 'number'],
  10: ['DATE', 'date'],
  11: ['TIME', 'string'],
  12: ['DATETIME', 'date'],
  13: ['YEAR', 'number'],
  15: ['VARCHAR', 'string'],
  16: ['BIT', 'number'],
  245: ['JSON', 'json'],
  246: ['NEWDECIMAL', 'number'],
  247: ['ENUM', 'string'],
  248: ['SET', 'string'],
  249: ['TINY_BLOB', 'string'],
  250: ['MEDIUM_BLOB', 'string'],
  251: ['LONG_BLOB', 'string'],
  252: ['BLOB', 'string'],
  253: ['VAR_STRING', 'string'],
  254: ['STRING', 'string'],
};

function mysqlColumns(fields: readonly FieldPacket[]): ColumnInfo[] {
  return fields.map((field) => {
    // MariaDB's JSON is LONGTEXT with an extended format marker.
    if (field.extendedFormat === 'json') return { name: field.name, type: 'json' as const, sourceType: 'JSON' };
    const known = field.columnType === undefined ? undefined : COLUMN_TYPES[field.columnType];
    return known ? { name: field.name, type: known[1], sourceType: known[0] } : { name: field.name, type: 'unknown' as const };
  });
}

const ORIGINAL = Symbol('plotline.original');

/** A mysql2 pool plus the server flavour (how to set a statement timeout) and the config for KILL QUERY. */
export class MysqlPool {
  private pool: Pool;
  private ssl: MysqlTarget['ssl'];
  private flavour: Promise<'mariadb' | 'mysql'> | undefined;
  private triedPlain = false;
  readonly gate: ConnectionGate;

  constructor(
    readonly target: MysqlTarget,
    private readonly options: Required<MysqlSourceOptions>,
  ) {
    this.ssl = target.ssl;
    this.pool = mysql.createPool(this.poolConfig());
    this.gate = new ConnectionGate({ size: options.maxConnections, queueLimit: options.queueLimit, waitTimeoutMs: options.waitTimeoutMs });
  }

  private connectionConfig(): ConnectionOptions {
    const { target, options } = this;
    return {
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      database: target.database,
      ssl: this.ssl,
      connectTimeout: options.connectTimeoutMs,
      charset: 'utf8mb4',
    };
  }

  private poolConfig(): PoolOptions {
    const { options } = this;
    return {
      ...this.connectionConfig(),
      connectionLimit: options.maxConnections,
      maxIdle: options.maxConnections,
      idleTimeout: options.idleTimeoutMs,
      enableKeepAlive: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      dateStrings: true,
      multipleStatements: false,
      // Every distinct query text is a server-side statement per connection; keep few.
      maxPreparedStatements: 64,
      typeCast,
    };
  }

  /**
   * A pooled connection once the gate lets this run in (bounded queue and wait, then
   * SOURCE_BUSY); releasing or destroying it gives the turn to the next run.
   */
  async connection(signal?: AbortSignal): Promise<PoolConnection> {
    const turn = await this.gate.acquire(signal);
    try {
      const conn = await this.checkout();
      // mysql2 hands out the same connection objects again: wrap the original methods, once each.
      const own = conn as PoolConnection & { [ORIGINAL]?: { release: () => void; destroy: () => void } };
      own[ORIGINAL] ??= { release: conn.release.bind(conn), destroy: conn.destroy.bind(conn) };
      const { release, destroy } = own[ORIGINAL];
      conn.release = () => {
        turn();
        release();
      };
      conn.destroy = () => {
        turn();
        destroy();
      };
      return conn;
    } catch (error) {
      turn();
      throw error;
    }
  }

  private async checkout(): Promise<PoolConnection> {
    try {
      return await getConnection(this.pool);
    } catch (error) {
      // sslmode=prefer: a server without TLS gets a plain connection instead.
      if (this.target.sslMode === 'prefer' && !this.triedPlain && (error as { code?: string }).code === 'HANDSHAKE_NO_SSL_SUPPORT') {
        this.triedPlain = true;
        const old = this.pool;
        this.ssl = undefined;
        this.pool = mysql.createPool(this.poolConfig());
        old.end(() => undefined);
        return getConnection(this.pool);
      }
      throw error;
    }
  }

  /** `SET SESSION` statement that bounds one statement's run time on this server. */
  async timeoutStatement(conn: PoolConnection, ms: number): Promise<string> {
    this.flavour ??= query<Array<{ v: string }>>(conn, 'SELECT VERSION() AS v').then((rows) =>
      /mariadb/i.test(rows[0]?.v ?? '') ? 'mariadb' : 'mysql',
    );
    const flavour = await this.flavour.catch((error: unknown) => {
      this.flavour = undefined;
      throw error;
    });
    return flavour === 'mariadb'
      ? `SET SESSION max_statement_time = ${(Math.max(1, ms) / 1000).toFixed(3)}`
      : `SET SESSION max_execution_time = ${Math.max(1, Math.ceil(ms))}`;
  }

  /** Stops the statement running on `threadId` from a separate connection. */
  async killQuery(threadId: number | null | undefined): Promise<void> {
    if (!threadId) return;
    const side = mysql.createConnection({ ...this.connectionConfig(), connectTimeout: KILL_TIMEOUT_MS });
    side.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => side.query(`KILL QUERY ${Number(threadId)}`, () => resolve()));
    } finally {
      side.destroy();
    }
  }

  end(): Promise<void> {
    this.gate.close(new SourceUnreachableError('The connection was closed'));
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }
}

function getConnection(pool: Pool): Promise<PoolConnection> {
  return new Promise((resolve, reject) => pool.getConnection((error, conn) => (error ? reject(error) : resolve(conn))));
}

function query<T>(conn: PoolConnection, sql: string): Promise<T> {
  return new Promise((resolve, reject) => conn.query(sql, (error, rows) => (error ? reject(error) : resolve(rows as T))));
}

/**
 * MySQL and MariaDB (and rdsMysql). Each run: `START TRANSACTION READ ONLY`, a per-statement time
 * limit, a prepared statement whose rows are streamed; over the deadline, KILL QUERY and the
 * connection is destroyed.
 */
export class MysqlSource implements Source {
  readonly type = 'mysql';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.mysql;
  private readonly options: Required<MysqlSourceOptions>;

  constructor(
    private readonly pools: PoolManager,
    options: MysqlSourceOptions = {},
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
    return [mysqlTarget(conn).host];
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    await this.withConnection(conn, new RunControl({ timeoutMs: TEST_TIMEOUT_MS, signal }), (c, control) => control.race(query(c, 'SELECT 1')));
    return { success: true };
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    const rows = await this.withConnection(conn, new RunControl({ timeoutMs: SCHEMA_TIMEOUT_MS, signal }), (c, control) =>
      control.race(
        query<Array<{ table_name: string; column_name: string; column_type: string; is_nullable: string }>>(
          c,
          `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable
             FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        ),
      ),
    );
    const tables = new Map<string, SchemaTable>();
    for (const row of rows) {
      let table = tables.get(row.table_name);
      if (!table) tables.set(row.table_name, (table = { name: row.table_name, columns: [] }));
      table.columns.push({ name: row.column_name, type: row.column_type, nullable: row.is_nullable === 'YES' });
    }
    return { tables: [...tables.values()] };
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    return collectRows(await this.stream(conn, request, options));
  }

  async stream(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RowStream> {
    const sql = (request.compiled?.text ?? request.query)?.trim().replace(/;\s*$/, '');
    if (!sql) throw new InvalidQueryError('The SQL query is empty');
    const compiled = request.compiled ? { text: sql, values: [...request.compiled.values] } : compileSql(sql, 'mysql', options.variables);
    // A read-only transaction does not stop DDL (it commits implicitly), INTO OUTFILE or LOAD_FILE.
    await assertReadOnlyStatement(compiled.text, 'mysql');
    const control = new RunControl({ timeoutMs: options.timeoutMs, signal: options.signal });
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    const limits = { rowLimit: options.rowLimit ?? DEFAULT_ROW_LIMIT, batchSize };

    return openRowStream(
      control,
      limits,
      async () => {
        const handle = this.pools.acquire(conn, 'mysql', () => this.createPool(conn), (pool) => pool.end());
        let connection: PoolConnection | undefined;
        try {
          connection = await handle.pool.connection(control.signal);
          await query(connection, await handle.pool.timeoutStatement(connection, control.remainingMs()));
          await query(connection, 'START TRANSACTION READ ONLY');
        } catch (error) {
          connection?.destroy();
          await handle.release();
          throw error;
        }
        const command = connection.execute(compiled.text, compiled.values as never[]);
        return new MysqlCursor(connection, command.stream({ highWaterMark: batchSize }), handle.pool, () => handle.release());
      },
      (error) => translateMysqlError(error, conn, control.timeoutMs),
    );
  }

  private createPool(conn: SourceConnection): MysqlPool {
    return new MysqlPool(mysqlTarget(conn), this.options);
  }

  private async withConnection<T>(
    conn: SourceConnection,
    control: RunControl,
    work: (connection: PoolConnection, control: RunControl) => Promise<T>,
  ): Promise<T> {
    let handle: { pool: MysqlPool; release(): Promise<void> } | undefined;
    let connection: PoolConnection | undefined;
    let broken = false;
    try {
      handle = this.pools.acquire(conn, 'mysql', () => this.createPool(conn), (pool) => pool.end());
      const pool = handle.pool;
      connection = await control.race(pool.connection(control.signal), (late) => late.destroy());
      const active = connection;
      control.onAbort(async () => {
        broken = true;
        await pool.killQuery(active.threadId);
        active.destroy();
      });
      await control.race(query(connection, await pool.timeoutStatement(connection, control.remainingMs())));
      await control.race(query(connection, 'START TRANSACTION READ ONLY'));
      const result = await work(connection, control);
      await control.race(query(connection, 'ROLLBACK'));
      return result;
    } catch (error) {
      broken = true;
      throw control.error ?? translateMysqlError(error, conn, control.timeoutMs);
    } finally {
      control.dispose();
      if (connection && !control.aborted) {
        if (broken) connection.destroy();
        else connection.release();
      }
      await handle?.release();
    }
  }
}

/** mysql2 streams an OK packet (ResultSetHeader) as its only "row" when a statement has no result set. */
function isResultSetHeader(row: Row): boolean {
  return row['fieldCount'] === 0 && typeof row['affectedRows'] === 'number' && typeof row['serverStatus'] === 'number';
}

/** Pulls batches off mysql2's row stream (which pauses the socket when we stop reading). */
class MysqlCursor implements BatchCursor {
  private fields: readonly FieldPacket[] = [];
  private ended = false;
  private failure: unknown;

  constructor(
    private readonly connection: PoolConnection,
    private readonly rows: Readable,
    private readonly pool: MysqlPool,
    private readonly releasePool: () => Promise<void>,
  ) {
    rows.on('fields', (fields: FieldPacket[] | undefined) => (this.fields = fields ?? []));
    rows.on('end', () => (this.ended = true));
    rows.on('error', (error) => (this.failure = error));
  }

  columns(): ColumnInfo[] {
    return mysqlColumns(this.fields);
  }

  async next(max: number): Promise<Row[]> {
    const out: Row[] = [];
    while (out.length < max) {
      const row = this.rows.read() as Row | null;
      if (row !== null) {
        if (this.fields.length === 0 && isResultSetHeader(row)) {
          // An OK packet instead of rows (e.g. SELECT … INTO @var): the caller's mistake, not ours.
          this.failure = new InvalidQueryError('The statement returned no result set; only statements that return rows can be run');
          throw this.failure;
        }
        out.push(row);
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended || this.rows.readableEnded || this.rows.destroyed) break;
      await this.readable();
    }
    if (this.failure) throw this.failure;
    return out;
  }

  async close(reason: CloseReason): Promise<void> {
    try {
      if (reason === 'done' && !this.failure) {
        await query(this.connection, 'ROLLBACK');
        this.connection.release();
        return;
      }
      // Rows may still be coming: stop the statement on the server, then drop the connection.
      if (!this.ended && !this.failure) await this.pool.killQuery(this.connection.threadId);
      this.rows.destroy();
      this.connection.destroy();
    } catch {
      this.connection.destroy();
    } finally {
      await this.releasePool();
    }
  }

  private readable(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.rows.off('readable', done);
        this.rows.off('end', done);
        this.rows.off('error', done);
        this.rows.off('close', done);
        resolve();
      };
      this.rows.on('readable', done);
      this.rows.on('end', done);
      this.rows.on('error', done);
      this.rows.on('close', done);
    });
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'HANDSHAKE_NO_SSL_SUPPORT',
  'HANDSHAKE_SSL_ERROR',
  'ER_CON_COUNT_ERROR',
]);
/** MariaDB max_statement_time, MySQL max_execution_time, "query interrupted". */
const TIMEOUT_ERRNOS = new Set([1969, 3024, 1317]);

export function translateMysqlError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const err = error as { code?: string; errno?: number; sqlState?: string; sqlMessage?: string; message?: string; fatal?: boolean };
  const message = redactSecrets(err?.sqlMessage ?? err?.message ?? String(error), conn);
  if (err?.errno !== undefined && TIMEOUT_ERRNOS.has(err.errno)) return new SourceTimeoutError(timeoutMs);
  if (err?.code && (UNREACHABLE.has(err.code) || err.code.startsWith('ERR_TLS') || err.code.includes('CERT'))) {
    return new SourceUnreachableError(`MySQL is unreachable: ${message}`);
  }
  if (err?.sqlState || (typeof err?.code === 'string' && err.code.startsWith('ER_'))) return new SourceQueryError(`MySQL: ${message}`);
  return new SourceUnreachableError(`MySQL connection failed: ${message}`);
}
