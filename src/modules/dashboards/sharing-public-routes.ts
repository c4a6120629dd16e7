import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { Id, Ref } from '../../platform/http-schemas.js';
import type { FilterRunsService } from './dashboard-filter-runs.js';
import { DatasetValuesResponse, ValuesQuery } from '../data/index.js';
import { FilterChartRun, FilteredChart, FilterId, SharedFilterDashboardRun } from './dashboard-filters-schemas.js';
import {
  SharedChart,
  SharedChartParams,
  SharedChartQuery,
  SharedDashboard,
  SharedDashboardHeaders,
  SharedDashboardParams,
  SharedFilteredChart,
  SharedFilteredCharts,
} from './sharing-public-schemas.js';
import type { ChartFailure, ShareViewer } from './share-viewer.js';

export interface PublicShareLimits {
  /** Requests per minute per client address, on each public share endpoint. */
  share: number;
  /** Requests per minute per caller on routes members and viewers share, for a member (user or API key). */
  authenticated: number;
}

/** The report filter of the examples, by the id Chartbrew's client gave its configuration. */
const filterExample = { filters: [{ id: 'period', type: 'date', preset: 'last_30_days' }, { id: 'country', type: 'field', field: 'country', value: 'DE' }], variables: [] };


const MINUTE = 60_000;

/**
 * The share endpoints anyone may call: no bearer (a client that sends one anyway is not refused,
 * the header is simply not read). Registered outside the authenticated scope. Dashboard password
 * attempts have their own budget, kept by the viewer for every route that carries a password.
 */
