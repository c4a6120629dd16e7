import type { ChartCondition } from '../../src/engine/types.js';
import { filtersToConditions, parseFilters } from '../../src/modules/data/index.js';

/**
 * The conditions a chart run adds to a dataset configuration for the runtime filters of a request
 * (`body.filters`, checked as the run routes check them), given the configuration's date field:
 * for the engine's suites, which may not import the modules themselves.
 */
export function runtimeFilterConditions(filters: unknown, dateField: string | null | undefined): ChartCondition[] {
  return filtersToConditions(parseFilters(filters, 'body.filters'), dateField ?? null);
}
