import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Id, Ref } from '../../platform/http-schemas.js';
import { BindingBody, BindingUpdate, DataRequestBody, DataRequestResponse } from './datasets-schemas.js';
import type { DataRequestsService } from './data-requests-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });
const RequestParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id });
const BindingParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id, variable_id: Id });

export const dataRequestRoutes: FastifyPluginAsyncTypebox<{ dataRequests: DataRequestsService }> = async (app, { dataRequests }) => {
  const tags = ['data requests'];
  const base = '/team/:team_id/datasets/:dataset_id/dataRequests';

  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createDataRequest',
        summary: 'Create a data request',
        params: DatasetParams,
        body: Ref(DataRequestBody, { examples: [{ connection_id: 4, query: 'select created_at, amount, country from orders where status = {{status}}' }] }),
        response: { 200: Ref(DataRequestResponse) },
      },
    },
    async (request) => dataRequests.create(actorOf(request), request.params.team_id, request.params.dataset_id, request.body),
  );

  app.get(
    base,
    { schema: { tags, operationId: 'listDataRequests', summary: "List a dataset's data requests", params: DatasetParams, response: { 200: Type.Array(Ref(DataRequestResponse)) } } },
    async (request) => dataRequests.list(actorOf(request), request.params.team_id, request.params.dataset_id),
  );

  app.get(`${base}/:id`, { schema: { tags, operationId: 'getDataRequest', summary: 'Get a data request', params: RequestParams, response: { 200: Ref(DataRequestResponse) } } }, async (request) =>
    dataRequests.get(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateDataRequest',
        summary: 'Update a data request',
        params: RequestParams,
        body: Ref(DataRequestBody, { examples: [{ query: 'select * from orders where country = {{country}}' }] }),
        response: { 200: Ref(DataRequestResponse) },
      },
    },
    async (request) => dataRequests.update(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.body),
  );

  app.delete(`${base}/:id`, { schema: { tags, operationId: 'deleteDataRequest', summary: 'Delete a data request', params: RequestParams, response: { 200: Ref(Deleted) } } }, async (request) => {
    await dataRequests.delete(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id);
    return { deleted: true };
  });

  app.post(
    `${base}/:id/variableBindings`,
    {
      schema: {
        tags,
        operationId: 'createVariableBinding',
        summary: 'Bind a variable (answers the data request)',
        params: RequestParams,
        body: Ref(BindingBody, {
          examples: [
            { name: 'country', type: 'string', default_value: 'FR', required: false },
            { name: 'countries', type: 'string[]', default_value: ['FR', 'DE'], required: false },
          ],
        }),
        response: { 200: Ref(DataRequestResponse) },
      },
    },
    async (request) => dataRequests.createBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.body),
  );

  app.put(
    `${base}/:id/variableBindings/:variable_id`,
    {
      schema: {
        tags,
        operationId: 'updateVariableBinding',
        summary: 'Update a variable binding (answers the data request)',
        params: BindingParams,
        body: Ref(BindingUpdate, { examples: [{ default_value: 'DE' }] }),
        response: { 200: Ref(DataRequestResponse) },
      },
    },
    async (request) =>
      dataRequests.updateBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.params.variable_id, request.body),
  );

  app.delete(
    `${base}/:id/variableBindings/:variable_id`,
    {
      schema: {
        tags,
        operationId: 'deleteVariableBinding',
        summary: 'Remove a variable binding (answers the data request)',
        params: BindingParams,
        response: { 200: Ref(DataRequestResponse) },
      },
    },
    async (request) =>
      dataRequests.deleteBinding(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, request.params.variable_id),
  );
};
