import type { operations } from '../../app/src/api/schema.js';

/** The answer of an operation of the API, from its generated types (scripts/openapi.ts). */
type Answer<Operation extends keyof operations> = operations[Operation] extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The public payloads of the share endpoints (see src/modules/dashboards/sharing-public-schemas.ts). */
export type SharedChart = Answer<'getSharedChart'>;
export type SharedDashboard = Answer<'getSharedDashboard'>;
export type PublicChart = SharedDashboard['Charts'][number];
export type PublicConfig = PublicChart['ChartDatasetConfigs'][number];
export type Theme = SharedChart['theme'];

/** Chart.js-shaped data as the engine computes it (docs/chart-data.md). */
export interface AxisDataset {
  label?: string;
  data: (number | null)[];
  borderColor?: string | string[];
  backgroundColor?: string | string[];
  fill?: boolean;
  pointRadius?: number;
}

export interface AxisChartData {
  data: { labels?: string[]; datasets: AxisDataset[] };
  options?: Record<string, unknown>;
  growth?: { label: string; value: number | null; previous: number | null; percent: number | null; status: string }[];
  values?: MetricValue[];
  ranges?: { min: number; max: number; label?: string }[];
}

export interface MetricValue {
  label: string;
  value: number | null;
  formatted: string;
  goal: number | null;
  growth: { previous: number | null; percent: number | null; status: string } | null;
}

export interface TableData {
  columns: { Header: string; accessor: string }[];
  data: Record<string, unknown>[];
}
