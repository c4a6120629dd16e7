import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';

/**
 * Every environment variable Plotline reads, parsed once at boot into a frozen object.
 * A bad value throws ConfigError naming the variable; the CLI prints it and exits.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database: { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };
  /** 32-byte AES key for secrets at rest, with a short id so envelopes name their key. */
  readonly encryptionKey: Buffer;
  /** Previous encryption keys still accepted for reading (key rotation). */
  readonly previousEncryptionKeys: readonly Buffer[];
  /** HS256 key for share tokens; never the encryption key. */
  readonly shareSecret: Buffer;
  readonly baseUrl: string;
  readonly appUrl: string;
  readonly redisUrl: string | undefined;
  readonly signup: 'open' | 'closed';
  /** CIDRs and host names that HTTP sources may reach even though they are private. */
  readonly allowPrivateHosts: readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly trustProxy: boolean;
  /** Requests per minute per client address on each public share endpoint. */
  readonly shareRateLimit: number;
  /** Limits of one source run. */
  readonly queryTimeoutMs: number;
  readonly rowLimit: number;
  /** Result cache: fresh for ttl, then served stale while one refresh runs. */
  readonly cacheTtlMs: number;
  readonly cacheStaleMs: number;
  /** Let the database group and aggregate charts over SQL datasets (off: always the streaming engine). */
  readonly chartPushdown: boolean;
  /** Messages for the operator about what boot did (generated keys, …), logged once the logger exists. */
  readonly notices: readonly string[];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a port number, got "${raw}"`);
  const port = Number(raw);
  if (port < 0 || port > 65535) throw new ConfigError(name, `must be between 0 and 65535, got ${port}`);
  return port;
}

function parseUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http or https, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function parseHexKey(name: string, raw: string): Buffer {
  if (!HEX_KEY.test(raw)) throw new ConfigError(name, 'must be 64 hexadecimal characters (32 bytes)');
  return Buffer.from(raw, 'hex');
}

function parseEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function parseBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true, false, 1 or 0, got "${raw}"`);
}

const HOST_NAME = /^(?=.{1,253}$)([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)(\.[a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)*\.?$/;

function parseAllowList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [address, bits, ...rest] = item.split('/');
      if (rest.length === 0 && address !== undefined && isIP(address) !== 0) {
        if (bits === undefined) return item;
        const max = isIP(address) === 4 ? 32 : 128;
        if (/^\d+$/.test(bits) && Number(bits) <= max) return item;
      } else if (bits === undefined && address !== undefined && HOST_NAME.test(address)) {
        return item.toLowerCase();
      }
      throw new ConfigError(name, `"${item}" is neither a CIDR, an IP address nor a host name`);
    });
}

/**
 * Reads a key from the environment, or (embedded store only) from a file in the data dir,
 * generating it there once with mode 0600.
 */
function resolveKey(env: Env, name: string, fileName: string, dataDir: string, embedded: boolean, notices: string[]): Buffer {
  const raw = read(env, name);
  if (raw !== undefined) return parseHexKey(name, raw);
  if (!embedded) {
    throw new ConfigError(name, 'is required when DATABASE_URL points at Postgres (64 hex chars; generate one with `openssl rand -hex 32`)');
  }
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    return parseHexKey(`${name} (from ${file})`, readFileSync(file, 'utf8').trim());
  }
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  notices.push(`generated ${name} into ${file} (mode 0600); back it up with the data dir`);
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const notices: string[] = [];
  const port = parsePort(env, 'PORT', 4019);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(read(env, 'PLOTLINE_DATA_DIR') ?? './data');

  const databaseUrl = read(env, 'DATABASE_URL');
  let database: Config['database'];
  if (databaseUrl === undefined) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'plotline.db') };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    try {
      new URL(databaseUrl);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    database = { kind: 'postgres', url: databaseUrl };
  } else if (databaseUrl.startsWith('sqlite:')) {
    database = { kind: 'sqlite', file: path.resolve(databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '')) };
  } else {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// (or sqlite:<file>); leave it unset for the embedded store');
  }
  const embedded = database.kind === 'sqlite';
  if (embedded) mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const encryptionKey = resolveKey(env, 'PLOTLINE_ENCRYPTION_KEY', 'encryption.key', dataDir, embedded, notices);
  const shareSecret = resolveKey(env, 'PLOTLINE_SHARE_SECRET', 'share.key', dataDir, embedded, notices);
  if (encryptionKey.equals(shareSecret)) {
    throw new ConfigError('PLOTLINE_SHARE_SECRET', 'must differ from PLOTLINE_ENCRYPTION_KEY');
  }
  const previousRaw = read(env, 'PLOTLINE_PREVIOUS_ENCRYPTION_KEYS');
  const previousEncryptionKeys = previousRaw
    ? previousRaw.split(',').map((k) => parseHexKey('PLOTLINE_PREVIOUS_ENCRYPTION_KEYS', k.trim()))
    : [];

  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }

  return Object.freeze({
    port,
    host,
    dataDir,
    database: Object.freeze(database),
    encryptionKey,
    previousEncryptionKeys: Object.freeze(previousEncryptionKeys),
    shareSecret,
    baseUrl: parseUrl(env, 'BASE_URL', `http://localhost:${port}`),
    appUrl: parseUrl(env, 'APP_URL', `http://localhost:${port}`),
    redisUrl,
    signup: parseEnum(env, 'PLOTLINE_SIGNUP', ['open', 'closed'] as const, 'open'),
    allowPrivateHosts: Object.freeze(parseAllowList(env, 'PLOTLINE_ALLOW_PRIVATE_HOSTS')),
    logLevel: parseEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: parseBool(env, 'PLOTLINE_TRUST_PROXY', false),
    shareRateLimit: parseInteger(env, 'PLOTLINE_SHARE_RATE_LIMIT', 120, 1, 100_000_000),
    queryTimeoutMs: parseInteger(env, 'PLOTLINE_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    rowLimit: parseInteger(env, 'PLOTLINE_ROW_LIMIT', 100_000, 1, 100_000_000),
    cacheTtlMs: parseInteger(env, 'PLOTLINE_CACHE_TTL_SECONDS', 300, 0, 31_536_000) * 1000,
    cacheStaleMs: parseInteger(env, 'PLOTLINE_CACHE_STALE_SECONDS', 3600, 0, 31_536_000) * 1000,
    chartPushdown: parseBool(env, 'PLOTLINE_CHART_PUSHDOWN', true),
    notices: Object.freeze(notices),
  });
}
