/*
 * What the data context offers the contexts above it (dashboards, automation): its services and the
 * types they speak. Everything else in this folder is its own.
 */
export type { DatasetRecord } from './datasets-repository.js';
export type { DatasetsService } from './datasets-service.js';
export type { DatasetRows, DatasetRunner, PreparedDataset } from './dataset-runner.js';
export type { DatasetValues, DatasetValuesOptions, DatasetValuesService } from './dataset-values-service.js';
export { DatasetValuesResponse, ValuesQuery } from './dataset-values-schemas.js';
export {
  filtersForChart,
  filtersInReach,
  filtersReaching,
  filtersToConditions,
  isClientOnlyFilter,
  parseFilterEntries,
  parseFilters,
  parseRuntimeVariables,
  type ChartFilterState,
  type DateFilter,
  type FieldFilter,
  type FilterTarget,
  type RowFilter,
  type RuntimeFilter,
  type VariableFilter,
} from './dataset-runs-filters.js';
export { RuntimeVariables } from './dataset-runs-schemas.js';
