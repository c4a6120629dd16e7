import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref, TeamParams } from '../../platform/http-schemas.js';
import { MASK } from '../../redaction/index.js';
import { CreateIntegration, Integration, IntegrationParams, UpdateIntegration } from './integrations-schemas.js';
import type { IntegrationsService } from './integrations-service.js';

/** Chartbrew's routes and shapes (`/team/{id}/integration`): alert channels of a team. */
export const integrationRoutes: FastifyPluginAsyncTypebox<{ integrations: IntegrationsService }> = async (app, { integrations }) => {
  const tags = ['integrations'];
  const base = '/team/:team_id/integration';

  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listIntegrations',
        summary: "The team's alert integrations (URLs show their origin only)",
        params: TeamParams,
        response: { 200: Type.Array(Ref(Integration)) },
      },
    },
    async (request) => integrations.list(actorOf(request), request.params.team_id),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createIntegration',
        summary: 'Add a webhook or Slack incoming-webhook integration (teamOwner, teamAdmin); the signing key is shown in this answer only',
        params: TeamParams,
        body: Ref(CreateIntegration, {
          examples: [{ name: 'Ops channel', type: 'webhook', config: { url: 'https://hooks.slack.com/services/T000/B000/XXXX', slackMode: true } }],
        }),
        response: { 200: Ref(Integration) },
      },
    },
    async (request) => integrations.create(actorOf(request), request.params.team_id, request.body),
  );

  app.get(
    `${base}/:id`,
    { schema: { tags, operationId: 'getIntegration', summary: 'An alert integration', params: IntegrationParams, response: { 200: Ref(Integration) } } },
    async (request) => integrations.get(actorOf(request), request.params.team_id, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateIntegration',
        summary: `Rename an integration or change its URL or Slack mode; the URL as answered (or "${MASK}") keeps the stored one`,
        params: IntegrationParams,
        body: Ref(UpdateIntegration, { examples: [{ name: 'Ops alerts', config: { url: `https://hooks.slack.com/${MASK}`, slackMode: true } }] }),
        response: { 200: Ref(Integration) },
      },
    },
    async (request) => integrations.update(actorOf(request), request.params.team_id, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteIntegration',
        summary: 'Delete an integration; alerts stop notifying it',
        params: IntegrationParams,
        response: { 200: Ref(Deleted) },
      },
    },
    async (request) => {
      await integrations.delete(actorOf(request), request.params.team_id, request.params.id);
      return { deleted: true };
    },
  );
};
