/**
 * The data-source layer's public surface. The service layer builds one registry in the
 * composition root (`createSourceRegistry`), resolves variables, runs, joins, and closes pools
 * through it; nothing here knows about teams, users or HTTP routes.
 */
import { ApiSource, type ApiSourceOptions } from './api/api-source.js';
import { MongoSource, type MongoSourceOptions } from './mongodb/mongodb-source.js';
import { MysqlSource, type MysqlSourceOptions } from './mysql/mysql-source.js';
import { OutboundPolicy, type HostLookup } from './outbound/address-policy.js';
import { OutboundClient } from './outbound/http-client.js';
import { PoolManager } from './pool-manager.js';
import { PostgresSource, type PostgresSourceOptions } from './postgres/postgres-source.js';
import { SourceRegistry, type SourceProvider } from './registry.js';

export interface SourceRegistryOptions {
  /** `config.allowPrivateHosts` (PLOTLINE_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts?: readonly string[];
  /** Name resolution for HTTP sources (tests). */
  lookup?: HostLookup;
  pools?: PoolManager;
  postgres?: PostgresSourceOptions;
  mysql?: MysqlSourceOptions;
  mongodb?: MongoSourceOptions;
  api?: ApiSourceOptions;
}

/** Managed services talk TLS by default; `ssl: false` on the connection still turns it off. */
const MANAGED_TLS: Partial<SourceProvider['defaults']> = { ssl: true, sslMode: 'require' };

export const POSTGRES_PROVIDERS: SourceProvider[] = [
  { type: 'postgres', subType: 'postgres', name: 'PostgreSQL', category: 'database' },
  { type: 'postgres', subType: 'timescaledb', name: 'TimescaleDB', category: 'database', defaults: MANAGED_TLS },
  { type: 'postgres', subType: 'supabasedb', name: 'Supabase', category: 'database', defaults: MANAGED_TLS },
  { type: 'postgres', subType: 'rdsPostgres', name: 'Amazon RDS for PostgreSQL', category: 'database', defaults: MANAGED_TLS },
];
export const MYSQL_PROVIDERS: SourceProvider[] = [
  { type: 'mysql', subType: 'mysql', name: 'MySQL / MariaDB', category: 'database' },
  { type: 'mysql', subType: 'rdsMysql', name: 'Amazon RDS for MySQL', category: 'database', defaults: MANAGED_TLS },
];
export const MONGODB_PROVIDERS: SourceProvider[] = [{ type: 'mongodb', subType: 'mongodb', name: 'MongoDB', category: 'database' }];
export const API_PROVIDERS: SourceProvider[] = [
  { type: 'api', subType: 'api', name: 'HTTP API', category: 'api' },
  { type: 'api', subType: 'strapi', name: 'Strapi', category: 'api' },
  { type: 'api', subType: 'stripe', name: 'Stripe', category: 'api', defaults: { host: 'https://api.stripe.com' } },
];

export function createSourceRegistry(options: SourceRegistryOptions = {}): SourceRegistry {
  const pools = options.pools ?? new PoolManager();
  const policy = new OutboundPolicy({ allowPrivateHosts: options.allowPrivateHosts ?? [], ...(options.lookup ? { lookup: options.lookup } : {}) });
  const http = new OutboundClient(policy, { maxBytes: options.api?.maxResponseBytes });
  return new SourceRegistry(pools)
    .register(new PostgresSource(pools, options.postgres), POSTGRES_PROVIDERS)
    .register(new MysqlSource(pools, options.mysql), MYSQL_PROVIDERS)
    .register(new MongoSource(pools, options.mongodb), MONGODB_PROVIDERS)
    .register(new ApiSource(http, options.api), API_PROVIDERS)
    .onClose(() => http.close());
}

export { SourceRegistry, type ProviderInfo, type SourceProvider } from './registry.js';
export { PoolManager } from './pool-manager.js';
export { OutboundPolicy, classifyAddress, type HostLookup } from './outbound/address-policy.js';
export { OutboundClient } from './outbound/http-client.js';
export { resolveVariables, variableValues, NO_VARIABLES, type VariableInputs } from './variables/resolve.js';
export { joinResults, parseFieldPath, type JoinSpec } from './join.js';
export { collectRows } from './row-stream.js';
export { compileSql } from './variables/sql.js';
export * from './errors.js';
export type * from './types.js';
export { DEFAULT_BATCH_SIZE, DEFAULT_ROW_LIMIT, DEFAULT_TIMEOUT_MS } from './types.js';
