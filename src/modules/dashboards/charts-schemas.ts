import { Type, type Static, type TSchema } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';

// The engine owns what a chart can be; the API validates against the same lists.
import { CHART_TYPES, CONDITION_OPERATORS, MAX_BREAKDOWN_SERIES, OPERATIONS, TIME_INTERVALS } from '../../engine/index.js';
import { ChartDisplay, ChartDisplayInput } from './chart-display.js';
import { ChartVisualization, Visualization, VISUALIZATION_COMPONENTS } from './chart-visualization-schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = (maxLength: number) => Type.String({ maxLength });
/** Integer columns are Postgres `integer`. */
const Int32 = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });
const Count = Type.Integer({ minimum: 0, maximum: 2147483647 });
/** Full timestamps or plain dates (`2024-01-31`); both are stored as ISO UTC. */
const DateInput = Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })]);
const Opt = Type.Optional;

// ---------- chart dataset configuration ----------

export const Condition = Type.Object({
  id: Opt(Str(100)),
  field: Opt(Str(1000)),
  operator: Opt(Type.Enum([...CONDITION_OPERATORS])),
  value: Opt(Type.Union([Str(10_000), Type.Number(), Type.Boolean(), Type.Null()])),
  displayValues: Opt(Type.Boolean()),
  exposed: Opt(Type.Boolean()),
  items: Opt(Type.Array(Type.Union([Str(10_000), Type.Number(), Type.Boolean(), Type.Null()]), { maxItems: 1000 })),
});

const CdcConfiguration = Type.Object(
  {
    variables: Opt(
      Type.Array(
        Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), value: Opt(Type.Union([Str(10_000), Type.Number(), Type.Boolean(), Type.Null()])) }),
        { maxItems: 200 },
      ),
    ),
  },
  { additionalProperties: true },
);

const BREAKDOWN_DESCRIPTION =
  'A field path (`root[].country`) whose distinct values split the series: one series per value, the 20 largest by total (line, bar and radar charts); null: one series';

const BREAKDOWN_LIMIT_DESCRIPTION = `The breakdown's largest series by total that are drawn, 1 to ${MAX_BREAKDOWN_SERIES}; null: ${MAX_BREAKDOWN_SERIES}`;
const BREAKDOWN_OTHER_DESCRIPTION =
  'The series past the limit are summed into one more series (breakdownOtherLabel) instead of left out; for count and sum only (an average or a count of distinct values cannot be added up)';
const BREAKDOWN_OTHER_LABEL_DESCRIPTION = 'The label of the summed series (default "Other")';

const cdcFields = {
  xAxis: Opt(Nullable(Str(1000))),
  xAxisOperation: Opt(Nullable(Str(100))),
  yAxis: Opt(Nullable(Str(1000))),
  yAxisOperation: Opt(Nullable(Type.Enum([...OPERATIONS]))),
  dateField: Opt(Nullable(Str(1000))),
  dateFormat: Opt(Nullable(Str(100))),
  conditions: Opt(Nullable(Type.Array(Condition, { maxItems: 200 }))),
  formula: Opt(Nullable(Str(1000))),
  datasetColor: Opt(Nullable(Str(100))),
  fillColor: Opt(Nullable(Type.Union([Str(100), Type.Array(Str(100), { maxItems: 1000 })]))),
  fill: Opt(Type.Boolean()),
  multiFill: Opt(Type.Boolean()),
  legend: Opt(Nullable(Str(500))),
  pointRadius: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
  excludedFields: Opt(Nullable(Type.Array(Str(1000), { maxItems: 1000 }))),
  sort: Opt(Nullable(Type.Enum(['asc', 'desc']))),
  columnsOrder: Opt(Nullable(Type.Array(Str(1000), { maxItems: 1000 }))),
  order: Opt(Nullable(Type.Number())),
  maxRecords: Opt(Nullable(Count)),
  goal: Opt(Nullable(Type.Number())),
  configuration: Opt(Nullable(CdcConfiguration)),
  breakdown: Opt(Nullable(Type.String({ maxLength: 1000, description: BREAKDOWN_DESCRIPTION }))),
  breakdownLimit: Opt(Nullable(Type.Integer({ minimum: 1, maximum: MAX_BREAKDOWN_SERIES, description: BREAKDOWN_LIMIT_DESCRIPTION }))),
  breakdownOther: Opt(Type.Boolean({ description: BREAKDOWN_OTHER_DESCRIPTION })),
  breakdownOtherLabel: Opt(Nullable(Type.String({ maxLength: 200, description: BREAKDOWN_OTHER_LABEL_DESCRIPTION }))),
};

/**
 * A client's own id of a config it sends with a new chart: never stored (the server assigns the
 * config's id), but the chart's `visualization` layers may name it as their `bindingId`.
 */
const ClientConfigId = Type.Union([Str(100), Type.Integer(), Type.Null()], { description: "A client-side id of the config, never stored; the new chart's visualization layers may name it as their bindingId" });

