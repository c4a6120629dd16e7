import { Type, type Static, type TSchema } from 'typebox';
import { OPERATIONS } from '../../engine/index.js';
import { MAX_LIST_LENGTH, VARIABLE_TYPES } from '../../sources/index.js';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';

/** Optional in bodies, and `null` clears the value. */
const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Str = (max = 10_000) => Type.String({ maxLength: max });
const AnyObject = Type.Object({}, { additionalProperties: true });

/**
 * Longest query or request body a data request may hold (256 KiB of text). Far above any hand-written
 * query, and it bounds what each run has to scan.
 */
const MAX_QUERY_TEXT = 262_144;
const QueryText = Type.String({ maxLength: MAX_QUERY_TEXT, description: `At most ${MAX_QUERY_TEXT} characters` });

const Operation = Type.Enum([...OPERATIONS]);
const Method = Type.Enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
export const BindingTypeSchema = Type.Enum([...VARIABLE_TYPES], {
  description: 'How values are parsed, checked and bound: a scalar, or a list of them (`string[]`, …: a JSON array, or comma-separated text)',
});
/** A default value: text, a number or a boolean; for a list type also a JSON array (stored as JSON text). */
const BindingDefault = Maybe(
  Type.Union([Str(10_000), Type.Number(), Type.Boolean(), Type.Array(Type.Union([Str(10_000), Type.Number(), Type.Boolean()]), { maxItems: MAX_LIST_LENGTH })]),
);

const ProjectIds = Type.Array(Type.Union([Id, Type.String({ pattern: '^[1-9][0-9]{0,9}$' })]), { maxItems: 1000 });

const JoinSchema = Type.Object({
  dr_id: Type.Integer({ minimum: 0 }),
  join_id: Type.Integer({ minimum: 0 }),
  dr_field: Str(500),
  join_field: Str(500),
  alias: Type.Optional(Type.Union([Str(200), Type.Null()])),
  type: Type.Optional(Type.Union([Type.Enum(['left', 'inner'], { description: 'left (default): rows without a match are kept; inner: they are dropped' }), Type.Null()])),
});
export type Join = Static<typeof JoinSchema>;

const JoinSettings = Type.Object({ joins: Type.Optional(Type.Array(JoinSchema, { maxItems: 50 })) }, { additionalProperties: true });

const Condition = Type.Object(
  {
    id: Type.Optional(Type.Union([Str(200), Type.Number()])),
    field: Type.Optional(Str(500)),
    operator: Type.Optional(Str(50)),
    value: Type.Optional(Type.Unknown()),
    displayValues: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

// Responses --------------------------------------------------------------------------------------

const NullableStr = Type.Union([Type.String(), Type.Null()]);

const VariableBindingResponse = Type.Object({
  id: Type.Integer(),
  entity_type: Type.String(),
  entity_id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  default_value: NullableStr,
  required: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'VariableBinding' });
export type VariableBindingView = Static<typeof VariableBindingResponse>;

export const DataRequestResponse = Type.Object({
  id: Type.Integer(),
  dataset_id: Type.Integer(),
  connection_id: Type.Union([Type.Integer(), Type.Null()]),
  method: NullableStr,
  route: NullableStr,
  headers: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
  body: NullableStr,
  useGlobalHeaders: Type.Boolean(),
  query: NullableStr,
  pagination: Type.Boolean(),
  items: NullableStr,
  itemsLimit: Type.Union([Type.Integer(), Type.Null()]),
  offset: NullableStr,
  paginationField: NullableStr,
  template: NullableStr,
  conditions: Type.Array(Type.Unknown()),
  configuration: AnyObject,
  variables: AnyObject,
  transform: Type.Union([AnyObject, Type.Null()]),
  Connection: Type.Union([
    Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String(), subType: NullableStr, host: Type.Optional(NullableStr) }),
    Type.Null(),
  ]),
  VariableBindings: Type.Array(Ref(VariableBindingResponse)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'DataRequest' });
/** A data request as answered: secret header values masked, its connection and bindings in. */
export type DataRequestView = Static<typeof DataRequestResponse>;

export const DatasetResponse = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  project_ids: Type.Array(Type.Integer()),
  chart_id: Type.Union([Type.Integer(), Type.Null()]),
  connection_id: Type.Union([Type.Integer(), Type.Null()]),
  main_dr_id: Type.Union([Type.Integer(), Type.Null()]),
  draft: Type.Boolean(),
  name: NullableStr,
  type: NullableStr,
  query: NullableStr,
  datasetColor: NullableStr,
  xAxis: NullableStr,
  xAxisOperation: NullableStr,
  yAxis: NullableStr,
  yAxisOperation: NullableStr,
  dateField: NullableStr,
  dateFormat: NullableStr,
  legend: NullableStr,
  conditions: Type.Array(Type.Unknown()),
  fieldsSchema: AnyObject,
  excludedFields: Type.Array(Type.String()),
  configuration: AnyObject,
  joinSettings: Type.Object({ joins: Type.Array(Type.Unknown()) }, { additionalProperties: true }),
  DataRequests: Type.Array(Ref(DataRequestResponse)),
  VariableBindings: Type.Array(Ref(VariableBindingResponse)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'Dataset' });
/** A dataset as answered, with its data requests and bindings. */
export type DatasetView = Static<typeof DatasetResponse>;

// Bodies -----------------------------------------------------------------------------------------

