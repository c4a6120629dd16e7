import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, Ref } from '../../platform/http-schemas.js';
import { DatasetValuesResponse, ValuesQuery } from './dataset-values-schemas.js';
import type { DatasetValuesService } from './dataset-values-service.js';

export const datasetValuesRoutes: FastifyPluginAsyncTypebox<{ values: DatasetValuesService }> = async (app, { values }) => {
  app.get(
    '/team/:team_id/datasets/:dataset_id/values',
    {
      schema: {
        tags: ['datasets'],
        operationId: 'listDatasetValues',
        summary: "The distinct values of one field of the dataset's result, for a filter dropdown (sorted, searchable, cached)",
        params: Type.Object({ team_id: Id, dataset_id: Id }),
        querystring: ValuesQuery,
        response: { 200: Ref(DatasetValuesResponse) },
      },
    },
    async (request) => {
      const { field, search, limit } = request.query;
      return values.forActor(actorOf(request), request.params.team_id, request.params.dataset_id, field, { search, limit });
    },
  );
};
