import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Removed, TeamParams } from '../../platform/http-schemas.js';
import { CreateProject, Project, ProjectListItem, ProjectParams, UpdateProject } from './projects-schemas.js';
import type { ProjectsService } from './projects-service.js';
import type { JsonBody } from './dashboard-views.js';

export const projectRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectsService }> = async (app, { projects }) => {
  const tags = ['dashboards'];

  app.get(
    '/project/team/:team_id',
    { schema: { tags, summary: "The team's dashboards the caller may see", params: TeamParams, response: { 200: Type.Array(ProjectListItem) } } },
    async (request) => projects.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/project',
    { schema: { tags, summary: 'Create a dashboard in body.team_id (teamOwner, teamAdmin)', body: CreateProject, response: { 200: Project } } },
    async (request, reply) => sendJson(reply, await projects.create(actorOf(request), request.body)),
  );

  app.get(
    '/project/:id',
    { schema: { tags, summary: 'A dashboard with its charts and share policies', params: ProjectParams, response: { 200: Project } } },
    async (request, reply) => sendJson(reply, await projects.get(actorOf(request), request.params.id)),
  );

  app.put(
    '/project/:id',
    { schema: { tags, summary: 'Update a dashboard (password is write-only)', params: ProjectParams, body: UpdateProject, response: { 200: Project } } },
    async (request, reply) => sendJson(reply, await projects.update(actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/project/:id',
    { schema: { tags, summary: 'Delete a dashboard, its charts and share policies (teamOwner, teamAdmin)', params: ProjectParams, response: { 200: Removed } } },
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
