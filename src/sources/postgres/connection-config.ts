import type { ConnectionOptions } from 'node:tls';
import { ValidationError } from '../../errors/index.js';
import { parseDsn } from '../dsn.js';
import type { SourceConnection, SslMode } from '../types.js';

const SSL_MODES: readonly SslMode[] = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];

export interface PostgresTarget {
  host: string;
  port: number;
  database: string | undefined;
  user: string | undefined;
  password: string | undefined;
  sslMode: SslMode;
  /** TLS options for every mode but `disable`. */
  tls: ConnectionOptions;
  applicationName: string;
}

/** The effective SSL mode: the DSN's `sslmode` wins, then `sslMode` when `ssl` is on. */
export function effectiveSslMode(conn: SourceConnection, fromDsn: string | null | undefined): SslMode {
  if (fromDsn) {
    if (!SSL_MODES.includes(fromDsn as SslMode)) {
      // libpq's allow behaves like prefer for a client that cannot downgrade mid-handshake.
      if (fromDsn === 'allow') return 'prefer';
      throw ValidationError.field('connectionString', `has an unknown sslmode "${fromDsn}"`);
    }
    return fromDsn as SslMode;
  }
  if (!conn.ssl) return 'disable';
  const mode = conn.sslMode ?? 'require';
  if (!SSL_MODES.includes(mode)) throw ValidationError.field('sslMode', `must be one of ${SSL_MODES.join(', ')}`);
  return mode;
}

/**
 * TLS options per mode, with libpq's meaning:
 * - prefer / require: encrypted, server certificate not checked (require with a CA checks the chain, as libpq does);
 * - verify-ca: chain checked against the CA (system CAs when none is given), host name not checked;
 * - verify-full: chain and host name checked.
 * A client certificate and key are sent whenever they are given.
 */
export function tlsOptions(mode: SslMode, conn: SourceConnection): ConnectionOptions {
  const options: ConnectionOptions = {};
  if (conn.sslCa) options.ca = conn.sslCa;
  if (conn.sslCert) options.cert = conn.sslCert;
  if (conn.sslKey) options.key = conn.sslKey;
  const verifyChain = mode === 'verify-ca' || mode === 'verify-full' || (mode === 'require' && Boolean(conn.sslCa));
  options.rejectUnauthorized = verifyChain;
  if (verifyChain && mode !== 'verify-full') options.checkServerIdentity = () => undefined;
  return options;
}

export function parsePort(raw: string | number | null | undefined, fallback: number, field = 'port'): number {
  if (raw === null || raw === undefined || raw === '') return fallback;
  const text = String(raw).trim().replace(/^:/, '');
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw ValidationError.field(field, 'must be a port number');
  return Number(text);
}

export function postgresTarget(conn: SourceConnection): PostgresTarget {
  const dsn = conn.connectionString ? parseDsn(conn.connectionString) : undefined;
  if (conn.connectionString && (!dsn || (dsn.scheme !== 'postgres' && dsn.scheme !== 'postgresql'))) {
    throw ValidationError.field('connectionString', 'must be a postgres:// or postgresql:// URL');
  }
  const sslMode = effectiveSslMode(conn, dsn?.params.get('sslmode'));
  return {
    host: dsn?.params.get('host') ?? dsn?.host ?? conn.host ?? 'localhost',
    port: dsn ? parsePort(dsn.params.get('port') ?? dsn.port, 5432, 'connectionString') : parsePort(conn.port, 5432),
    database: dsn ? (dsn.database ?? dsn.params.get('dbname') ?? undefined) : (conn.dbName ?? undefined),
    user: dsn ? (dsn.user ?? dsn.params.get('user') ?? undefined) : (conn.username ?? undefined),
    password: dsn ? (dsn.password ?? dsn.params.get('password') ?? undefined) : (conn.password ?? undefined),
    sslMode,
    tls: tlsOptions(sslMode, conn),
    applicationName: dsn?.params.get('application_name') ?? 'plotline',
  };
}
