/**
 * Aggregation of one group's values. State is a fixed-shape object per group (memory grows with
 * groups, never with rows); `add` is chosen once per operation so the per-row call is monomorphic.
 *
 * - count: rows (no value field) or non-null values, as SQL COUNT(*) / COUNT(col);
 * - count_unique: distinct non-null values, typed (1 and "1" differ);
 * - sum, avg, min, max: numeric values only (numbers, numeric strings, bigints); null when the
 *   group has none, as in SQL; sums are compensated (Neumaier) and rounded to the precision their
 *   terms carry, so long sums of cents come out exact;
 * - none: the last value seen in the group, read as a number.
 */
import { distinctBytes, type ByteBudget } from './byte-budget.js';
import { OPERATIONS, type Operation } from './types.js';
import { cleanNumber, cleanSum, distinctKey, toNumber } from './values.js';

export class GroupState {
  n = 0;
  sum = 0;
  compensation = 0;
  /** Σ|x|, the scale of the rounding error in `sum` (see cleanSum). */
  magnitude = 0;
  min = Infinity;
  max = -Infinity;
  last: unknown = undefined;
  seen: Set<unknown> | null = null;
}

export interface Aggregator {
  readonly operation: Operation;
  /** True when the operation ignores the value (count of rows). */
  readonly countsRows: boolean;
  add(state: GroupState, value: unknown): void;
  /** Folds `from` into `into` (groups that turn out to share a label, partial aggregates). */
  merge(into: GroupState, from: GroupState): void;
  result(state: GroupState): number | null;
}

export function isOperation(value: unknown): value is Operation {
  return typeof value === 'string' && (OPERATIONS as readonly string[]).includes(value);
}

function addSum(state: GroupState, value: unknown): void {
  const x = typeof value === 'number' ? (value - value === 0 ? value : NaN) : toNumber(value);
  if (x !== x) return;
  const s = state.sum;
  const t = s + x;
  const ax = Math.abs(x);
  state.compensation += Math.abs(s) >= ax ? s - t + x : x - t + s;
  state.sum = t;
  state.magnitude += ax;
  state.n += 1;
}

function sumOf(state: GroupState): number {
  return state.sum + state.compensation;
}

function mergeCount(into: GroupState, from: GroupState): void {
  into.n += from.n;
}

function mergeSum(into: GroupState, from: GroupState): void {
  const n = into.n;
  const magnitude = into.magnitude;
  addSum(into, from.sum);
  into.compensation += from.compensation;
  into.magnitude = magnitude + from.magnitude;
  into.n = n + from.n;
}

/** `budget`: what the chart may hold; `count_unique` keeps no distinct value past it. */
export function createAggregator(operation: Operation, hasValueField: boolean, budget?: ByteBudget): Aggregator {
  switch (operation) {
    case 'count':
      if (!hasValueField) {
        return {
          operation,
          countsRows: true,
          add(state) {
            state.n += 1;
          },
          merge: mergeCount,
          result: (state) => state.n,
        };
      }
      return {
        operation,
        countsRows: false,
        add(state, value) {
          if (value !== null && value !== undefined) state.n += 1;
        },
        merge: mergeCount,
        result: (state) => state.n,
      };
    case 'count_unique':
      return {
        operation,
        countsRows: false,
        add(state, value) {
          if (value === null || value === undefined) return;
          const seen = (state.seen ??= new Set());
          const key = distinctKey(value);
          const size = seen.size;
          seen.add(key);
          if (budget !== undefined && seen.size !== size && !budget.take(distinctBytes(key))) seen.delete(key);
        },
        merge(into, from) {
          if (from.seen === null) return;
          const seen = (into.seen ??= new Set());
          for (const v of from.seen) seen.add(v);
        },
        result: (state) => (state.seen === null ? 0 : state.seen.size),
      };
    case 'sum':
      return {
        operation,
        countsRows: false,
        add: addSum,
        merge: mergeSum,
        result: (state) => (state.n === 0 ? null : cleanSum(sumOf(state), state.magnitude)),
      };
    case 'avg':
      return {
        operation,
        countsRows: false,
        add: addSum,
        merge: mergeSum,
        result: (state) => (state.n === 0 ? null : cleanNumber(cleanSum(sumOf(state), state.magnitude) / state.n)),
      };
    case 'min':
      return {
        operation,
        countsRows: false,
        add(state, value) {
          const x = toNumber(value);
          if (x !== x) return;
          if (x < state.min) state.min = x;
          state.n += 1;
        },
        merge(into, from) {
          if (from.min < into.min) into.min = from.min;
          into.n += from.n;
        },
        result: (state) => (state.n === 0 ? null : state.min),
      };
    case 'max':
      return {
        operation,
        countsRows: false,
        add(state, value) {
          const x = toNumber(value);
          if (x !== x) return;
          if (x > state.max) state.max = x;
          state.n += 1;
        },
        merge(into, from) {
          if (from.max > into.max) into.max = from.max;
          into.n += from.n;
        },
        result: (state) => (state.n === 0 ? null : state.max),
      };
    case 'none':
      return {
        operation,
        countsRows: false,
        add(state, value) {
          if (value === null || value === undefined) return;
          state.last = value;
          state.n += 1;
        },
        merge(into, from) {
          if (from.n > 0) into.last = from.last;
          into.n += from.n;
        },
        result: (state) => {
          const x = toNumber(state.last);
          return x === x ? x : null;
        },
      };
  }
}
