import type { Socket } from 'node:net';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { BatchTooLargeError, readAllowance, type BatchCursor, type CloseReason } from '../row-stream.js';
import type { Row } from '../types.js';
import type { PostgresPool } from './postgres-source.js';
import { postgresColumns, postgresTypes } from './value-types.js';
import { sendCancelRequest } from './wire.js';

/** How long a cancelled read may take to come back before the connection is destroyed. */
export const CANCEL_WAIT_MS = 1_500;
/** How long one cancel request is given before it is sent again. */
const CANCEL_RETRY_MS = 200;

/** What a CancelRequest names: the client's backend, from BackendKeyData. */
type BackendKey = { processID: number; secretKey: number };

/** The client fields node-postgres sets from BackendKeyData (not in its type definitions); undefined before the server sent them. */
export function backendKey(client: pg.ClientBase): BackendKey | undefined {
  const key = client as unknown as { processID?: number | null; secretKey?: number | null };
  return key.processID && key.secretKey !== null && key.secretKey !== undefined ? { processID: key.processID, secretKey: key.secretKey } : undefined;
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
export class WireMeter {
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
export class PostgresCursor implements BatchCursor {
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
      await this.pool.cancel(this.client);
      return;
    }
    const reading = this.reading;
    if (!reading) return;
    const settled = reading.catch(() => undefined);
    const key = backendKey(this.client);
    if (!key) {
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
