import type { ConnectionBody } from '../api/types';

/** A text field of a connection body, as the connection form shows it. */
export interface TextFieldSpec {
  name: 'host' | 'port' | 'dbName' | 'username' | 'password' | 'connectionString';
  label: string;
  input?: 'text' | 'number' | 'url';
  /** Never shown back: an empty field keeps the stored value. */
  secret?: boolean;
  hint?: string;
  placeholder?: string;
  /** A choice among these values instead of free text. */
  choices?: { value: string; label: string }[];
}

/** What a connection type is set up with, beyond its name (docs/sources.md, "Connection types"). */
export interface TypeSpec {
  fields: TextFieldSpec[];
  /** The port a new connection starts with. */
  defaultPort?: string;
  /** A pasted `scheme://…` string fills the fields. */
  pastes?: boolean;
  ssl?: boolean;
  /** A Google service account key file (JSON). */
  serviceAccount?: 'required' | 'optional';
  /** `authentication`: the HTTP API's kinds, or Google's OAuth refresh token. */
  auth?: 'http' | 'oauth';
  /** Global headers in `options`. */
  headers?: boolean;
}

export function specFor(type: string): TypeSpec {
  switch (type) {
    case 'postgres':
    case 'mysql':
      return {
        defaultPort: type === 'postgres' ? '5432' : '3306',
        pastes: true,
        ssl: true,
        fields: [
          { name: 'host', label: 'Host' },
          { name: 'port', label: 'Port', input: 'number' },
          { name: 'dbName', label: 'Database' },
          { name: 'username', label: 'User' },
          { name: 'password', label: 'Password', secret: true },
        ],
      };
    case 'mongodb':
      return {
        pastes: true,
        fields: [{ name: 'connectionString', label: 'Connection string', secret: true, hint: 'mongodb:// or mongodb+srv://, with the database name in its path' }],
      };
    case 'api':
      return {
        headers: true,
        auth: 'http',
        fields: [
          { name: 'host', label: 'Base URL', input: 'url', placeholder: 'https://api.example.com', hint: "Each data request's route is added to it" },
          { name: 'port', label: 'Port', input: 'number', hint: 'Only when not the URL scheme’s own' },
        ],
      };
    case 'realtimedb':
      return {
        serviceAccount: 'required',
        fields: [
          { name: 'connectionString', label: 'Database URL', input: 'url', placeholder: 'https://my-db.firebaseio.com' },
          { name: 'username', label: 'Read as user id (optional)', hint: 'The database rules are evaluated as this uid; empty reads with the service account' },
        ],
      };
    case 'firestore':
      return {
        serviceAccount: 'required',
        fields: [{ name: 'dbName', label: 'Database (optional)', placeholder: '(default)', hint: 'Another database than (default) of the project' }],
      };
    case 'googleAnalytics':
      return {
        serviceAccount: 'optional',
        auth: 'oauth',
        fields: [{ name: 'dbName', label: 'Property (optional)', placeholder: 'properties/123456789' }],
      };
    case 'customerio':
      return {
        fields: [
          { name: 'password', label: 'App API key', secret: true },
          {
            name: 'host',
            label: 'Region',
            choices: [
              { value: 'us', label: 'US (api.customer.io)' },
              { value: 'eu', label: 'EU (api-eu.customer.io)' },
            ],
          },
        ],
      };
    default:
      return { fields: [] };
  }
}

/** What a pasted connection string says: its type and the fields it fills. */
export interface Pasted {
  type: 'postgres' | 'mysql' | 'mongodb';
  fields: Partial<Record<TextFieldSpec['name'], string>>;
  ssl?: boolean;
}

/** Reads `postgres://user:pass@host:5432/db?sslmode=require`, `mysql://…` or `mongodb(+srv)://…`; null when it is none of them. */
export function parseConnectionString(text: string): Pasted | null {
  const trimmed = text.trim();
  const scheme = /^([a-z+]+):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'mongodb' || scheme === 'mongodb+srv') return { type: 'mongodb', fields: { connectionString: trimmed } };
  const type = scheme === 'postgres' || scheme === 'postgresql' ? 'postgres' : scheme === 'mysql' || scheme === 'mariadb' ? 'mysql' : null;
  if (!type) return null;
  let url: URL;
  try {
    // Parsed as http: the URL class reads host and port of special schemes only.
    url = new URL(trimmed.replace(/^[a-z+]+:\/\//i, 'http://'));
  } catch {
    return null;
  }
  const fields: Pasted['fields'] = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (type === 'postgres' ? '5432' : '3306'),
    dbName: decodeURIComponent(url.pathname.replace(/^\//, '')),
    username: decodeURIComponent(url.username),
  };
  if (url.password) fields.password = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode') ?? url.searchParams.get('ssl-mode');
  const ssl = sslmode ? !/^(disable|disabled)$/i.test(sslmode) : url.searchParams.get('ssl') === 'true' ? true : undefined;
  return { type, fields, ...(ssl !== undefined ? { ssl } : {}) };
}

export type HttpAuthType = 'no_auth' | 'bearer_token' | 'basic_auth';

/** The HTTP API's global headers (`options`) as rows, whether stored as an object or a list of objects. */
export function headerRows(options: unknown): { name: string; value: string }[] {
  const list = Array.isArray(options) ? options : options && typeof options === 'object' ? [options] : [];
  return list.flatMap((entry) => (entry && typeof entry === 'object' ? Object.entries(entry as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value ?? '') })) : []));
}

/** Rows back into `options`: one object, empty names left out. */
export function headersOption(rows: { name: string; value: string }[]): ConnectionBody['options'] {
  return Object.fromEntries(rows.filter((r) => r.name.trim() !== '').map((r) => [r.name.trim(), r.value]));
}
