/**
 * One pass over a row source, whatever its shape: arrays get an indexed loop (the fastest path),
 * other iterables and async iterables a `for … of` / `for await`, batches a loop per batch (one
 * await per batch instead of one per row). `consume` returning `false` stops early, and so does
 * `stop.stopped` turning true between two awaits (another dataset failed, the run was aborted);
 * an async source is then closed through its `return()`, which lets cursors release their
 * connection. Synchronous sources cannot be interrupted from outside, so they are not checked.
 */
import type { Row, RowSource } from './types.js';

export type RowConsumer = (row: Row) => boolean | void;

export interface StopFlag {
  readonly stopped: boolean;
}

const NEVER: StopFlag = { stopped: false };

function isBatches(source: RowSource): source is { batches: Iterable<readonly Row[]> | AsyncIterable<readonly Row[]> } {
  return typeof source === 'object' && source !== null && 'batches' in source && !Array.isArray(source);
}

function consumeArray(rows: readonly Row[], consume: RowConsumer): boolean {
  for (let i = 0; i < rows.length; i += 1) {
    if (consume(rows[i]!) === false) return false;
  }
  return true;
}

export async function forEachRow(source: RowSource, consume: RowConsumer, stop: StopFlag = NEVER): Promise<void> {
  if (Array.isArray(source)) {
    consumeArray(source as readonly Row[], consume);
    return;
  }
  if (isBatches(source)) {
    const batches = source.batches;
    if (Symbol.asyncIterator in batches) {
      for await (const batch of batches as AsyncIterable<readonly Row[]>) {
        if (stop.stopped || !consumeArray(batch, consume)) return;
      }
    } else {
      for (const batch of batches as Iterable<readonly Row[]>) {
        if (!consumeArray(batch, consume)) return;
      }
    }
    return;
  }
  if (Symbol.asyncIterator in (source as object)) {
    for await (const row of source as AsyncIterable<Row>) {
      if (stop.stopped || consume(row) === false) return;
    }
    return;
  }
  for (const row of source as Iterable<Row>) {
    if (consume(row) === false) return;
  }
}
