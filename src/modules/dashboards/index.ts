/*
 * What the dashboards context offers the automation context above it: its services, the types they
 * speak, and the share routes' parameter schemas that exports reuse. Everything else here is its own.
 */
export type { Chart } from './charts-repository.js';
export type { ChartsService } from './charts-service.js';
export type { ChartRunInputs, ChartRunResult, ChartRunService, LoadedChart } from './chart-runs-service.js';
export { Chart as ChartSchema, ChartRunAnswer } from './charts-schemas.js';
export type { ProjectsService } from './projects-service.js';
export type { SnapshotScheduleView } from './projects-schemas.js';
export type { SnapshotsService } from './snapshots-service.js';
export type { ShareViewer, ViewRequest } from './share-viewer.js';
export { isHttpUrl } from './projects-validation.js';
export { SharedChartParams, SharedChartQuery, SharedDashboardHeaders, SharedDashboardParams } from './sharing-public-schemas.js';
