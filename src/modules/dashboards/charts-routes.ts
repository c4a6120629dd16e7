import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Removed } from '../../platform/http-schemas.js';
import {
  CdcParams,
  Chart,
  ChartDatasetConfig,
  ChartListParams,
  ChartParams,
  CreateChart,
  CreateChartDatasetConfig,
  QuickCreateChart,
  UpdateChart,
  UpdateChartDatasetConfig,
} from './charts-schemas.js';
import type { ChartsService } from './charts-service.js';

export const chartRoutes: FastifyPluginAsyncTypebox<{ charts: ChartsService }> = async (app, { charts }) => {
  const tags = ['charts'];

  app.get(
    '/project/:project_id/chart',
    { schema: { tags, summary: "A dashboard's charts with their dataset configs", params: ChartListParams, response: { 200: Type.Array(Chart) } } },
    async (request) => charts.list(actorOf(request), request.params.project_id),
  );

  app.post(
    '/project/:project_id/chart',
    { schema: { tags, summary: 'Create a chart (chartData is server-owned)', params: ChartListParams, body: CreateChart, response: { 200: Chart } } },
    async (request) => charts.create(actorOf(request), request.params.project_id, request.body),
  );

  app.post(
    '/project/:project_id/chart/quick-create',
    {
      schema: {
        tags,
        summary: 'Create a chart with its chartDatasetConfigs in one transaction',
        params: ChartListParams,
        body: QuickCreateChart,
        response: { 200: Chart },
      },
    },
    async (request) => charts.quickCreate(actorOf(request), request.params.project_id, request.body),
  );

  app.get(
    '/project/:project_id/chart/:id',
    { schema: { tags, summary: 'A chart with its dataset configs', params: ChartParams, response: { 200: Chart } } },
    async (request) => charts.get(actorOf(request), request.params.project_id, request.params.id),
  );

  app.put(
    '/project/:project_id/chart/:id',
    { schema: { tags, summary: 'Update a chart (any subset of fields)', params: ChartParams, body: UpdateChart, response: { 200: Chart } } },
    async (request) => charts.update(actorOf(request), request.params.project_id, request.params.id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id',
    { schema: { tags, summary: 'Delete a chart, its configs and share policies', params: ChartParams, response: { 200: Deleted } } },
    async (request) => {
      await charts.delete(actorOf(request), request.params.project_id, request.params.id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:project_id/chart/:id/chart-dataset-config',
    {
      schema: {
        tags,
        summary: 'Bind a dataset of the team to the chart',
        params: ChartParams,
        body: CreateChartDatasetConfig,
        response: { 200: ChartDatasetConfig },
      },
    },
    async (request) => charts.createConfig(actorOf(request), request.params.project_id, request.params.id, request.body),
  );

  app.put(
    '/project/:project_id/chart/:id/chart-dataset-config/:cdc_id',
    {
      schema: {
        tags,
        summary: 'Update a chart dataset config (any subset of fields)',
        params: CdcParams,
        body: UpdateChartDatasetConfig,
        response: { 200: ChartDatasetConfig },
      },
    },
    async (request) =>
      charts.updateConfig(actorOf(request), request.params.project_id, request.params.id, request.params.cdc_id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id/chart-dataset-config/:cdc_id',
    { schema: { tags, summary: 'Delete a chart dataset config', params: CdcParams, response: { 200: Removed } } },
    async (request) => {
      await charts.deleteConfig(actorOf(request), request.params.project_id, request.params.id, request.params.cdc_id);
      return { removed: true };
    },
  );
};
