import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseQueryBool, Ref } from '../../platform/http-schemas.js';
import { RunChartBody, RunChartQuery } from './chart-runs-schemas.js';
import { Chart } from './charts-schemas.js';
import { parseFilters } from '../data/index.js';
import type { ChartRunService } from './chart-runs-service.js';

export const chartRunRoutes: FastifyPluginAsyncTypebox<{ chartRuns: ChartRunService }> = async (app, { chartRuns }) => {
  app.post(
    '/project/:project_id/chart/:id/query',
    {
      schema: {
        tags: ['charts'],
        operationId: 'runChart',
        summary: 'Run the chart: compute chartData on the server (saved unless runtime filters or variables are given)',
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: RunChartQuery,
        body: Ref(RunChartBody, { examples: [{ variables: { status: 'paid' }, filters: [{ field: 'country', operator: 'is', value: 'FR' }] }] }),
        response: { 200: Ref(Chart) },
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
