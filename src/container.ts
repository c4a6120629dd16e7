import { Redis } from 'ioredis';
import type { Config } from './config/index.js';
import { SecretBox } from './crypto/secrets.js';
import { ApiKeysRepository } from './modules/api-keys/repository.js';
import { ApiKeysService } from './modules/api-keys/service.js';
import { TeamsRepository } from './modules/teams/repository.js';
import { TeamsService } from './modules/teams/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { UsersService } from './modules/users/service.js';
import { AccessService } from './platform/access.js';
import { createStore, migrateToLatest, type Store } from './store/index.js';

/** The composition root: every long-lived object is built here and nowhere else. */
export interface Container {
  readonly config: Config;
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly redis: Redis | undefined;
  readonly access: AccessService;
  readonly users: UsersService;
  readonly teams: TeamsService;
  readonly apiKeys: ApiKeysService;
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** Use this store instead of the one the config names (tests). */
  store?: Store;
  /** Run migrations before returning (default true). */
  migrate?: boolean;
}

export async function createContainer(config: Config, options: ContainerOptions = {}): Promise<Container> {
  const store = options.store ?? createStore(config.database);
  if (options.migrate !== false) await migrateToLatest(store);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;

  const usersRepo = new UsersRepository(store.db);
  const teamsRepo = new TeamsRepository(store.db);
  const apiKeysRepo = new ApiKeysRepository(store.db);
  const access = new AccessService(teamsRepo);

  return {
    config,
    store,
    secrets: new SecretBox(config.encryptionKey, config.previousEncryptionKeys),
    redis,
    access,
    users: new UsersService(store.db, usersRepo, teamsRepo, apiKeysRepo, config.signup),
    teams: new TeamsService(store.db, teamsRepo, usersRepo, access),
    apiKeys: new ApiKeysService(apiKeysRepo, teamsRepo, access),
    async close() {
      await redis?.quit().catch(() => undefined);
      await store.close();
    },
  };
}
