import { Type, type Static, type TSchema } from 'typebox';
import { Ref, Timestamp } from '../../platform/http-schemas.js';
import { ChartDisplay } from './chart-display.js';
import { ChartRunFailure, FILTER_RUN_PROPERTIES, PublicDashboardFilter } from './dashboard-filters-schemas.js';
import { ChartVisualization } from './chart-visualization-schemas.js';

/**
 * What anonymous viewers of a share link receive, and nothing more: display fields only. No
 * queries, conditions, dataset or connection ids, policies or params, password state or secrets.
 * Responses are serialised through these schemas, so a field added to a chart or a dashboard
 * stays private until it is listed here; a chart's display options (chart-display.ts) are listed
 * as a whole, being what the page draws the chart with.
 */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const THEMES = ['light', 'dark', 'os'] as const;
export type Theme = (typeof THEMES)[number];
const ThemeParam = Type.Enum([...THEMES], { description: 'Colour scheme of the page: light, dark, or follow the OS' });

const PublicChartDatasetConfig = Type.Object({
  id: Type.String(),
  legend: Nullable(Type.String()),
  datasetColor: Nullable(Type.String()),
  fillColor: Type.Unknown({ description: 'A colour or an array of colours' }),
  fill: Type.Boolean(),
  multiFill: Type.Boolean(),
  pointRadius: Nullable(Type.Integer()),
  order: Nullable(Type.Number()),
  goal: Nullable(Type.Number()),
  formula: Nullable(Type.String()),
}, { $id: 'PublicChartDatasetConfig' });

const ChartError = Type.Object({ code: Type.String(), message: Type.String() });

const publicChartProperties = {
  id: Type.Integer(),
  name: Nullable(Type.String()),
  type: Nullable(Type.String()),
  subType: Nullable(Type.String()),
  chartData: Type.Unknown({ description: 'Computed chart payload (see docs/chart-data.md); null when it could not be computed' }),
  chartDataUpdated: Nullable(Timestamp),
  ...ChartDisplay.properties,
  /** Chartbrew's chart spec, without its filters (a config's conditions stay private). */
  visualization: Ref(ChartVisualization),
  ChartDatasetConfigs: Type.Array(Ref(PublicChartDatasetConfig)),
  /** Set when the latest refresh of the saved data failed: its code and time; `chartDataUpdated` is the last good data's time. */
  lastError: Type.Optional(Nullable(Type.Object({ code: Type.String(), at: Timestamp }))),
  /**
   * Set when the saved data is much older than the chart's refresh schedule allows (the chart's
   * own or its dashboard's, docs/guide.md "Scheduled refreshes"): of the schedule, only its period.
   */
  refreshOverdue: Type.Optional(
    Nullable(
      Type.Object(
        {
          since: Timestamp,
          everySeconds: Type.Integer({ minimum: 1, description: 'How often the chart should be refreshed, in seconds' }),
        },
        { description: 'The saved data (of `since`, its chartDataUpdated) is overdue: more than twice its refresh period old' },
      ),
    ),
  ),
  /** Set when this chart could not be computed for the link; the other charts still show. */
  error: Type.Optional(ChartError),
};

export const PublicChart = Type.Object(publicChartProperties, { $id: 'PublicChart' });
export type PublicChartView = Static<typeof PublicChart>;

/** `GET /chart/share/{share_string}`: the chart plus what the embed page needs around it. */
export const SharedChart = Type.Object({
  ...publicChartProperties,
  showBranding: Type.Boolean(),
  allowExport: Type.Boolean({ description: "The team's allowReportExport: the page may offer CSV/XLSX exports of its charts" }),
  theme: ThemeParam,
}, { $id: 'SharedChart' });
export type SharedChartView = Static<typeof SharedChart>;

/** `GET /project/dashboard/{brewName}`: the report. */
export const SharedDashboard = Type.Object({
  name: Type.String(),
  brewName: Type.String(),
  dashboardTitle: Nullable(Type.String()),
  description: Nullable(Type.String()),
  logo: Nullable(Type.String()),
  logoLink: Nullable(Type.String()),
  backgroundColor: Nullable(Type.String()),
  titleColor: Nullable(Type.String()),
  headerCode: Nullable(Type.String({ description: 'Owner-written HTML; pages render it only inside a sandboxed frame' })),
  footerCode: Nullable(Type.String({ description: 'Owner-written HTML; pages render it only inside a sandboxed frame' })),
  showBranding: Type.Boolean(),
  allowExport: Type.Boolean({ description: "The team's allowReportExport: the page may offer CSV/XLSX exports of its charts" }),
  timezone: Nullable(Type.String()),
  theme: ThemeParam,
  Charts: Type.Array(Ref(PublicChart)),
  DashboardFilters: Type.Array(Ref(PublicDashboardFilter), { description: "The report's filters (those with onReport), ordered; a viewer sends their states to the filter routes" }),
}, { $id: 'SharedDashboard' });
export type SharedDashboardView = Static<typeof SharedDashboard>;

/** `POST /project/{pid}/chart/{id}/filter` for a viewer of a shared report: the chart as the report shows it, computed for the filter state. */
export const SharedFilteredChart = Type.Object({ ...publicChartProperties, ...FILTER_RUN_PROPERTIES }, { $id: 'SharedFilteredChart' });
export type SharedFilteredChartView = Static<typeof SharedFilteredChart>;

/** `POST /project/dashboard/{brewName}/filter`: every report chart (or those asked for), each computed or failed on its own. */
export const SharedFilteredCharts = Type.Object({ charts: Type.Array(Type.Union([Ref(SharedFilteredChart), Ref(ChartRunFailure)])) }, { $id: 'SharedFilteredCharts' });
export type SharedFilteredChartsView = Static<typeof SharedFilteredCharts>;

/** `token` and `theme` are named; every other query parameter is a candidate variable. */
export const SharedChartQuery = Type.Object(
  {
    token: Type.Optional(Type.String({ maxLength: 4096 })),
    theme: Type.Optional(ThemeParam),
  },
  { additionalProperties: true },
);

export const SharedChartParams = Type.Object({ share_string: Type.String({ minLength: 1, maxLength: 200 }) });
export const SharedDashboardParams = Type.Object({ brewName: Type.String({ minLength: 1, maxLength: 300 }) });
export const SharedDashboardHeaders = Type.Object({ pass: Type.Optional(Type.String({ maxLength: 1024 })) }, { additionalProperties: true });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const PUBLIC_SHARE_COMPONENTS = [PublicChartDatasetConfig, PublicChart, SharedChart, SharedDashboard, SharedFilteredChart, SharedFilteredCharts];
