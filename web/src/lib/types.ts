/** The public payloads of the share endpoints (see src/modules/dashboards/sharing-public-schemas.ts). */
export type Theme = 'light' | 'dark' | 'os';

export interface PublicConfig {
  id: string;
  legend: string | null;
  datasetColor: string | null;
  fillColor: unknown;
  fill: boolean;
  multiFill: boolean;
  pointRadius: number | null;
  order: number | null;
  goal: number | null;
  formula: string | null;
}

export interface PublicChart {
  id: number;
  name: string | null;
  type: string | null;
  subType: string | null;
  chartData: unknown;
  chartDataUpdated: string | null;
  layout: unknown;
  displayLegend: boolean;
  dataLabels: boolean;
  stacked: boolean;
  horizontal: boolean;
  showGrowth: boolean;
  invertGrowth: boolean;
  isLogarithmic: boolean;
  content: string | null;
  ranges: unknown;
  defaultRowsPerPage: number | null;
  maxValue: number | null;
  minValue: number | null;
  xLabelTicks: string | null;
  pointRadius: number | null;
  dashedLastPoint: boolean;
  mode: string;
  onReport: boolean;
  ChartDatasetConfigs: PublicConfig[];
  error?: { code: string; message: string };
}

export interface SharedChart extends PublicChart {
  showBranding: boolean;
  /** The team allows CSV/XLSX exports from shared reports. */
  allowExport?: boolean;
  theme: Theme;
}

export interface SharedDashboard {
  name: string;
  brewName: string;
  dashboardTitle: string | null;
  description: string | null;
  logo: string | null;
  logoLink: string | null;
  backgroundColor: string | null;
  titleColor: string | null;
  headerCode: string | null;
  footerCode: string | null;
  showBranding: boolean;
  allowExport?: boolean;
  timezone: string | null;
  theme: Theme;
  Charts: PublicChart[];
}

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
