import { Type, type Static, type TSchema } from 'typebox';
import { MAX_BREAKDOWN_SERIES, OPERATIONS, TIME_INTERVALS } from '../../engine/index.js';

/**
 * Chartbrew's v2 chart spec (`Chart.visualization`), as a body may send it and as answers give it.
 * Its shape follows Chartbrew's own (reference: chartbrew-server.md, section 6.1); what Plotline
 * computes from it, and what it refuses, is in chart-visualization.ts. The body schema types every
 * field Plotline reads, so a wrong one is a 400 naming its path
 * (`body.visualization.layers.0.encoding.value.aggregate`); the rest of Chartbrew's free objects
 * (style, options, settings, metadata) pass through and are kept.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = (maxLength: number) => Type.String({ maxLength });
const Opt = Type.Optional;

export const FIELD_TYPES = ['nominal', 'ordinal', 'quantitative', 'temporal', 'boolean', 'record'] as const;
export const NULL_POLICIES = ['exclude', 'preserve', 'label'] as const;
export const TRANSFORM_TYPES = ['filter', 'sort', 'limit', 'window'] as const;
export const SPEC_STATUSES = ['ready', 'draft', 'orphan'] as const;

const FieldEncoding = Type.Object(
  {
    field: Type.String({ minLength: 1, maxLength: 1000, description: 'A field path of the dataset rows (`root[].created_at`)' }),
    type: Opt(Type.Enum([...FIELD_TYPES])),
    aggregate: Opt(Type.Enum([...OPERATIONS], { description: 'How the value role aggregates each group (the dataset config\'s `yAxisOperation`)' })),
    timeUnit: Opt(Type.Enum([...TIME_INTERVALS], { description: 'Bucket of the time role (the chart\'s `timeInterval`)' })),
    title: Opt(Nullable(Str(500))),
    nullPolicy: Opt(Type.Enum([...NULL_POLICIES])),
    nullLabel: Opt(Nullable(Str(500))),
    formula: Opt(Nullable(Str(1000))),
    format: Opt(Nullable(Str(100))),
  },
  { additionalProperties: true },
);
export type FieldEncodingInput = Static<typeof FieldEncoding>;

/** A role takes one field; Chartbrew also accepts a bare field path, or a list for list roles. */
const EncodingSlot = Type.Union([FieldEncoding, Type.Array(FieldEncoding, { maxItems: 100 }), Type.Null(), Type.String({ minLength: 1, maxLength: 1000 })]);
export type EncodingSlotInput = Static<typeof EncodingSlot>;

const FilterValue = Type.Union([Str(10_000), Type.Number(), Type.Boolean(), Type.Null()]);

const Transform = Type.Object(
  {
    type: Type.Enum([...TRANSFORM_TYPES]),
    field: Opt(Type.String({ minLength: 1, maxLength: 1000 })),
    operator: Opt(Str(50)),
    value: Opt(Type.Union([FilterValue, Type.Array(FilterValue, { maxItems: 1000 })])),
    role: Opt(Str(50)),
    direction: Opt(Type.Enum(['asc', 'desc'])),
    count: Opt(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    operation: Opt(Type.Enum(['cumulativeSum'])),
  },
  { additionalProperties: true },
);
export type TransformInput = Static<typeof Transform>;

const LayerStyle = Type.Object(
  {
    color: Opt(Nullable(Str(100))),
    fill: Opt(Nullable(Type.Boolean())),
    fillColor: Opt(Nullable(Type.Union([Str(100), Type.Array(Str(100), { maxItems: 1000 })]))),
    label: Opt(Nullable(Str(500))),
    multiFill: Opt(Nullable(Type.Boolean())),
    pointRadius: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
  },
  { additionalProperties: true },
);

/** How a breakdown draws its series: the config's breakdownLimit, breakdownOther and breakdownOtherLabel. */
const SeriesOptions = Type.Object(
  {
    limit: Opt(Nullable(Type.Integer({ minimum: 1, maximum: MAX_BREAKDOWN_SERIES, description: `The largest series by total drawn (1-${MAX_BREAKDOWN_SERIES}; default ${MAX_BREAKDOWN_SERIES})` }))),
    includeOther: Opt(Type.Boolean({ description: 'The series past the limit summed into one more series (count and sum only)' })),
    otherLabel: Opt(Nullable(Str(200))),
    order: Opt(Nullable(Type.Array(Type.Unknown(), { maxItems: 1000, description: 'Accepted empty only: series are ordered by total' }))),
    hidden: Opt(Nullable(Type.Array(Type.Unknown(), { maxItems: 1000, description: 'Accepted empty only: use limit to draw fewer series' }))),
  },
  { additionalProperties: true },
);

const LayerOptions = Type.Object(
  {
    columnsOrder: Opt(Nullable(Type.Array(Str(1000), { maxItems: 1000 }))),
    excludedFields: Opt(Nullable(Type.Array(Str(1000), { maxItems: 1000 }))),
    series: Opt(SeriesOptions),
  },
  { additionalProperties: true },
);

const Layer = Type.Object(
  {
    id: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'Default: layer-<position>' })),
    bindingId: Opt(Nullable(Type.Union([Str(100), Type.Integer()], { description: 'The id of the chart dataset config the layer draws' }))),
    mark: Opt(Type.String({ minLength: 1, maxLength: 50, description: "The chart type the layer is drawn as (default: the chart's)" })),
    name: Opt(Nullable(Str(500))),
    rowPath: Opt(Nullable(Str(1000))),
    encoding: Opt(Type.Record(Type.String({ maxLength: 50 }), EncodingSlot)),
    transforms: Opt(Type.Array(Transform, { maxItems: 50 })),
    style: Opt(LayerStyle),
    options: Opt(LayerOptions),
    stack: Opt(Type.Enum(['none', 'normal', 'percent'])),
    orientation: Opt(Type.Enum(['vertical', 'horizontal'])),
    goal: Opt(Nullable(Type.Number())),
    content: Opt(Nullable(Str(100_000))),
  },
  { additionalProperties: true },
);
export type LayerInput = Static<typeof Layer>;

