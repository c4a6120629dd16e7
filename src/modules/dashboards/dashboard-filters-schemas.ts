import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { CONDITION_OPERATORS, DATE_PRESETS } from '../../engine/index.js';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { RuntimeVariables } from '../data/index.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { Chart } from './charts-schemas.js';

/*
 * Dashboard filters: what is stored (a configuration of one of three kinds), what shared reports
 * receive of it, and the bodies and answers of the runs with a runtime filter state.
 */

const Opt = Type.Optional;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The types a variable's value is parsed and bound as (the same list as variable bindings'). */
export const VARIABLE_TYPES = ['string', 'number', 'date', 'boolean', 'string[]', 'number[]', 'date[]', 'boolean[]'] as const;

/** Filter ids are UUIDs, answered in lower case. */
export const FilterId = Type.String({ format: 'uuid', description: 'A UUID' });

const ClientId = Type.String({ maxLength: 200, description: "The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else" });
const Label = Type.String({ maxLength: 200, description: 'What the filter is called on the dashboard' });
const ChartIds = Type.Array(Id, { maxItems: 500, description: 'Chart ids of this dashboard the filter applies to; absent: every chart' });
const RangeBound = Nullable(
  Type.String({
    maxLength: 40,
    pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:?\\d{2})?)?$',
    description: 'An ISO 8601 date (a whole day in the dashboard time zone) or date-time',
  }),
);
const FieldPath = Type.String({ minLength: 1, maxLength: 1000, description: 'A field path of the rows, e.g. `country` or `root[].country`' });
const ValuesFrom = Type.Object(
  { datasetId: Id, field: FieldPath },
  { additionalProperties: false, description: "Where the dropdown's values come from: a dataset of the team and one of its fields" },
);
/** On shared reports: the field only; dataset ids stay private. */
const PublicValuesFrom = Type.Object({ field: FieldPath }, { additionalProperties: false, description: 'The dropdown offers distinct values of this field' });
const VariableName = Type.String({ pattern: '^[A-Za-z_][\\w.-]{0,99}$', description: 'A variable of the datasets, as written between {{ }}' });

const dateProperties = {
  id: Opt(ClientId),
  type: Type.Literal('date'),
  preset: Opt(Type.Enum([...DATE_PRESETS], { description: 'Resolved on the server in the dashboard time zone; custom (or none) uses startDate and/or endDate' })),
  startDate: Opt(RangeBound),
  endDate: Opt(RangeBound),
  charts: Opt(ChartIds),
  label: Opt(Label),
};

const fieldProperties = {
  id: Opt(ClientId),
  type: Type.Literal('field'),
  field: FieldPath,
  operator: Type.Enum([...CONDITION_OPERATORS]),
  value: Opt(Type.Unknown({ description: 'The value compared with; the viewer changes it' })),
  charts: Opt(ChartIds),
  label: Opt(Label),
};

const variableProperties = {
  id: Opt(ClientId),
  type: Type.Literal('variable'),
  variable: VariableName,
  value: Opt(Type.Unknown({ description: 'The value given to the variable' })),
  dataType: Type.Enum([...VARIABLE_TYPES]),
  label: Opt(Label),
  allowValueChange: Opt(Type.Boolean({ description: 'Whether viewers of a shared report may change the value (true when left out)' })),
};

export const DateFilterConfiguration = Type.Object(dateProperties, { $id: 'DateFilterConfiguration', additionalProperties: false });
export const FieldFilterConfiguration = Type.Object({ ...fieldProperties, valuesFrom: Opt(ValuesFrom) }, { $id: 'FieldFilterConfiguration', additionalProperties: false });
export const VariableFilterConfiguration = Type.Object({ ...variableProperties, valuesFrom: Opt(ValuesFrom) }, { $id: 'VariableFilterConfiguration', additionalProperties: false });

/**
 * One of the three kinds, told apart by `type`. Validated with a discriminator (the app's Ajv has
 * it on), so a bad field is named inside the kind it belongs to (`body.configuration.preset`).
 */
function discriminated<T extends TObject[]>(id: string, kinds: [...T], description: string) {
  return Type.Unsafe<Static<T[number]>>({
    $id: id,
    type: 'object',
    oneOf: kinds.map((kind) => Ref(kind)),
    discriminator: { propertyName: 'type' },
    description,
  });
}

