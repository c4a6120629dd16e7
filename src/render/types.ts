import type { Theme } from './theme.js';

/**
 * What a picture of a chart is drawn from: its computed `chartData` and its display options, as
 * the report page receives them. Nothing about teams, users or where the chart is stored.
 */
export interface ChartView {
  id?: number;
  name: string | null;
  /** line, bar, pie, doughnut, radar, polar, table, kpi, avg, gauge, matrix, markdown. */
  type: string | null;
  chartData: unknown;
  chartDataUpdated: string | null;
  displayLegend?: boolean;
  dataLabels?: boolean;
  stacked?: boolean;
  horizontal?: boolean;
  showGrowth?: boolean;
  xLabelTicks?: string | null;
  dashedLastPoint?: boolean;
  /** A markdown chart's text. */
  content?: string | null;
  ranges?: unknown;
  minValue?: number | null;
  maxValue?: number | null;
  defaultRowsPerPage?: number | null;
  /** `{lg: [x, y, w, h]}` on the 12-column grid. */
  layout?: unknown;
  /** The first dataset configuration's colour (gauges and calendars use it). */
  datasetColor?: string | null;
  /** A chart that could not be computed shows this message instead. */
  error?: string | null;
  /** The saved data's latest refresh failed (its code and time): the card says so above the chart. */
  lastError?: { code: string; at: string } | null;
  /** The saved data is older than its refresh schedule allows (src/runtime/scheduler/cadence.ts): the card says so. */
  refreshOverdue?: { since: string; everySeconds: number } | null;
  /** Drawn for a filter state: the filters that narrow this chart and those that do not reach it, by name. */
  filters?: { by: string[]; notBy: string[] } | null;
}

export interface ChartPictureOptions {
  theme: Theme;
  width: number;
  height: number;
  /** Zone the "Updated" time is written in (default UTC). */
  timezone?: string;
}

export interface DashboardView {
  title: string;
  description?: string | null;
  /** Header colours the dashboard sets (report page: `backgroundColor`, `titleColor`). */
  headerBackground?: string | null;
  headerColour?: string | null;
  charts: ChartView[];
  /** When its data was computed (shown in the header). */
  dataUpdatedAt: string | null;
  /** The filter values applied, as lines such as `Country is FR` (shown in the header). */
  filters: string[];
  showBranding?: boolean;
  timezone?: string;
}

export interface DashboardPictureOptions {
  theme: Theme;
  /** Viewport width in CSS pixels. */
  width: number;
}

export interface Picture {
  body: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export interface DashboardDocument {
  body: Buffer;
  contentType: string;
  pages: number;
}
