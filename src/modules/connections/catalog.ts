/**
 * The connection types and sub-types of the interface spec, which family each sub-type belongs to,
 * and the provider list that `GET /connection-providers` answers.
 */
export const CONNECTION_TYPES = ['mongodb', 'api', 'mysql', 'postgres', 'realtimedb', 'firestore', 'googleAnalytics', 'customerio'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const CONNECTION_SUBTYPES = [
  'timescaledb',
  'supabasedb',
  'rdsPostgres',
  'rdsMysql',
  'api',
  'mongodb',
  'mysql',
  'postgres',
  'realtimedb',
  'firestore',
  'googleAnalytics',
  'customerio',
] as const;
export type ConnectionSubType = (typeof CONNECTION_SUBTYPES)[number];

export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** Hosted variants reuse their family's source; every other sub-type names its own type. */
const FAMILY: Record<ConnectionSubType, ConnectionType> = {
  timescaledb: 'postgres',
  supabasedb: 'postgres',
  rdsPostgres: 'postgres',
  rdsMysql: 'mysql',
  api: 'api',
  mongodb: 'mongodb',
  mysql: 'mysql',
  postgres: 'postgres',
  realtimedb: 'realtimedb',
  firestore: 'firestore',
  googleAnalytics: 'googleAnalytics',
  customerio: 'customerio',
};

export function familyOf(subType: ConnectionSubType): ConnectionType {
  return FAMILY[subType];
}

export function subTypesOf(type: ConnectionType): ConnectionSubType[] {
  return CONNECTION_SUBTYPES.filter((s) => FAMILY[s] === type);
}

export function isConnectionType(value: unknown): value is ConnectionType {
  return typeof value === 'string' && (CONNECTION_TYPES as readonly string[]).includes(value);
}

export function isConnectionSubType(value: unknown): value is ConnectionSubType {
  return typeof value === 'string' && (CONNECTION_SUBTYPES as readonly string[]).includes(value);
}

export interface Capabilities {
  test: boolean;
  schema: boolean;
  query: boolean;
  pushdown: boolean;
  streaming: boolean;
}

export interface Provider {
  id: ConnectionSubType;
  type: ConnectionType;
  subType: ConnectionSubType;
  name: string;
  category: 'database' | 'api' | 'analytics' | 'messaging';
  description: string;
  capabilities: Capabilities;
}

// SQL sources introspect tables, take chart aggregation pushed into SQL and read through cursors.
const SQL: Capabilities = { test: true, schema: true, query: true, pushdown: true, streaming: true };
const DOCUMENTS: Capabilities = { test: true, schema: true, query: true, pushdown: false, streaming: true };
const REMOTE: Capabilities = { test: true, schema: false, query: true, pushdown: false, streaming: false };
// Provider APIs answered in pages and collected under the row cap; those that can list collections or properties describe them.
const REMOTE_WITH_SCHEMA: Capabilities = { test: true, schema: true, query: true, pushdown: false, streaming: false };

function provider(subType: ConnectionSubType, name: string, category: Provider['category'], description: string, capabilities: Capabilities): Provider {
  return { id: subType, type: familyOf(subType), subType, name, category, description, capabilities: { ...capabilities } };
}

export const PROVIDERS: readonly Provider[] = Object.freeze([
  provider('postgres', 'PostgreSQL', 'database', 'A PostgreSQL server, queried with SQL', SQL),
  provider('timescaledb', 'TimescaleDB', 'database', 'TimescaleDB (PostgreSQL with time-series extensions)', SQL),
  provider('supabasedb', 'Supabase', 'database', "A Supabase project's PostgreSQL database", SQL),
  provider('rdsPostgres', 'Amazon RDS for PostgreSQL', 'database', 'PostgreSQL hosted on Amazon RDS', SQL),
  provider('mysql', 'MySQL / MariaDB', 'database', 'A MySQL or MariaDB server, queried with SQL', SQL),
  provider('rdsMysql', 'Amazon RDS for MySQL', 'database', 'MySQL hosted on Amazon RDS', SQL),
  provider('mongodb', 'MongoDB', 'database', 'A MongoDB deployment, queried with find or aggregation pipelines', DOCUMENTS),
  provider('api', 'HTTP API', 'api', 'Any JSON-over-HTTP API, with global headers and authentication', REMOTE),
  provider('realtimedb', 'Firebase Realtime Database', 'database', 'A Firebase Realtime Database, read over REST with a service account', REMOTE),
  provider('firestore', 'Cloud Firestore', 'database', 'Cloud Firestore collections, queried over REST with a service account', REMOTE_WITH_SCHEMA),
  provider('googleAnalytics', 'Google Analytics', 'analytics', 'Google Analytics 4 reports (metrics and dimensions), with a service account or an OAuth refresh token', REMOTE_WITH_SCHEMA),
  provider('customerio', 'Customer.io', 'messaging', 'Customer.io customers, segments, campaign and journey metrics and activities (App API key)', REMOTE),
]);
