import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id, Ref, TeamParams } from '../../platform/http-schemas.js';
import { ApiKey, ApiKeyWithToken, NewApiKey, NewPersonalKey, PersonalKey, PersonalKeyWithToken } from './api-keys-schemas.js';
import type { ApiKeysService } from './api-keys-service.js';

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  const tags = ['api keys'];

  app.post(
    '/team/:team_id/apikey',
    {
      schema: {
        tags,
        operationId: 'createTeamApiKey',
        summary: 'Create a team API key (token shown once)',
        params: TeamParams,
        body: Ref(NewApiKey, { examples: [{ name: 'CI reporting', role: 'projectViewer', projects: [2] }] }),
        response: { 200: Ref(ApiKeyWithToken) },
      },
    },
    async (request) => apiKeys.create(actorOf(request), request.params.team_id, request.body),
  );

  app.get(
    '/team/:team_id/apikey',
    { schema: { tags, operationId: 'listTeamApiKeys', summary: "List the team's API keys", params: TeamParams, response: { 200: Type.Array(Ref(ApiKey)) } } },
    async (request) => apiKeys.list(actorOf(request), request.params.team_id),
  );

  app.delete(
    '/team/:team_id/apikey/:id',
    {
      schema: {
        tags,
        operationId: 'deleteTeamApiKey',
        summary: 'Delete an API key (stops working at once)',
        params: Type.Object({ team_id: Id, id: Id }),
        response: { 200: Ref(Deleted) },
      },
    },
    async (request) => {
      await apiKeys.delete(actorOf(request), request.params.team_id, request.params.id);
      return { deleted: true };
    },
  );

  app.post(
    '/user/apikey',
    {
      schema: {
        tags,
        operationId: 'createPersonalApiKey',
        summary: 'Create a personal API key: acts as you in all your teams, at most at its ceiling (token shown once)',
        body: Ref(NewPersonalKey, { examples: [{ name: 'My laptop', ceiling: 'projectEditor' }] }),
        response: { 200: Ref(PersonalKeyWithToken) },
      },
    },
    async (request) => apiKeys.createPersonal(actorOf(request), request.body),
  );

  app.get(
    '/user/apikey',
    { schema: { tags, operationId: 'listPersonalApiKeys', summary: 'List your personal API keys', response: { 200: Type.Array(Ref(PersonalKey)) } } },
    async (request) => apiKeys.listPersonal(actorOf(request)),
  );

  app.delete(
    '/user/apikey/:id',
    {
      schema: {
        tags,
        operationId: 'deletePersonalApiKey',
        summary: 'Delete a personal API key (stops working at once)',
        params: Type.Object({ id: Id }),
        response: { 200: Ref(Deleted) },
      },
    },
    async (request) => {
      await apiKeys.deletePersonal(actorOf(request), request.params.id);
      return { deleted: true };
    },
  );
};
