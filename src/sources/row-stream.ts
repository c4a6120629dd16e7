import { AppError } from '../errors/index.js';
import type { RunControl } from './run-control.js';
import type { ColumnInfo, Row, RowStream, RunMeta, RunResult } from './types.js';

export type CloseReason = 'done' | 'early' | 'failed';

/** How a batch of rows is pulled from one driver. */
export interface BatchCursor {
  /** Known after the first batch (or immediately for drivers that describe first). */
  columns(): ColumnInfo[];
  /** Up to `max` rows; an empty array means the result is exhausted. */
  next(max: number): Promise<Row[]>;
  /**
   * Releases the driver resources. `early`: the consumer stopped (or the row cap was hit) while
   * rows may remain; `failed`: an error or an abort, the query must not keep running.
   */
  close(reason: CloseReason): Promise<void>;
}

export interface StreamLimits {
  rowLimit: number;
  batchSize: number;
}

/**
 * Wraps a driver cursor into a RowStream with the row cap, the deadline and the cleanup rules
 * every source shares. Resolves once the first batch is in, so query errors surface here.
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

  const { rowLimit } = limits;
  // One row past the cap is read to learn whether the result was truncated.
  const wanted = (fetched: number): number => Math.min(limits.batchSize, rowLimit + 1 - fetched);

  let first: Row[];
  try {
    first = await control.race(cursor.next(wanted(0)));
  } catch (error) {
    await closeOnce('failed');
    control.dispose();
    throw fail(error);
  }

  const meta: RunMeta = { columns: cursor.columns(), rowCount: 0, truncated: false, durationMs: 0 };
  let fetched = first.length;
  let iterated = false;

  const trim = (batch: Row[]): Row[] => {
    const room = rowLimit - meta.rowCount;
    if (batch.length > room) {
      meta.truncated = true;
      batch = batch.slice(0, Math.max(0, room));
    }
    meta.rowCount += batch.length;
    return batch;
  };

  async function* iterate(): AsyncGenerator<Row[]> {
    let reason: CloseReason = 'failed';
    let errored = false;
    try {
      let batch = trim(first);
      first = [];
      if (batch.length > 0) yield batch;
      let exhausted = fetched === 0 || (fetched < wanted(0) && !meta.truncated);
      while (!exhausted && !meta.truncated) {
        const want = wanted(fetched);
        if (want <= 0) break;
        const rows = await control.race(cursor.next(want));
        if (rows.length === 0) break;
        fetched += rows.length;
        exhausted = rows.length < want;
        batch = trim(rows);
        if (batch.length > 0) yield batch;
      }
      // Stopping at the cap is an early stop: the driver may still hold unread rows.
      reason = meta.truncated ? 'early' : 'done';
    } catch (error) {
      errored = true;
      throw fail(error);
    } finally {
      meta.durationMs = Math.round(control.elapsedMs());
      // A consumer that breaks out of its loop lands here with neither flag set.
      if (reason === 'failed' && !control.aborted && !errored) reason = 'early';
      await closeOnce(reason);
      control.dispose();
    }
  }

  return {
    columns: meta.columns,
    meta: () => ({ ...meta, columns: meta.columns.length > 0 ? meta.columns : cursor.columns() }),
    close: async () => {
      if (!iterated) {
        iterated = true;
        meta.durationMs = Math.round(control.elapsedMs());
        await closeOnce('early');
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