/** Fields a client may write on a dataset (create and update). */
const datasetWritable = {
  project_ids: Type.Optional(ProjectIds),
  name: Maybe(Str(500)),
  legend: Maybe(Str(500)),
  connection_id: Maybe(Id),
  type: Maybe(Str(100)),
  query: Maybe(QueryText),
  datasetColor: Maybe(Str(100)),
  draft: Type.Optional(Type.Boolean()),
  xAxis: Maybe(Str(500)),
  xAxisOperation: Maybe(Str(50)),
  yAxis: Maybe(Str(500)),
  yAxisOperation: Maybe(Operation),
  dateField: Maybe(Str(500)),
  dateFormat: Maybe(Str(100)),
  conditions: Maybe(Type.Array(Condition, { maxItems: 200 })),
  fieldsSchema: Maybe(AnyObject),
  excludedFields: Maybe(Type.Array(Str(500), { maxItems: 1000 })),
  configuration: Maybe(AnyObject),
  joinSettings: Maybe(JoinSettings),
  main_dr_id: Maybe(Id),
};

/**
 * Fields of Chartbrew's dataset that Plotline does not keep (its legacy per-chart settings, which
 * live on chart dataset configs here) and its associations: a Chartbrew client may send them back.
 */
const CHARTBREW_DATASET_KEYS = [
  'formula', 'averageByTotal', 'fillColor', 'fill', 'multiFill', 'pointRadius', 'patterns', 'groups', 'groupBy', 'sort',
  'columnsOrder', 'order', 'maxRecords', 'goal', 'Connection', 'Charts', 'ChartDatasetConfigs',
];

/** `team_id` comes from the path, like every other key of the answer that is not listed here. */
export const CreateDataset = WriteBody(datasetWritable, { $id: 'CreateDataset', answer: DatasetResponse, ignored: CHARTBREW_DATASET_KEYS });
export const UpdateDataset = WriteBody(datasetWritable, { $id: 'UpdateDataset', answer: DatasetResponse, ignored: CHARTBREW_DATASET_KEYS });

const HeaderSchema = Type.Object({ key: Str(500), value: Type.Union([Str(20_000), Type.Number(), Type.Boolean(), Type.Null()]) });

const Headers = Type.Union([
  Type.Array(HeaderSchema, { maxItems: 200 }),
  // Older clients send headers as an object; it is turned into [{key, value}].
  Type.Record(Type.String(), Type.Union([Str(20_000), Type.Number(), Type.Boolean(), Type.Null()])),
]);

const dataRequestWritable = {
  connection_id: Maybe(Id),
  method: Maybe(Method),
  route: Maybe(Str(20_000)),
  headers: Maybe(Headers),
  body: Maybe(QueryText),
  useGlobalHeaders: Type.Optional(Type.Boolean()),
  query: Maybe(QueryText),
  pagination: Type.Optional(Type.Boolean()),
  items: Maybe(Str(500)),
  itemsLimit: Maybe(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  offset: Maybe(Str(500)),
  paginationField: Maybe(Str(500)),
  template: Maybe(Type.Union([Type.Literal(''), Type.Enum(['custom', 'pages', 'cursor', 'url', 'stripe'])])),
  conditions: Maybe(Type.Array(Condition, { maxItems: 200 })),
  configuration: Maybe(AnyObject),
  variables: Maybe(AnyObject),
  transform: Maybe(AnyObject),
};

/** A data request answer sent back as a body: its connection, bindings, ids and timestamps are ignored. */
export const DataRequestBody = WriteBody(dataRequestWritable, { $id: 'DataRequestInput', answer: DataRequestResponse, ignored: ['Dataset'] });

export const BindingBody = WriteBody({
  name: Str(200),
  type: Type.Optional(BindingTypeSchema),
  default_value: BindingDefault,
  required: Type.Optional(Type.Boolean()),
}, { $id: 'CreateVariableBinding', answer: VariableBindingResponse });

export const BindingUpdate = WriteBody({
  name: Type.Optional(Str(200)),
  type: Type.Optional(BindingTypeSchema),
  default_value: BindingDefault,
  required: Type.Optional(Type.Boolean()),
}, { $id: 'UpdateVariableBinding', answer: VariableBindingResponse });

export const QuickCreateDataset = WriteBody({
  ...datasetWritable,
  dimension: Maybe(Str(500)),
  metric: Maybe(Str(500)),
  metricOperation: Maybe(Operation),
  joinSettings: Maybe(JoinSettings),
  dataRequests: Type.Optional(
    Type.Array(
      WriteBody({ ...dataRequestWritable, variableBindings: Type.Optional(Type.Array(Ref(BindingBody), { maxItems: 100 })) }, { answer: DataRequestResponse, ignored: ['Dataset'] }),
      { maxItems: 50 },
    ),
  ),
  main_dr_index: Type.Optional(Type.Integer({ minimum: 0 })),
  variableBindings: Type.Optional(Type.Array(Ref(BindingBody), { maxItems: 100 })),
}, { $id: 'QuickCreateDataset', answer: DatasetResponse, ignored: CHARTBREW_DATASET_KEYS });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const DATASET_COMPONENTS = [
  CreateDataset,
  UpdateDataset,
  QuickCreateDataset,
  DataRequestBody,
  BindingBody,
  BindingUpdate,
  VariableBindingResponse,
  DataRequestResponse,
  DatasetResponse,
];
