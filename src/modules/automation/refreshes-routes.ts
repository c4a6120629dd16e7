import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseQueryBool, Ref } from '../../platform/http-schemas.js';
import { parseFilters, parseRuntimeVariables } from '../data/index.js';
import { ChartRunAnswer } from '../dashboards/index.js';
import { RefreshRun, RunChartBody, RunChartQuery, RunPage, RunPageQuery } from './refreshes-schemas.js';
import type { RefreshService } from './refreshes-service.js';

export const refreshRoutes: FastifyPluginAsyncTypebox<{ refreshes: RefreshService }> = async (app, { refreshes }) => {
  const tags = ['runs'];

  app.post(
    '/project/:project_id/chart/:id/query',
    {
      schema: {
        tags: ['charts'],
        operationId: 'runChart',
        summary: 'Run the chart: compute chartData on the server (saved, recorded as a manual refresh, unless runtime filters or variables are given)',
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: RunChartQuery,
        body: Ref(RunChartBody, { examples: [{ variables: { status: 'paid' }, filters: [{ field: 'country', operator: 'is', value: 'FR' }] }] }),
        response: { 200: Ref(ChartRunAnswer) },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const q = request.query;
      return refreshes.queryChart(actorOf(request), request.params.project_id, request.params.id, {
        getCache: parseQueryBool(q.getCache),
        noSource: parseQueryBool(q.noSource) || parseQueryBool(q.no_source),
        filters: parseFilters(body.filters, 'body.filters'),
        variables: parseRuntimeVariables(body.variables),
      });
    },
  );

  app.post(
    '/project/:id/refresh',
    {
      schema: {
        tags,
        operationId: 'refreshDashboard',
        summary: "Refresh every chart of the dashboard now (saved), a few at a time; answers the run with each chart's outcome (no body)",
        params: Type.Object({ id: Id }),
        response: { 200: Ref(RefreshRun) },
      },
    },
    async (request) => refreshes.refreshProject(actorOf(request), request.params.id),
  );

  app.get(
    '/project/:id/runs',
    {
      schema: {
        tags,
        // Path-like operation ids, kept as generated clients already call them.
        operationId: 'getProjectByIdRuns',
        summary: "The dashboard's refreshes (manual, scheduled, auto-update), newest first",
        params: Type.Object({ id: Id }),
        querystring: RunPageQuery,
        response: { 200: Ref(RunPage) },
      },
    },
    async (request) => refreshes.listProjectRuns(actorOf(request), request.params.id, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
  );

  app.get(
    '/project/:project_id/chart/:id/runs',
    {
      schema: {
        tags,
        operationId: 'getProjectByProjectIdChartByIdRuns',
        summary: "The refreshes a chart took part in, newest first, with that chart's entry",
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: RunPageQuery,
        response: { 200: Ref(RunPage) },
      },
    },
    async (request) =>
      refreshes.listChartRuns(actorOf(request), request.params.project_id, request.params.id, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
  );
};
