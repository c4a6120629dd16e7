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
import type { KeyReading } from './plan-keys.js';

export function readSeries(reading: Reading, rows: Iterable<Row>): AggregatedSeries {
  const aggregator = createAggregator(reading.operation, reading.value !== 'rows');
  const points = new Map<number | string, number | null>();
  const breakdown = reading.breakdown === null ? null : new Map<string, Map<number | string, number | null>>();
  for (const row of rows) {
    if (isSet(row['pd_u'])) {
      throw new PushdownFallbackError(
        'some rows hold values the engine reads differently from SQL (dates outside years 1–9999 or outside the zone table, huge decimals, decimal NaN or infinities in a sum or at an extreme)',
      );
    }
    const key = keyOf(reading, reading.key, row, 'pd_k');
    let into = points;
    if (breakdown !== null) {
      // A breakdown value's label, read like a category's; its points are a series of their own.
      const value = String(keyOf(reading, reading.breakdown!, row, 'pd_b'));
      into = breakdown.get(value) ?? new Map<number | string, number | null>();
      breakdown.set(value, into);
    }
    if (into.has(key)) throw new PushdownFallbackError(`two groups share the label "${String(key)}"`);
    into.set(key, valueOf(reading, row, aggregator));
  }
  if (breakdown !== null) return { axis: reading.axis, points, breakdown };
  if (reading.axis === 'none' && !points.has(TOTAL_LABEL)) {
    // No rows at all: the engine still has its Total group, empty.
    points.set(TOTAL_LABEL, aggregator.result(new GroupState()));
  }
  return { axis: reading.axis, points };
}

function isSet(flag: unknown): boolean {
  return flag === true || (flag !== null && flag !== undefined && flag !== false && Number(flag) !== 0);
}

/** A key of a grouped row, read from the column `alias` (and `alias`2) as `kind` says. */
function keyOf(reading: Reading, kind: KeyReading, row: Row, alias: 'pd_k' | 'pd_b'): number | string {
  const value = row[alias];
  switch (kind) {
    case 'total':
      return TOTAL_LABEL;
    case 'time': {
      const key = Number(value);
      if (!Number.isSafeInteger(key)) throw new PushdownFallbackError(`a bucket key is not a whole number of milliseconds: ${String(value)}`);
      return key;
    }
    case 'number':
      return String(typeof value === 'number' ? value : Number(value));
    case 'bool':
      return String(value === true || value === 't' || value === 1 || value === '1');
    case 'decimal': {
      // Below 1e15 the source gives a number (labelled as JavaScript prints it), from there exact text.
      const text = row[`${alias}2`];
      if (text !== null && text !== undefined) return decode(reading, text);
      return String(typeof value === 'number' ? value : Number(value));
    }
    case 'text':
      return decode(reading, value);
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
