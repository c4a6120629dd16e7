import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Id, parseJsonObjectQuery } from '../../platform/http-schemas.js';
import { SharedChartParams, SharedChartQuery, SharedDashboardHeaders, SharedDashboardParams } from '../dashboards/index.js';
import type { ExportFile, ExportService } from './exports-service.js';
import { CONTENT_TYPES, contentDisposition, FORMATS, type ExportFormat } from './exports-writers.js';

const Format = Type.Enum([...FORMATS], { description: 'csv (UTF-8 with BOM) or xlsx' });
const FILE = { 200: Type.String({ description: 'The file (text/csv or an XLSX workbook)' }) };
const ExportQuery = Type.Object({ format: Format });
const DatasetExportQuery = Type.Object({
  format: Format,
  variables: Type.Optional(Type.String({ maxLength: 100_000, description: 'JSON object of variable values' })),
});

/**
 * The file, and when a limit cut its data, headers that say so: `x-plotline-truncated: true`,
 * `x-plotline-truncated-by: rows|bytes|pages`, and the limits (`x-plotline-row-limit`,
 * `x-plotline-byte-limit`).
 */
function send(reply: FastifyReply, format: ExportFormat, file: ExportFile) {
  reply.header('content-type', CONTENT_TYPES[format]).header('content-disposition', contentDisposition(file.name, format)).header('cache-control', 'no-store');
  const cut = file.truncation;
  if (cut) {
    reply.header('x-plotline-truncated', 'true').header('x-plotline-truncated-by', cut.truncatedBy);
    if (cut.rowLimit !== undefined) reply.header('x-plotline-row-limit', String(cut.rowLimit));
    if (cut.byteLimit !== undefined) reply.header('x-plotline-byte-limit', String(cut.byteLimit));
  }
  return reply.send(file.body);
}

/** Member exports (authenticated scope). */
export const exportRoutes: FastifyPluginAsyncTypebox<{ exports: ExportService }> = async (app, { exports }) => {
  app.get(
    '/project/:project_id/chart/:id/export',
    {
      schema: {
        tags: ['exports'],
        operationId: 'exportChart',
        summary: "The chart's data as a file: labels and one column per series; a table chart's rows",
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: ExportQuery,
        produces: [CONTENT_TYPES.csv, CONTENT_TYPES.xlsx],
        response: FILE,
      },
    },
    async (request, reply) => send(reply, request.query.format, await exports.chart(actorOf(request), request.params.project_id, request.params.id, request.query.format)),
  );

  app.get(
    '/team/:team_id/datasets/:dataset_id/export',
    {
      schema: {
        tags: ['exports'],
        operationId: 'exportDataset',
        summary: 'The dataset run as a file, bounded by the row and byte limits (a cut file says so in `x-plotline-truncated*` headers)',
        params: Type.Object({ team_id: Id, dataset_id: Id }),
        querystring: DatasetExportQuery,
        response: FILE,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const variables = parseJsonObjectQuery(request.query.variables, 'variables') ?? {};
      return send(reply, format, await exports.dataset(actorOf(request), request.params.team_id, request.params.dataset_id, variables, format));
    },
  );
};

/** Exports through share links (public scope): only when the team's allowReportExport is on. */
export const publicExportRoutes: FastifyPluginAsyncTypebox<{ exports: ExportService; rateLimit: number }> = async (app, { exports, rateLimit }) => {
  const config = { rateLimit: { max: rateLimit, timeWindow: 60_000 } };
  const tags = ['sharing (public)'];
  const query = Type.Object({ ...SharedChartQuery.properties, format: Format }, { additionalProperties: true });

  app.get(
    '/chart/share/:share_string/export',
    {
      config,
      schema: { tags, operationId: 'exportSharedChart', summary: "A shared chart's data as a file, when the team allows report exports", security: [], params: SharedChartParams, querystring: query, response: FILE },
    },
    async (request, reply) => {
      const { format, ...rest } = request.query;
      return send(reply, format, await exports.sharedChart({ shareString: request.params.share_string }, { token: rest.token, query: rest, client: request.ip }, format));
    },
  );

  app.get(
    '/project/dashboard/:brewName/chart/:chart_id/export',
    {
      config,
      schema: {
        tags,
        operationId: 'exportSharedDashboardChart',
        summary: "A report chart's data as a file, when the team allows report exports",
        security: [],
        params: Type.Object({ ...SharedDashboardParams.properties, chart_id: Id }),
        querystring: query,
        headers: SharedDashboardHeaders,
        response: FILE,
      },
    },
    async (request, reply) => {
      // `format` names the file type; it never becomes a chart variable.
      const { format, ...rest } = request.query;
      const link = { brewName: request.params.brewName, chartId: request.params.chart_id };
      return send(reply, format, await exports.sharedChart(link, { token: rest.token, query: rest, password: request.headers.pass, client: request.ip }, format));
    },
  );
};