export const ChartDatasetConfig = Type.Object({
  id: Type.String({ format: 'uuid' }),
  chart_id: Type.Integer(),
  dataset_id: Type.Integer(),
  xAxis: Nullable(Type.String()),
  xAxisOperation: Nullable(Type.String()),
  yAxis: Nullable(Type.String()),
  yAxisOperation: Nullable(Type.String()),
  dateField: Nullable(Type.String()),
  dateFormat: Nullable(Type.String()),
  conditions: Type.Array(Type.Unknown()),
  formula: Nullable(Type.String()),
  datasetColor: Nullable(Type.String()),
  fillColor: Type.Unknown({ description: 'A colour or an array of colours (one per slice)' }),
  fill: Type.Boolean(),
  multiFill: Type.Boolean(),
  legend: Nullable(Type.String()),
  pointRadius: Nullable(Type.Integer()),
  excludedFields: Type.Array(Type.String()),
  sort: Nullable(Type.String()),
  columnsOrder: Type.Array(Type.String()),
  order: Nullable(Type.Number()),
  maxRecords: Nullable(Type.Integer()),
  goal: Nullable(Type.Number()),
  configuration: Type.Unknown({ description: 'Object; holds `variables: [{name, value}]`' }),
  breakdown: Nullable(Type.String({ description: BREAKDOWN_DESCRIPTION })),
  breakdownLimit: Nullable(Type.Integer({ description: BREAKDOWN_LIMIT_DESCRIPTION })),
  breakdownOther: Type.Boolean({ description: BREAKDOWN_OTHER_DESCRIPTION }),
  breakdownOtherLabel: Nullable(Type.String({ description: BREAKDOWN_OTHER_LABEL_DESCRIPTION })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'ChartDatasetConfig' });

/** Client-side keys of Chartbrew's dataset configs (its quick-create strips them too). */
const CHARTBREW_CDC_KEYS = ['Dataset'];

/** `id` and `chart_id` are server-owned (read-only keys of the answer); `chart_id` comes from the path. */
export const CreateChartDatasetConfig = WriteBody({
  dataset_id: Id,
  ...cdcFields,
  id: Opt(ClientConfigId),
  bindingId: Opt(ClientConfigId),
  templateBindingId: Opt(ClientConfigId),
}, { $id: 'CreateChartDatasetConfig', answer: ChartDatasetConfig, ignored: CHARTBREW_CDC_KEYS });
export const UpdateChartDatasetConfig = WriteBody({ dataset_id: Opt(Id), ...cdcFields }, { $id: 'UpdateChartDatasetConfig', answer: ChartDatasetConfig, ignored: CHARTBREW_CDC_KEYS });
export type CdcInput = Static<typeof UpdateChartDatasetConfig>;

// ---------- chart ----------

const chartFields = {
  subType: Opt(Nullable(Str(100))),
  public: Opt(Type.Boolean()),
  shareable: Opt(Type.Boolean()),
  startDate: Opt(Nullable(DateInput)),
  endDate: Opt(Nullable(DateInput)),
  dateVarsFormat: Opt(Nullable(Str(100))),
  includeZeros: Opt(Type.Boolean()),
  currentEndDate: Opt(Type.Boolean()),
  fixedStartDate: Opt(Type.Boolean()),
  timeInterval: Opt(Type.Enum([...TIME_INTERVALS])),
  autoUpdate: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'Seconds between automatic refreshes; 0 or null = off' }))),
  draft: Opt(Type.Boolean()),
  disabledExport: Opt(Nullable(Type.Boolean())),
  dashboardOrder: Opt(Nullable(Int32)),
  ...ChartDisplayInput.properties,
};

const ChartName = Type.String({ minLength: 1, maxLength: 200 });
/** Null forgets a saved spec: the chart's is derived from its dataset configs again. */
const visualizationField = { visualization: Opt(Nullable(Ref(Visualization))) };
const ChartType = Type.Enum([...CHART_TYPES]);

/**
 * An unsaved chart to compute (`POST /project/{pid}/chart/preview`): the quick-create body, with the
 * name optional (a draft may not have one yet), at least one dataset config, and the runtime inputs
 * of a chart run.
 */