const DateInput = Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })]);

const Settings = Type.Object(
  {
    timeInterval: Opt(Nullable(Type.Enum([...TIME_INTERVALS]))),
    includeZeros: Opt(Nullable(Type.Boolean())),
    dataLabels: Opt(Nullable(Type.Boolean())),
    dashedLastPoint: Opt(Nullable(Type.Boolean())),
    logarithmic: Opt(Nullable(Type.Boolean())),
    maxValue: Opt(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
    minValue: Opt(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
    xLabelTicks: Opt(Nullable(Type.Enum(['default', 'half', 'third', 'fourth', 'showAll']))),
    legend: Opt(Nullable(Type.Object({ visible: Opt(Nullable(Type.Boolean())) }, { additionalProperties: true }))),
    missingValues: Opt(Nullable(Type.Object({ policy: Opt(Nullable(Type.Enum(['zero', 'preserve']))) }, { additionalProperties: true }))),
    dateWindow: Opt(
      Nullable(
        Type.Object(
          {
            start: Opt(Nullable(DateInput)),
            end: Opt(Nullable(DateInput)),
            currentEndDate: Opt(Nullable(Type.Boolean())),
            fixedStartDate: Opt(Nullable(Type.Boolean())),
          },
          { additionalProperties: true },
        ),
      ),
    ),
  },
  { additionalProperties: true },
);
export type SettingsInput = Static<typeof Settings>;

/** `PUT /project/{pid}/chart/{id}` (and the create bodies): the spec to save and compute from. */
export const Visualization = Type.Object(
  {
    version: Opt(Type.Literal(2)),
    status: Opt(Type.Enum([...SPEC_STATUSES])),
    layers: Type.Array(Layer, { maxItems: 50 }),
    settings: Opt(Settings),
    metadata: Opt(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'Visualization', description: "Chartbrew's v2 chart spec: one layer per dataset config (`bindingId`), its roles (`time` or `category`, `value`), transforms (`filter`, `sort`, `limit`, `window`) and settings. Written onto the dataset configs and the chart; what cannot be computed is a 400 naming its path" },
);
export type VisualizationInput = Static<typeof Visualization>;

/** As answered: always present, derived from the dataset configs when the chart has no saved spec. */
export const ChartVisualization = Type.Object(
  {
    version: Type.Literal(2),
    status: Type.Enum([...SPEC_STATUSES]),
    layers: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          bindingId: Nullable(Type.String()),
          mark: Type.String(),
          encoding: Type.Record(Type.String(), Type.Unknown()),
          transforms: Type.Array(Type.Record(Type.String(), Type.Unknown())),
          style: Type.Record(Type.String(), Type.Unknown()),
        },
        { additionalProperties: true },
      ),
    ),
    settings: Type.Record(Type.String(), Type.Unknown()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ChartVisualization', description: "Chartbrew's v2 chart spec of the chart, in step with its dataset configs (docs/chartbrew-web-app.md)" },
);
export type ChartVisualizationView = Static<typeof ChartVisualization>;

export const VISUALIZATION_COMPONENTS = [Visualization, ChartVisualization];
