import { Type } from 'typebox';
import { QueryBool, Ref, Timestamp } from '../../platform/http-schemas.js';
import { RuntimeVariables } from '../data/index.js';

const Failure = Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]);

export const ChartRunEntry = Type.Object({
  chart_id: Type.Integer(),
  status: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  paths: Type.Array(Type.Union([Type.Literal('pushdown'), Type.Literal('stream')]), { description: 'How each dataset configuration was computed; empty when served from the cache' }),
  rowsRead: Type.Integer(),
  cacheHit: Type.Boolean(),
  durationMs: Type.Integer(),
  error: Failure,
}, { $id: 'RefreshRunChart' });

export const RefreshRun = Type.Object({
  id: Type.Integer(),
  project_id: Type.Integer(),
  chart_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Set for a single-chart refresh; null for a whole dashboard' }),
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('auto')]),
  status: Type.Union([Type.Literal('success'), Type.Literal('partial_failure'), Type.Literal('failure')]),
  startedAt: Timestamp,
  durationMs: Type.Integer(),
  error: Failure,
  charts: Type.Array(Ref(ChartRunEntry)),
}, { $id: 'RefreshRun' });

export const RunPage = Type.Object({
  runs: Type.Array(Ref(RefreshRun)),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
}, { $id: 'RefreshRunPage' });

export const RunPageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

/** `POST /project/{pid}/chart/{id}/query`: runtime filters and variables (either makes the run an answer only, never saved). */
export const RunChartBody = Type.Union([
  Type.Object({
    filters: Type.Optional(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
    variables: Type.Optional(RuntimeVariables),
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
export const REFRESH_COMPONENTS = [ChartRunEntry, RefreshRun, RunPage, RunChartBody];
