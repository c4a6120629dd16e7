import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseQueryBool, QueryBool } from '../../platform/http-schemas.js';
import { parseFilters } from '../data/index.js';
import { ChartSchema } from '../dashboards/index.js';
import { RunPage, RunPageQuery } from './refreshes-schemas.js';
import type { RefreshService } from './refreshes-service.js';

// A chart run from the editor or a client: a manual refresh when it may save its data.
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

export const refreshRoutes: FastifyPluginAsyncTypebox<{ refreshes: RefreshService }> = async (app, { refreshes }) => {
  const tags = ['runs'];

  app.post(
    '/project/:project_id/chart/:id/query',
    {
      schema: {
        tags: ['charts'],
        summary: 'Run the chart: compute chartData on the server (saved unless runtime filters or variables are given)',
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: QueryString,
        body: QueryBody,
        response: { 200: ChartSchema },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const q = request.query;
      return refreshes.queryChart(actorOf(request), request.params.project_id, request.params.id, {
        getCache: parseQueryBool(q.getCache),
        noSource: parseQueryBool(q.noSource) || parseQueryBool(q.no_source),
        filters: parseFilters(body.filters, 'body.filters'),
        variables: body.variables,
      });
    },
  );

  app.get(
    '/project/:id/runs',
    {
      schema: {
        tags,
        summary: "The dashboard's refreshes (manual, scheduled, auto-update), newest first",
        params: Type.Object({ id: Id }),
        querystring: RunPageQuery,
        response: { 200: RunPage },
      },
    },
    async (request) => refreshes.listProjectRuns(actorOf(request), request.params.id, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
  );

  app.get(
    '/project/:project_id/chart/:id/runs',
    {
      schema: {
        tags,
        summary: "The refreshes a chart took part in, newest first, with that chart's entry",
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: RunPageQuery,
        response: { 200: RunPage },
      },
    },
    async (request) =>
      refreshes.listChartRuns(actorOf(request), request.params.project_id, request.params.id, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
  );
};
