import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id, Ref } from '../../platform/http-schemas.js';
import { Alert, AlertMediumsStatus, AlertTestResult, CreateAlert, UpdateAlert } from './alerts-schemas.js';
import type { AlertsService } from './alerts-service.js';

const ChartParams = Type.Object({ project_id: Id, id: Id });
const AlertParams = Type.Object({ project_id: Id, id: Id, alert_id: Id });

export const alertRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsService }> = async (app, { alerts }) => {
  const tags = ['alerts'];
  const base = '/project/:project_id/chart/:id/alert';

  // Path-like operation ids, kept as generated clients already call them.
  app.get(
    base,
    { schema: { tags, operationId: 'getProjectByProjectIdChartByIdAlert', summary: "The chart's alerts", params: ChartParams, response: { 200: Type.Array(Ref(Alert)) } } },
    async (request) => alerts.list(actorOf(request), request.params.project_id, request.params.id),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'postProjectByProjectIdChartByIdAlert',
        summary: 'Create an alert (the webhook key is shown in this answer only)',
        params: ChartParams,
        body: Ref(CreateAlert, {
          examples: [{ name: 'Revenue above target', type: 'threshold_above', rules: { value: 10_000 }, recipients: ['ada@example.com'], mediums: { email: { enabled: true } } }],
        }),
        response: { 200: Ref(Alert) },
      },
    },
    async (request) => alerts.create(actorOf(request), request.params.project_id, request.params.id, request.body),
  );
  app.get(
    `${base}/:alert_id`,
    {
      schema: {
        tags,
        operationId: 'getProjectByProjectIdChartByIdAlertByAlertId',
        summary: 'An alert with its latest events',
        params: AlertParams,
        response: { 200: Ref(Alert) },
      },
    },
    async (request) => alerts.get(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id),
  );
  app.put(
    `${base}/:alert_id`,
    {
      schema: {
        tags,
        operationId: 'putProjectByProjectIdChartByIdAlertByAlertId',
        summary: 'Update an alert',
        params: AlertParams,
        body: Ref(UpdateAlert, { examples: [{ rules: { value: 12_000 }, active: false }] }),
        response: { 200: Ref(Alert) },
      },
    },
    async (request) => alerts.update(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id, request.body),
  );
  app.post(
    `${base}/:alert_id/test`,
    {
      schema: {
        tags,
        operationId: 'postProjectByProjectIdChartByIdAlertByAlertIdTest',
        summary: 'Send the alert now as a test, through each of its mediums (not kept as an event)',
        params: AlertParams,
        response: { 200: Ref(AlertTestResult) },
      },
    },
    async (request) => alerts.test(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id),
  );
  app.get(
    '/project/:project_id/chart/:id/alert-mediums',
    {
      schema: {
        tags,
        operationId: 'getProjectByProjectIdChartByIdAlertMediums',
        summary: "Which ways of notifying this server offers for the chart's alerts (email needs an SMTP server)",
        params: ChartParams,
        response: { 200: Ref(AlertMediumsStatus) },
      },
    },
    async (request) => alerts.mediums(actorOf(request), request.params.project_id, request.params.id),
  );
  app.delete(
    `${base}/:alert_id`,
    { schema: { tags, operationId: 'deleteProjectByProjectIdChartByIdAlertByAlertId', summary: 'Delete an alert', params: AlertParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await alerts.delete(actorOf(request), request.params.project_id, request.params.id, request.params.alert_id);
      return { deleted: true };
    },
  );
};
