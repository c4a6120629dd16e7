import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Container } from './container.js';
import { apiKeyRoutes } from './modules/identity/api-keys-routes.js';
import { dataRequestRoutes } from './modules/data/data-requests-routes.js';
import { datasetRoutes } from './modules/data/datasets-routes.js';
import { datasetRunRoutes } from './modules/data/dataset-runs-routes.js';
import { datasetValuesRoutes } from './modules/data/dataset-values-routes.js';
import { chartPreviewRoutes } from './modules/dashboards/chart-preview-routes.js';
import { refreshRoutes } from './modules/automation/refreshes-routes.js';
import { deliveryRoutes } from './modules/automation/deliveries-routes.js';
import { publicDeliveryRoutes } from './modules/automation/deliveries-public-routes.js';
import { alertRoutes } from './modules/automation/alerts-routes.js';
import { integrationRoutes } from './modules/automation/integrations-routes.js';
import { savedQueryRoutes } from './modules/data/saved-queries-routes.js';
import { connectionRoutes } from './modules/data/connections-routes.js';
import { chartRoutes } from './modules/dashboards/charts-routes.js';
import { chartTemplateRoutes } from './modules/dashboards/chart-templates-routes.js';
import { dashboardTemplateRoutes } from './modules/dashboards/dashboard-templates-routes.js';
import { projectRoutes } from './modules/dashboards/projects-routes.js';
import { sharingRoutes } from './modules/dashboards/sharing-routes.js';
import { publicShareRoutes } from './modules/dashboards/sharing-public-routes.js';
import { pageRoutes } from './modules/dashboards/pages-routes.js';
import { exportRoutes, publicExportRoutes } from './modules/automation/exports-routes.js';
import { teamRoutes } from './modules/identity/teams-routes.js';
import { publicUserRoutes, userRoutes } from './modules/identity/users-routes.js';
import { invitationRoutes, publicInvitationRoutes } from './modules/identity/invitations-routes.js';
import { bearerAuth, optionalAuth } from './platform/auth.js';
import { publicImageRoutes, snapshotRoutes } from './modules/dashboards/snapshots-routes.js';
import { dashboardFilterRoutes } from './modules/dashboards/dashboard-filters-routes.js';
import { BrowserSessions } from './platform/session-cookie.js';
import { installErrorHandling } from './platform/errors.js';
import { ErrorResponse, ReadyResponse, Ref } from './platform/http-schemas.js';
import { loggerOptions, requestId } from './platform/logging.js';
import { installMetrics, metricsExposureWarning } from './platform/metrics.js';
import { lazySerializerFactory, lazyValidatorCompiler } from './platform/schema-compilers.js';
import { IGNORED_KEYS_KEYWORD } from './platform/write-bodies.js';
import { docsRoutes } from './platform/docs-page.js';
import { versionRoutes } from './platform/version-routes.js';
import { shareErrorResponses, unwrapBodyReferences } from './platform/openapi-compact.js';
import { discriminatorMappings } from './platform/openapi-discriminators.js';
import { clientErrorHandler, createHttpServer } from './platform/http-server.js';
import { failoverStore, rateLimitKey, rateLimitMax } from './platform/rate-limit.js';
import { COMPONENT_SCHEMAS } from './openapi-components.js';
import { isMigrated, ping } from './store/index.js';
import { RateLimitedError } from './errors/index.js';

export interface AppOptions {
  /** Where log lines go (default stdout); tests pass a capture stream. */
  logStream?: DestinationStream;
  logLevel?: string;
  /**
   * Requests per minute: `global` per client address on anonymous routes, `authenticated` per
   * caller (user or API key) on routes with a bearer token, `auth` per address on sign-up/login.
   */
  rateLimit?: { global: number; auth: number; authenticated?: number; share?: number };
  defaultMetrics?: boolean;
}

const BODY_LIMIT = 1024 * 1024;

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '429', '500'] as const;

