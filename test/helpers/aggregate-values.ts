import { createAggregator, GroupState } from '../../src/engine/aggregators.js';
import type { Operation } from '../../src/engine/types.js';

/** Aggregates a plain list of values as one group of the streaming engine does. */
export function aggregateValues(operation: Operation, values: Iterable<unknown>, hasValueField = true): number | null {
  const aggregator = createAggregator(operation, hasValueField);
  const state = new GroupState();
  for (const v of values) aggregator.add(state, v);
  return aggregator.result(state);
}
