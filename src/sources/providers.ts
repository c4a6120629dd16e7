/**
 * Every connection type and sub-type Plotline serves, written once: the registry maps each to its
 * source (with the sub-type's defaults), the connection schemas take their enumerations from it,
 * and `GET /connection-providers` lists it with each source's capabilities. A hosted variant
 * (timescaledb, rdsMysql, …) reuses its family's source with its own defaults.
 */
import type { SourceConnection } from './types.js';

export interface SourceProvider {
  type: string;
  subType: string;
  name: string;
  category: 'database' | 'api' | 'analytics' | 'messaging';
  description: string;
  /** Connection fields used when the stored value is null or undefined. */
  defaults?: Partial<SourceConnection>;
}

/** Managed services talk TLS by default; `ssl: false` on the connection still turns it off. */
const MANAGED_TLS = { ssl: true, sslMode: 'require' } as const satisfies Partial<SourceConnection>;

const PROVIDERS = [
  { type: 'postgres', subType: 'postgres', name: 'PostgreSQL', category: 'database', description: 'A PostgreSQL server, queried with SQL' },
  { type: 'postgres', subType: 'timescaledb', name: 'TimescaleDB', category: 'database', description: 'TimescaleDB (PostgreSQL with time-series extensions)', defaults: MANAGED_TLS },
  { type: 'postgres', subType: 'supabasedb', name: 'Supabase', category: 'database', description: "A Supabase project's PostgreSQL database", defaults: MANAGED_TLS },
  { type: 'postgres', subType: 'rdsPostgres', name: 'Amazon RDS for PostgreSQL', category: 'database', description: 'PostgreSQL hosted on Amazon RDS', defaults: MANAGED_TLS },
  { type: 'mysql', subType: 'mysql', name: 'MySQL / MariaDB', category: 'database', description: 'A MySQL or MariaDB server, queried with SQL' },
  { type: 'mysql', subType: 'rdsMysql', name: 'Amazon RDS for MySQL', category: 'database', description: 'MySQL hosted on Amazon RDS', defaults: MANAGED_TLS },
  { type: 'mongodb', subType: 'mongodb', name: 'MongoDB', category: 'database', description: 'A MongoDB deployment, queried with find or aggregation pipelines' },
  { type: 'api', subType: 'api', name: 'HTTP API', category: 'api', description: 'Any JSON-over-HTTP API, with global headers and authentication' },
  { type: 'realtimedb', subType: 'realtimedb', name: 'Firebase Realtime Database', category: 'database', description: 'A Firebase Realtime Database, read over REST with a service account' },
  { type: 'firestore', subType: 'firestore', name: 'Cloud Firestore', category: 'database', description: 'Cloud Firestore collections, queried over REST with a service account' },
  {
    type: 'googleAnalytics',
    subType: 'googleAnalytics',
    name: 'Google Analytics',
    category: 'analytics',
    description: 'Google Analytics 4 reports (metrics and dimensions), with a service account or an OAuth refresh token',
  },
  {
    type: 'customerio',
    subType: 'customerio',
    name: 'Customer.io',
    category: 'messaging',
    description: 'Customer.io customers, segments, campaign and journey metrics and activities (App API key)',
  },
] as const satisfies readonly SourceProvider[];

export type ConnectionType = (typeof PROVIDERS)[number]['type'];
export type ConnectionSubType = (typeof PROVIDERS)[number]['subType'];

/** In first-seen order: the order `GET /connection-providers` lists them in. */
export const CONNECTION_TYPES: readonly ConnectionType[] = [...new Set(PROVIDERS.map((p) => p.type))];
export const CONNECTION_SUBTYPES: readonly ConnectionSubType[] = PROVIDERS.map((p) => p.subType);

const BY_SUBTYPE = new Map<string, (typeof PROVIDERS)[number]>(PROVIDERS.map((p) => [p.subType, p]));

export function isConnectionType(value: unknown): value is ConnectionType {
  return typeof value === 'string' && (CONNECTION_TYPES as readonly string[]).includes(value);
}

export function isConnectionSubType(value: unknown): value is ConnectionSubType {
  return typeof value === 'string' && BY_SUBTYPE.has(value);
}

export function familyOf(subType: ConnectionSubType): ConnectionType {
  return BY_SUBTYPE.get(subType)!.type;
}

export function subTypesOf(type: ConnectionType): ConnectionSubType[] {
  return PROVIDERS.filter((p) => p.type === type).map((p) => p.subType);
}

export function providersOf(type: ConnectionType): SourceProvider[] {
  return PROVIDERS.filter((p) => p.type === type);
}
