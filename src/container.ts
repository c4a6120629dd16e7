import { pino, type Logger } from 'pino';
import type { Config } from './config/index.js';
import { SecretBox } from './crypto/secrets.js';
import { PasswordHasher, type PasswordHashing } from './crypto/passwords.js';
import { ApiKeysRepository } from './modules/identity/api-keys-repository.js';
import { ApiKeysService } from './modules/identity/api-keys-service.js';
import { ConnectionsRepository } from './modules/data/connections-repository.js';
import { ConnectionsService } from './modules/data/connections-service.js';
import { ChartsRepository } from './modules/dashboards/charts-repository.js';
import { ChartsService } from './modules/dashboards/charts-service.js';
import { ChartTemplatesRepository } from './modules/dashboards/chart-templates-repository.js';
import { ChartTemplatesService } from './modules/dashboards/chart-templates-service.js';
import { DashboardTemplatesRepository } from './modules/dashboards/dashboard-templates-repository.js';
import { DashboardTemplatesService } from './modules/dashboards/dashboard-templates-service.js';
import { ProjectsRepository } from './modules/dashboards/projects-repository.js';
import { ProjectsService } from './modules/dashboards/projects-service.js';
import { DashboardViews } from './modules/dashboards/dashboard-views.js';
import { DashboardFiltersRepository } from './modules/dashboards/dashboard-filters-repository.js';
import { DashboardFiltersService } from './modules/dashboards/dashboard-filters-service.js';
import { FilterRunsService } from './modules/dashboards/dashboard-filter-runs.js';
import { ImageTokens } from './modules/dashboards/image-tokens.js';
import { PictureMetrics } from './modules/dashboards/picture-metrics.js';
import { SnapshotsService } from './modules/dashboards/snapshots-service.js';
import { SharingRepository } from './modules/dashboards/sharing-repository.js';
import { SharingService } from './modules/dashboards/sharing-service.js';
import { ShareTokens } from './modules/dashboards/share-tokens.js';
import { ExportService } from './modules/automation/exports-service.js';
import { DEFAULT_VIEWER_CONCURRENCY, SHARE_PASSWORD_WINDOW_MS, ShareViewer, type ViewerSettings } from './modules/dashboards/share-viewer.js';
import { DataRequestsRepository } from './modules/data/data-requests-repository.js';
import { DataRequestsService } from './modules/data/data-requests-service.js';
import { DatasetsRepository } from './modules/data/datasets-repository.js';
import { DatasetsService } from './modules/data/datasets-service.js';
import { TeamsRepository } from './modules/identity/teams-repository.js';
import { TeamsService } from './modules/identity/teams-service.js';
import { UsersRepository } from './modules/identity/users-repository.js';
import { UsersService } from './modules/identity/users-service.js';
import { InvitationsRepository } from './modules/identity/invitations-repository.js';
import { InvitationsService } from './modules/identity/invitations-service.js';
import { ChartPreviewService } from './modules/dashboards/chart-preview.js';
import { ChartRunService } from './modules/dashboards/chart-runs-service.js';
import { DatasetRunner } from './modules/data/dataset-runner.js';
import { DatasetRunsService } from './modules/data/dataset-runs-service.js';
import { DatasetValuesService } from './modules/data/dataset-values-service.js';
import { ConnectionChecks } from './modules/data/connection-checks.js';
import { AccessService } from './platform/access.js';
import { loggerOptions } from './platform/logging.js';
import { Mailer } from './platform/mailer.js';
import { AttemptBudget } from './platform/rate-limit.js';
import { DataPathMetrics } from './platform/data-metrics.js';
import { MemoryResultCache, RedisResultCache, type CacheStatus, type ResultCache } from './runtime/cache/index.js';
import type { RedisLink } from './runtime/redis-link.js';
import { InProcessDispatcher, type Delivery, type Dispatcher, type RefreshJob } from './runtime/scheduler/dispatch.js';
import { RefreshMetrics } from './runtime/scheduler/metrics.js';
import { Scheduler } from './runtime/scheduler/scheduler.js';
import { RefreshRepository } from './modules/automation/refreshes-repository.js';
import { AlertNotifier } from './modules/automation/alerts-notifier.js';
import { AlertsRepository } from './modules/automation/alerts-repository.js';
import { AlertsService } from './modules/automation/alerts-service.js';
import { IntegrationsRepository } from './modules/automation/integrations-repository.js';
import { IntegrationsService } from './modules/automation/integrations-service.js';
import { SavedQueriesRepository } from './modules/data/saved-queries-repository.js';
import { SavedQueriesService } from './modules/data/saved-queries-service.js';
import { OutboundClient, OutboundPolicy } from './sources/index.js';
import { RefreshService } from './modules/automation/refreshes-service.js';
import { DeliveriesRepository } from './modules/automation/deliveries-repository.js';
import { DeliveriesService } from './modules/automation/deliveries-service.js';
import { DeliveryLinks } from './modules/automation/deliveries-links.js';
import { DeliveryMetrics } from './modules/automation/deliveries-metrics.js';
import type { DeliveryPictures } from './modules/automation/deliveries-pictures.js';
import { DeliveryRunner } from './modules/automation/deliveries-runner.js';
import { DeliveryScheduler } from './modules/automation/deliveries-scheduler.js';
import { createSourceRegistry, type SourceRegistry, type SourceRegistryOptions } from './sources/index.js';
import { createStore, migrateToLatest, type Store } from './store/index.js';

