import { Type } from 'typebox';
import { QueryBool, Ref } from '../../platform/http-schemas.js';
import { BindingTypeSchema } from './datasets-schemas.js';

const Limit = Type.Integer({ minimum: 0, maximum: 10_000_000 });

/**
 * Variable values for one run, `{name: value}`; a list variable takes a JSON array. An empty
 * array is accepted as no variables (Chartbrew's client sends `[]`).
 */
export const RuntimeVariables = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown(), { maxItems: 0 })], {
  description: 'Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables',
});

const VariablesWithoutValue = Type.Array(Type.String(), {
  description: 'Bound variables that ran without a value (bound as NULL, or as each source documents), sorted by name',
});

export const RunBody = Type.Union([
  Type.Object({
    variables: Type.Optional(RuntimeVariables),
    filters: Type.Optional(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
    getCache: Type.Optional(Type.Boolean()),
    noSource: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Limit),
    offset: Type.Optional(Limit),
  }),
  Type.Null(),
], { $id: 'RunInput' });

export const DraftRunBody = Type.Object(
  {
    query: Type.String({ maxLength: 200_000, description: 'The SQL (or query text) to run instead of the saved one; it is not saved' }),
    variables: Type.Optional(RuntimeVariables),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    variableBindings: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 200 }),
          type: Type.Optional(BindingTypeSchema),
          default_value: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
        }),
        { maxItems: 100, description: "The draft's variables as the editor shows them, in place of the request's bindings of the same names (nothing saved); one without a default runs as NULL and is listed in `variablesWithoutValue`" },
      ),
    ),
  },
  { $id: 'DraftRunInput', description: 'An unsaved version of a data request, run on its connection with the same checks as a saved one' },
);

export const RunQuery = Type.Object({
  noSource: Type.Optional(QueryBool),
  getCache: Type.Optional(QueryBool),
  filters: Type.Optional(Type.String({ maxLength: 100_000 })),
  variables: Type.Optional(Type.String({ maxLength: 100_000, description: 'JSON object of variable values' })),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Limit),
});

export const RunMeta = Type.Object({
  columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() }, { additionalProperties: true })),
  rowCount: Type.Integer(),
  truncated: Type.Boolean({ description: 'True when a limit cut the result (the rows are the first ones only; the source had more)' }),
  truncatedBy: Type.Optional(
    Type.Enum(['rows', 'bytes', 'pages'], { description: 'Which limit cut it, when truncated: the row limit, the byte limit (PLOTLINE_RESULT_MAX_MB), or a source\'s page cap' }),
  ),
  rowLimit: Type.Optional(Type.Integer({ description: 'The row limit of the run, when truncated' })),
  pageLimit: Type.Optional(Type.Integer({ description: 'The page cap that stopped a paginating source, when `truncatedBy` is `pages`' })),
  byteLimit: Type.Optional(Type.Integer({ description: 'The byte limit that cut the result, when `truncatedBy` is `bytes`' })),
  durationMs: Type.Number(),
}, { $id: 'RunMeta' });

export const DatasetRun = Type.Object(
  {
    options: Type.Object({}, { additionalProperties: true }),
    data: Type.Unknown(),
    meta: Ref(RunMeta),
    cache: Type.Object({ status: Type.String(), createdAt: Type.String() }),
    variablesWithoutValue: VariablesWithoutValue,
  },
  { $id: 'DatasetRun', description: 'The dataset, its rows (joined and filtered), run metadata and cache status' },
);

export const DataRequestRun = Type.Object({
  options: Type.Object({}, { additionalProperties: true }),
  dataRequest: Type.Object({ responseData: Type.Object({ data: Type.Unknown(), configuration: Type.Unknown() }), meta: Ref(RunMeta) }),
  variablesWithoutValue: VariablesWithoutValue,
}, { $id: 'DataRequestRun' });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const DATASET_RUN_COMPONENTS = [RunBody, DraftRunBody, RunMeta, DatasetRun, DataRequestRun];
