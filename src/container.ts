import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { Config } from './config/index.js';
import { SecretBox } from './crypto/secrets.js';
import { ApiKeysRepository } from './modules/api-keys/repository.js';
import { ApiKeysService } from './modules/api-keys/service.js';
import { ConnectionsRepository } from './modules/connections/repository.js';
import { ConnectionsService } from './modules/connections/service.js';
import { ChartsRepository } from './modules/charts/repository.js';
import { ChartsService } from './modules/charts/service.js';
import { ProjectsRepository } from './modules/projects/repository.js';
import { ProjectsService } from './modules/projects/service.js';
import { SharingRepository } from './modules/sharing/repository.js';
import { SharingService } from './modules/sharing/service.js';
import { ShareTokens } from './modules/sharing/tokens.js';
import { ShareViewer } from './modules/sharing/viewer.js';
import { DataRequestsRepository } from './modules/data-requests/repository.js';
import { DataRequestsService } from './modules/data-requests/service.js';
import { DatasetsRepository } from './modules/datasets/repository.js';
import { DatasetsService } from './modules/datasets/service.js';
import { TeamsRepository } from './modules/teams/repository.js';
import { TeamsService } from './modules/teams/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { UsersService } from './modules/users/service.js';
import { ChartRunService } from './modules/chart-runs/service.js';
import { DatasetRunner } from './modules/runs/dataset-runner.js';
import { RunsService } from './modules/runs/service.js';
import { AccessService } from './platform/access.js';
import { loggerOptions } from './platform/logging.js';
import { MemoryResultCache, RedisResultCache, type ResultCache } from './runtime/cache/index.js';
import { createSourceRegistry, type SourceRegistry, type SourceRegistryOptions } from './sources/index.js';
import { createStore, migrateToLatest, type Store } from './store/index.js';

/** The composition root: every long-lived object is built here and nowhere else. */
export interface Container {
  readonly config: Config;
  /** For work outside a request (background refreshes); requests log through Fastify's logger. */
  readonly logger: Logger;
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly redis: Redis | undefined;
  readonly access: AccessService;
  readonly users: UsersService;
  readonly teams: TeamsService;
  readonly apiKeys: ApiKeysService;
  readonly datasets: DatasetsService;
  readonly dataRequests: DataRequestsService;
  readonly projects: ProjectsService;
  readonly charts: ChartsService;
  readonly sharing: SharingService;
  readonly shareViewer: ShareViewer;
  readonly connections: ConnectionsService;
  readonly sources: SourceRegistry;
  readonly cache: ResultCache;
  readonly runner: DatasetRunner;
  readonly runs: RunsService;
  readonly chartRuns: ChartRunService;
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
}

export async function createContainer(config: Config, options: ContainerOptions = {}): Promise<Container> {
  const store = options.store ?? createStore(config.database);
  if (options.migrate !== false) await migrateToLatest(store);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;

  const logger = options.logger ?? pino(loggerOptions(config.logLevel));
  const secrets = new SecretBox(config.encryptionKey, config.previousEncryptionKeys);
  const cache: ResultCache = redis ? new RedisResultCache(redis) : new MemoryResultCache();
  const sources = createSourceRegistry({ ...options.sources, allowPrivateHosts: config.allowPrivateHosts });
  const cachePolicy = { cacheTtlMs: config.cacheTtlMs, cacheStaleMs: config.cacheStaleMs };

  // Repositories: SQL only.
  const usersRepo = new UsersRepository(store.db);
  const teamsRepo = new TeamsRepository(store.db);
  const apiKeysRepo = new ApiKeysRepository(store.db);
  const projectsRepo = new ProjectsRepository(store.db);
  const chartsRepo = new ChartsRepository(store.db);
  const sharingRepo = new SharingRepository(store.db);
  const datasetsRepo = new DatasetsRepository(store.db);
  const dataRequestsRepo = new DataRequestsRepository(store.db, secrets);

  // Services: rules, authorization, transactions.
  const access = new AccessService(teamsRepo);
  const projects = new ProjectsService(store.db, projectsRepo, chartsRepo, sharingRepo, access);
  const charts = new ChartsService(store.db, chartsRepo, projects, sharingRepo);
  const connections = new ConnectionsService(store.db, new ConnectionsRepository(store.db), secrets, access);
  // A changed or deleted connection must not keep serving from a pool built with its old settings.
  connections.onChange((change) => sources.invalidate(change.connectionId));
  const datasets = new DatasetsService(store.db, datasetsRepo, dataRequestsRepo, connections, access);
  const runner = new DatasetRunner(sources, connections, dataRequestsRepo, cache, { timeoutMs: config.queryTimeoutMs, rowLimit: config.rowLimit, ...cachePolicy }, logger);
  const chartRuns = new ChartRunService(charts, projectsRepo, datasetsRepo, runner, cache, { ...cachePolicy, pushdown: config.chartPushdown });
  const shareTokens = new ShareTokens(config.shareSecret);

  return {
    config,
    logger,
    store,
    secrets,
    datasets,
    dataRequests: new DataRequestsService(store.db, datasets, datasetsRepo, dataRequestsRepo),
    redis,
    access,
    users: new UsersService(store.db, usersRepo, teamsRepo, apiKeysRepo, config.signup),
    teams: new TeamsService(store.db, teamsRepo, usersRepo, access),
    apiKeys: new ApiKeysService(apiKeysRepo, teamsRepo, access),
    projects,
    charts,
    sharing: new SharingService(sharingRepo, projects, chartsRepo, shareTokens, config.appUrl),
    shareViewer: new ShareViewer(sharingRepo, shareTokens, projects, charts, teamsRepo, chartRuns, cache, cachePolicy),
    connections,
    sources,
    cache,
    runner,
    runs: new RunsService(access, connections, datasets, dataRequestsRepo, runner),
    chartRuns,
    async close() {
      await sources.closeAll();
      await cache.close().catch(() => undefined);
      await redis?.quit().catch(() => undefined);
      await store.close();
    },
  };
}
