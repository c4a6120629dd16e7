import { Type } from 'typebox';
import { QueryBool } from '../../platform/http-schemas.js';

export const RunChartBody = Type.Union([
  Type.Object({
    filters: Type.Optional(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
  Type.Null(),
], { $id: 'RunChart' });

export const RunChartQuery = Type.Object({
  getCache: Type.Optional(QueryBool),
  noSource: Type.Optional(QueryBool),
  // Spellings some clients send for the same switches.
  no_source: Type.Optional(QueryBool),
  skip_parsing: Type.Optional(QueryBool),
});

/** Published under `components.schemas` (src/openapi-components.ts). */
export const CHART_RUN_COMPONENTS = [RunChartBody];