export const publicShareRoutes: FastifyPluginAsyncTypebox<{ viewer: ShareViewer; runs: FilterRunsService; optionalAuth: onRequestHookHandler; limits: PublicShareLimits }> = async (
  app,
  options,
) => {
  const { viewer, runs, optionalAuth } = options;
  const { limits } = options;
  const tags = ['sharing (public)'];

  // Token-bearing URLs must not leak through Referer, and shared data must not sit in shared caches.
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('referrer-policy', 'no-referrer');
    void reply.header('x-content-type-options', 'nosniff');
  });

  const logFailures = (request: FastifyRequest, failures: ChartFailure[]) => {
    for (const { chartId, error } of failures) request.log.warn({ err: error, chartId }, 'shared chart could not be computed');
  };

  app.get(
    '/chart/share/:share_string',
    {
      config: { rateLimit: { max: limits.share, timeWindow: MINUTE } },
      schema: {
        tags,
        operationId: 'getSharedChart',
        summary: 'A shared chart for embedding: needs a share token of its chart policy, unless the chart is public',
        security: [],
        params: SharedChartParams,
        querystring: SharedChartQuery,
        response: { 200: Ref(SharedChart) },
      },
    },
    async (request) => {
      const failures: ChartFailure[] = [];
      try {
        return await viewer.chart(request.params.share_string, { token: request.query.token, theme: request.query.theme, query: request.query, client: request.ip }, failures);
      } finally {
        logFailures(request, failures);
      }
    },
  );

  app.get(
    '/project/dashboard/:brewName',
    {
      config: { rateLimit: { max: limits.share, timeWindow: MINUTE } },
      schema: {
        tags,
        operationId: 'getSharedDashboard',
        summary: 'A shared dashboard with its report charts and their data: needs a share token unless public; the password in the "pass" header when protected',
        security: [],
        params: SharedDashboardParams,
        querystring: SharedChartQuery,
        headers: SharedDashboardHeaders,
        response: { 200: Ref(SharedDashboard) },
      },
    },
    async (request) => {
      const failures: ChartFailure[] = [];
      try {
        return await viewer.dashboard(
          request.params.brewName,
          { token: request.query.token, theme: request.query.theme, password: request.headers.pass, query: request.query, client: request.ip },
          failures,
        );
      } finally {
        logFailures(request, failures);
      }
    },
  );

  /** Whether an answer came from the result cache, for clients and tests (`hit`, `miss`, `stale`, `bypass`). */
  const cacheHeader = (reply: FastifyReply, status: string | undefined) => {
    if (status !== undefined) void reply.header('x-plotline-cache', status);
  };

  app.post(
    '/project/:project_id/chart/:id/filter',
    {
      // A member is known before the rate limit counts, so they are counted as a member.
      onRequest: optionalAuth,
      config: { rateLimit: { max: (request: FastifyRequest) => (request.actor ? limits.authenticated : limits.share), timeWindow: MINUTE } },
      schema: {
        tags: ['dashboard filters'],
        operationId: 'filterChart',
        summary:
          'The chart computed for a filter state, never saved. Members with read rights (bearer token); viewers of a shared report: the token (query or body) and password ("pass" header or body) of the report, report charts only, report filters only',
        security: [{ bearerAuth: [] }, {}],
        params: Type.Object({ project_id: Id, id: Id }),
        querystring: SharedChartQuery,
        headers: SharedDashboardHeaders,
        body: Ref(FilterChartRun, { examples: [filterExample] }),
        response: { 200: Type.Union([Ref(FilteredChart), Ref(SharedFilteredChart)]) },
      },
    },
    async (request, reply) => {
      const failures: ChartFailure[] = [];
      try {
        const { body, query } = request;
        const input = { filters: body.filters, variables: body.variables };
        const view = { token: query.token ?? body.token, password: request.headers.pass ?? body.password, query, client: request.ip };
        const chart = await runs.chartForCaller(request.actor, request.params.project_id, request.params.id, input, view, failures);
        cacheHeader(reply, chart.cacheStatus);
        return chart;
      } finally {
        logFailures(request, failures);
      }
    },
  );

  app.post(
    '/project/dashboard/:brewName/filter',
    {
      config: { rateLimit: { max: limits.share, timeWindow: MINUTE } },
      schema: {
        tags,
        operationId: 'filterSharedDashboard',
        summary:
          "A shared report's charts (or those of chartIds) computed for the viewer's states of the report's filters, never saved: token (query or body) and password (\"pass\" header or body) as for the report",
        security: [],
        params: SharedDashboardParams,
        querystring: SharedChartQuery,
        headers: SharedDashboardHeaders,
        body: Ref(SharedFilterDashboardRun, { examples: [filterExample] }),
        response: { 200: Ref(SharedFilteredCharts) },
      },
    },
    async (request) => {
      const failures: ChartFailure[] = [];
      try {
        const { body, query } = request;
        const input = { filters: body.filters, variables: body.variables, chartIds: body.chartIds };
        const view = { token: query.token ?? body.token, password: request.headers.pass ?? body.password, query, client: request.ip };
        return await viewer.filterDashboard(request.params.brewName, view, input, failures);
      } finally {
        logFailures(request, failures);
      }
    },
  );

  app.get(
    '/project/dashboard/:brewName/filter/:fid/values',
    {
      config: { rateLimit: { max: limits.share, timeWindow: MINUTE } },
      schema: {
        tags,
        operationId: 'getSharedFilterValues',
        summary: "The values a shared report's filter offers in its dropdown (a report filter with valuesFrom): token and password as for the report",
        security: [],
        params: Type.Object({ brewName: SharedDashboardParams.properties.brewName, fid: FilterId }),
        querystring: Type.Object({ ...SharedChartQuery.properties, search: ValuesQuery.properties.search, limit: ValuesQuery.properties.limit }),
        headers: SharedDashboardHeaders,
        response: { 200: Ref(DatasetValuesResponse) },
      },
    },
    async (request) => {
      const { query } = request;
      const view = { token: query.token, password: request.headers.pass, query: {}, client: request.ip };
      return viewer.filterValues(request.params.brewName, request.params.fid, view, { search: query.search, limit: query.limit });
    },
  );
};
