import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Ref, TeamParams } from '../../platform/http-schemas.js';
import { CreateSavedQuery, SavedQuery, SavedQueryListQuery, SavedQueryParams, UpdateSavedQuery } from './saved-queries-schemas.js';
import type { SavedQueriesService } from './saved-queries-service.js';

/** Chartbrew's routes and shapes (`/team/{id}/savedQuery`). */
export const savedQueryRoutes: FastifyPluginAsyncTypebox<{ savedQueries: SavedQueriesService }> = async (app, { savedQueries }) => {
  const tags = ['saved queries'];
  const base = '/team/:team_id/savedQuery';

  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listSavedQueries',
        summary: "The team's saved queries, of one connection type with ?type= (teamOwner, teamAdmin)",
        params: TeamParams,
        querystring: SavedQueryListQuery,
        response: { 200: Type.Array(Ref(SavedQuery)) },
      },
    },
    async (request) => savedQueries.list(actorOf(request), request.params.team_id, request.query.type),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createSavedQuery',
        summary: 'Save a query for later (teamOwner, teamAdmin)',
        params: TeamParams,
        body: Ref(CreateSavedQuery, { examples: [{ summary: 'Paid orders per day', query: "select date(created_at), sum(amount) from orders where status = 'paid' group by 1", type: 'postgres' }] }),
        response: { 200: Ref(SavedQuery) },
      },
    },
    async (request) => savedQueries.create(actorOf(request), request.params.team_id, request.body),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateSavedQuery',
        summary: 'Change a saved query (teamOwner, teamAdmin)',
        params: SavedQueryParams,
        body: Ref(UpdateSavedQuery, { examples: [{ query: "select date(created_at), count(*) from orders group by 1" }] }),
        response: { 200: Ref(SavedQuery) },
      },
    },
    async (request) => savedQueries.update(actorOf(request), request.params.team_id, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteSavedQuery',
        summary: 'Delete a saved query (answers true, as Chartbrew does)',
        params: SavedQueryParams,
        response: { 200: Type.Boolean() },
      },
    },
    async (request) => {
      await savedQueries.delete(actorOf(request), request.params.team_id, request.params.id);
      return true;
    },
  );
};