export const PreviewChart = Type.Object({
  name: Opt(ChartName),
  type: ChartType,
  ...chartFields,
  chartDatasetConfigs: Type.Array(Ref(CreateChartDatasetConfig), { minItems: 1, maxItems: 50 }),
  variables: Opt(Type.Record(Type.String(), Type.Unknown())),
  filters: Opt(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
}, { $id: 'PreviewChart' });
export type PreviewChartInput = Static<typeof PreviewChart>;

/** The computed data of an unsaved chart: what a run of the same chart, saved, would answer. */
export const ChartPreview = Type.Object({
  chartData: Type.Unknown({
    description: 'The chart payload, exactly as a run of the saved chart computes it (with `truncated`, `truncatedBy`, `rowLimit` and, for bytes or pages, `byteLimit` or `pageLimit` when a limit cut it)',
  }),
  truncated: Type.Boolean({ description: 'A limit cut the data the chart was computed from' }),
  truncatedBy: Opt(Type.Enum(['rows', 'bytes', 'pages'], { description: 'Which limit, when truncated: the row limit, the byte limit (PLOTLINE_RESULT_MAX_MB), or a source\'s page cap' })),
  rowLimit: Opt(Type.Integer({ description: 'The row limit of the run, when truncated' })),
  pageLimit: Opt(Type.Integer({ description: 'The page cap that stopped a paginating source, when `truncatedBy` is `pages`' })),
  byteLimit: Opt(Type.Integer({ description: 'The byte limit that cut it, when `truncatedBy` is `bytes`' })),
  paths: Type.Array(Type.Enum(['pushdown', 'stream']), { description: 'How each dataset config was computed: grouped by the database, or by the streaming engine' }),
}, { $id: 'ChartPreview' });
export type ChartInput = Static<typeof UpdateChart>;
export type CreateChartInput = Static<typeof CreateChart>;
export type QuickCreateChartInput = Static<typeof QuickCreateChart>;
export type CreateCdcInput = Static<typeof CreateChartDatasetConfig>;

/** Chart ids are integers (the contract's choice; Chartbrew's docs type them as strings, its server as integers). */
export const Chart = Type.Object({
  id: Type.Integer(),
  project_id: Type.Integer(),
  name: Nullable(Type.String()),
  type: Nullable(Type.String()),
  subType: Nullable(Type.String()),
  public: Type.Boolean(),
  shareable: Type.Boolean(),
  chartData: Type.Unknown({ description: 'Last computed chart payload (server-owned)' }),
  // When the last good chartData was computed: a failed refresh leaves it as it was (see lastError).
  chartDataUpdated: Nullable(Timestamp),
  lastError: Nullable(Type.Object({
    code: Type.String({ description: 'The error code of the failure' }),
    message: Type.String({ description: 'What failed, as the refresh history records it' }),
    at: Timestamp,
  }, { description: 'The failure of the latest refresh, when it failed; null after a good one. chartData is then the data of `chartDataUpdated`' })),
  ...ChartDisplay.properties,
  startDate: Nullable(Timestamp),
  endDate: Nullable(Timestamp),
  dateVarsFormat: Nullable(Type.String()),
  includeZeros: Type.Boolean(),
  currentEndDate: Type.Boolean(),
  fixedStartDate: Type.Boolean(),
  timeInterval: Type.String(),
  autoUpdate: Nullable(Type.Integer()),
  lastAutoUpdate: Nullable(Timestamp),
  draft: Type.Boolean(),
  disabledExport: Nullable(Type.Boolean()),
  dashboardOrder: Nullable(Type.Integer()),
  visualization: Ref(ChartVisualization),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  ChartDatasetConfigs: Type.Array(Ref(ChartDatasetConfig)),
}, { $id: 'Chart' });

/** Keys of Chartbrew's chart answer that Plotline does not keep or computes elsewhere. */
const CHARTBREW_CHART_KEYS = [
  'chartSize', 'snapshotToken', 'Chartshares', 'Alerts', 'SharePolicies', 'Project', 'isTimeseries',
  'dateFormat', 'cacheStatus', 'variantHash', 'stale', 'showBranding',
];

/**
 * `id`, `project_id` (from the path), `chartData`, `chartDataUpdated`, `lastError`, `lastAutoUpdate` and
 * `ChartDatasetConfigs` are server-owned: read-only keys of the answer, ignored in a body.
 */
export const CreateChart = WriteBody({ name: ChartName, type: ChartType, ...chartFields, ...visualizationField }, { $id: 'CreateChart', answer: Chart, ignored: CHARTBREW_CHART_KEYS });
export const UpdateChart = WriteBody({ name: Opt(ChartName), type: Opt(ChartType), ...chartFields, ...visualizationField }, { $id: 'UpdateChart', answer: Chart, ignored: CHARTBREW_CHART_KEYS });
export const QuickCreateChart = WriteBody({
  name: ChartName,
  type: ChartType,
  ...chartFields,
  ...visualizationField,
  chartDatasetConfigs: Opt(Type.Array(Ref(CreateChartDatasetConfig), { maxItems: 50 })),
}, { $id: 'QuickCreateChart', answer: Chart, ignored: CHARTBREW_CHART_KEYS });

/** A chart with its data computed by a run, and the variables that run left without a value. */
export const ChartRunAnswer = Type.Object({
  ...Chart.properties,
  variablesWithoutValue: Type.Array(Type.String(), {
    description: "Bound variables of the chart's datasets that this run left without a value (bound as NULL), sorted; empty when nothing ran (`noSource`)",
  }),
}, { $id: 'ChartRunAnswer' });

export const ChartListParams = Type.Object({ project_id: Id });
export const ChartParams = Type.Object({ project_id: Id, id: Id });
export const CdcParams = Type.Object({ project_id: Id, id: Id, cdc_id: Type.String({ format: 'uuid' }) });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const CHART_COMPONENTS = [...VISUALIZATION_COMPONENTS, CreateChartDatasetConfig, UpdateChartDatasetConfig, ChartDatasetConfig, CreateChart, UpdateChart, QuickCreateChart, PreviewChart, ChartPreview, Chart, ChartRunAnswer];
