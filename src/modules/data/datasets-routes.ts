import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, Ref, TeamParams } from '../../platform/http-schemas.js';
import { CreateDataset, DatasetResponse, QuickCreateDataset, UpdateDataset } from './datasets-schemas.js';
import type { DatasetsService } from './datasets-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });

export const datasetRoutes: FastifyPluginAsyncTypebox<{ datasets: DatasetsService }> = async (app, { datasets }) => {
  const tags = ['datasets'];

  app.get(
    '/team/:team_id/datasets',
    { schema: { tags, operationId: 'listDatasets', summary: "List the team's datasets", params: TeamParams, response: { 200: Type.Array(Ref(DatasetResponse)) } } },
    async (request) => datasets.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/datasets',
    {
      schema: {
        tags,
        operationId: 'createDataset',
        summary: 'Create a dataset (fetches nothing; add data requests next)',
        params: TeamParams,
        body: Ref(CreateDataset, { examples: [{ name: 'Orders', project_ids: [2], legend: 'Orders' }] }),
        response: { 200: Ref(DatasetResponse) },
      },
    },
    async (request) => datasets.create(actorOf(request), request.params.team_id, request.body),
  );

  app.post(
    '/team/:team_id/datasets/quick-create',
    {
      schema: {
        tags,
        operationId: 'quickCreateDataset',
        summary: 'Create a dataset with its data requests, joins (by index) and variable bindings in one transaction',
        params: TeamParams,
        body: Ref(QuickCreateDataset, {
          examples: [
            {
              name: 'Orders',
              project_ids: [2],
              dataRequests: [
                {
                  connection_id: 4,
                  query: 'select created_at, amount, country from orders where status = {{status}}',
                  variableBindings: [{ name: 'status', type: 'string', default_value: 'paid' }],
                },
              ],
            },
          ],
        }),
        response: { 200: Ref(DatasetResponse) },
      },
    },
    async (request) => datasets.quickCreate(actorOf(request), request.params.team_id, request.body),
  );

  app.get('/team/:team_id/datasets/:dataset_id', { schema: { tags, operationId: 'getDataset', summary: 'Get a dataset', params: DatasetParams, response: { 200: Ref(DatasetResponse) } } }, async (request) =>
    datasets.get(actorOf(request), request.params.team_id, request.params.dataset_id),
  );

  app.put(
    '/team/:team_id/datasets/:dataset_id',
    {
      schema: {
        tags,
        operationId: 'updateDataset',
        summary: 'Update any subset of a dataset’s fields',
        params: DatasetParams,
        body: Ref(UpdateDataset, { examples: [{ name: 'Paid orders', legend: 'Paid orders' }] }),
        response: { 200: Ref(DatasetResponse) },
      },
    },
    async (request) => datasets.update(actorOf(request), request.params.team_id, request.params.dataset_id, request.body),
  );

  app.delete(
    '/team/:team_id/datasets/:dataset_id',
    {
      schema: {
        tags,
        operationId: 'deleteDataset',
        summary: 'Delete a dataset, its data requests and bindings (answers a bare true)',
        params: DatasetParams,
        response: { 200: Type.Boolean() },
      },
    },
    async (request) => {
      await datasets.delete(actorOf(request), request.params.team_id, request.params.dataset_id);
      return true;
    },
  );
};
