import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref, TeamParams } from '../../platform/http-schemas.js';
import {
  CreateDashboardTemplate,
  DashboardTemplate,
  DashboardTemplateModel,
  DashboardTemplateParams,
  GenerateTemplateParams,
  UpdateDashboardTemplate,
} from './dashboard-templates-schemas.js';
import type { DashboardTemplatesService } from './dashboard-templates-service.js';

/** Chartbrew's team templates (`/team/{id}/template`): every chart of a dashboard, made again with `POST /project/{id}/template/custom`. */
export const dashboardTemplateRoutes: FastifyPluginAsyncTypebox<{ templates: DashboardTemplatesService }> = async (app, { templates }) => {
  const tags = ['dashboard templates'];

  app.get(
    '/team/:team_id/template',
    {
      schema: {
        tags,
        operationId: 'listDashboardTemplates',
        summary: "The team's dashboard templates the caller may see (saved from dashboards they may read), newest first",
        params: TeamParams,
        response: { 200: Type.Array(Ref(DashboardTemplate)) },
      },
    },
    async (request) => templates.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/template',
    {
      schema: {
        tags,
        operationId: 'createDashboardTemplate',
        summary: 'Save every chart of a dashboard of the team as a template (who may write charts on that dashboard)',
        params: TeamParams,
        body: Ref(CreateDashboardTemplate, { examples: [{ project_id: 7, name: 'Sales overview' }] }),
        response: { 200: Ref(DashboardTemplate) },
      },
    },
    async (request) => templates.create(actorOf(request), request.params.team_id, request.body),
  );

  app.get(
    '/team/:team_id/template/generate/:project_id',
    {
      schema: {
        tags,
        operationId: 'generateDashboardTemplate',
        summary: 'The model a template of this dashboard would hold; nothing is stored',
        params: GenerateTemplateParams,
        response: { 200: Ref(DashboardTemplateModel) },
      },
    },
    async (request) => templates.generate(actorOf(request), request.params.team_id, request.params.project_id),
  );

  app.get(
    '/team/:team_id/template/custom/:template_id',
    {
      schema: { tags, operationId: 'getDashboardTemplate', summary: 'A dashboard template', params: DashboardTemplateParams, response: { 200: Ref(DashboardTemplate) } },
    },
    async (request) => templates.get(actorOf(request), request.params.team_id, request.params.template_id),
  );

  app.put(
    '/team/:team_id/template/:template_id',
    {
      schema: {
        tags,
        operationId: 'updateDashboardTemplate',
        summary: 'Rename or describe a dashboard template (what it holds stays as saved)',
        params: DashboardTemplateParams,
        body: Ref(UpdateDashboardTemplate, { examples: [{ name: 'Sales overview (2027)' }] }),
        response: { 200: Ref(DashboardTemplate) },
      },
    },
    async (request) => templates.update(actorOf(request), request.params.team_id, request.params.template_id, request.body),
  );

  app.delete(
    '/team/:team_id/template/:template_id',
    {
      schema: { tags, operationId: 'deleteDashboardTemplate', summary: 'Delete a dashboard template', params: DashboardTemplateParams, response: { 200: Ref(Deleted) } },
    },
    async (request) => {
      await templates.delete(actorOf(request), request.params.team_id, request.params.template_id);
      return { deleted: true };
    },
  );
};
