import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Ref } from '../../platform/http-schemas.js';
import { SharedChart, SharedChartParams, SharedChartQuery, SharedDashboard, SharedDashboardHeaders, SharedDashboardParams } from './sharing-public-schemas.js';
import type { ChartFailure, ShareViewer } from './share-viewer.js';

export interface PublicShareLimits {
  /** Requests per minute per client address, on each public share endpoint. */
  share: number;
}


const MINUTE = 60_000;

/**
 * The share endpoints anyone may call: no bearer (a client that sends one anyway is not refused,
 * the header is simply not read). Registered outside the authenticated scope. Dashboard password
 * attempts have their own budget, kept by the viewer for every route that carries a password.
 */
export const publicShareRoutes: FastifyPluginAsyncTypebox<{ viewer: ShareViewer; limits: PublicShareLimits }> = async (app, options) => {
  const { viewer } = options;
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
};