/**
 * How often a delivery in progress reports that its process is alive, besides each send: once a
 * minute, as the scheduler ticks; PLOTLINE_DELIVERY_LEASE_MS is at least three times that.
 */
const DELIVERY_HEARTBEAT_MS = 60_000;

/** The composition root: every long-lived object is built here and nowhere else. */
export interface Container {
  readonly config: Config;
  /** For work outside a request (background refreshes); requests log through Fastify's logger. */
  readonly logger: Logger;
  readonly store: Store;
  readonly secrets: SecretBox;
  /** Users' and dashboards' passwords. */
  readonly passwords: PasswordHasher;
  /** Redis when `REDIS_URL` is set: a cache and coordination layer the service runs without. */
  readonly redis: RedisLink | undefined;
  readonly access: AccessService;
  readonly users: UsersService;
  readonly teams: TeamsService;
  readonly invitations: InvitationsService;
  readonly apiKeys: ApiKeysService;
  readonly datasets: DatasetsService;
  readonly dataRequests: DataRequestsService;
  readonly projects: ProjectsService;
  readonly charts: ChartsService;
  readonly dashboardFilters: DashboardFiltersService;
  /** Runs with a runtime filter state (members'; viewers' go through the share viewer). */
  readonly filterRuns: FilterRunsService;
  readonly chartTemplates: ChartTemplatesService;
  readonly dashboardTemplates: DashboardTemplatesService;
  readonly sharing: SharingService;
  readonly shareViewer: ShareViewer;
  readonly connections: ConnectionsService;
  readonly sources: SourceRegistry;
  /** Data-path metrics (source runs, cache answers, pools), registered by each app at /metrics. */
  readonly metrics: DataPathMetrics;
  readonly cache: ResultCache;
  readonly runner: DatasetRunner;
  readonly datasetRuns: DatasetRunsService;
  /** Distinct values of a dataset's field, for filter dropdowns. */
  readonly datasetValues: DatasetValuesService;
  readonly connectionChecks: ConnectionChecks;
  readonly chartRuns: ChartRunService;
  readonly chartPreviews: ChartPreviewService;
  readonly refreshes: RefreshService;
  readonly alerts: AlertsService;
  readonly integrations: IntegrationsService;
  readonly savedQueries: SavedQueriesService;
  readonly refreshMetrics: RefreshMetrics;
  /** Started by `serve` (PLOTLINE_SCHEDULER=on) and `worker`; tests tick it by hand. */
  readonly scheduler: Scheduler;
  readonly exports: ExportService;
  /** Scheduled deliveries of dashboards and charts (subscriptions). */
  readonly deliveries: DeliveriesService;
  readonly deliveryMetrics: DeliveryMetrics;
  /** Started with the refresh scheduler (PLOTLINE_SCHEDULER=on, `worker`); tests tick it by hand. */
  readonly deliveryScheduler: DeliveryScheduler;
  /** Pictures of charts and dashboards (PNG, SVG, PDF) and signed links to them. */
  readonly snapshots: SnapshotsService;
  readonly pictureMetrics: PictureMetrics;
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** Use this store instead of the one the config names (tests). */
  store?: Store;
  /** Run migrations before returning (default true). */
  migrate?: boolean;
  /** Source registry options (tests inject name resolution for HTTP sources). */
  sources?: Omit<SourceRegistryOptions, 'allowPrivateHosts'>;
  logger?: Logger;
  /**
   * Scheduler seams for tests: the clock, the tick interval, the queue's key prefix in Redis, and
   * the wall-clock timer of a delivery's heartbeat (0: none; sends and ticks still report).
   */
  scheduler?: { clock?: () => Date; tickMs?: number; queuePrefix?: string; deliveryHeartbeatMs?: number };
  /** A cheaper scrypt cost for tests (with `allowWeak`); never passed by main.ts or the CLI, refused with NODE_ENV=production. */
  passwordHashing?: PasswordHashing;
}

