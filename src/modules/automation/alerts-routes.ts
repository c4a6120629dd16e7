import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id } from '../../platform/http-schemas.js';
import { Alert, CreateAlert, UpdateAlert } from './alerts-schemas.js';
import type { AlertsService } from './alerts-service.js';

const ChartParams = Type.Object({ project_id: Id, id: Id });
const AlertParams = Type.Object({ project_id: Id, id: Id, alert_id: Id });

export const alertRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsService }> = async (app, { alerts }) => {
  const tags = ['alerts'];
  const base = '/project/:project_id/chart/:id/alert';

  app.get(base, { schema: { tags, summary: "The chart's alerts", params: ChartParams, response: { 200: Type.Array(Alert) } } }, async (request) =>
    alerts.list(actorOf(request), request.params.project_id, request.params.id),
  );
  app.post(
    base,
    { schema: { tags, summary: 'Create an alert (the webhook key is shown in this answer only)', params: ChartParams, body: CreateAlert, response: { 200: Alert } } },
    async (request) => alerts.create(actorOf(request), request.params.project_id, request.params.id, request.body),
  );
  app.get(`${base}/:alert_id`, { schema: { tags, summary: 'An alert with its latest events', params: AlertParams, response: { 200: Alert } } }, async (request) =>
    alerts.get(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id),
  );
  app.put(`${base}/:alert_id`, { schema: { tags, summary: 'Update an alert', params: AlertParams, body: UpdateAlert, response: { 200: Alert } } }, async (request) =>
    alerts.update(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id, request.body),
  );
  app.delete(`${base}/:alert_id`, { schema: { tags, summary: 'Delete an alert', params: AlertParams, response: { 200: Deleted } } }, async (request) => {
    await alerts.delete(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id);
    return { deleted: true };
  });
};
