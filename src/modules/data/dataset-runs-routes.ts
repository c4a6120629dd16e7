import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseJsonObjectQuery, parseQueryBool, Ref } from '../../platform/http-schemas.js';
import { parseFilters } from './dataset-runs-filters.js';
import { parseRuntimeVariables } from './dataset-runs-filters.js';
import { DataRequestRun, DatasetRun, DraftRunBody, RunBody, RunQuery } from './dataset-runs-schemas.js';
import type { FastifyReply } from 'fastify';
import { closeSignal } from '../../platform/close-signal.js';
import type { DatasetRunAnswer, DatasetRunsService } from './dataset-runs-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });
const RequestParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id });
const runExample = { variables: { status: 'paid' }, limit: 100 };

/** A run goes out in chunks as it is written (the response schema documents its shape). */
function send(reply: FastifyReply, answer: DatasetRunAnswer) {
  return reply.type('application/json; charset=utf-8').send(answer as never);
}

export const datasetRunRoutes: FastifyPluginAsyncTypebox<{ runs: DatasetRunsService }> = async (app, { runs }) => {
  app.post(
    '/team/:team_id/datasets/:dataset_id/dataRequests/:id/request',
    {
      schema: {
        tags: ['data requests'],
        operationId: 'runDataRequest',
        summary: 'Run one data request',
        params: RequestParams,
        body: Ref(RunBody, { examples: [runExample] }),
        response: { 200: Ref(DataRequestRun) },
      },
    },
    async (request, reply) => {
      const { variables, limit, offset } = request.body ?? {};
      return runs.runDataRequest(
        actorOf(request),
        request.params.team_id,
        request.params.dataset_id,
        request.params.id,
        { variables: parseRuntimeVariables(variables), limit, offset },
        closeSignal(reply),
      );
    },
  );

  app.post(
    '/team/:team_id/datasets/:dataset_id/dataRequests/:id/draft',
    {
      schema: {
        tags: ['data requests'],
        operationId: 'runDataRequestDraft',
        summary: 'Run an unsaved draft of a data request (its query replaced, nothing saved)',
        description:
          'Runs `query` in place of the saved query, on the request\'s connection with its variable bindings, the same statement check, bound variables and limits. Needs the right to write datasets. A client that goes away cancels the query on the source.',
        params: RequestParams,
        body: Ref(DraftRunBody, { examples: [{ query: 'select status, count(*) as n from orders where status = {{status}} group by 1', variables: { status: 'paid' }, limit: 100 }] }),
        response: { 200: Ref(DataRequestRun) },
      },
    },
    async (request, reply) => {
      const { query, variables, limit, variableBindings } = request.body;
      return runs.runDraft(
        actorOf(request),
        request.params.team_id,
        request.params.dataset_id,
        request.params.id,
        { query, variables: parseRuntimeVariables(variables), ...(limit !== undefined ? { limit } : {}), ...(variableBindings ? { variableBindings } : {}) },
        closeSignal(reply),
      );
    },
  );

  app.get(
    '/team/:team_id/datasets/:dataset_id/request',
    { schema: { tags: ['datasets'], operationId: 'runDatasetGet', summary: 'Run a dataset', params: DatasetParams, querystring: RunQuery, response: { 200: Ref(DatasetRun) } } },
    async (request, reply) => {
      const q = request.query;
      const answer = await runs.runDataset(actorOf(request), request.params.team_id, request.params.dataset_id, {
        getCache: parseQueryBool(q.getCache),
        noSource: parseQueryBool(q.noSource),
        filters: parseFilters(q.filters),
        variables: parseJsonObjectQuery(q.variables, 'variables'),
        limit: q.limit,
        offset: q.offset,
      });
      return send(reply, answer);
    },
  );

  app.post(
    '/team/:team_id/datasets/:dataset_id/request',
    {
      schema: {
        tags: ['datasets'],
        operationId: 'runDataset',
        summary: 'Run a dataset (inputs in the body)',
        params: DatasetParams,
        body: Ref(RunBody, { examples: [runExample] }),
        response: { 200: Ref(DatasetRun) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const answer = await runs.runDataset(actorOf(request), request.params.team_id, request.params.dataset_id, {
        getCache: body.getCache ?? false,
        noSource: body.noSource ?? false,
        filters: parseFilters(body.filters, 'body.filters'),
        variables: parseRuntimeVariables(body.variables),
        limit: body.limit,
        offset: body.offset,
      });
      return send(reply, answer);
    },
  );
};
