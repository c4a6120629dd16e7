import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, TeamParams } from '../../platform/http-schemas.js';
import { CreateDataset, DatasetResponse, QuickCreateDataset, UpdateDataset } from './datasets-schemas.js';
import type { DatasetsService } from './datasets-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });

export const datasetRoutes: FastifyPluginAsyncTypebox<{ datasets: DatasetsService }> = async (app, { datasets }) => {
  const tags = ['datasets'];

  app.get('/team/:team_id/datasets', { schema: { tags, summary: "List the team's datasets", params: TeamParams, response: { 200: Type.Array(DatasetResponse) } } }, async (request) =>
    datasets.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/datasets',
    { schema: { tags, summary: 'Create a dataset (fetches nothing; add data requests next)', params: TeamParams, body: CreateDataset, response: { 200: DatasetResponse } } },
    async (request) => datasets.create(actorOf(request), request.params.team_id, request.body),
  );

  app.post(
    '/team/:team_id/datasets/quick-create',
    {
      schema: {
        tags,
        summary: 'Create a dataset with its data requests, joins (by index) and variable bindings in one transaction',
        params: TeamParams,
        body: QuickCreateDataset,
        response: { 200: DatasetResponse },
      },
    },
    async (request) => datasets.quickCreate(actorOf(request), request.params.team_id, request.body),
  );

  app.get('/team/:team_id/datasets/:dataset_id', { schema: { tags, summary: 'Get a dataset', params: DatasetParams, response: { 200: DatasetResponse } } }, async (request) =>
    datasets.get(actorOf(request), request.params.team_id, request.params.dataset_id),
  );

  app.put(
    '/team/:team_id/datasets/:dataset_id',
    { schema: { tags, summary: 'Update any subset of a dataset’s fields', params: DatasetParams, body: UpdateDataset, response: { 200: DatasetResponse } } },
    async (request) => datasets.update(actorOf(request), request.params.team_id, request.params.dataset_id, request.body),
  );

  app.delete(
    '/team/:team_id/datasets/:dataset_id',
    { schema: { tags, summary: 'Delete a dataset, its data requests and bindings (answers a bare true)', params: DatasetParams, response: { 200: Type.Boolean() } } },
    async (request) => {
      await datasets.delete(actorOf(request), request.params.team_id, request.params.dataset_id);
      return true;
    },
  );
};
