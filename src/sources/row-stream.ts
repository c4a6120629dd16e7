import { AppError } from '../errors/index.js';
import { bytesPerRow, rowBytes } from './row-bytes.js';
import type { RunControl } from './run-control.js';
import { DEFAULT_BATCH_SIZE, DEFAULT_BYTE_LIMIT, DEFAULT_ROW_LIMIT, type ColumnInfo, type Row, type RowStream, type RunMeta, type RunOptions, type RunResult } from './types.js';

export type CloseReason = 'done' | 'early' | 'failed';

/** How a batch of rows is pulled from one driver. */
export interface BatchCursor {
  /** Known after the first batch (or immediately for drivers that describe first). */
  columns(): ColumnInfo[];
  /**
   * Up to `max` rows; an empty array means the result is exhausted. A cursor that can stop between
   * two rows returns fewer once about `maxBytes` have arrived (always at least one row); one that
   * must take a whole read from its driver watches the bytes coming in instead. Either way, a read
   * that would hold more than `readAllowance(maxBytes)` (a single row that large, or rows much
   * larger than the ones before) throws `BatchTooLargeError` rather than holding it.
   */
  next(max: number, maxBytes: number): Promise<Row[]>;
  /**
   * Releases the driver resources. `early`: the consumer stopped (or the row cap was hit) while
   * rows may remain; `failed`: an error or an abort, the query must not keep running.
   */
  close(reason: CloseReason): Promise<void>;
}

/**
 * A read went over the bytes one batch may hold. Not a failure of the run: the rows read before it
 * are kept and the result is cut there (`truncatedBy: 'bytes'`).
 */
export class BatchTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`A batch of rows was larger than ${limitBytes} bytes`);
    this.name = 'BatchTooLargeError';
  }
}

/**
 * The most a read asked for `maxBytes` may bring before it is stopped: what comes on the wire is
 * not exactly what `row-bytes.ts` counts (protocol framing, numbers as text), and a read sized from
 * the rows before it may end one row past the budget.
 */
export function readAllowance(maxBytes: number): number {
  return maxBytes + Math.max(64 * 1024, Math.floor(maxBytes / 8));
}

export interface StreamLimits {
  rowLimit: number;
  /** Rows per read at most; fewer when rows are large. */
  batchSize: number;
  /** Bytes of rows kept (handed out); `Infinity` when the consumer holds none. */
  byteLimit: number;
  /** Bytes one read may bring; a single row larger than this cuts the run. */
  batchByteLimit: number;
}

/** A run's limits with their defaults (see `RunOptions`). */
export function streamLimits(options: RunOptions): StreamLimits {
  const byteLimit = options.byteLimit ?? DEFAULT_BYTE_LIMIT;
  return {
    rowLimit: options.rowLimit ?? DEFAULT_ROW_LIMIT,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    byteLimit,
    batchByteLimit: options.batchByteLimit ?? (Number.isFinite(byteLimit) ? byteLimit : DEFAULT_BYTE_LIMIT),
  };
}

/** The first read of a run asks for one row: its size decides how many the next reads ask for. */
const FIRST_READ_ROWS = 1;
/** What a read aims to bring once rows have been measured (and never more than a quarter of what it may bring). */
const TARGET_READ_BYTES = 4 * 1024 * 1024;
/** A read asks for at most this many times the rows of the one before (later rows may be larger). */
const READ_GROWTH = 16;

/**
 * Wraps a driver cursor into a RowStream with the row and byte caps, the deadline and the cleanup
 * rules every source shares. Reads are sized from the bytes per row measured so far, so a batch
 * holds a few MiB whatever the width of the rows. Resolves once the first batch is in, so query
 * errors surface here.
 */
