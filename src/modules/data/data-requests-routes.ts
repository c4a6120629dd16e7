import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id } from '../../platform/http-schemas.js';
import { BindingBody, BindingUpdate, DataRequestBody, DataRequestResponse } from './datasets-schemas.js';
import type { DataRequestsService } from './data-requests-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });
const RequestParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id });
const BindingParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id, variable_id: Id });

export const dataRequestRoutes: FastifyPluginAsyncTypebox<{ dataRequests: DataRequestsService }> = async (app, { dataRequests }) => {
  const tags = ['data requests'];
  const base = '/team/:team_id/datasets/:dataset_id/dataRequests';

  app.post(base, { schema: { tags, summary: 'Create a data request', params: DatasetParams, body: DataRequestBody, response: { 200: DataRequestResponse } } }, async (request) =>
    dataRequests.create(actorOf(request), request.params.team_id, request.params.dataset_id, request.body),
  );

  app.get(base, { schema: { tags, summary: "List a dataset's data requests", params: DatasetParams, response: { 200: Type.Array(DataRequestResponse) } } }, async (request) =>
    dataRequests.list(actorOf(request), request.params.team_id, request.params.dataset_id),
  );

  app.get(`${base}/:id`, { schema: { tags, summary: 'Get a data request', params: RequestParams, response: { 200: DataRequestResponse } } }, async (request) =>
    dataRequests.get(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id),
  );

  app.put(
    `${base}/:id`,
    { schema: { tags, summary: 'Update a data request', params: RequestParams, body: DataRequestBody, response: { 200: DataRequestResponse } } },
    async (request) => dataRequests.update(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.body),
  );

  app.delete(`${base}/:id`, { schema: { tags, summary: 'Delete a data request', params: RequestParams, response: { 200: Deleted } } }, async (request) => {
    await dataRequests.delete(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id);
    return { deleted: true };
  });

  app.post(
    `${base}/:id/variableBindings`,
    {
      schema: { tags, summary: 'Bind a variable (answers the data request)', params: RequestParams, body: BindingBody, response: { 200: DataRequestResponse } },
    },
    async (request) => dataRequests.createBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.body),
  );

  app.put(
    `${base}/:id/variableBindings/:variable_id`,
    {
      schema: { tags, summary: 'Update a variable binding (answers the data request)', params: BindingParams, body: BindingUpdate, response: { 200: DataRequestResponse } },
    },
    async (request) =>
      dataRequests.updateBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.params.variable_id, request.body),
  );

  app.delete(
    `${base}/:id/variableBindings/:variable_id`,
    { schema: { tags, summary: 'Remove a variable binding (answers the data request)', params: BindingParams, response: { 200: DataRequestResponse } } },
    async (request) =>
      dataRequests.deleteBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.params.variable_id),
  );
};
