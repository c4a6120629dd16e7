import type { EventEmitter } from 'node:events';
import mysql from 'mysql2';
import type { ConnectionOptions, Pool, PoolConnection, PoolOptions } from 'mysql2';
import type { AppError } from '../../errors/index.js';
import type { BatchCursor } from '../row-stream.js';
import { isSocketOrTlsFailure, SqlPool, SqlSource, translateSqlError, type SqlFailure, type SqlSourceOptions, type SqlStatement } from '../sql-source.js';
import type { SourceCapabilities, SourceConnection } from '../types.js';
import { mysqlTarget, type MysqlTarget } from './connection-config.js';
import { MysqlCursor } from './cursor.js';
import { typeCast } from './value-types.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export type MysqlSourceOptions = SqlSourceOptions;

const KILL_TIMEOUT_MS = 2_000;

/** The connection's character set and collation, asked for in the handshake and again by every run. */
const CHARSET = 'utf8mb4';
const COLLATION = 'utf8mb4_general_ci';

const ORIGINAL = Symbol('plotline.original');

/** A mysql2 pool plus the server flavour (how to set a statement timeout) and the config for KILL QUERY. */
export class MysqlPool extends SqlPool<PoolConnection> {
  private pool: Pool;
  private ssl: MysqlTarget['ssl'];
  private flavour: Promise<'mariadb' | 'mysql'> | undefined;
  private triedPlain = false;

  constructor(
    readonly target: MysqlTarget,
    options: Required<MysqlSourceOptions>,
  ) {
    super(options);
    this.ssl = target.ssl;
    this.pool = mysql.createPool(this.poolConfig());
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
      charset: COLLATION,
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
      // Every distinct query text is a server-side statement per connection, until the reset
      // that ends the run deallocates them; keep few.
      maxPreparedStatements: 64,
      typeCast,
    };
  }

  protected holdTurn(conn: PoolConnection, turn: () => void): void {
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
  }

  protected async checkout(): Promise<PoolConnection> {
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

  protected close(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }

  /** The time limit is a session variable: every run sets its own, with the rest of its session (see `sessionStatement`). */
  async begin(conn: PoolConnection, remainingMs: number): Promise<void> {
    await query(conn, await this.sessionStatement(conn, remainingMs));
    await query(conn, 'START TRANSACTION READ ONLY');
  }

  /**
   * COM_RESET_CONNECTION: rolls the transaction back and gives the connection a fresh session
   * (user variables, session variables, GET_LOCK locks, temporary tables and prepared statements
   * gone; mysql2 forgets its statements with them), in one round trip. A server without it
   * (MySQL before 5.7.3, some proxies) fails here, and the connection is closed instead.
   */
  finish(conn: PoolConnection): Promise<void> {
    return new Promise((resolve, reject) => conn.reset((error) => (error ? reject(error) : resolve())));
  }

  query<T>(conn: PoolConnection, sql: string): Promise<T[]> {
    return query<T[]>(conn, sql);
  }

  cancel(conn: PoolConnection): Promise<void> {
    return this.killQuery(conn.threadId);
  }

  release(conn: PoolConnection): void {
    conn.release();
  }

  discard(conn: PoolConnection): void {
    conn.destroy();
  }

  openCursor(conn: PoolConnection, statement: SqlStatement, _batchSize: number, releasePool: () => Promise<void>): BatchCursor {
    const command = conn.execute(statement.text, statement.values as never[]) as unknown as EventEmitter;
    return new MysqlCursor(conn, statement.text, command, this, releasePool);
  }

  /**
   * The `SET` that starts a run: its statement time limit on this server, and the session a fresh
   * connection has. A reset session takes the server's defaults, which differ from what the
   * handshake asked for: MySQL resets the character set, MariaDB drops the IGNORE_SPACE that
   * mysql2 asks for (so `count (*)` would parse on a fresh connection only).
   */
  async sessionStatement(conn: PoolConnection, ms: number): Promise<string> {
    this.flavour ??= query<Array<{ v: string }>>(conn, 'SELECT VERSION() AS v').then((rows) =>
      /mariadb/i.test(rows[0]?.v ?? '') ? 'mariadb' : 'mysql',
    );
    const flavour = await this.flavour.catch((error: unknown) => {
      this.flavour = undefined;
      throw error;
    });
    const limit =
      flavour === 'mariadb' ? `SESSION max_statement_time = ${(Math.max(1, ms) / 1000).toFixed(3)}` : `SESSION max_execution_time = ${Math.max(1, Math.ceil(ms))}`;
    return `SET NAMES ${CHARSET} COLLATE ${COLLATION}, SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',IGNORE_SPACE'), ${limit}`;
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
}

function getConnection(pool: Pool): Promise<PoolConnection> {
  return new Promise((resolve, reject) => pool.getConnection((error, conn) => (error ? reject(error) : resolve(conn))));
}

function query<T>(conn: PoolConnection, sql: string): Promise<T> {
  return new Promise((resolve, reject) => conn.query(sql, (error, rows) => (error ? reject(error) : resolve(rows as T))));
}

/**
 * MySQL and MariaDB (and rdsMysql). Each run: `START TRANSACTION READ ONLY`, a per-statement time
 * limit, a prepared statement whose rows are streamed, then a reset of the session; over the
 * deadline, KILL QUERY and the connection is destroyed.
 */
export class MysqlSource extends SqlSource<PoolConnection, MysqlPool> {
  readonly type = 'mysql';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.mysql;
  protected readonly schemaQuery = `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable
             FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`;

  databaseHosts(conn: SourceConnection): string[] {
    return [mysqlTarget(conn).host];
  }

  protected createPool(conn: SourceConnection): MysqlPool {
    return new MysqlPool(mysqlTarget(conn), this.options);
  }

  protected translateError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
    return translateMysqlError(error, conn, timeoutMs);
  }

  /** A prepared statement is one statement: a trailing semicolon is left out. */
  protected override statementText(sql: string): string {
    return sql.replace(/;\s*$/, '');
  }
}

/** mysql2's own codes for a connection that is lost, or was never made, or was refused for load. */
const UNREACHABLE = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'HANDSHAKE_NO_SSL_SUPPORT',
  'HANDSHAKE_SSL_ERROR',
  'ER_CON_COUNT_ERROR',
]);
/** MariaDB max_statement_time, MySQL max_execution_time, "query interrupted". */
const TIMEOUT_ERRNOS = new Set([1969, 3024, 1317]);

function translateMysqlError(error: unknown, conn: SourceConnection, timeoutMs: number): AppError {
  return translateSqlError(error, conn, timeoutMs, 'MySQL', (error) => {
    const err = error as { code?: string; errno?: number; sqlState?: string; sqlMessage?: string; message?: string } | undefined;
    return { failure: mysqlFailure(err), message: err?.sqlMessage ?? err?.message ?? String(error) };
  });
}

function mysqlFailure(err: { code?: string; errno?: number; sqlState?: string } | undefined): SqlFailure {
  if (err?.errno !== undefined && TIMEOUT_ERRNOS.has(err.errno)) return 'timeout';
  // Checked before the SQL state: ER_CON_COUNT_ERROR has one, but the server is refusing connections.
  if (err?.code && (UNREACHABLE.has(err.code) || isSocketOrTlsFailure(err.code))) return 'unreachable';
  if (err?.sqlState || (typeof err?.code === 'string' && err.code.startsWith('ER_'))) return 'query';
  return 'connection';
}
