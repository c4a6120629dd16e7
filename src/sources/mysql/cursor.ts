import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { FieldPacket, PoolConnection } from 'mysql2';
import { InvalidQueryError } from '../errors.js';
import { BatchTooLargeError, readAllowance, type BatchCursor, type CloseReason } from '../row-stream.js';
import type { ColumnInfo, Row } from '../types.js';
import type { MysqlPool } from './mysql-source.js';
import { mysqlColumns } from './value-types.js';

/** mysql2 streams an OK packet (ResultSetHeader) as its only "row" when a statement has no result set. */
function isResultSetHeader(row: Row): boolean {
  return row['fieldCount'] === 0 && typeof row['affectedRows'] === 'number' && typeof row['serverStatus'] === 'number';
}

/**
 * Takes rows off a running statement as mysql2 parses them, and pauses the connection (its socket
 * stops being read) as soon as a read has what it asked for: `max` rows, or about `maxBytes` of
 * them as they came over the wire. So the rows held are one read's, however wide they are. A
 * single row that alone takes more than the read's allowance on the wire stops the read.
 */
export class MysqlCursor implements BatchCursor {
  private fields: readonly FieldPacket[] = [];
  private rows: Row[] = [];
  private ended = false;
  private failure: unknown;
  private paused = false;
  /** What the current read waits for; before the first read, one row. */
  private want = { rows: 1, bytes: Infinity, allowance: Infinity };
  /** Wire bytes since the rows held were last handed out, and since the last complete row. */
  private received = 0;
  private sinceRow = 0;
  private wake: (() => void) | undefined;
  private readonly socket: Socket | undefined;
  private readonly onData = (chunk: Buffer): void => {
    this.received += chunk.length;
    this.sinceRow += chunk.length;
    if (this.sinceRow > this.want.allowance && this.failure === undefined) {
      this.failure = new BatchTooLargeError(this.want.bytes);
      this.pause();
      this.notify();
    } else if (this.rows.length > 0 && this.received >= this.want.bytes) {
      this.pause();
      this.notify();
    }
  };

  constructor(
    private readonly connection: PoolConnection,
    private readonly text: string,
    command: EventEmitter,
    private readonly pool: MysqlPool,
    private readonly releasePool: () => Promise<void>,
  ) {
    this.socket = (connection as unknown as { stream?: Socket }).stream;
    this.socket?.on('data', this.onData);
    command.on('fields', (fields: FieldPacket[] | undefined) => (this.fields = fields ?? []));
    command.on('result', (row: Row) => {
      if (this.fields.length === 0 && isResultSetHeader(row)) {
        // An OK packet instead of rows (e.g. SELECT … INTO @var): the caller's mistake, not ours.
        this.failure = new InvalidQueryError('The statement returned no result set; only statements that return rows can be run');
      } else {
        this.rows.push(row);
        this.sinceRow = 0;
        if (this.rows.length >= this.want.rows || this.received >= this.want.bytes) this.pause();
      }
      this.notify();
    });
    command.on('end', () => {
      this.ended = true;
      this.notify();
    });
    command.on('error', (error: unknown) => {
      this.failure ??= error;
      this.notify();
    });
  }

  columns(): ColumnInfo[] {
    return mysqlColumns(this.fields);
  }

  async next(max: number, maxBytes: number): Promise<Row[]> {
    this.want = { rows: max, bytes: maxBytes, allowance: readAllowance(maxBytes) };
    while (this.failure === undefined && !this.ended && this.rows.length < max && !(this.rows.length > 0 && this.received >= maxBytes)) {
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      this.resume();
      await woken;
    }
    if (this.failure !== undefined) throw this.failure;
    const out = this.rows.length <= max ? this.rows : this.rows.slice(0, max);
    this.rows = this.rows.length <= max ? [] : this.rows.slice(max);
    this.received = 0;
    return out;
  }

  async close(reason: CloseReason): Promise<void> {
    this.socket?.off('data', this.onData);
    try {
      if (reason === 'done' && this.failure === undefined) {
        // Closed before the reset rather than forgotten by it (mysql2 would then close an id the
        // server no longer has): once the reset answers, the server is done with this run.
        this.connection.unprepare(this.text);
        await this.pool.finish(this.connection);
        this.connection.release();
        return;
      }
      // Rows may still be coming: stop the statement on the server, then drop the connection.
      if (!this.ended && (this.failure === undefined || this.failure instanceof BatchTooLargeError)) await this.pool.killQuery(this.connection.threadId);
      this.connection.destroy();
    } catch {
      this.connection.destroy();
    } finally {
      await this.releasePool();
    }
  }

  private pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.connection.pause();
  }

  private resume(): void {
    if (!this.paused) return;
    this.paused = false;
    // Replays the packets that arrived while paused (which may pause again), then reads the socket.
    this.connection.resume();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