export async function createContainer(config: Config, options: ContainerOptions = {}): Promise<Container> {
  // First: a refused cost stops the container before it opens anything.
  const passwords = new PasswordHasher(options.passwordHashing);
  const store = options.store ?? createStore(config.database);
  if (options.migrate !== false) await migrateToLatest(store);
  // Logins for unknown e-mails compare against this hash; computed now so the first such login
  // after boot takes as long as a wrong password, not a hash computation longer.
  await passwords.dummyHash();
  const logger = options.logger ?? pino(loggerOptions(config.logLevel));
  // ioredis (like BullMQ below) is loaded only when Redis is configured.
  const redis = config.redisUrl ? new (await import('./runtime/redis-link.js')).RedisLink(config.redisUrl, logger) : undefined;
  const secrets = new SecretBox(config.encryptionKey, config.previousEncryptionKeys);
  const pool = { maxConnections: config.sourcePool.size, queueLimit: config.sourcePool.queueLimit, waitTimeoutMs: config.sourcePool.waitTimeoutMs };
  const sources = createSourceRegistry({
    endpoints: config.sourceEndpoints,
    ...options.sources,
    postgres: { ...pool, ...options.sources?.postgres },
    mysql: { ...pool, ...options.sources?.mysql },
    allowPrivateHosts: config.allowPrivateHosts,
  });
  const dataPath = new DataPathMetrics(() => sources.pools.stats());
  const cacheHooks = {
    onResult: (key: string, status: CacheStatus) => dataPath.cacheResult(key, status),
  };
  const cache: ResultCache = redis ? new RedisResultCache(redis, cacheHooks) : new MemoryResultCache({ ...cacheHooks, maxBytes: config.cacheMaxBytes });
  // Every source run: metrics, and one structured log line with the connection id and duration.
  sources.observe((event) => {
    dataPath.sourceRun(event);
    logger.info({ event: 'source_run', ...event }, 'source run');
  });
  const cachePolicy = { cacheTtlMs: config.cacheTtlMs, cacheStaleMs: config.cacheStaleMs };

  // Repositories: SQL only.
  const usersRepo = new UsersRepository(store.db);
  const teamsRepo = new TeamsRepository(store.db);
  const apiKeysRepo = new ApiKeysRepository(store.db);
  const projectsRepo = new ProjectsRepository(store.db);
  const chartsRepo = new ChartsRepository(store.db);
  const sharingRepo = new SharingRepository(store.db);
  const filtersRepo = new DashboardFiltersRepository(store.db);
  const datasetsRepo = new DatasetsRepository(store.db);
  const dataRequestsRepo = new DataRequestsRepository(store.db, secrets);

  // Services: rules, authorization, transactions.
  const access = new AccessService(teamsRepo);
  const clock = options.scheduler?.clock ?? (() => new Date());
  const views = new DashboardViews({ charts: chartsRepo, filters: filtersRepo, sharing: sharingRepo });
  const projects = new ProjectsService({ db: store.db, projects: projectsRepo, charts: chartsRepo, sharing: sharingRepo, views, access, passwords, clock });
  const charts = new ChartsService({ db: store.db, charts: chartsRepo, projects, sharing: sharingRepo });
  const connections = new ConnectionsService({ db: store.db, connections: new ConnectionsRepository(store.db), datasets: datasetsRepo, secrets, access });
  // A changed or deleted connection must not keep serving from a pool built with its old settings.
  connections.onChange((change) => sources.invalidate(change.connectionId));
  const datasets = new DatasetsService({ db: store.db, datasets: datasetsRepo, requests: dataRequestsRepo, connections, access });
  const dashboardTemplates = new DashboardTemplatesService({ templates: new DashboardTemplatesRepository(store.db), charts, projects, access });
  const dashboardFilters = new DashboardFiltersService({ filters: filtersRepo, projects, charts: chartsRepo, datasets });
  const connectionChecks = new ConnectionChecks({ access, connections, registry: sources, log: logger });
  const runner = new DatasetRunner({
    registry: sources,
    connections,
    checks: connectionChecks,
    requests: dataRequestsRepo,
    cache,
    settings: { timeoutMs: config.queryTimeoutMs, rowLimit: config.rowLimit, byteLimit: config.resultMaxBytes, ...cachePolicy },
  });
  const chartRuns = new ChartRunService({
    charts,
    datasets,
    runner,
    cache,
    settings: { ...cachePolicy, pushdown: config.chartPushdown, chartRowLimit: config.chartRowLimit, rowLimit: config.rowLimit, byteLimit: config.resultMaxBytes },
  });
  const shareTokens = new ShareTokens(config.shareSecret);
  // One budget of dashboard password attempts per address and dashboard, for every route that takes a password.
  const passwordAttempts = new AttemptBudget(redis, { max: config.sharePasswordAttempts, windowMs: SHARE_PASSWORD_WINDOW_MS, prefix: 'plotline:share-password:' });
  const viewerSettings: ViewerSettings = {};
  const datasetValues = new DatasetValuesService({
    datasets,
    records: datasetsRepo,
    runner,
    cache,
    settings: { ...cachePolicy, pushdown: config.chartPushdown, chartRowLimit: config.chartRowLimit },
  });
  const shareViewer = new ShareViewer({ sharing: sharingRepo, tokens: shareTokens, projects, charts, filters: dashboardFilters, values: datasetValues, access, computer: chartRuns, passwordAttempts, settings: viewerSettings });
  const filterRuns = new FilterRunsService({ charts, projects, chartRuns, viewer: shareViewer, settings: { concurrency: viewerSettings.concurrency ?? DEFAULT_VIEWER_CONCURRENCY } });
  const pictureMetrics = new PictureMetrics();
  const snapshots = new SnapshotsService({
    projects,
    charts,
    chartRuns,
    filterRuns,
    filters: dashboardFilters,
    access,
    // Image links are signed with the share secret, as another kind of token (image-tokens.ts).
    tokens: new ImageTokens(config.shareSecret),
    metrics: pictureMetrics,
    baseUrl: config.baseUrl,
    concurrency: viewerSettings.concurrency ?? DEFAULT_VIEWER_CONCURRENCY,
    clock,
  });

  // Refreshes: history, the scheduler and where its work runs (this process, or BullMQ with Redis).
  const refreshMetrics = new RefreshMetrics();
  const refreshRepo = new RefreshRepository(store.db);
  // Alert webhooks leave through the same address policy as HTTP sources.
  const alertPolicy = new OutboundPolicy({ allowPrivateHosts: config.allowPrivateHosts });
  const alertHttp = new OutboundClient(alertPolicy, { maxBytes: 64 * 1024 });
  // One SMTP sender for alert e-mail and team invitations.
  const mailer = new Mailer({ url: config.smtpUrl, from: config.smtpFrom });
  const notifier = new AlertNotifier({ http: alertHttp, policy: alertPolicy, mailer });
  const integrations = new IntegrationsService({ integrations: new IntegrationsRepository(store.db), access, secrets, notifier });
  // Deliveries and alerts draw through the snapshots service (a narrow port of theirs).
  const pictures: DeliveryPictures = snapshots;
  const alerts = new AlertsService({ alerts: new AlertsRepository(store.db), charts, access, secrets, notifier, integrations, clock, logger, pictures });
  const refreshes = new RefreshService({
    history: refreshRepo,
    charts,
    projects,
    chartRuns,
    alerts,
    metrics: refreshMetrics,
    settings: { chartConcurrency: config.refreshConcurrency, clock },
    logger,
  });
  const execute = (job: RefreshJob, delivery: Delivery) => refreshes.run(job, delivery);
  // BullMQ is loaded only when Redis is configured (it is a heavy import for every CLI command).
  const dispatcher: Dispatcher = config.redisUrl
    ? new (await import('./runtime/scheduler/bullmq-dispatcher.js')).BullmqDispatcher(execute, { redisUrl: config.redisUrl, prefix: options.scheduler?.queuePrefix ?? 'plotline', concurrency: config.refreshConcurrency, logger })
    : new InProcessDispatcher(execute, config.refreshConcurrency, logger);
  const scheduler = new Scheduler(refreshRepo, dispatcher, {
    clock,
    tickMs: options.scheduler?.tickMs ?? 60_000,
    historyDays: config.runHistoryDays,
    logger,
    metrics: refreshMetrics,
  });

  // Deliveries: subscriptions, their runs and their own tick beside the refresh scheduler.
  const deliveriesRepo = new DeliveriesRepository(store.db);
  const deliveryMetrics = new DeliveryMetrics();
  const deliveryLinks = new DeliveryLinks(config.shareSecret, config.baseUrl);
  const deliveryRunner = new DeliveryRunner({
    deliveries: deliveriesRepo,
    projects,
    charts,
    refreshes,
    pictures,
    notifier,
    integrations,
    access,
    secrets,
    links: deliveryLinks,
    metrics: deliveryMetrics,
    settings: { attempts: config.deliveries.attempts, backoffMs: config.deliveries.backoffMs, clock, heartbeatMs: options.scheduler?.deliveryHeartbeatMs ?? DELIVERY_HEARTBEAT_MS },
    logger,
  });
  const deliveries = new DeliveriesService({
    deliveries: deliveriesRepo,
    projects,
    charts,
    access,
    secrets,
    notifier,
    integrations,
    runner: deliveryRunner,
    links: deliveryLinks,
    limits: { maxRecipients: config.deliveries.maxRecipients, maxPerTeam: config.deliveries.maxPerTeam },
    clock,
  });
  projects.useSnapshotSchedules({
    apply: (actor, project, value) => deliveries.applySnapshotSchedule(actor, project, value),
    read: (project, membership) => deliveries.readSnapshotSchedule(project, membership),
  });
  const deliveryScheduler = new DeliveryScheduler(deliveriesRepo, deliveryRunner, {
    clock,
    tickMs: options.scheduler?.tickMs ?? 60_000,
    historyDays: config.runHistoryDays,
    leaseMs: config.deliveries.leaseMs,
    metrics: deliveryMetrics,
    logger,
  });

  const users = new UsersService({ db: store.db, users: usersRepo, teams: teamsRepo, apiKeys: apiKeysRepo, passwords, signup: config.signup });
  const teams = new TeamsService({ db: store.db, teams: teamsRepo, users: usersRepo, access, apiKeys: apiKeysRepo });
  const invitations = new InvitationsService({
    db: store.db,
    invitations: new InvitationsRepository(store.db),
    teams: teamsRepo,
    users: usersRepo,
    teamsService: teams,
    usersService: users,
    access,
    mailer,
    appUrl: config.appUrl,
    clock,
  });

  return {
    config,
    logger,
    store,
    secrets,
    passwords,
    datasets,
    dataRequests: new DataRequestsService({ db: store.db, datasets, datasetVersions: datasetsRepo, requests: dataRequestsRepo }),
    redis,
    access,
    users,
    teams,
    invitations,
    apiKeys: new ApiKeysService({ keys: apiKeysRepo, teams: teamsRepo, access }),
    projects,
    charts,
    dashboardFilters,
    filterRuns,
    chartTemplates: new ChartTemplatesService({ templates: new ChartTemplatesRepository(store.db), charts, projects, access, dashboardTemplates }),
    dashboardTemplates,
    sharing: new SharingService({ sharing: sharingRepo, projects, charts, tokens: shareTokens, appUrl: config.appUrl }),
    shareViewer,
    connections,
    sources,
    metrics: dataPath,
    cache,
    runner,
    datasetRuns: new DatasetRunsService({ datasets, runner }),
    datasetValues,
    connectionChecks,
    chartRuns,
    chartPreviews: new ChartPreviewService({ charts, runs: chartRuns }),
    refreshes,
    alerts,
    integrations,
    savedQueries: new SavedQueriesService({ savedQueries: new SavedQueriesRepository(store.db), access }),
    refreshMetrics,
    scheduler,
    exports: new ExportService({ chartRuns, datasets, runner, viewer: shareViewer }),
    deliveries,
    deliveryMetrics,
    deliveryScheduler,
    snapshots,
    pictureMetrics,
    async close() {
      await deliveryScheduler.stop();
      await scheduler.stop();
      await mailer.close();
      await alertHttp.close();
      await sources.closeAll();
      await cache.close().catch(() => undefined);
      await redis?.close();
      await store.close();
    },
  };
}

