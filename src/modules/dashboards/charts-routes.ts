import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref, Removed } from '../../platform/http-schemas.js';
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
  type CreateCdcInput,
} from './charts-schemas.js';
import type { ChartsService } from './charts-service.js';

/** A dataset config as a request example: revenue per day from a dataset of orders. */
const configExample: CreateCdcInput = { dataset_id: 7, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' };

export const chartRoutes: FastifyPluginAsyncTypebox<{ charts: ChartsService }> = async (app, { charts }) => {
  const tags = ['charts'];

  app.get(
    '/project/:project_id/chart',
    { schema: { tags, operationId: 'listCharts', summary: "A dashboard's charts with their dataset configs", params: ChartListParams, response: { 200: Type.Array(Ref(Chart)) } } },
    async (request) => charts.list(actorOf(request), request.params.project_id),
  );

  app.post(
    '/project/:project_id/chart',
    {
      schema: {
        tags,
        operationId: 'createChart',
        summary: 'Create a chart (chartData is server-owned)',
        params: ChartListParams,
        body: Ref(CreateChart, { examples: [{ name: 'Revenue per day', type: 'line', timeInterval: 'day', includeZeros: true }] }),
        response: { 200: Ref(Chart) },
      },
    },
    async (request) => charts.create(actorOf(request), request.params.project_id, request.body),
  );

  app.post(
    '/project/:project_id/chart/quick-create',
    {
      schema: {
        tags,
        operationId: 'quickCreateChart',
        summary: 'Create a chart with its chartDatasetConfigs in one transaction',
        params: ChartListParams,
        body: Ref(QuickCreateChart, {
          examples: [{ name: 'Revenue per day', type: 'line', timeInterval: 'day', includeZeros: true, layout: { lg: [0, 0, 6, 2] }, chartDatasetConfigs: [configExample] }],
        }),
        response: { 200: Ref(Chart) },
      },
    },
    async (request) => charts.quickCreate(actorOf(request), request.params.project_id, request.body),
  );

  app.get(
    '/project/:project_id/chart/:id',
    { schema: { tags, operationId: 'getChart', summary: 'A chart with its dataset configs', params: ChartParams, response: { 200: Ref(Chart) } } },
    async (request) => charts.get(actorOf(request), request.params.project_id, request.params.id),
  );

  app.put(
    '/project/:project_id/chart/:id',
    {
      schema: {
        tags,
        operationId: 'updateChart',
        summary: 'Update a chart (any subset of fields)',
        params: ChartParams,
        body: Ref(UpdateChart, { examples: [{ name: 'Revenue', type: 'bar', layout: { lg: [6, 0, 6, 2] } }] }),
        response: { 200: Ref(Chart) },
      },
    },
    async (request) => charts.update(actorOf(request), request.params.project_id, request.params.id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id',
    { schema: { tags, operationId: 'deleteChart', summary: 'Delete a chart, its configs and share policies', params: ChartParams, response: { 200: Ref(Deleted) } } },
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
        operationId: 'createChartDatasetConfig',
        summary: 'Bind a dataset of the team to the chart',
        params: ChartParams,
        body: Ref(CreateChartDatasetConfig, { examples: [configExample] }),
        response: { 200: Ref(ChartDatasetConfig) },
      },
    },
    async (request) => charts.createConfig(actorOf(request), request.params.project_id, request.params.id, request.body),
  );

  app.put(
    '/project/:project_id/chart/:id/chart-dataset-config/:cdc_id',
    {
      schema: {
        tags,
        operationId: 'updateChartDatasetConfig',
        summary: 'Update a chart dataset config (any subset of fields)',
        params: CdcParams,
        body: Ref(UpdateChartDatasetConfig, { examples: [{ yAxisOperation: 'avg', formula: '€{val}', datasetColor: '#4E79A7' }] }),
        response: { 200: Ref(ChartDatasetConfig) },
      },
    },
    async (request) =>
      charts.updateConfig(actorOf(request), request.params.project_id, request.params.id, request.params.cdc_id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id/chart-dataset-config/:cdc_id',
    { schema: { tags, operationId: 'deleteChartDatasetConfig', summary: 'Delete a chart dataset config', params: CdcParams, response: { 200: Ref(Removed) } } },
    async (request) => {
      await charts.deleteConfig(actorOf(request), request.params.project_id, request.params.id, request.params.cdc_id);
      return { removed: true };
    },
  );
};
