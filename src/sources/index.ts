/**
 * The data-source layer's public surface. The service layer builds one registry in the
 * composition root (`createSourceRegistry`), resolves variables, runs, joins, and closes pools
 * through it; nothing here knows about teams, users or HTTP routes.
 */
import { ApiSource, type ApiSourceOptions } from './api/api-source.js';
import { CustomerioSource } from './customerio/customerio-source.js';
import { FirestoreSource } from './firestore/firestore-source.js';
import { GoogleTokens } from './google/google-auth.js';
import { GoogleAnalyticsSource } from './google-analytics/ga-source.js';
import { MongoSource, type MongoSourceOptions } from './mongodb/mongodb-source.js';
import { MysqlSource, type MysqlSourceOptions } from './mysql/mysql-source.js';
import { OutboundPolicy, type HostLookup } from './outbound/address-policy.js';
import { OutboundClient } from './outbound/http-client.js';
import { PoolManager } from './pool-manager.js';
import { PostgresSource, type PostgresSourceOptions } from './postgres/postgres-source.js';
import { RealtimeDbSource } from './realtimedb/realtimedb-source.js';
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
  /** Provider API bases (`config.sourceEndpoints`); the public endpoints by default. */
  endpoints?: Partial<ProviderEndpoints>;
  /** Clock for token expiry (tests). */
  now?: () => number;
}

export interface ProviderEndpoints {
  googleTokenUrl: string;
  firestoreUrl: string;
  gaDataUrl: string;
  gaAdminUrl: string;
  /** Unset: chosen by the connection's region. */
  customerioUrl: string | undefined;
}

export const DEFAULT_ENDPOINTS: ProviderEndpoints = {
  googleTokenUrl: 'https://oauth2.googleapis.com/token',
  firestoreUrl: 'https://firestore.googleapis.com',
  gaDataUrl: 'https://analyticsdata.googleapis.com',
  gaAdminUrl: 'https://analyticsadmin.googleapis.com',
  customerioUrl: undefined,
};

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
export const REALTIMEDB_PROVIDERS: SourceProvider[] = [{ type: 'realtimedb', subType: 'realtimedb', name: 'Firebase Realtime Database', category: 'database' }];
export const FIRESTORE_PROVIDERS: SourceProvider[] = [{ type: 'firestore', subType: 'firestore', name: 'Cloud Firestore', category: 'database' }];
export const CUSTOMERIO_PROVIDERS: SourceProvider[] = [{ type: 'customerio', subType: 'customerio', name: 'Customer.io', category: 'api' }];
export const GOOGLE_ANALYTICS_PROVIDERS: SourceProvider[] = [{ type: 'googleAnalytics', subType: 'googleAnalytics', name: 'Google Analytics', category: 'api' }];

export function createSourceRegistry(options: SourceRegistryOptions = {}): SourceRegistry {
  const pools = options.pools ?? new PoolManager();
  const policy = new OutboundPolicy({ allowPrivateHosts: options.allowPrivateHosts ?? [], ...(options.lookup ? { lookup: options.lookup } : {}) });
  const http = new OutboundClient(policy, { maxBytes: options.api?.maxResponseBytes });
  const endpoints = { ...DEFAULT_ENDPOINTS, ...options.endpoints };
  // One token cache for every Google source: a service account used by Firestore and the Realtime Database exchanges once per scope set.
  const googleTokens = new GoogleTokens(http, { tokenUrl: endpoints.googleTokenUrl, ...(options.now ? { now: options.now } : {}) });
  return new SourceRegistry(pools, policy)
    .register(new PostgresSource(pools, options.postgres), POSTGRES_PROVIDERS)
    .register(new MysqlSource(pools, options.mysql), MYSQL_PROVIDERS)
    .register(new MongoSource(pools, options.mongodb), MONGODB_PROVIDERS)
    .register(new ApiSource(http, options.api), API_PROVIDERS)
    .register(new RealtimeDbSource(http, googleTokens), REALTIMEDB_PROVIDERS)
    .register(new FirestoreSource(http, googleTokens, { baseUrl: endpoints.firestoreUrl }), FIRESTORE_PROVIDERS)
    .register(new GoogleAnalyticsSource(http, googleTokens, { dataUrl: endpoints.gaDataUrl, adminUrl: endpoints.gaAdminUrl }), GOOGLE_ANALYTICS_PROVIDERS)
    .register(new CustomerioSource(http, { baseUrl: endpoints.customerioUrl, ...(options.now ? { now: options.now } : {}) }), CUSTOMERIO_PROVIDERS)
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
