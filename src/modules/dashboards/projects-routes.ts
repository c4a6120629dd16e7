import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Ref, Removed, TeamParams } from '../../platform/http-schemas.js';
import { CreateProject, Project, ProjectListItem, ProjectParams, UpdateProject } from './projects-schemas.js';
import type { ProjectsService } from './projects-service.js';
import type { JsonBody } from './dashboard-views.js';

export const projectRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectsService }> = async (app, { projects }) => {
  const tags = ['dashboards'];

  app.get(
    '/project/team/:team_id',
    { schema: { tags, operationId: 'listProjects', summary: "The team's dashboards the caller may see", params: TeamParams, response: { 200: Type.Array(Ref(ProjectListItem)) } } },
    async (request) => projects.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/project',
    {
      schema: {
        tags,
        operationId: 'createProject',
        summary: 'Create a dashboard in body.team_id (teamOwner, teamAdmin)',
        body: Ref(CreateProject, {
          examples: [{ name: 'Sales', team_id: 1, timezone: 'Europe/Paris', updateSchedule: { frequency: 'daily', time: { hour: 6, minute: 0 }, timezone: 'Europe/Paris' } }],
        }),
        response: { 200: Ref(Project) },
      },
    },
    async (request, reply) => sendJson(reply, await projects.create(actorOf(request), request.body)),
  );

  app.get(
    '/project/:id',
    { schema: { tags, operationId: 'getProject', summary: 'A dashboard with its charts and share policies', params: ProjectParams, response: { 200: Ref(Project) } } },
    async (request, reply) => sendJson(reply, await projects.get(actorOf(request), request.params.id)),
  );

  app.put(
    '/project/:id',
    {
      schema: {
        tags,
        operationId: 'updateProject',
        summary: 'Update a dashboard (password is write-only)',
        params: ProjectParams,
        body: Ref(UpdateProject, { examples: [{ dashboardTitle: 'Sales overview', backgroundColor: '#0f172a', titleColor: '#f8fafc', timezone: 'UTC' }] }),
        response: { 200: Ref(Project) },
      },
    },
    async (request, reply) => sendJson(reply, await projects.update(actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/project/:id',
    {
      schema: {
        tags,
        operationId: 'deleteProject',
        summary: 'Delete a dashboard, its charts and share policies (teamOwner, teamAdmin)',
        params: ProjectParams,
        response: { 200: Ref(Removed) },
      },
    },
    async (request) => {
      await projects.delete(actorOf(request), request.params.id);
      return { removed: true };
    },
  );
};

/** A dashboard view comes serialized already (by the `Project` schema's parts): it goes out as it is. */
function sendJson(reply: FastifyReply, body: JsonBody) {
  return reply.type('application/json; charset=utf-8').send(body as never);
}
