import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref } from '../../platform/http-schemas.js';
import { Chart } from './charts-schemas.js';
import {
  ChartTemplate,
  ChartTemplateListParams,
  ChartTemplateListQuery,
  ChartTemplateParams,
  SaveChartTemplate,
  SaveTemplateParams,
  UseChartTemplate,
  UseTemplateParams,
} from './chart-templates-schemas.js';
import type { ChartTemplatesService } from './chart-templates-service.js';

export const chartTemplateRoutes: FastifyPluginAsyncTypebox<{ templates: ChartTemplatesService }> = async (app, { templates }) => {
  const tags = ['chart templates'];

  app.get(
    '/team/:team_id/chart-templates',
    {
      schema: {
        tags,
        operationId: 'listChartTemplates',
        summary: "The team's chart templates the caller may see (saved from dashboards they may read), newest first",
        params: ChartTemplateListParams,
        querystring: ChartTemplateListQuery,
        response: { 200: Type.Array(Ref(ChartTemplate)) },
      },
    },
    async (request) => templates.list(actorOf(request), request.params.team_id, request.query.source),
  );

  app.get(
    '/team/:team_id/chart-templates/:template_id',
    { schema: { tags, operationId: 'getChartTemplate', summary: 'A chart template', params: ChartTemplateParams, response: { 200: Ref(ChartTemplate) } } },
    async (request) => templates.get(actorOf(request), request.params.team_id, request.params.template_id),
  );

  app.delete(
    '/team/:team_id/chart-templates/:template_id',
    {
      schema: {
        tags,
        operationId: 'deleteChartTemplate',
        summary: 'Delete a chart template (who may write charts on the dashboard it was saved from)',
        params: ChartTemplateParams,
        response: { 200: Ref(Deleted) },
      },
    },
    async (request) => {
      await templates.delete(actorOf(request), request.params.team_id, request.params.template_id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:id/template',
    {
      schema: {
        tags,
        operationId: 'saveChartTemplate',
        summary: "Save a chart of the dashboard as a template of its team: its fields, dataset configs and visualization",
        params: SaveTemplateParams,
        body: Ref(SaveChartTemplate, { examples: [{ chart_id: 12, name: 'Revenue per month', description: 'Paid orders, summed by month' }] }),
        response: { 200: Ref(ChartTemplate) },
      },
    },
    async (request) => templates.save(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/project/:id/template/:template',
    {
      schema: {
        tags,
        operationId: 'createChartFromTemplate',
        summary: 'Make charts on the dashboard from a chart or dashboard template (`custom` with body.template_id, or the template id in the path); answers the charts made',
        params: UseTemplateParams,
        body: Ref(UseChartTemplate, { examples: [{ template_id: 3 }, { template_id: 4, charts: [0, 2] }] }),
        response: { 200: Type.Array(Ref(Chart)) },
      },
    },
    async (request) => templates.use(actorOf(request), request.params.id, request.params.template, request.body),
  );
};
