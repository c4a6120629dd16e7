import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseQueryBool, QueryBool } from '../../platform/http-schemas.js';
import { Chart } from './charts-schemas.js';
import { parseFilters } from '../data/index.js';
import type { ChartRunService } from './chart-runs-service.js';

const QueryBody = Type.Union([
  Type.Object({
    filters: Type.Optional(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
  Type.Null(),
]);

const QueryString = Type.Object({
  getCache: Type.Optional(QueryBool),
  noSource: Type.Optional(QueryBool),
  // Spellings some clients send for the same switches.
  no_source: Type.Optional(QueryBool),
  skip_parsing: Type.Optional(QueryBool),
});

export const chartRunRoutes: FastifyPluginAsyncTypebox<{ chartRuns: ChartRunService }> = async (app, { chartRuns }) => {
  app.post(
    '/project/:project_id/chart/:id/query',
    {
      schema: {
        tags: ['charts'],
        summary: 'Run the chart: compute chartData on the server (saved unless runtime filters or variables are given)',
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: QueryString,
        body: QueryBody,
        response: { 200: Chart },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const q = request.query;
      return chartRuns.refresh(actorOf(request), request.params.project_id, request.params.id, {
        getCache: parseQueryBool(q.getCache),
        noSource: parseQueryBool(q.noSource) || parseQueryBool(q.no_source),
        filters: parseFilters(body.filters, 'body.filters'),
        variables: body.variables,
      });
    },
  );
};
