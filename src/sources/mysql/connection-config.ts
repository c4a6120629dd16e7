import type { SslOptions } from 'mysql2';
import { ValidationError } from '../../errors/index.js';
import { parseDsn } from '../dsn.js';
import { effectiveSslMode, parsePort } from '../postgres/connection-config.js';
import type { SourceConnection, SslMode } from '../types.js';

export interface MysqlTarget {
  host: string;
  port: number;
  database: string | undefined;
  user: string | undefined;
  password: string | undefined;
  sslMode: SslMode;
  ssl: SslOptions | undefined;
}

/** MySQL spells its modes in capitals with underscores (`VERIFY_IDENTITY` is libpq's verify-full). */
const MYSQL_MODES: Record<string, SslMode> = {
  disabled: 'disable',
  preferred: 'prefer',
  required: 'require',
  verify_ca: 'verify-ca',
  verify_identity: 'verify-full',
};

/** Same meanings as for Postgres; mysql2 checks the host name only with `verifyIdentity`. */
export function mysqlSsl(mode: SslMode, conn: SourceConnection): SslOptions | undefined {
  if (mode === 'disable') return undefined;
  const verify = mode === 'verify-ca' || mode === 'verify-full' || (mode === 'require' && Boolean(conn.sslCa));
  const ssl: SslOptions = { rejectUnauthorized: verify, verifyIdentity: mode === 'verify-full' };
  if (conn.sslCa) ssl.ca = conn.sslCa;
  if (conn.sslCert) ssl.cert = conn.sslCert;
  if (conn.sslKey) ssl.key = conn.sslKey;
  return ssl;
}

export function mysqlTarget(conn: SourceConnection): MysqlTarget {
  const dsn = conn.connectionString ? parseDsn(conn.connectionString) : undefined;
  if (conn.connectionString && (!dsn || (dsn.scheme !== 'mysql' && dsn.scheme !== 'mariadb'))) {
    throw ValidationError.field('connectionString', 'must be a mysql:// or mariadb:// URL');
  }
  const rawMode = dsn?.params.get('ssl-mode') ?? dsn?.params.get('sslmode') ?? dsn?.params.get('ssl_mode');
  const dsnMode = rawMode ? (MYSQL_MODES[rawMode.toLowerCase()] ?? rawMode.toLowerCase()) : undefined;
  const sslMode = effectiveSslMode(conn, dsnMode);
  return {
    host: dsn?.host ?? conn.host ?? 'localhost',
    port: dsn ? parsePort(dsn.port, 3306, 'connectionString') : parsePort(conn.port, 3306),
    database: dsn ? dsn.database : (conn.dbName ?? undefined),
    user: dsn ? dsn.user : (conn.username ?? undefined),
    password: dsn ? dsn.password : (conn.password ?? undefined),
    sslMode,
    ssl: mysqlSsl(sslMode, conn),
  };
}
