import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ValidationError } from '../../errors/index.js';
import { actorOf } from '../../platform/auth.js';
import { Id, parseQueryBool, QueryBool } from '../../platform/http-schemas.js';
import { parseFilters } from './dataset-runs-filters.js';
import type { FastifyReply } from 'fastify';
import type { DatasetRunAnswer, DatasetRunsService } from './dataset-runs-service.js';

const DatasetParams = Type.Object({ team_id: Id, dataset_id: Id });
const RequestParams = Type.Object({ team_id: Id, dataset_id: Id, id: Id });

const Limit = Type.Integer({ minimum: 0, maximum: 10_000_000 });

const RunBody = Type.Union([
  Type.Object({
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    filters: Type.Optional(Type.Union([Type.Array(Type.Unknown(), { maxItems: 100 }), Type.Record(Type.String(), Type.Unknown())])),
    getCache: Type.Optional(Type.Boolean()),
    noSource: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Limit),
    offset: Type.Optional(Limit),
  }),
  Type.Null(),
]);

const RunQuery = Type.Object({
  noSource: Type.Optional(QueryBool),
  getCache: Type.Optional(QueryBool),
  filters: Type.Optional(Type.String({ maxLength: 100_000 })),
  variables: Type.Optional(Type.String({ maxLength: 100_000, description: 'JSON object of variable values' })),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Limit),
});

const Meta = Type.Object({
  columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() }, { additionalProperties: true })),
  rowCount: Type.Integer(),
  truncated: Type.Boolean({ description: 'True when a limit cut the result (the rows are the first ones only; the source had more)' }),
  truncatedBy: Type.Optional(
    Type.Enum(['rows', 'bytes', 'pages'], { description: 'Which limit cut it, when truncated: the row limit, the byte limit (PLOTLINE_RESULT_MAX_MB), or a source\'s page cap' }),
  ),
  rowLimit: Type.Optional(Type.Integer({ description: 'The row limit of the run, when truncated' })),
  pageLimit: Type.Optional(Type.Integer({ description: 'The page cap that stopped a paginating source, when `truncatedBy` is `pages`' })),
  byteLimit: Type.Optional(Type.Integer({ description: 'The byte limit that cut the result, when `truncatedBy` is `bytes`' })),
  durationMs: Type.Number(),
});

const DatasetRunResponse = Type.Object(
  {
    options: Type.Object({}, { additionalProperties: true }),
    data: Type.Unknown(),
    meta: Meta,
    cache: Type.Object({ status: Type.String(), createdAt: Type.String() }),
  },
  { description: 'The dataset, its rows (joined and filtered), run metadata and cache status' },
);

function parseVariables(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw ValidationError.field('querystring.variables', 'must be a JSON object of variable values');
}

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
        summary: 'Run one data request',
        params: RequestParams,
        body: RunBody,
        response: {
          200: Type.Object({
            options: Type.Object({}, { additionalProperties: true }),
            dataRequest: Type.Object({ responseData: Type.Object({ data: Type.Unknown(), configuration: Type.Unknown() }), meta: Meta }),
          }),
        },
      },
    },
    async (request) => {
      const { variables, limit, offset } = request.body ?? {};
      return runs.runDataRequest(actorOf(request), request.params.team_id, request.params.dataset_id, request.params.id, { variables, limit, offset });
    },
  );

  app.get(
    '/team/:team_id/datasets/:dataset_id/request',
    { schema: { tags: ['datasets'], summary: 'Run a dataset', params: DatasetParams, querystring: RunQuery, response: { 200: DatasetRunResponse } } },
    async (request, reply) => {
      const q = request.query;
      const answer = await runs.runDataset(actorOf(request), request.params.team_id, request.params.dataset_id, {
        getCache: parseQueryBool(q.getCache),
        noSource: parseQueryBool(q.noSource),
        filters: parseFilters(q.filters),
        variables: parseVariables(q.variables),
        limit: q.limit,
        offset: q.offset,
      });
      return send(reply, answer);
    },
  );

  app.post(
    '/team/:team_id/datasets/:dataset_id/request',
    { schema: { tags: ['datasets'], summary: 'Run a dataset (inputs in the body)', params: DatasetParams, body: RunBody, response: { 200: DatasetRunResponse } } },
    async (request, reply) => {
      const body = request.body ?? {};
      const answer = await runs.runDataset(actorOf(request), request.params.team_id, request.params.dataset_id, {
        getCache: body.getCache ?? false,
        noSource: body.noSource ?? false,
        filters: parseFilters(body.filters, 'body.filters'),
        variables: body.variables,
        limit: body.limit,
        offset: body.offset,
      });
      return send(reply, answer);
    },
  );
};
