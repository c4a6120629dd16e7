import { Type } from 'typebox';
import { VALUES_DEFAULT_LIMIT, VALUES_MAX_LIMIT } from './dataset-values-service.js';

export const ValuesQuery = Type.Object({
  field: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: 'A field of the rows, as charts name them: `root[].country`, `country`, `root.items[].sku`',
    examples: ['root[].country'],
  }),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Only values whose text contains this, ignoring case', examples: ['fr'] })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: VALUES_MAX_LIMIT, default: VALUES_DEFAULT_LIMIT, description: `At most this many values (default ${VALUES_DEFAULT_LIMIT}, at most ${VALUES_MAX_LIMIT})` }),
  ),
});

export const DatasetValuesResponse = Type.Object(
  {
    field: Type.String({ description: 'The field as asked' }),
    values: Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
      description: 'Distinct values, sorted: false before true, numbers ascending, then text by code points. Nulls, empty text, objects and arrays are left out',
    }),
    truncated: Type.Boolean({ description: 'More values exist than `limit` (the first ones are listed), or the run was cut by a row limit' }),
    missing: Type.Boolean({ description: "The dataset's result has no such field; `values` is then empty" }),
  },
  {
    $id: 'DatasetValues',
    description: 'The values a filter dropdown offers for one field of a dataset',
    examples: [{ field: 'root[].country', values: ['DE', 'FR', 'US'], truncated: false, missing: false }],
  },
);

/** Published under `components.schemas` (src/openapi-components.ts). */
export const DATASET_VALUES_COMPONENTS = [DatasetValuesResponse];
