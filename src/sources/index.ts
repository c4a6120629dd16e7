/**
 * The data-source layer's public surface. The service layer builds one registry in the
 * composition root (`createSourceRegistry`), resolves variables, runs, joins, and closes pools
 * through it; nothing here knows about teams, users or HTTP routes.
 */
// Every source module (and the driver it imports) is loaded on the first use of its type: only
// types are imported here, so a process that never runs a MongoDB query never loads `mongodb`.
import type { ApiSourceOptions } from './api/api-source.js';
import { SOURCE_CAPABILITIES } from './capabilities.js';
import type { GoogleTokens } from './google/google-auth.js';
import { LazySource } from './lazy-source.js';
import type { MongoSourceOptions } from './mongodb/mongodb-source.js';
import type { MysqlSourceOptions } from './mysql/mysql-source.js';
import { OutboundPolicy, type HostLookup } from './outbound/address-policy.js';
import { OutboundClient } from './outbound/http-client.js';
import { PoolManager } from './pool-manager.js';
import type { PostgresSourceOptions } from './postgres/postgres-source.js';
import { providersOf } from './providers.js';
import { SourceRegistry } from './registry.js';

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

const DEFAULT_ENDPOINTS: ProviderEndpoints = {
  googleTokenUrl: 'https://oauth2.googleapis.com/token',
  firestoreUrl: 'https://firestore.googleapis.com',
  gaDataUrl: 'https://analyticsdata.googleapis.com',
  gaAdminUrl: 'https://analyticsadmin.googleapis.com',
  customerioUrl: undefined,
};

export function createSourceRegistry(options: SourceRegistryOptions = {}): SourceRegistry {
  const pools = options.pools ?? new PoolManager();
  const policy = new OutboundPolicy({ allowPrivateHosts: options.allowPrivateHosts ?? [], ...(options.lookup ? { lookup: options.lookup } : {}) });
  const http = new OutboundClient(policy, { maxBytes: options.api?.maxResponseBytes });
  const endpoints = { ...DEFAULT_ENDPOINTS, ...options.endpoints };
  const now = options.now ? { now: options.now } : {};
  // One token cache for every Google source: a service account used by Firestore and the Realtime Database exchanges once per scope set.
  let googleTokens: Promise<GoogleTokens> | undefined;
  const tokens = () =>
    (googleTokens ??= import('./google/google-auth.js').then(
      ({ GoogleTokens }) => new GoogleTokens(http, { tokenUrl: endpoints.googleTokenUrl, ...now }),
      (error: unknown) => {
        googleTokens = undefined;
        throw error;
      },
    ));
  const caps = SOURCE_CAPABILITIES;
  return new SourceRegistry(pools, policy)
    .register(
      new LazySource({
        type: 'postgres',
        name: 'PostgreSQL',
        capabilities: caps.postgres,
        packages: ['pg', 'pg-cursor'],
        load: async () => new (await import('./postgres/postgres-source.js')).PostgresSource(pools, options.postgres),
      }),
      providersOf('postgres'),
    )
    .register(
      new LazySource({
        type: 'mysql',
        name: 'MySQL',
        capabilities: caps.mysql,
        packages: ['mysql2'],
        load: async () => new (await import('./mysql/mysql-source.js')).MysqlSource(pools, options.mysql),
      }),
      providersOf('mysql'),
    )
    .register(
      new LazySource({
        type: 'mongodb',
        name: 'MongoDB',
        capabilities: caps.mongodb,
        packages: ['mongodb'],
        load: async () => new (await import('./mongodb/mongodb-source.js')).MongoSource(pools, options.mongodb),
      }),
      providersOf('mongodb'),
    )
    .register(
      new LazySource({
        type: 'api',
        name: 'HTTP API',
        capabilities: caps.api,
        packages: [],
        load: async () => new (await import('./api/api-source.js')).ApiSource(http, options.api),
      }),
      providersOf('api'),
    )
    .register(
      new LazySource({
        type: 'realtimedb',
        name: 'Firebase Realtime Database',
        capabilities: caps.realtimedb,
        packages: ['jose'],
        load: async () => new (await import('./realtimedb/realtimedb-source.js')).RealtimeDbSource(http, await tokens()),
      }),
      providersOf('realtimedb'),
    )
    .register(
      new LazySource({
        type: 'firestore',
        name: 'Cloud Firestore',
        capabilities: caps.firestore,
        packages: ['jose'],
        load: async () => new (await import('./firestore/firestore-source.js')).FirestoreSource(http, await tokens(), { baseUrl: endpoints.firestoreUrl }),
      }),
      providersOf('firestore'),
    )
    .register(
      new LazySource({
        type: 'googleAnalytics',
        name: 'Google Analytics',
        capabilities: caps.googleAnalytics,
        packages: ['jose'],
        load: async () =>
          new (await import('./google-analytics/ga-source.js')).GoogleAnalyticsSource(http, await tokens(), { dataUrl: endpoints.gaDataUrl, adminUrl: endpoints.gaAdminUrl }),
      }),
      providersOf('googleAnalytics'),
    )
    .register(
      new LazySource({
        type: 'customerio',
        name: 'Customer.io',
        capabilities: caps.customerio,
        packages: [],
        load: async () => new (await import('./customerio/customerio-source.js')).CustomerioSource(http, { baseUrl: endpoints.customerioUrl, ...now }),
      }),
      providersOf('customerio'),
    )
    .onClose(() => http.close());
}

export { SourceRegistry, type ProviderInfo } from './registry.js';
export * from './providers.js';
export { PoolManager } from './pool-manager.js';
export { OutboundPolicy, classifyAddress, type HostLookup } from './outbound/address-policy.js';
export { OutboundClient } from './outbound/http-client.js';
export { resolveVariables, variableValues, variablesWithoutValue, NO_VARIABLES, type VariableInputs } from './variables/resolve.js';
export { convertValue, isListType, MAX_LIST_LENGTH, VARIABLE_TYPES } from './variables/convert.js';
export { joinResults, joinResultsWithin, parseFieldPath, type JoinSpec } from './join.js';
export { collectRows } from './row-stream.js';
export { compileSql } from './variables/sql.js';
export { findPlaceholders } from './variables/placeholders.js';
export * from './errors.js';
export { LazySource, loadSource, type LazySourceSpec } from './lazy-source.js';
export type * from './types.js';
export { DEFAULT_BATCH_SIZE, DEFAULT_BYTE_LIMIT, DEFAULT_ROW_LIMIT, DEFAULT_TIMEOUT_MS } from './types.js';
