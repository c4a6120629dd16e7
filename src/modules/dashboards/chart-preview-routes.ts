import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/auth.js';
import { Ref } from '../../platform/http-schemas.js';
import { ChartListParams, ChartPreview, PreviewChart } from './charts-schemas.js';
import { parseFilters } from '../data/index.js';
import type { ChartPreviewService } from './chart-preview.js';

export const chartPreviewRoutes: FastifyPluginAsyncTypebox<{ previews: ChartPreviewService }> = async (app, { previews }) => {
  app.post(
    '/project/:project_id/chart/preview',
    {
      schema: {
        tags: ['charts'],
        operationId: 'previewChart',
        summary: 'Compute the data of an unsaved chart (the quick-create body) without writing anything',
        description:
          'Takes the body of `POST /project/{project_id}/chart/quick-create` (name optional, at least one chart dataset config) plus the ' +
          'runtime `variables` and `filters` of a chart run, and answers the chartData a run of that chart would compute once saved. ' +
          'Nothing is stored, cached or recorded. Needs the rights to run and to write charts on the dashboard; every `dataset_id` must ' +
          'be a dataset of the team that the caller may use (otherwise 404). Row limits apply as in chart runs (`truncated`).',
        params: ChartListParams,
        body: Ref(PreviewChart, {
          examples: [
            {
              name: 'Revenue per day',
              type: 'line',
              timeInterval: 'day',
              includeZeros: true,
              chartDatasetConfigs: [{ dataset_id: 7, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' }],
              variables: { status: 'paid' },
            },
          ],
        }),
        response: { 200: Ref(ChartPreview) },
      },
    },
    async (request) => previews.preview(actorOf(request), request.params.project_id, request.body, parseFilters(request.body.filters, 'body.filters')),
  );
};
