import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id, TeamParams, Timestamp } from '../../platform/http-schemas.js';
import { RoleSchema } from './teams-schemas.js';
import type { ApiKeysService } from './api-keys-service.js';

const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
});

const ApiKeyWithToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  token: Type.String({ description: 'Shown only in this response' }),
  createdAt: Timestamp,
});

const NewApiKey = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  role: Type.Optional(RoleSchema),
  projects: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
});

const PersonalKeyFields = {
  id: Type.Integer(),
  name: Type.String(),
  ceiling: Type.Union([RoleSchema, Type.Null()], { description: 'The highest role the key acts with in any team; null: the user\'s own role' }),
  createdAt: Timestamp,
};

const PersonalKey = Type.Object({ ...PersonalKeyFields, lastUsedAt: Type.Union([Timestamp, Type.Null()]) });
const PersonalKeyWithToken = Type.Object({ ...PersonalKeyFields, token: Type.String({ description: 'Shown only in this response' }) });
const NewPersonalKey = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  ceiling: Type.Optional(Type.Union([RoleSchema, Type.Null()])),
});

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  const tags = ['api keys'];

  app.post(
    '/team/:team_id/apikey',
    { schema: { tags, summary: 'Create a team API key (token shown once)', params: TeamParams, body: NewApiKey, response: { 200: ApiKeyWithToken } } },
    async (request) => apiKeys.create(actorOf(request), request.params.team_id, request.body),
  );

  app.get(
    '/team/:team_id/apikey',
    { schema: { tags, summary: "List the team's API keys", params: TeamParams, response: { 200: Type.Array(ApiKey) } } },
    async (request) => apiKeys.list(actorOf(request), request.params.team_id),
  );

  app.delete(
    '/team/:team_id/apikey/:id',
    {
      schema: {
        tags,
        summary: 'Delete an API key (stops working at once)',
        params: Type.Object({ team_id: Id, id: Id }),
        response: { 200: Deleted },
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
        summary: 'Create a personal API key: acts as you in all your teams, at most at its ceiling (token shown once)',
        body: NewPersonalKey,
        response: { 200: PersonalKeyWithToken },
      },
    },
    async (request) => apiKeys.createPersonal(actorOf(request), request.body),
  );

  app.get(
    '/user/apikey',
    { schema: { tags, summary: 'List your personal API keys', response: { 200: Type.Array(PersonalKey) } } },
    async (request) => apiKeys.listPersonal(actorOf(request)),
  );

  app.delete(
    '/user/apikey/:id',
    { schema: { tags, summary: 'Delete a personal API key (stops working at once)', params: Type.Object({ id: Id }), response: { 200: Deleted } } },
    async (request) => {
      await apiKeys.deletePersonal(actorOf(request), request.params.id);
      return { deleted: true };
    },
  );
};
