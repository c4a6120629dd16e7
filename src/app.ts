import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Container } from './container.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { dataRequestRoutes } from './modules/data-requests/routes.js';
import { datasetRoutes } from './modules/datasets/routes.js';
import { runRoutes } from './modules/runs/routes.js';
import { chartRunRoutes } from './modules/chart-runs/routes.js';
import { connectionRoutes } from './modules/connections/routes.js';
import { chartRoutes } from './modules/charts/routes.js';
import { projectRoutes } from './modules/projects/routes.js';
import { sharingRoutes } from './modules/sharing/routes.js';
import { publicShareRoutes } from './modules/sharing/public-routes.js';
import { pageRoutes } from './modules/pages/routes.js';
import { teamRoutes } from './modules/teams/routes.js';
import { publicUserRoutes, userRoutes } from './modules/users/routes.js';
import { bearerAuth } from './platform/auth.js';
import { installErrorHandling } from './platform/errors.js';
import { ErrorResponse } from './platform/http-schemas.js';
import { loggerOptions, requestId } from './platform/logging.js';
import { installMetrics } from './platform/metrics.js';
import { isMigrated, ping } from './store/index.js';
import { RateLimitedError } from './errors/index.js';

export interface AppOptions {
  /** Where log lines go (default stdout); tests pass a capture stream. */
  logStream?: DestinationStream;
  logLevel?: string;
  /** Requests per minute per client address: everything, and sign-up/login. */
  rateLimit?: { global: number; auth: number; share?: number; sharePassword?: number };
  defaultMetrics?: boolean;
}

export const BODY_LIMIT = 1024 * 1024;

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '429', '500'] as const;

function ajvFor(coerce: boolean): Ajv {
  // Bodies are never coerced ("1" is not a number, "yes" not a boolean); path and query strings are.
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats.default(ajv);
  return ajv;
}

/** Builds the Fastify app over a container. Never listens: the server and the tests decide that. */
export async function buildApp(container: Container, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? config.logLevel, options.logStream),
    genReqId: requestId,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    ajv: { customOptions: { coerceTypes: 'array' } },
    routerOptions: { maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const bodyAjv = ajvFor(false);
  const paramAjv = ajvFor(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema));

  // `Content-Type: application/json` with an empty body is accepted as "no body".
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });

  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.decorateRequest('actor', null);
  installErrorHandling(app);

  // Every route documents the error shape for its failure statuses.
  app.addHook('onRoute', (route) => {
    const schema: FastifySchema = (route.schema ??= {});
    const response = (schema.response ??= {}) as Record<string, unknown>;
    for (const status of ERROR_STATUSES) response[status] ??= ErrorResponse;
  });

  await app.register(cors, { origin: true, exposedHeaders: ['x-request-id'] });
  const limits = options.rateLimit ?? { global: 1200, auth: 20 };
  await app.register(rateLimit, {
    global: true,
    max: limits.global,
    timeWindow: 60_000,
    ...(container.redis ? { redis: container.redis, nameSpace: 'plotline:ratelimit:' } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plotline API',
        version: '1.0.0',
        description: 'Dashboard data service. Every success is HTTP 200; every error is `{error, code}`.',
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  installMetrics(app, { defaultMetrics: options.defaultMetrics ?? true });

  const ops = { tags: ['operations'], security: [] };
  app.get('/healthz', { schema: { ...ops, summary: 'Process is up' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { ...ops, summary: 'Store reachable and migrated' } }, async (_request, reply) => {
    try {
      await ping(container.store);
      if (!(await isMigrated(container.store))) return reply.status(503).send({ error: 'Migrations are pending', code: 'NOT_READY' });
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ error: 'Store is unreachable', code: 'NOT_READY' });
    }
  });

  await app.register(publicUserRoutes, { users: container.users, authLimit: { max: limits.auth, timeWindow: 60_000 } });
  await app.register(publicShareRoutes, { viewer: container.shareViewer, limits: { share: limits.share ?? config.shareRateLimit, ...(limits.sharePassword ? { password: limits.sharePassword } : {}) } });
  await app.register(pageRoutes, {});

  // Everything below needs a bearer token.
  const authenticate = bearerAuth(container.users);
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    await scope.register(userRoutes, { users: container.users });
    await scope.register(teamRoutes, { teams: container.teams });
    await scope.register(apiKeyRoutes, { apiKeys: container.apiKeys });
    await scope.register(datasetRoutes, { datasets: container.datasets });
    await scope.register(dataRequestRoutes, { dataRequests: container.dataRequests });
    await scope.register(runRoutes, { runs: container.runs });
    await scope.register(chartRunRoutes, { chartRuns: container.chartRuns });
    await scope.register(projectRoutes, { projects: container.projects });
    await scope.register(chartRoutes, { charts: container.charts });
    await scope.register(sharingRoutes, { sharing: container.sharing });
    await scope.register(connectionRoutes, { connections: container.connections });
  });

  return app;
}
