import pg from 'pg';
import type { AppError } from '../../errors/index.js';
import { InvalidQueryError, SourceUnreachableError } from '../errors.js';
import { RunControl } from '../run-control.js';
import { assertReadOnlyStatement } from '../statement-safety/index.js';
import { rowBytes } from '../row-bytes.js';
import { BatchTooLargeError, readAllowance, streamLimits, type BatchCursor } from '../row-stream.js';
import { isSocketOrTlsFailure, SqlPool, SqlSource, translateSqlError, type SchemaColumnRow, type SqlFailure, type SqlSourceOptions, type SqlStatement } from '../sql-source.js';
import type { DataRequestSpec, Row, RunMeta, RunOptions, RunResult, SourceCapabilities, SourceConnection } from '../types.js';
import { postgresTarget, type PostgresTarget } from './connection-config.js';
import { backendKey, CANCEL_WAIT_MS, PostgresCursor, WireMeter } from './cursor.js';
import { postgresColumns, postgresTypes } from './value-types.js';
import { probeSsl, sendCancelRequest } from './wire.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export type PostgresSourceOptions = SqlSourceOptions;

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

/**
 * A pg.Pool plus what pg cannot do itself: sslmode=prefer (probe once, then TLS or not) and the
 * address used to send cancel requests.
 */
export class PostgresPool extends SqlPool<pg.PoolClient> {
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
    const key = backendKey(client);
    if (key) await sendCancelRequest(this.target.host, this.target.port, key.processID, key.secretKey, CANCEL_WAIT_MS);
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