export async function openRowStream(
  control: RunControl,
  limits: StreamLimits,
  open: () => Promise<BatchCursor>,
  translate: (error: unknown) => AppError,
): Promise<RowStream> {
  const fail = (error: unknown): AppError => control.error ?? (error instanceof AppError ? error : translate(error));
  let cursor: BatchCursor;
  try {
    cursor = await control.race(open(), (late) => void late.close('failed').catch(() => undefined));
  } catch (error) {
    control.dispose();
    throw fail(error);
  }

  let closed = false;
  const closeOnce = async (reason: CloseReason): Promise<void> => {
    if (closed) return;
    closed = true;
    await cursor.close(reason).catch(() => undefined);
  };
  // An abandoned stream still ends at the deadline: the abort closes the cursor.
  control.onAbort(() => closeOnce('failed'));

  const { rowLimit, byteLimit } = limits;
  const readBytes = Math.min(limits.batchByteLimit, byteLimit);
  const targetBytes = Math.min(TARGET_READ_BYTES, readBytes / 4);
  const meta: RunMeta = { columns: [], rowCount: 0, truncated: false, durationMs: 0 };
  const cutBy = (reason: 'rows' | 'bytes', bytes?: number): void => {
    meta.truncated = true;
    meta.truncatedBy = reason;
    if (bytes !== undefined) meta.byteLimit = bytes;
  };

  let fetched = 0;
  let kept = 0;
  /** A read was stopped for its size: the driver is mid-result, its connection must not be reused. */
  let overflowed = false;
  let lastAsked = 0;
  let perRow = 0;
  /** Rows the next read asks for: one row past the row cap is read to learn whether the result was truncated. */
  const wanted = (): number => {
    let want = Math.min(limits.batchSize, rowLimit + 1 - fetched);
    if (perRow === 0) want = Math.min(want, FIRST_READ_ROWS);
    else {
      want = Math.min(want, lastAsked * READ_GROWTH, Math.floor(targetBytes / perRow));
      if (Number.isFinite(byteLimit)) want = Math.min(want, Math.floor((byteLimit - kept) / perRow) + 1);
    }
    return Math.max(1, want);
  };

  /** One read; a read too large for a batch cuts the result instead of failing it. */
  const read = async (): Promise<Row[] | 'too large'> => {
    lastAsked = wanted();
    try {
      const rows = await control.race(cursor.next(lastAsked, readBytes));
      fetched += rows.length;
      return rows;
    } catch (error) {
      if (error instanceof BatchTooLargeError && !control.aborted) {
        overflowed = true;
        cutBy('bytes', readBytes);
        return 'too large';
      }
      throw error;
    }
  };

  /** The part of a batch the caps let through; measures the rows (every kept one, a sample otherwise). */
  const trim = (batch: Row[]): Row[] => {
    let end = Math.min(batch.length, Math.max(0, rowLimit - meta.rowCount));
    let overBytes = false;
    if (Number.isFinite(byteLimit)) {
      let bytes = 0;
      let measured = 0;
      let measuredBytes = 0;
      for (let i = 0; i < end; i++) {
        const size = rowBytes(batch[i]!);
        measured += 1;
        measuredBytes += size;
        if (kept + bytes + size > byteLimit) {
          end = i;
          overBytes = true;
          break;
        }
        bytes += size;
      }
      if (measured > 0) perRow = Math.max(1, measuredBytes / measured);
      kept += bytes;
    } else if (batch.length > 0) {
      perRow = Math.max(1, bytesPerRow(batch));
    }
    if (overBytes) cutBy('bytes', byteLimit);
    else if (end < batch.length) cutBy('rows');
    meta.rowCount += end;
    return end === batch.length ? batch : batch.slice(0, end);
  };

  let first: Row[] | 'too large';
  try {
    first = await read();
  } catch (error) {
    await closeOnce('failed');
    control.dispose();
    throw fail(error);
  }
  meta.columns = cursor.columns();
  let iterated = false;

  async function* iterate(): AsyncGenerator<Row[]> {
    let reason: CloseReason = 'failed';
    let errored = false;
    try {
      let rows = first;
      first = [];
      while (rows !== 'too large' && rows.length > 0) {
        const batch = trim(rows);
        if (batch.length > 0) yield batch;
        if (meta.truncated) break;
        rows = await read();
      }
      // Stopping at a cap is an early stop: the driver may still hold unread rows.
      reason = meta.truncated ? 'early' : 'done';
    } catch (error) {
      errored = true;
      throw fail(error);
    } finally {
      meta.durationMs = Math.round(control.elapsedMs());
      // A consumer that breaks out of its loop lands here with neither flag set.
      if (reason === 'failed' && !control.aborted && !errored) reason = 'early';
      await closeOnce(overflowed ? 'failed' : reason);
      control.dispose();
    }
  }

  return {
    get columns() {
      return meta.columns;
    },
    meta: () => {
      // Columns a cursor infers from its rows (MongoDB) are known better once more rows went by.
      const columns = cursor.columns();
      return { ...meta, columns: columns.length > 0 ? columns : meta.columns };
    },
    close: async () => {
      if (!iterated) {
        iterated = true;
        meta.durationMs = Math.round(control.elapsedMs());
        await closeOnce(overflowed ? 'failed' : 'early');
        control.dispose();
      }
    },
    [Symbol.asyncIterator]() {
      if (iterated) throw new Error('A RowStream can be iterated only once');
      iterated = true;
      return iterate();
    },
  };
}

/** Reads a whole stream into memory (the `run()` of streaming sources). */
export async function collectRows(stream: RowStream): Promise<RunResult> {
  const rows: Row[] = [];
  for await (const batch of stream) {
    for (let i = 0; i < batch.length; i++) rows.push(batch[i]!);
  }
  return { data: rows, meta: stream.meta() };
}
