import type { MongoClientOptions } from 'mongodb';
import { ValidationError } from '../../errors/index.js';
import { optionPairs } from '../connection-options.js';
import { encodeDsnCredentials, parseDsn } from '../dsn.js';
import type { SourceConnection } from '../types.js';

/** The MongoDB URL: the connection string (credentials re-encoded), or one built from the fields. */
export function mongoUrl(conn: SourceConnection): string {
  if (conn.connectionString) {
    const dsn = parseDsn(conn.connectionString);
    if (!dsn || (dsn.scheme !== 'mongodb' && dsn.scheme !== 'mongodb+srv')) {
      throw ValidationError.field('connectionString', 'must be a mongodb:// or mongodb+srv:// URL');
    }
    return encodeDsnCredentials(conn.connectionString);
  }
  const host = (conn.host ?? '').trim().replace(/^mongodb(\+srv)?:\/\//, '').replace(/\/+$/, '');
  if (!host) throw ValidationError.field('host', 'is required');
  const scheme = conn.srv ? 'mongodb+srv' : 'mongodb';
  const auth = conn.username
    ? `${encodeURIComponent(conn.username)}${conn.password ? `:${encodeURIComponent(conn.password)}` : ''}@`
    : '';
  // SRV records carry the ports; a port is not allowed in a +srv URL.
  const port = conn.port && !conn.srv && !/:\d+$/.test(host) ? `:${String(conn.port).replace(/^:/, '')}` : '';
  const db = conn.dbName ? `/${encodeURIComponent(conn.dbName)}` : '/';
  const query = new URLSearchParams(optionPairs(conn.options)).toString();
  return `${scheme}://${auth}${host}${port}${db}${query ? `?${query}` : ''}`;
}

/** The hosts of a MongoDB URL (a seed list, or the SRV name whose records the driver looks up). */
export function mongoHosts(conn: SourceConnection): string[] {
  const url = mongoUrl(conn);
  const afterScheme = url.slice(url.indexOf('://') + 3);
  const authority = afterScheme.split(/[/?]/, 1)[0] ?? '';
  const hosts = authority.slice(authority.lastIndexOf('@') + 1);
  return hosts
    .split(',')
    .map((entry) => (entry.startsWith('[') ? entry.slice(0, entry.indexOf(']') + 1) : entry.replace(/:\d+$/, '')))
    .map((entry) => decodeURIComponent(entry))
    .filter((entry) => entry !== '');
}

/** TLS per sslMode, in the driver's option names. */
export function mongoClientOptions(conn: SourceConnection, connectTimeoutMs: number, maxPoolSize: number): MongoClientOptions {
  const options: MongoClientOptions = {
    appName: 'plotline',
    serverSelectionTimeoutMS: connectTimeoutMs,
    connectTimeoutMS: connectTimeoutMs,
    maxPoolSize,
    retryWrites: false,
  };
  if (conn.ssl) {
    const mode = conn.sslMode ?? 'require';
    if (mode !== 'disable') {
      options.tls = true;
      if (mode === 'prefer' || (mode === 'require' && !conn.sslCa)) options.tlsAllowInvalidCertificates = true;
      else if (mode !== 'verify-full') options.tlsAllowInvalidHostnames = true;
      if (conn.sslCa) options.ca = conn.sslCa;
      if (conn.sslCert) options.cert = conn.sslCert;
      if (conn.sslKey) options.key = conn.sslKey;
    }
  }
  return options;
}