export const DashboardFilterConfiguration = discriminated(
  'DashboardFilterConfiguration',
  [DateFilterConfiguration, FieldFilterConfiguration, VariableFilterConfiguration],
  'A date range (preset or dates), a condition on a field, or a value for a variable',
);
export type FilterConfiguration = Static<typeof DashboardFilterConfiguration>;
export type DateConfiguration = Static<typeof DateFilterConfiguration>;

export const DashboardFilter = Type.Object(
  {
    id: FilterId,
    project_id: Type.Integer(),
    configuration: Ref(DashboardFilterConfiguration),
    onReport: Type.Boolean({ description: 'Shown on shared reports, where viewers may change its value' }),
    position: Type.Integer({ description: 'Order on the dashboard' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'DashboardFilter' },
);
export type DashboardFilterView = Static<typeof DashboardFilter>;

/** The answer's other keys (`project_id`, `position`, timestamps) are read-only: accepted in a body and ignored. */
export const CreateDashboardFilter = WriteBody(
  {
    id: Opt(FilterId),
    configuration: Ref(DashboardFilterConfiguration),
    onReport: Opt(Type.Boolean({ description: 'Shown on shared reports (false when left out)' })),
  },
  { $id: 'CreateDashboardFilter', answer: DashboardFilter },
);
export type CreateFilterInput = Static<typeof CreateDashboardFilter>;

export const UpdateDashboardFilter = WriteBody(
  { configuration: Opt(Ref(DashboardFilterConfiguration)), onReport: Opt(Type.Boolean()) },
  { $id: 'UpdateDashboardFilter', answer: DashboardFilter },
);
export type UpdateFilterInput = Static<typeof UpdateDashboardFilter>;

export const OrderDashboardFilters = WriteBody(
  { filterIds: Type.Array(FilterId, { maxItems: 1000, description: 'Every filter of the dashboard once, in the new order' }) },
  { $id: 'OrderDashboardFilters' },
);

export const FilterParams = Type.Object({ id: Id, fid: FilterId });

// ---------- shared reports ----------

const PublicFieldFilterConfiguration = Type.Object({ ...fieldProperties, valuesFrom: Opt(PublicValuesFrom) }, { $id: 'PublicFieldFilterConfiguration', additionalProperties: false });
const PublicVariableFilterConfiguration = Type.Object(
  { ...variableProperties, valuesFrom: Opt(PublicValuesFrom) },
  { $id: 'PublicVariableFilterConfiguration', additionalProperties: false },
);
const PublicFilterConfiguration = discriminated(
  'PublicDashboardFilterConfiguration',
  [DateFilterConfiguration, PublicFieldFilterConfiguration, PublicVariableFilterConfiguration],
  'A filter as a shared report shows it: no dataset ids',
);
export type PublicFilterConfigurationView = Static<typeof PublicFilterConfiguration>;

export const PublicDashboardFilter = Type.Object(
  {
    id: FilterId,
    configuration: Ref(PublicFilterConfiguration),
    position: Type.Integer(),
    resolved: Opt(
      Type.Object(
        { startDate: Nullable(Timestamp), endDate: Nullable(Timestamp) },
        { description: "A date filter's range as the server applies it now, in the dashboard time zone (its preset resolved)" },
      ),
    ),
  },
  { $id: 'PublicDashboardFilter' },
);
export type PublicDashboardFilterView = Static<typeof PublicDashboardFilter>;

// ---------- runs with a runtime filter state ----------

const FilterState = Type.Array(Type.Record(Type.String(), Type.Unknown()), {
  maxItems: 100,
  description:
    'Field filters `{type?: "field", field, operator?, value, id?, charts?}`, date filters `{type: "date", startDate?, endDate?, preset?, id?, charts?}` and ' +
    'variable filters `{type: "variable", variable, value, id?}`; client-only types (pagination, sort, …) are ignored. On shared reports, only states ' +
    "of the report's filters (by id), and only their values",
});
const ShareToken = Type.String({ maxLength: 4096, description: 'The share token, when it is not in the query string' });
const SharePassword = Type.String({ maxLength: 1024, description: 'The dashboard password, when it is not in the "pass" header' });
const ChartIdList = Type.Array(Id, { maxItems: 500, description: 'Only these charts of the dashboard; absent: every chart' });

export const FilterChartRun = Type.Object(
  { filters: FilterState, variables: Opt(RuntimeVariables), token: Opt(ShareToken), password: Opt(SharePassword) },
  { $id: 'FilterChartRun' },
);
export const FilterDashboardRun = Type.Object({ filters: FilterState, variables: Opt(RuntimeVariables), chartIds: Opt(ChartIdList) }, { $id: 'FilterDashboardRun' });
export const SharedFilterDashboardRun = Type.Object(
  { filters: FilterState, variables: Opt(RuntimeVariables), chartIds: Opt(ChartIdList), token: Opt(ShareToken), password: Opt(SharePassword) },
  { $id: 'SharedFilterDashboardRun' },
);

const CacheStatus = Type.Enum(['hit', 'miss', 'stale', 'bypass'], { description: 'Whether the answer came from the result cache' });
/** What a run with a filter state adds to the chart it answers (members' charts here, shared ones in sharing-public-schemas.ts). */
export const FILTER_RUN_PROPERTIES = {
  variablesWithoutValue: Type.Array(Type.String(), { description: 'Variables of the datasets that had no value in this run' }),
  filteredBy: Type.Array(Type.String(), {
    description:
      "Ids (as sent) of the state's filters that narrow this chart: a field filter reaches a chart computed from a dataset, a date filter one with a date field, each unless its `charts` leave it out; a variable filter one whose dataset's requests name the variable. A filter without a value narrows nothing; one sent without an id is not listed",
  }),
  cacheStatus: Opt(CacheStatus),
};

export const FilteredChart = Type.Object({ ...Chart.properties, ...FILTER_RUN_PROPERTIES }, { $id: 'FilteredChart' });
export type FilteredChartView = Static<typeof FilteredChart>;

export const ChartRunFailure = Type.Object(
  { id: Type.Integer(), error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { $id: 'ChartRunFailure', description: 'A chart that could not be computed; the other charts still answer' },
);
export type ChartRunFailureView = Static<typeof ChartRunFailure>;

export const FilteredCharts = Type.Object({ charts: Type.Array(Type.Union([Ref(FilteredChart), Ref(ChartRunFailure)])) }, { $id: 'FilteredCharts' });

// ---------- which charts a filter state would reach, before any value ----------

/** The run's state; here a filter may lack its value (what reaches does not depend on it). */
export const FilterReachRequest = Type.Object({ filters: FilterState, variables: Opt(RuntimeVariables) }, { $id: 'FilterReachRequest' });

const ReachIds = (description: string) => Type.Array(Type.String(), { description });
export const FilterReach = Type.Object(
  {
    charts: Type.Array(
      Type.Object({
        id: Type.Integer(),
        reachedBy: ReachIds('Ids (as sent) of the filters that would narrow this chart once they have a value, by the rule of `filteredBy`'),
        notReachedBy: ReachIds('Ids (as sent) of the other filters: set, they would leave this chart as it is'),
      }),
      { description: 'Every chart of the dashboard but markdown ones, in dashboard order' },
    ),
  },
  { $id: 'FilterReach' },
);
export type FilterReachView = Static<typeof FilterReach>;

/** Published under `components.schemas` (src/openapi-components.ts). */
export const DASHBOARD_FILTER_COMPONENTS = [
  DateFilterConfiguration,
  FieldFilterConfiguration,
  VariableFilterConfiguration,
  DashboardFilterConfiguration,
  DashboardFilter,
  CreateDashboardFilter,
  UpdateDashboardFilter,
  OrderDashboardFilters,
  PublicFieldFilterConfiguration,
  PublicVariableFilterConfiguration,
  PublicFilterConfiguration,
  PublicDashboardFilter,
  FilterChartRun,
  FilterDashboardRun,
  SharedFilterDashboardRun,
  FilteredChart,
  ChartRunFailure,
  FilteredCharts,
  FilterReachRequest,
  FilterReach,
];