/**
 * Every method a route of the API answers (test/http/cors.test.ts holds the routes to it), so that
 * a browser page on an allowed origin may call any of them, not only the preflight-free ones.
 */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function ajvFor(coerce: boolean): Ajv {
  // Bodies are never coerced ("1" is not a number, "yes" not a boolean); path and query strings are.
  // A `discriminator` (a union told apart by one property) validates only the branch it names, so
  // an error names the field of that branch rather than every branch's first mismatch.
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, discriminator: true });
  addFormats.default(ajv);
  // Write bodies (platform/write-bodies.ts) drop the read-only keys of their resource's answer.
  ajv.addKeyword({
    keyword: IGNORED_KEYS_KEYWORD,
    schemaType: 'array',
    modifying: true,
    validate: (keys: readonly string[], data: unknown) => {
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) for (const key of keys) Reflect.deleteProperty(data, key);
      return true;
    },
  });
  // The named schemas that route schemas refer to (`$ref: '<$id>#'`); compiled when first reached.
  ajv.addSchema([...COMPONENT_SCHEMAS]);
  return ajv;
}

/**
 * One access line per request, written when it is answered, with the request in it (Fastify writes
 * two: one on arrival, one on completion). Its other lines (errors, 404s) stay as they are.
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Builds the Fastify app over a container. Never listens: the server and the tests decide that. */
export async function buildApp(container: Container, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? config.logLevel, options.logStream),
    genReqId: requestId,
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    ajv: { customOptions: { coerceTypes: 'array' } },
    routerOptions: { maxParamLength: 500 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
    serverFactory: (handler) => createHttpServer(handler, config),
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // For the response serializers, and for /openapi.json, which publishes them as `components.schemas`.
  for (const schema of COMPONENT_SCHEMAS) app.addSchema(schema);

  const bodyAjv = ajvFor(false);
  const paramAjv = ajvFor(true);
  app.setValidatorCompiler(lazyValidatorCompiler((httpPart) => (httpPart === 'body' ? bodyAjv : paramAjv)));

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
  const errorBody = Ref(ErrorResponse);
  app.addHook('onRoute', (route) => {
    const schema: FastifySchema = (route.schema ??= {});
    const response = (schema.response ??= {}) as Record<string, unknown>;
    for (const status of ERROR_STATUSES) response[status] ??= errorBody;
  });

  // Requests carry bearer tokens, never the session cookie (no credentials mode): origins listed in
  // PLOTLINE_CORS_ORIGINS, or any with `*`, get the CORS headers; others get none and the browser refuses.
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? true : [...config.corsOrigins],
    methods: [...CORS_METHODS],
    exposedHeaders: ['x-request-id'],
  });
  const limits = options.rateLimit ?? { global: config.rateLimit.anonymous, auth: 20 };
  // The limit hook of a route runs after the authenticated scope's hook, so the caller is known.
  await app.register(rateLimit, {
    global: true,
    max: rateLimitMax({ anonymous: limits.global, authenticated: limits.authenticated ?? config.rateLimit.authenticated }),
    keyGenerator: rateLimitKey,
    timeWindow: 60_000,
    store: failoverStore(container.redis) as never,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plotline API',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description: 'Dashboard data service. Every success is HTTP 200; every error is `{error, code}`.',
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
    // A named schema keeps its `$id` as its name under `components.schemas` (the default is `def-<n>`).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // The error response every route documents, written once (it was half of the document).
    transformObject: (document) =>
      'openapiObject' in document ? discriminatorMappings(shareErrorResponses(unwrapBodyReferences(document.openapiObject))) : document.swaggerObject,
  });
  // `/docs` (Swagger UI) and `/openapi.json`, compressed and cached (src/platform/docs-page.ts).
  await docsRoutes(app);

  installMetrics(app, {
    defaultMetrics: options.defaultMetrics ?? true,
    dataPath: container.metrics,
    extra: [container.refreshMetrics.registry, container.deliveryMetrics.registry, container.pictureMetrics.registry],
    token: config.metricsToken,
  });

  const ops = { tags: ['operations'], security: [] };
  // Configuration the operator should fix; /readyz says so without changing its status.
  const exposed = metricsExposureWarning(config);
  const warnings = exposed ? { warnings: [exposed] } : {};
  const Status = { 200: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } };
  app.get('/healthz', { schema: { ...ops, operationId: 'getHealth', summary: 'Process is up', response: Status } }, async () => ({ status: 'ok' }));
  app.get(
    '/readyz',
    {
      schema: {
        ...ops,
        operationId: 'getReadiness',
        summary: 'Store reachable and migrated; Redis (optional) reported as ok or degraded; warnings about the configuration, if any',
        response: { 200: Ref(ReadyResponse), 503: errorBody },
      },
    },
    async (_request, reply) => {
      try {
        await ping(container.store);
        if (!(await isMigrated(container.store))) return reply.status(503).send({ error: 'Migrations are pending', code: 'NOT_READY' });
      } catch {
        return reply.status(503).send({ error: 'Store is unreachable', code: 'NOT_READY' });
      }
      // Redis is a cache and coordination layer: without it the service still answers (degraded).
      const redis = container.redis ? (container.redis.available ? ('ok' as const) : ('degraded' as const)) : ('disabled' as const);
      return { status: redis === 'degraded' ? ('degraded' as const) : ('ready' as const), checks: { store: 'ok' as const, redis }, ...warnings };
    },
  );

  const sessions = new BrowserSessions(config);
  const authLimit = { max: limits.auth, timeWindow: 60_000 };
  await app.register(publicUserRoutes, { users: container.users, sessions, authLimit });
  await app.register(publicInvitationRoutes, { invitations: container.invitations, authLimit });
  await app.register(versionRoutes);
  await app.register(publicShareRoutes, {
    viewer: container.shareViewer,
    runs: container.filterRuns,
    // The filter run of a report chart answers members and viewers alike: a caller is known when there is one.
    optionalAuth: optionalAuth(container.users, sessions),
    limits: { share: limits.share ?? config.shareRateLimit, authenticated: limits.authenticated ?? config.rateLimit.authenticated },
  });
  await app.register(publicExportRoutes, { exports: container.exports, rateLimit: limits.share ?? config.shareRateLimit });
  await app.register(publicDeliveryRoutes, { deliveries: container.deliveries, rateLimit: limits.share ?? config.shareRateLimit });
  await app.register(publicImageRoutes, { snapshots: container.snapshots, rateLimit: limits.share ?? config.shareRateLimit });
  await app.register(pageRoutes, {});

  // Everything below needs a bearer token.
  const authenticate = bearerAuth(container.users, sessions);
  await app.register(async (scope) => {
    scope.addHook('onRequest', authenticate);
    await scope.register(userRoutes, { users: container.users, sessions });
    await scope.register(teamRoutes, { teams: container.teams });
    await scope.register(invitationRoutes, { invitations: container.invitations });
    await scope.register(apiKeyRoutes, { apiKeys: container.apiKeys });
    await scope.register(datasetRoutes, { datasets: container.datasets });
    await scope.register(dataRequestRoutes, { dataRequests: container.dataRequests });
    await scope.register(datasetRunRoutes, { runs: container.datasetRuns });
    await scope.register(datasetValuesRoutes, { values: container.datasetValues });
    await scope.register(chartPreviewRoutes, { previews: container.chartPreviews });
    await scope.register(refreshRoutes, { refreshes: container.refreshes });
    await scope.register(alertRoutes, { alerts: container.alerts });
    await scope.register(deliveryRoutes, { deliveries: container.deliveries });
    await scope.register(integrationRoutes, { integrations: container.integrations });
    await scope.register(savedQueryRoutes, { savedQueries: container.savedQueries });
    await scope.register(projectRoutes, { projects: container.projects });
    await scope.register(chartRoutes, { charts: container.charts });
    await scope.register(dashboardFilterRoutes, { filters: container.dashboardFilters, runs: container.filterRuns });
    await scope.register(chartTemplateRoutes, { templates: container.chartTemplates });
    await scope.register(dashboardTemplateRoutes, { templates: container.dashboardTemplates });
    await scope.register(sharingRoutes, { sharing: container.sharing });
    await scope.register(connectionRoutes, { connections: container.connections, checks: container.connectionChecks });
    await scope.register(exportRoutes, { exports: container.exports });
    await scope.register(snapshotRoutes, { snapshots: container.snapshots });
  });

  return app;
}
