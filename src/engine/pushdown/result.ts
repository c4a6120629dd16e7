/**
 * Grouped rows back into the engine's AggregatedSeries: bucket keys as the engine's numbers,
 * category labels as the engine writes them, and values finished by the engine's own aggregator
 * (so sums and averages get the same rounding). Values are read with toNumber, so they may come
 * as numbers or as exact text, whatever the driver's type parsing.
 */
import { createAggregator, GroupState } from '../aggregators.js';
import { TOTAL_LABEL, type AggregatedSeries } from '../series.js';
import type { Row } from '../types.js';
import { toNumber } from '../values.js';
import { PushdownFallbackError } from './errors.js';
import type { Reading } from './plan.js';

export function readSeries(reading: Reading, rows: Iterable<Row>): AggregatedSeries {
  const aggregator = createAggregator(reading.operation, reading.value !== 'rows');
  const points = new Map<number | string, number | null>();
  for (const row of rows) {
    if (isSet(row['pd_u'])) {
      throw new PushdownFallbackError(
        'some rows hold values the engine reads differently from SQL (dates outside years 1–9999 or outside the zone table, huge decimals, decimal NaN or infinities in a sum or at an extreme)',
      );
    }
    const key = keyOf(reading, row);
    if (points.has(key)) throw new PushdownFallbackError(`two groups share the label "${String(key)}"`);
    points.set(key, valueOf(reading, row, aggregator));
  }
  if (reading.axis === 'none' && !points.has(TOTAL_LABEL)) {
    // No rows at all: the engine still has its Total group, empty.
    points.set(TOTAL_LABEL, aggregator.result(new GroupState()));
  }
  return { axis: reading.axis, points };
}

function isSet(flag: unknown): boolean {
  return flag === true || (flag !== null && flag !== undefined && flag !== false && Number(flag) !== 0);
}

function keyOf(reading: Reading, row: Row): number | string {
  switch (reading.key) {
    case 'total':
      return TOTAL_LABEL;
    case 'time': {
      const key = Number(row['pd_k']);
      if (!Number.isSafeInteger(key)) throw new PushdownFallbackError(`a bucket key is not a whole number of milliseconds: ${String(row['pd_k'])}`);
      return key;
    }
    case 'number':
      return String(typeof row['pd_k'] === 'number' ? row['pd_k'] : Number(row['pd_k']));
    case 'bool':
      return String(row['pd_k'] === true || row['pd_k'] === 't' || row['pd_k'] === 1 || row['pd_k'] === '1');
    case 'decimal': {
      // Below 1e15 the source gives a number (labelled as JavaScript prints it), from there exact text.
      const text = row['pd_k2'];
      if (text !== null && text !== undefined) return decode(reading, text);
      return String(typeof row['pd_k'] === 'number' ? row['pd_k'] : Number(row['pd_k']));
    }
    case 'text':
      return decode(reading, row['pd_k']);
  }
}

function decode(reading: Reading, value: unknown): string {
  const text = Buffer.isBuffer(value) ? value.toString(reading.encoding === 'hex' ? 'latin1' : 'utf8') : String(value);
  return reading.encoding === 'hex' ? Buffer.from(text, 'hex').toString('utf8') : text;
}

function valueOf(reading: Reading, row: Row, aggregator: ReturnType<typeof createAggregator>): number | null {
  switch (reading.value) {
    case 'rows':
      return Number(row['pd_n']);
    case 'count':
      return Number(row['pd_v']);
    case 'null':
      return null;
    case 'extreme': {
      const v = row['pd_v'];
      return v === null || v === undefined ? null : toNumber(v);
    }
    case 'sum': {
      const state = new GroupState();
      state.n = Number(row['pd_v']);
      if (state.n === 0) return aggregator.result(state);
      state.sum = toNumber(row['pd_s']);
      state.magnitude = toNumber(row['pd_a']);
      const scale = Number(row['pd_sc'] ?? 0);
      // The engine sums doubles and rounds to 15 significant digits of Σ|x|: equal to the exact
      // decimal sum only when the terms have fewer decimals than that rounding keeps (one spare).
      if (state.magnitude > 0 && !(scale <= 14 - Math.ceil(Math.log10(state.magnitude)))) {
        throw new PushdownFallbackError('a sum has more significant digits than the engine keeps, so its rounding could differ');
      }
      return aggregator.result(state);
    }
  }
}
