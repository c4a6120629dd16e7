import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id, Ref } from '../../platform/http-schemas.js';
import { CreateSubscription, DeliveryStatus, Subscription, SubscriptionRun, SubscriptionRuns, UpdateSubscription } from './deliveries-schemas.js';
import type { DeliveriesService, SubscriptionScope } from './deliveries-service.js';
import { RunPageQuery } from './refreshes-schemas.js';

/**
 * Subscriptions of a dashboard (`/project/{id}/subscriptions`) and of one chart
 * (`/project/{project_id}/chart/{id}/subscriptions`): the same routes on both.
 */
export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deliveries: DeliveriesService }> = async (app, { deliveries }) => {
  const tags = ['deliveries'];
  const variants = [
    {
      base: '/project/:id/subscriptions',
      op: 'ProjectSubscription',
      what: "the dashboard's",
      params: Type.Object({ id: Id }),
      one: Type.Object({ id: Id, sid: Id }),
      scope: (p: { id: number }): SubscriptionScope => ({ projectId: p.id }),
    },
    {
      base: '/project/:project_id/chart/:id/subscriptions',
      op: 'ChartSubscription',
      what: "the chart's",
      params: Type.Object({ project_id: Id, id: Id }),
      one: Type.Object({ project_id: Id, id: Id, sid: Id }),
      scope: (p: { id: number; project_id?: number }): SubscriptionScope => ({ projectId: p.project_id!, chartId: p.id }),
    },
  ] as const;

  const example = { name: 'Monday numbers', schedule: { frequency: 'weekly', dayOfWeek: 1, time: { hour: 9, minute: 0 }, timezone: 'Europe/Paris' }, format: 'png' as const, recipients: ['ada@example.com'] };

  app.get(
    '/project/:id/delivery-status',
    {
      schema: {
        tags,
        operationId: 'getProjectDeliveryStatus',
        summary: "What this dashboard's deliveries can use: email (an SMTP server), Slack, the team's setting for outside addresses",
        params: Type.Object({ id: Id }),
        response: { 200: Ref(DeliveryStatus) },
      },
    },
    async (request) => deliveries.status(actorOf(request), request.params.id),
  );

  for (const v of variants) {
    const scope = (params: unknown) => v.scope(params as { id: number; project_id?: number });
    app.get(
      v.base,
      { schema: { tags, operationId: `list${v.op}s`, summary: `List ${v.what} scheduled deliveries`, params: v.params, response: { 200: Type.Array(Ref(Subscription)) } } },
      async (request) => deliveries.list(actorOf(request), scope(request.params)),
    );
    app.post(
      v.base,
      {
        schema: {
          tags,
          operationId: `create${v.op}`,
          summary: `Create a scheduled delivery of ${v.what.replace("'s", '')} (a webhook's signing key is shown in this answer only)`,
          params: v.params,
          body: Ref(CreateSubscription, { examples: [example] }),
          response: { 200: Ref(Subscription) },
        },
      },
      async (request) => deliveries.create(actorOf(request), scope(request.params), request.body),
    );
    app.get(
      `${v.base}/:sid`,
      { schema: { tags, operationId: `get${v.op}`, summary: 'A scheduled delivery', params: v.one, response: { 200: Ref(Subscription) } } },
      async (request) => deliveries.get(actorOf(request), scope(request.params), request.params.sid),
    );
    app.put(
      `${v.base}/:sid`,
      {
        schema: {
          tags,
          operationId: `update${v.op}`,
          summary: 'Update a scheduled delivery (`active: false` pauses it, `true` resumes it)',
          params: v.one,
          body: Ref(UpdateSubscription, { examples: [{ active: false }] }),
          response: { 200: Ref(Subscription) },
        },
      },
      async (request) => deliveries.update(actorOf(request), scope(request.params), request.params.sid, request.body),
    );
    app.delete(
      `${v.base}/:sid`,
      { schema: { tags, operationId: `delete${v.op}`, summary: 'Delete a scheduled delivery', params: v.one, response: { 200: Ref(Deleted) } } },
      async (request) => {
        await deliveries.delete(actorOf(request), scope(request.params), request.params.sid);
        return { deleted: true };
      },
    );
    app.post(
      `${v.base}/:sid/send`,
      {
        schema: {
          tags,
          operationId: `send${v.op}`,
          summary: 'Send now: refresh, draw and send to every recipient (one try each; scheduled deliveries retry); answers the recorded run',
          params: v.one,
          response: { 200: Ref(SubscriptionRun) },
        },
      },
      async (request) => deliveries.sendNow(actorOf(request), scope(request.params), request.params.sid),
    );
    app.get(
      `${v.base}/:sid/runs`,
      {
        schema: { tags, operationId: `list${v.op}Runs`, summary: 'Delivery history, newest first', params: v.one, querystring: RunPageQuery, response: { 200: SubscriptionRuns } },
      },
      async (request) => deliveries.runs(actorOf(request), scope(request.params), request.params.sid, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
    );
  }
};
